package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// An error inside a capture block ends the capture cleanly: the stream
// leaves capture mode and the interpreter and device stay usable (what the
// REPL relies on).
func TestCaptureErrorLeavesDeviceUsable(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	var out strings.Builder
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cuda:0", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx := context.Background()
	steps := []struct{ src, errRe string }{
		{src: "kernel addone(x: array[f32]) { let i = tid(); x[i] = x[i] + 1.0 }\narray x: f32[4]"},
		{src: "capture g { launch addone[4](x)\nassert false, \"boom\" }", errRe: "boom"},
		{src: "capture g { array d: f32[2] using device }", errRe: "device allocator during capture"},
		{src: "capture g { print(x) }", errRe: "inside a capture block"},
		{src: "launch addone[4](x)\nprint(x)"},
		{src: "capture g2 { launch addone[4](x) }\nreplay(g2, 2)\nprint(x)"},
	}
	for _, s := range steps {
		err := in.Exec(ctx, "<capture>", []byte(s.src))
		switch {
		case s.errRe == "" && err != nil:
			t.Fatalf("%q: %v", s.src, err)
		case s.errRe != "" && (err == nil || !strings.Contains(err.Error(), s.errRe)):
			t.Fatalf("%q: error %v, want %q", s.src, err, s.errRe)
		}
	}
	if out.String() != "[1.0, 1.0, 1.0, 1.0]\n[3.0, 3.0, 3.0, 3.0]\n" {
		t.Errorf("output %q", out.String())
	}
}
