package interp_test

import (
	"os"
	"testing"

	"github.com/gscript-lang/gscript/internal/conformance"
	"github.com/gscript-lang/gscript/internal/scripttest"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Script tests: testdata/*.gs, in the chunked format of internal/scripttest.
// Each chunk runs in a fresh interpreter (conformance.Exec, the runner the
// conformance suite shares); compile errors must all be
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
			conformance.Exec(t, c, dev, nil)
		})
	}
}
