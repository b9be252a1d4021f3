package interp_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/stdlib"
)

// newLimited makes a cpu interpreter with the standard library and opts'
// limits (and output: discarded when opts has none), closed when the test
// ends.
func newLimited(t *testing.T, opts interp.Options) *interp.Interp {
	t.Helper()
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	opts.Device, opts.Predeclared = "cpu", stdlib.Universe()
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

// The embedding example's budgets: doubling a string or a list must fail
// with an error long before the process runs out of memory.
func TestDoublingHitsMemoryLimit(t *testing.T) {
	for _, src := range []string{
		`let s = "ab"
for i in range(64) { s = s + s }`,
		`let s = "ab"
for i in range(64) { s += s }`,
		`let l = [1, 2]
for i in range(64) { l = l + l }`,
	} {
		in := newLimited(t, interp.Options{MaxSteps: 1e6, MemoryLimit: 1 << 20})
		err := in.Exec(context.Background(), "double.gs", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "does not fit in the memory limit") {
			t.Errorf("%s: got %v", src, err)
		}
	}
}

// TestStrIsBounded: formatting writes into one builder within the limit,
// so a list shared many times over (2^40 leaves from 40 lists) fails fast.
func TestStrIsBounded(t *testing.T) {
	in := newLimited(t, interp.Options{MemoryLimit: 1 << 20})
	src := `let d = [0]
for i in range(40) { d = [d, d] }
let s = str(d)`
	err := in.Exec(context.Background(), "str.gs", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "formatted value is longer than the limit") {
		t.Errorf("got %v", err)
	}
}

// TestLongBuiltinsPollCancellation: range() as a list and str stop when
// the run is cancelled in the middle of a statement, rather than finishing
// their work first (the statement would then print).
func TestLongBuiltinsPollCancellation(t *testing.T) {
	for _, stmt := range []string{"print(cancel(), len(range(16000000)))", "print(cancel(), len(str(l)))"} {
		ctx, stop := context.WithCancel(context.Background())
		cancel, err := interp.Func("cancel", func() { stop() })
		if err != nil {
			t.Fatal(err)
		}
		env := stdlib.Universe()
		env["cancel"] = cancel
		var out strings.Builder
		in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: env})
		if err != nil {
			t.Fatal(err)
		}
		err = in.Exec(ctx, "range.gs", []byte("let l = range(4000000)\n"+stmt))
		if !errors.Is(err, interp.ErrInterrupted) || out.String() != "" {
			t.Errorf("%s: err %v, output %q", stmt, err, out.String())
		}
		in.Close()
	}
}

