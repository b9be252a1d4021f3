package conformance

import (
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/internal/scripttest"
	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/pos"
	"github.com/gscript-lang/gscript/stdlib"
)

// chunkTimeout bounds one chunk: a hung kernel fails its test instead of
// the whole run.
const chunkTimeout = 20 * time.Second

// Exec runs c in a fresh interpreter with stdlib, the values of extra
// (names a test gives its scripts; nil for none) and default device dev
// ("" for the interpreter's choice), and checks its errors and output.
func Exec(t *testing.T, c *scripttest.Chunk, dev string, extra map[string]interp.Value) {
	t.Helper()
	predeclared := stdlib.Universe()
	maps.Copy(predeclared, extra)
	var out bytes.Buffer
	in, err := interp.New(interp.Options{
		Stdout: &out, Stderr: io.Discard, Device: dev,
		Predeclared: predeclared, Files: interp.AllFiles(), // the .npy tests save and load
	})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), chunkTimeout)
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
