package interp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// launchLoopSetup is a kernel of one thread that touches nothing, for the
// script-level launch overhead (TestLaunchLoopAllocates on the cpu,
// TestGPULaunchLoopAllocates on cuda:0).
const launchLoopSetup = `
kernel k3(a: array[f32], b: array[f32], c: array[f32], s: f32) {
    if len(a) < 0 { a[0] = b[0] + c[0] + s }
}
array a: f32[1]
array b: f32[1]
array c: f32[1]
let s = 2.5
for i in range(1000) { launch k3[1](a, b, c, s) }
synchronize()
`

// newLaunchLoop is an interpreter on dev that has run launchLoopSetup.
func newLaunchLoop(tb testing.TB, dev string) *interp.Interp {
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: dev, Predeclared: stdlib.Universe()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { in.Close() })
	if err := in.Exec(context.Background(), "setup.gs", []byte(launchLoopSetup)); err != nil {
		tb.Fatal(err)
	}
	return in
}

// TestLaunchLoopAllocates is TestGPULaunchLoopAllocates on the cpu: a
// launch statement in a loop allocates nothing per iteration (the Mallocs
// of a 20000-launch loop exceed those of a 10000-launch loop by far less
// than one per launch).
func TestLaunchLoopAllocates(t *testing.T) {
	in := newLaunchLoop(t, "cpu")
	checkLoopAllocates(t, "for i in range(%d) { launch k3[1](a, b, c, s) }", func(src string) {
		if err := in.Exec(context.Background(), "loop.gs", []byte(src)); err != nil {
			t.Fatal(err)
		}
	})
}

// checkLoopAllocates fails t when a loop of 20000 iterations makes 1000 or
// more allocations beyond one of 10000 (after a warm-up run): loop is a
// script with a %d for the count, exec runs it.
func checkLoopAllocates(t *testing.T, loop string, exec func(src string)) {
	t.Helper()
	mallocs := func(n int) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		exec(fmt.Sprintf(loop, n))
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs
	}
	mallocs(10000)
	small, large := mallocs(10000), mallocs(20000)
	if large > small+1000 {
		t.Errorf("10000 more iterations made %d more allocations (%d vs %d)", large-small, large, small)
	}
}

// BenchmarkScriptLaunchCPU is BenchmarkScriptLaunch on the cpu: the
// statement `launch k3[1](a, b, c, s)` in a for loop.
func BenchmarkScriptLaunchCPU(b *testing.B) {
	in := newLaunchLoop(b, "cpu")
	loop := []byte(fmt.Sprintf("for i in range(%d) { launch k3[1](a, b, c, s) }", b.N))
	b.ResetTimer()
	if err := in.Exec(context.Background(), "loop.gs", loop); err != nil {
		b.Fatal(err)
	}
}

// TestLaunchErrorPositions: a launch that breaks a rule of
// backend.CheckLaunch is reported at the part of the statement the rule
// is about (the column of the marked text).
func TestLaunchErrorPositions(t *testing.T) {
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	setup := `
kernel k(x: array[f32]) { x[0] = 1.0 }
kernel k2(x: array[f32, 2]) { let i, j = tid(); x[i, j] = 1.0 }
kernel blk(x: array[f32, 2]) block(2, 32) { }
array a: f32[4]
array m: f32[4, 4]
`
	if err := in.Exec(context.Background(), "setup.gs", []byte(setup)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ stmt, at, want string }{
		{"launch k[4, -1](a)", "-1", "kernel k: negative launch dimension -1"},
		{"launch k[65536, 65536](a)", "65536](a)", "kernel k: launch of more than 2^31-1 threads"},
		{"launch k2[16](m)", "16", "kernel k2 unpacks tid() into 2 names but is launched with 1 dimensions"},
		{"launch k[1, 1, 1, 1, 1](a)", "launch", "kernel k: a launch has 1 to 4 dimensions, got 5"},
		{"launch blk[grid(70000, 1)](m)", "grid", "kernel blk: grid axis 0 has 70000 blocks, want 0..65535"},
		{"launch blk[grid(4)](m)", "grid", "kernel blk has a 2-D block (block(2, 32)) and is launched over a 1-D grid"},
		{"launch blk[grid(1, -2)](m)", "-2", "kernel blk: negative launch dimension -2"},
	} {
		err := in.Exec(context.Background(), "t.gs", []byte(c.stmt))
		var ee *interp.EvalError
		if !errors.As(err, &ee) || ee.Msg != c.want {
			t.Errorf("%s: %v, want %q", c.stmt, err, c.want)
			continue
		}
		if col := strings.Index(c.stmt, c.at) + 1; ee.Pos.Line != 1 || ee.Pos.Col != col {
			t.Errorf("%s: at %d:%d, want 1:%d", c.stmt, ee.Pos.Line, ee.Pos.Col, col)
		}
	}
}