// TestDroppedArraysUnderMemoryLimit: arrays a loop drops are freed when
// the limit is reached (a Go collection, then one more try), not only
// when the Go heap happens to grow.
func TestDroppedArraysUnderMemoryLimit(t *testing.T) {
	in := newLimited(t, interp.Options{MemoryLimit: 3 * 4 << 20})
	src := "for i in range(40) { let a = ones(1000000) }"
	if err := in.Exec(context.Background(), "drop.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
}

// TestKernelStepBudget: cpu kernel loops count toward MaxKernelSteps, per
// thread, and the launch that spends it fails with ErrStepBudget.
func TestKernelStepBudget(t *testing.T) {
	src := `kernel spin(out: array[i32], n: i32) {
    let acc = 0
    for k in range(n) { acc += 1 }
    out[tid()] = acc
}
array o: i32[1000]
launch spin[1000](o, 100)
launch spin[1000](o, 1000000)`
	in := newLimited(t, interp.Options{MaxSteps: 1e6, MaxKernelSteps: 1e6})
	err := in.Exec(context.Background(), "spin.gs", []byte(src))
	if !errors.Is(err, backend.ErrStepBudget) || !strings.Contains(err.Error(), "spin.gs:8") {
		t.Errorf("got %v", err)
	}
	// The first launch (1000 x 101 condition evaluations) fits.
	in = newLimited(t, interp.Options{MaxKernelSteps: 1e6})
	if err := in.Exec(context.Background(), "spin.gs", []byte(strings.Split(src, "\nlaunch spin[1000](o, 1000000)")[0])); err != nil {
		t.Error(err)
	}
}

// TestEvalDepthAcrossCalls: each fn call may nest an expression a thousand
// levels deep (the parser's bound), and 2000 calls of that overflowed Go's
// stack (a fatal error); nested evaluation is bounded as a whole. The
// register machine runs such an expression flat, on no Go stack: the
// closures' nesting is bounded where they run it (here inside a list).
func TestEvalDepthAcrossCalls(t *testing.T) {
	in := newLimited(t, interp.Options{})
	chain := strings.Repeat(" + 1", 995)
	var out strings.Builder
	flat := newLimited(t, interp.Options{Stdout: &out})
	src := "fn f(n) {\n  if n == 0 { return 0 }\n  return f(n - 1)" + chain + "\n}\nprint(f(1990))"
	if err := flat.Exec(context.Background(), "flat.gs", []byte(src)); err != nil || out.String() != "1980050\n" {
		t.Fatalf("the register machine's f(1990): %q, %v", out.String(), err)
	}
	src = "fn f(n) {\n  if n == 0 { return 0 }\n  return [f(n - 1)" + chain + "][0]\n}\nprint(f(1990))"
	err := in.Exec(context.Background(), "deep.gs", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "deep.gs:3:") || !strings.Contains(err.Error(), "evaluation nested too deeply") {
		t.Fatalf("err = %v", err)
	}
	// The interpreter is usable afterwards, and ordinary recursion works.
	if err := in.Exec(context.Background(), "ok.gs", []byte("fn g(n) {\n  if n == 0 { return 0 }\n  return 1 + g(n - 1)\n}\nprint(g(1500))")); err != nil {
		t.Fatal(err)
	}
}

// Many large strings and lists, each within the budget, cannot add up past
// MemoryLimit: the live ones count toward it. Dropped ones give their
// bytes back, so a loop that replaces one never runs out.
func TestHostValuesCountTowardMemoryLimit(t *testing.T) {
	in := newLimited(t, interp.Options{MemoryLimit: 8 << 20})
	ctx := context.Background()
	build := "let s = \"x\"\nfor i in range(20) { s = s + s }\n" // 1 MiB
	keep := build + "let kept = []\nfor i in range(100) { kept = kept + [s + str(i)] }\n"
	err := in.Exec(ctx, "keep.gs", []byte(keep))
	if err == nil || !strings.Contains(err.Error(), "memory limit") {
		t.Fatalf("keeping 100 MiB of strings under an 8 MiB limit: %v", err)
	}
	drop := build + "let t = \"\"\nfor i in range(100) { t = s + str(i) }\nprint(len(t))\n" +
		"let l = []\nfor i in range(40) { l = range(100000) }\nprint(len(l))\n"
	in2 := newLimited(t, interp.Options{MemoryLimit: 8 << 20}) // keep.gs's globals still hold its values
	if err := in2.Exec(ctx, "drop.gs", []byte(drop)); err != nil {
		t.Fatalf("replacing a 1 MiB string 100 times and a 1.6 MB list 40 times: %v", err)
	}
}

// TestIntListsUnderMemoryLimit: an int list is counted at 8 bytes an
// element, a generic one at 16, and converting one counts the new
// storage: 2^22 ints fit in 56 MiB (32 MiB, and 48 while the last
// growth copies), 2^22 strings do not, nor the int list once a string
// makes it generic; 10^7 ints do not either.
func TestIntListsUnderMemoryLimit(t *testing.T) {
	const limit = 56 << 20
	ctx := context.Background()
	in := newLimited(t, interp.Options{MemoryLimit: limit})
	if err := in.Exec(ctx, "ints.gs", []byte("let l = []\nfor i in range(4194304) { l.append(i) }")); err != nil {
		t.Fatalf("2^22 ints under 56 MiB: %v", err)
	}
	if used := in.Thread().Tracker.Used(); used < 32<<20 || used > limit {
		t.Errorf("2^22 ints: %d bytes counted, want 32 MiB to the limit", used)
	}
	err := in.Exec(ctx, "convert.gs", []byte(`l.append("s")`))
	if err == nil || !strings.Contains(err.Error(), "memory limit") {
		t.Errorf("converting 2^22 ints to generic under 56 MiB: %v", err)
	}
	for _, src := range []string{
		"let l = []\nfor i in range(4194304) { l.append(\"s\") }",
		"let l = []\nfor i in range(10000000) { l.append(i) }",
	} {
		err := newLimited(t, interp.Options{MemoryLimit: limit}).Exec(ctx, "big.gs", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "does not fit in the memory limit") {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// localsKernel launches a kernel whose local array takes 400 KB per
// thread: its cpu frames take 16 MiB per worker (lanes of one frame
// share 16 MiB at most).
const localsKernel = `kernel big(out: array[f32]) {
    let i = tid()
    local acc: f32[100000]
    acc[i % 100000] = 1.0
    out[i] = acc[i % 100000]
}
array o: f32[256]
launch big[256](o)
print(sum(o))
`

// TestKernelLocalsCountTowardMemoryLimit: a cpu launch's local arrays
// take the memory limit's room (526 MB peaked under a 64 MiB limit when
// every worker took its frame regardless): under 8 MiB one frame does
// not fit, and the launch says so; under 64 MiB it runs on the workers
// that fit.
func TestKernelLocalsCountTowardMemoryLimit(t *testing.T) {
	in := newLimited(t, interp.Options{MemoryLimit: 8 << 20})
	err := in.Exec(context.Background(), "l.gs", []byte(localsKernel))
	if err == nil || !strings.Contains(err.Error(), "bytes per cpu worker, more than the") {
		t.Errorf("under 8 MiB: %v, want the frame refused", err)
	}
	var out strings.Builder
	in = newLimited(t, interp.Options{MemoryLimit: 64 << 20, Stdout: &out})
	if err := in.Exec(context.Background(), "l.gs", []byte(localsKernel)); err != nil || out.String() != "256.0\n" {
		t.Errorf("under 64 MiB: %q, %v", out.String(), err)
	}
}
