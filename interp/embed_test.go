package interp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

const sharedScript = `
kernel scale(x: array[f64], s: f64) {
    let i = tid()
    x[i] = s * x[i]
}
fn run(seed) {
    let a = arange(1000, dtype=f64)
    launch scale[1000](a, float(seed))
    return sum(a)
}
// fns on the register machine: recursion, loops, lists and dicts
fn fib(n) {
    if n < 2 { return n }
    return fib(n - 1) + fib(n - 2)
}
fn zero(n) {
    let l = []
    let d = {}
    for i in range(n) {
        l.append(i)
        d[i] = i
    }
    let s = 0
    for v in l { s += v - d[v] }
    return s + fib(12) - 144
}
let result = run(seed) + zero(100)
`

// TestManyInterpretersShareOneProgram runs one compiled program in many
// interpreters at once (go test -race checks the sharing).
func TestManyInterpretersShareOneProgram(t *testing.T) {
	env := stdlib.Universe()
	env["seed"] = interp.Int(0)
	prog, err := interp.Compile("shared.gs", []byte(sharedScript), env)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			env := stdlib.Universe()
			env["seed"] = interp.Int(g)
			in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: env})
			if err != nil {
				t.Error(err)
				return
			}
			defer in.Close()
			for r := 0; r < 5; r++ {
				if err := in.Run(context.Background(), prog); err != nil {
					t.Error(err)
					return
				}
				v, _ := in.Global("result")
				if want := interp.Float(float64(g) * 499500); v != want {
					t.Errorf("interp %d: result %v, want %s", g, v, want)
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestStepBudgetAndCancellation(t *testing.T) {
	in, _ := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe(), MaxSteps: 1000})
	defer in.Close()
	err := in.Exec(context.Background(), "loop.gs", []byte("let i = 0\nwhile true { i += 1 }"))
	if err == nil || !strings.Contains(err.Error(), "step budget of 1000") {
		t.Fatalf("step budget: %v", err)
	}
	in2, _ := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	defer in2.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = in2.Exec(ctx, "loop.gs", []byte("let i = 0\nwhile true { i += 1 }"))
	if err == nil || !strings.Contains(err.Error(), "interrupted") || time.Since(start) > 5*time.Second {
		t.Fatalf("cancellation: %v after %v", err, time.Since(start))
	}
	// The interpreter is usable after an interruption.
	if err := in2.Exec(context.Background(), "ok.gs", []byte("print(i > 0)")); err != nil {
		t.Fatal(err)
	}
}

func TestCallErrorsAndGlobals(t *testing.T) {
	in, _ := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	ctx := context.Background()
	if err := in.Exec(ctx, "lib.gs", []byte("let limit = 3\nfn check(x) {\n  assert x < limit, \"too big\"\n  return x\n}")); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Call(ctx, "check", interp.Int(5)); err == nil {
		t.Fatal("no error")
	} else {
		var ee *interp.EvalError
		if !errors.As(err, &ee) || ee.Pos.Line != 3 || !strings.Contains(ee.Msg, "too big") {
			t.Fatalf("error %#v", err)
		}
	}
	if err := in.SetGlobal("limit", interp.Int(10)); err != nil {
		t.Fatal(err)
	}
	if v, err := in.Call(ctx, "check", interp.Int(5)); err != nil || v != interp.Int(5) {
		t.Fatalf("after SetGlobal: %v %v", v, err)
	}
	if _, err := in.Call(ctx, "nosuch"); err == nil {
		t.Fatal("calling a missing global")
	}
	if err := in.SetGlobal("nosuch", interp.Nil); err == nil {
		t.Fatal("setting a missing global")
	}
}

func TestFuncConversions(t *testing.T) {
	div, _ := interp.Func("div", func(a, b float64) (float64, error) {
		if b == 0 {
			return 0, errors.New("div by zero in Go")
		}
		return a / b, nil
	})
	sumAll, _ := interp.Func("sum_all", func(xs ...int) int {
		s := 0
		for _, x := range xs {
			s += x
		}
		return s
	})
	if _, err := interp.Func("bad", 3); err == nil {
		t.Fatal("Func of a non-function")
	}
	env := stdlib.Universe()
	env["div"], env["sum_all"] = div, sumAll
	var out strings.Builder
	in, _ := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: env})
	defer in.Close()
	ctx := context.Background()
	if err := in.Exec(ctx, "f.gs", []byte(`print(div(1, 4), sum_all(1, 2, 3), sum_all())`)); err != nil {
		t.Fatal(err)
	}
	if out.String() != "0.25 6 0\n" {
		t.Errorf("output %q", out.String())
	}
	for src, want := range map[string]string{
		`div(1, 0)`:    "div by zero in Go",
		`div("a", 1)`:  "argument 1: want a number",
		`div(1)`:       "div takes 2 arguments, got 1",
		`sum_all(1.5)`: "want an int",
		`div(1, b=2)`:  "no keyword arguments",
	} {
		err := in.Exec(ctx, "e.gs", []byte(src))
		if want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}

