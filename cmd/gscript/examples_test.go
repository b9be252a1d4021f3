package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamples runs every example on the cpu, as CI does, in a scratch
// directory (they write their images where they run), and checks the
// images they write.
func TestExamples(t *testing.T) {
	examples, err := filepath.Glob("../../examples/*.gs")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for i, e := range examples {
		if examples[i], err = filepath.Abs(e); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(t.TempDir())
	for _, e := range examples {
		code, _, errOut := gscript(t, "", "run", "--device", "cpu", e)
		if code != 0 {
			t.Errorf("%s: exit %d\n%s", filepath.Base(e), code, errOut)
		}
	}
	for _, img := range []string{"mandelbrot.png", "heat.png", "heat_0000.png", "heat_0800.png"} {
		f, err := os.Open(img)
		if err != nil {
			t.Errorf("an example should have written %s: %v", img, err)
			continue
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s: %v", img, err)
		}
		f.Close()
	}
}

// TestArgsExample: examples/args.gs reads argv and env and formats a
// table; a bad N exits with status 2.
func TestArgsExample(t *testing.T) {
	script := filepath.Join("..", "..", "examples", "args.gs")
	t.Setenv("GSCRIPT_DIGITS", "2")
	code, out, _ := gscript(t, "", "run", script, "3", "small", "roots")
	if code != 0 || !strings.HasPrefix(out, "small roots (n = 1..3)\n   n      n^2    sqrt(n)        1/n\n   1        1       1.00       1.00\n") ||
		!strings.HasSuffix(out, "sum of 1/n: 1.83\n") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	if code, _, errOut := gscript(t, "", "run", script, "0"); code != 2 || errOut != "args.gs: N must be at least 1, not 0\n" {
		t.Errorf("N = 0: exit %d, stderr %q", code, errOut)
	}
}

// TestNbodyBench runs bench/nbody.gs on the cpu with 256 bodies: its
// strict, fast and per-component kernels run and agree (the script
// asserts it).
func TestNbodyBench(t *testing.T) {
	code, out, errOut := gscript(t, "", "run", "--device", "cpu", filepath.Join("..", "..", "bench", "nbody.gs"), "256")
	if code != 0 || strings.Count(out, "GFLOP/s") != 7 || !strings.Contains(out, "fast vs strict acceleration") {
		t.Errorf("exit %d, output:\n%s%s", code, out, errOut)
	}
}

// TestBlockReduceVec4Bench runs bench/block_reduce_vec4.gs on the cpu
// with 2^16 f32: its vec4 kernels (over an aligned and a misaligned view)
// and the scalar one agree with the exact sum (the script asserts it).
func TestBlockReduceVec4Bench(t *testing.T) {
	code, out, errOut := gscript(t, "", "run", "--device", "cpu", filepath.Join("..", "..", "bench", "block_reduce_vec4.gs"), "65536")
	if code != 0 || strings.Count(out, "GB/s") != 6 || !strings.Contains(out, "misaligned view") {
		t.Errorf("exit %d, output:\n%s%s", code, out, errOut)
	}
}

// TestStencilBench runs bench/stencil.gs on the cpu over 260^2 cells (not
// a multiple of any of its tiles): every tiled, streaming and warp kernel
// gives the plain stencil's bits (the script asserts it).
func TestStencilBench(t *testing.T) {
	code, out, errOut := gscript(t, "", "run", "--device", "cpu", filepath.Join("..", "..", "bench", "stencil.gs"), "260")
	if code != 0 || strings.Count(out, "GB/s") != 6 {
		t.Errorf("exit %d, output:\n%s%s", code, out, errOut)
	}
}
