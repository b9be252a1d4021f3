package interp_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/internal/scripttest"
	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/pos"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// Script tests: testdata/*.gs, in the chunked format of internal/scripttest.
// Each chunk runs in a fresh interpreter; compile errors must all be
// expected, and a chunk expecting a run-time error must fail with it.
// GSCRIPT_TEST_DEVICE runs every chunk with that default device (the GPU
// run uses cuda:0: the same chunks must give the same output there).
func TestScripts(t *testing.T) {
	chunks, err := scripttest.Glob("testdata/*.gs")
	if err != nil {
		t.Fatal(err)
	}
	dev := os.Getenv("GSCRIPT_TEST_DEVICE")
	env := scripttest.Env{Device: dev, CUDADevices: mem.CUDADeviceCount()}
	if dev == "" {
		// The interpreter's default: the first CUDA device, else the cpu.
		env.Device = "cpu"
		if env.CUDADevices > 0 {
			env.Device = "cuda:0"
		}
	}
	for _, c := range chunks {
		t.Run(c.Name(), func(t *testing.T) {
			if why := c.Skip(env); why != "" {
				t.Skip(why)
			}
			runChunk(t, c, dev)
		})
	}
}

// runChunk runs c with default device dev ("" for the interpreter's
// choice) and checks its errors and output.
func runChunk(t *testing.T, c *scripttest.Chunk, dev string) {
	var out, errOut bytes.Buffer
	in, err := interp.New(interp.Options{
		Stdout: &out, Stderr: &errOut, Device: dev,
		Predeclared: stdlib.Universe(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err = in.Exec(ctx, c.File, []byte(c.Source))
	if err != nil && strings.Contains(err.Error(), "internal error") {
		t.Errorf("%s: internal error (a panic): %v", c.Name(), err)
	}
	c.CheckErrors(t, positioned(err))
	c.CheckOutput(t, out.String())
}

// positioned turns a run-time *interp.EvalError into the *pos.Error that
// the harness reads; compile errors already are a pos.ErrorList.
func positioned(err error) error {
	var ee *interp.EvalError
	if errors.As(err, &ee) {
		return &pos.Error{Pos: ee.Pos, Msg: ee.Msg}
	}
	return err
}