func TestWarningsGoToTheLogger(t *testing.T) {
	var buf strings.Builder
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	in, _ := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe(), Logger: logger})
	defer in.Close()
	in.Thread().Warn("something odd")
	if !strings.Contains(buf.String(), "something odd") {
		t.Errorf("logger got %q", buf.String())
	}
}

func TestWrapSliceAndCopyToSlice(t *testing.T) {
	in, _ := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	m := []int32{1, 2, 3, 4, 5, 6}
	a, err := interp.WrapSlice(in, m, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := interp.WrapSlice(in, m, 4); err == nil {
		t.Fatal("wrong shape accepted")
	}
	if got := a.String(); got != "[[1, 2, 3], [4, 5, 6]]" {
		t.Errorf("wrapped %s", got)
	}
	out := make([]int32, 6)
	if err := interp.CopyToSlice(a, out); err != nil || fmt.Sprint(out) != "[1 2 3 4 5 6]" {
		t.Errorf("CopyToSlice %v %v", out, err)
	}
	if err := interp.CopyToSlice(a, make([]float32, 6)); err == nil {
		t.Error("dtype mismatch accepted")
	}
	if p, err := a.DevicePointer(); err != nil || p == 0 {
		t.Errorf("DevicePointer %v %v", p, err)
	}
}

// BenchmarkCallFn is the per-call overhead of calling a script fn from Go.
func BenchmarkCallFn(b *testing.B) {
	in, _ := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	ctx := context.Background()
	in.Exec(ctx, "f.gs", []byte("fn add(a, b) { return a + b }"))
	args := []interp.Value{interp.Int(1), interp.Int(2)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := in.Call(ctx, "add", args...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHostLoop times a host loop with a plain and with a cancellable
// context: cancellation is polled through an atomic flag and must not cost
// more than 5%.
func BenchmarkHostLoop(b *testing.B) {
	for _, name := range []string{"background", "cancellable"} {
		b.Run(name, func(b *testing.B) {
			in, _ := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
			defer in.Close()
			ctx := context.Background()
			if name == "cancellable" {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				defer cancel()
			}
			src := []byte(fmt.Sprintf("let s = 0\nfor i in range(%d) { s += i & 7 }", b.N))
			b.ResetTimer()
			if err := in.Exec(ctx, "loop.gs", src); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// countingAllocator is a custom host allocator that counts its calls.
type countingAllocator struct{ allocs, frees int }

func (c *countingAllocator) Name() string                { return "counting" }
func (c *countingAllocator) Kind() mem.Kind              { return mem.Host }
func (c *countingAllocator) AppliesTo(d mem.Device) bool { return d.Type == mem.CPU }
func (c *countingAllocator) Alloc(d mem.Device, n int) (uintptr, error) {
	c.allocs++
	return mem.HostAllocator{}.Alloc(d, n)
}
func (c *countingAllocator) Free(d mem.Device, p uintptr, n int) error {
	c.frees++
	return mem.HostAllocator{}.Free(d, p, n)
}

func TestCustomAllocatorAndWrapPointer(t *testing.T) {
	counting := &countingAllocator{}
	var out strings.Builder
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: stdlib.Universe(),
		Allocators: map[string]mem.Allocator{"counting": counting}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	src := "array a: f32[4] = 1.0 using counting\nallocator counting { let b = zeros(2) }\nprint(a, a.memory_kind)\nfree(a)"
	if err := in.Exec(ctx, "c.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	if counting.allocs != 2 || counting.frees != 1 || out.String() != "[1.0, 1.0, 1.0, 1.0] HOST\n" {
		t.Errorf("allocs %d frees %d output %q", counting.allocs, counting.frees, out.String())
	}
	in.Close()
	if counting.frees != 2 {
		t.Errorf("Close freed %d of 2", counting.frees)
	}
	if _, err := interp.New(interp.Options{Allocators: map[string]mem.Allocator{"host": counting}}); err == nil {
		t.Error("a built-in allocator name was replaced")
	}

	in2, _ := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: stdlib.Universe()})
	defer in2.Close()
	buf, _ := mem.HostAllocator{}.Alloc(mem.CPUDevice, 16)
	released := false
	a, err := interp.WrapPointer(in2, buf, ir.I32, []int{4}, "cpu", func() error {
		released = true
		return mem.HostAllocator{}.Free(mem.CPUDevice, buf, 16)
	})
	if err != nil {
		t.Fatal(err)
	}
	if a.A.Kind() != mem.Host || a.String() != "[0, 0, 0, 0]" {
		t.Errorf("wrapped %v %s", a.A.Kind(), a)
	}
	a.A.Free()
	if !released {
		t.Error("release did not run")
	}
}

// TestWrapAfterClose: Close frees and untracks the wrapped slices and
// pointers, and wrapping after Close is ErrClosed: a closed interpreter
// would track arrays that nothing frees.
func TestWrapAfterClose(t *testing.T) {
	in, _ := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	a, err := interp.WrapSlice(in, make([]float32, 64))
	if err != nil {
		t.Fatal(err)
	}
	if in.Tracker().Used() == 0 {
		t.Fatal("the wrapped slice is not tracked")
	}
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	if !a.A.Freed() || in.Tracker().Used() != 0 || len(in.Tracker().Live()) != 0 {
		t.Errorf("after Close: freed %v, %d bytes in %d buffers tracked", a.A.Freed(), in.Tracker().Used(), len(in.Tracker().Live()))
	}
	if _, err := interp.WrapSlice(in, make([]float32, 64)); !errors.Is(err, interp.ErrClosed) {
		t.Errorf("WrapSlice after Close: %v", err)
	}
	buf, _ := mem.HostAllocator{}.Alloc(mem.CPUDevice, 16)
	defer mem.HostAllocator{}.Free(mem.CPUDevice, buf, 16)
	if _, err := interp.WrapPointer(in, buf, ir.I32, []int{4}, "cpu", nil); !errors.Is(err, interp.ErrClosed) {
		t.Errorf("WrapPointer after Close: %v", err)
	}
	if in.Tracker().Used() != 0 || len(in.Tracker().Live()) != 0 {
		t.Errorf("after wrapping on a closed interpreter: %d bytes in %d buffers tracked", in.Tracker().Used(), len(in.Tracker().Live()))
	}
}

// TestExecAfterRunKeepsBothGlobals: after Run, Exec chunks have their own
// global table beside the program's (their slots are numbered apart), so a
// global an Exec makes reads back and the program's keep their values,
// and fns of each side keep reading their own globals when called later.
func TestExecAfterRunKeepsBothGlobals(t *testing.T) {
	ctx := context.Background()
	prog, err := interp.Compile("p.gs", []byte("let a = 1\nlet b = 2\nfn total() { return a + b }"), stdlib.Universe())
	if err != nil {
		t.Fatal(err)
	}
	in, _ := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	if err := in.Run(ctx, prog); err != nil {
		t.Fatal(err)
	}
	if err := in.Exec(ctx, "c.gs", []byte("let g = 5\nlet h = 7\nfn gh() { return g * h }")); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]interp.Value{"g": interp.Int(5), "h": interp.Int(7), "a": interp.Int(1), "b": interp.Int(2)} {
		if v, ok := in.Global(name); !ok || v != want {
			t.Errorf("Global(%s) = %v, %v; want %v", name, v, ok, want)
		}
	}
	if v, err := in.Call(ctx, "total"); err != nil || v != interp.Int(3) {
		t.Errorf("the program's total() = %v, %v", v, err)
	}
	if err := in.SetGlobal("g", interp.Int(6)); err != nil {
		t.Fatal(err)
	}
	if v, err := in.Call(ctx, "gh"); err != nil || v != interp.Int(42) {
		t.Errorf("the chunk's gh() = %v, %v", v, err)
	}
	if err := in.Exec(ctx, "d.gs", []byte("g += 1")); err != nil {
		t.Fatal(err)
	}
	if v, _ := in.Global("g"); v != interp.Int(7) {
		t.Errorf("g after g += 1: %v", v)
	}
	if v, _ := in.Global("a"); v != interp.Int(1) {
		t.Errorf("the program's a after the chunks: %v", v)
	}
}
