package interp_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// newLimited makes a cpu interpreter with the standard library and opts'
// limits, closed when the test ends.
func newLimited(t *testing.T, opts interp.Options) *interp.Interp {
	t.Helper()
	opts.Stdout, opts.Device, opts.Predeclared = io.Discard, "cpu", stdlib.Universe()
	in, err := interp.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// TestClosedInterpRefusesRuns: after Close nothing runs, so nothing is
// tracked that no later Close would free.
func TestClosedInterpRefusesRuns(t *testing.T) {
	in := newLimited(t, interp.Options{})
	ctx := context.Background()
	if err := in.Exec(ctx, "a.gs", []byte("fn f() { return 1 }")); err != nil {
		t.Fatal(err)
	}
	in.Close()
	if err := in.Exec(ctx, "b.gs", []byte("let a = zeros(4)")); !errors.Is(err, interp.ErrClosed) {
		t.Errorf("Exec after Close: %v", err)
	}
	if _, err := in.ExecREPL(ctx, "c.gs", []byte("zeros(4)")); !errors.Is(err, interp.ErrClosed) {
		t.Errorf("ExecREPL after Close: %v", err)
	}
	if _, err := in.Call(ctx, "f"); !errors.Is(err, interp.ErrClosed) {
		t.Errorf("Call after Close: %v", err)
	}
	prog, err := interp.Compile("d.gs", []byte("let a = zeros(4)"), stdlib.Universe())
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Run(ctx, prog); !errors.Is(err, interp.ErrClosed) {
		t.Errorf("Run after Close: %v", err)
	}
	if n := len(in.Tracker().Live()); n != 0 {
		t.Errorf("%d arrays tracked after Close", n)
	}
}
