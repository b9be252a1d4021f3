package regvm

import (
	"errors"
	"math"
	"strings"
	"testing"
)

var dispatches = []struct {
	name string
	d    Dispatch
}{{"switch", Switch}, {"table", Table}, {"twolevel", TwoLevel}}

// run runs prog once with each dispatch on one VM per dispatch.
func run(t *testing.T, prog func() *Program, opt Options, check func(t *testing.T, v Value, err error)) {
	t.Helper()
	for _, d := range dispatches {
		t.Run(d.name, func(t *testing.T) {
			vm, err := New(prog(), opt)
			if err != nil {
				t.Fatal(err)
			}
			v, err := vm.Run(d.d)
			check(t, v, err)
		})
	}
}

func wantValue(want Value) func(t *testing.T, v Value, err error) {
	return func(t *testing.T, v Value, err error) {
		t.Helper()
		if err != nil || v != want {
			t.Fatalf("got %v, %v; want %v", v, err, want)
		}
	}
}

// wantError checks the error's text (position, message, backtrace) and
// that errors.Is finds cause in it (when cause is not nil).
func wantError(text string, cause error) func(t *testing.T, v Value, err error) {
	return func(t *testing.T, v Value, err error) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("got %v, %v; want an *Error", v, err)
		}
		if err.Error() != text {
			t.Errorf("error:\n%s\nwant:\n%s", err, text)
		}
		if cause != nil && !errors.Is(err, cause) {
			t.Errorf("errors.Is(%v, %v) is false", err, cause)
		}
	}
}

func TestFib(t *testing.T) {
	for n, want := range map[int32]int64{0: 0, 1: 1, 2: 1, 10: 55, 20: 6765} {
		run(t, func() *Program { return FibProgram(n) }, Options{}, wantValue(Int(want)))
	}
}

func TestLoop(t *testing.T) {
	for n, want := range map[int32]int64{0: 0, 1: 0, 100000: 4999950000} {
		run(t, func() *Program { return LoopProgram(n) }, Options{}, wantValue(Int(want)))
	}
}

// TestRerun runs a VM several times: its frames, stack and globals are
// reused, and the result global holds the last run's value.
func TestRerun(t *testing.T) {
	for _, d := range dispatches {
		vm, err := New(FibProgram(15), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if v, err := vm.Run(d.d); err != nil || v != Int(610) {
				t.Fatalf("%s: fib(15) = %v, %v", d.name, v, err)
			}
		}
		if v, ok := vm.Global("result"); !ok || v != Int(610) {
			t.Errorf("%s: result = %v, %v", d.name, v, ok)
		}
	}
}

// withArg makes the top level pass k instead of the int n: a float takes
// the general path of every instruction fib and loop use.
func withArg(prog *Program, k Value) *Program {
	prog.Main.Consts = []Value{k}
	prog.Main.Code[3] = Instr{Op: OpLoadK, A: 1, C: 0}
	return prog
}

func TestFloatFib(t *testing.T) {
	run(t, func() *Program { return withArg(FibProgram(0), Float(10)) }, Options{}, wantValue(Float(55)))
}

func TestRangeOfFloat(t *testing.T) {
	run(t, func() *Program { return withArg(LoopProgram(0), Float(10)) }, Options{},
		wantError("loop.gs:3:5: range argument must be an int, not float\n  in loop (loop.gs:8:18)", nil))
}

// lessProgram is
//
//	fn less(n) {
//	    if n < "x" {
//	        return 1
//	    }
//	    return 0
//	}
//	let result = less(1)
func lessProgram() *Program {
	a := &Asm{&Proto{Name: "less", File: "less.gs", NParams: 1, NRegs: 3, Consts: []Value{String("x")}}}
	a.At(2, 12, Instr{Op: OpLoadK, A: 1, C: 0})
	br := a.At(2, 10, Instr{Op: OpJNLt, A: 0, B: 1})
	a.At(3, 16, Instr{Op: OpLoadI, A: 2, C: 1})
	a.At(3, 9, Instr{Op: OpRet, A: 2})
	a.Patch(br, a.PC())
	a.At(5, 12, Instr{Op: OpLoadI, A: 2, C: 0})
	a.At(5, 5, Instr{Op: OpRet, A: 2})
	return &Program{Globals: []string{"less", "result"}, Fns: []*Proto{a.P}, Main: callMain("less.gs", "less", 7, 1)}
}

func TestTypeError(t *testing.T) {
	run(t, lessProgram, Options{}, wantError("less.gs:2:10: cannot compare int < string\n  in less (less.gs:7:18)", nil))
}

func TestOverflow(t *testing.T) {
	run(t, func() *Program { return withArg(downProgram(), Int(math.MaxInt64)) }, Options{},
		wantError("down.gs:2:19: integer overflow in +\n  in down (down.gs:4:18)", nil))
}

func TestStepBudget(t *testing.T) {
	// The top level's call is step 1, FORPREP's first iteration step 2:
	// the budget of 10 ends in FORLOOP, at the for.
	run(t, func() *Program { return LoopProgram(100000) }, Options{MaxSteps: 10},
		wantError("loop.gs:3:5: step budget exhausted: 10 loop iterations and calls\n  in loop (loop.gs:8:18)", ErrStepBudget))
	// fib(20) with a budget of 3 calls: the fourth, fib(17), fails.
	bt := "\n  in fib (fib.gs:5:15)\n  in fib (fib.gs:5:15)\n  in fib (fib.gs:7:17)"
	run(t, func() *Program { return FibProgram(20) }, Options{MaxSteps: 3},
		wantError("fib.gs:5:15: step budget exhausted: 3 loop iterations and calls"+bt, ErrStepBudget))
}

func TestCancel(t *testing.T) {
	// Canceled before the run: the first poll, the top level's call, stops it.
	for _, d := range dispatches {
		vm, err := New(LoopProgram(10), Options{})
		if err != nil {
			t.Fatal(err)
		}
		vm.Cancel()
		_, err = vm.Run(d.d)
		if !errors.Is(err, ErrInterrupted) || err.Error() != "loop.gs:8:18: interrupted" {
			t.Errorf("%s: got %v, want loop.gs:8:18: interrupted", d.name, err)
		}
	}
	// Canceled from another goroutine, before or during a loop of 2^31
	// iterations: either way the run stops.
	for _, d := range dispatches {
		vm, err := New(LoopProgram(math.MaxInt32), Options{})
		if err != nil {
			t.Fatal(err)
		}
		go vm.Cancel()
		_, err = vm.Run(d.d)
		if !errors.Is(err, ErrInterrupted) {
			t.Fatalf("%s: got %v, want %v", d.name, err, ErrInterrupted)
		}
		if !strings.HasPrefix(err.Error(), "loop.gs:") {
			t.Errorf("%s: %v has no position", d.name, err)
		}
	}
}

// downProgram is
//
//	fn down(n) {
//	    return down(n + 1)
//	}
//	let result = down(0)
func downProgram() *Program {
	a := &Asm{&Proto{Name: "down", File: "down.gs", NParams: 1, NRegs: 3}}
	a.At(2, 12, Instr{Op: OpGetG, A: 1, C: 0})
	a.At(2, 19, Instr{Op: OpAddI, A: 2, B: 0, C: 1})
	a.At(2, 16, Instr{Op: OpCall, A: 1, B: 1})
	a.At(2, 5, Instr{Op: OpRet, A: 1})
	return &Program{Globals: []string{"down", "result"}, Fns: []*Proto{a.P}, Main: callMain("down.gs", "down", 4, 0)}
}

func TestMaxDepth(t *testing.T) {
	bt := strings.Repeat("\n  in down (down.gs:2:16)", 49) + "\n  in down (down.gs:4:18)"
	run(t, downProgram, Options{MaxDepth: 50},
		wantError("down.gs:2:16: call stack too deep: more than 50 nested fn calls (MaxDepth): unbounded recursion?"+bt, ErrDepth))
	// The default depth is reached without a Go stack overflow: the loop
	// does not recurse in Go.
	run(t, downProgram, Options{}, func(t *testing.T, v Value, err error) {
		if !errors.Is(err, ErrDepth) || len(err.(*Error).Backtrace) != DefaultMaxDepth {
			t.Fatalf("got %v, want %v after %d calls", v, ErrDepth, DefaultMaxDepth)
		}
	})
}

func TestNotCallable(t *testing.T) {
	run(t, func() *Program {
		prog := FibProgram(3)
		prog.Main.Code[0] = Instr{Op: OpLoadI, A: 0, C: 7} // fib = 7
		return prog
	}, Options{}, wantError("fib.gs:7:17: int is not callable", nil))
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		in   Instr
		want string
	}{
		{Instr{Op: OpAdd, A: 1, B: 1, C: 9}, "C 9 outside [0, 3]"},
		{Instr{Op: OpJmp, C: 99}, "C 99 outside [0, 9]"},
		{Instr{Op: OpGetG, A: 1, C: 2}, "C 2 outside [0, 1]"},
		{Instr{Op: OpForLoop, A: 1}, "register 4 outside the frame of 4"},
		{Instr{Op: numOps}, "unknown op"},
		{Instr{Op: OpJNLtI, C: 1}, "C 1 outside [3, 9]"}, // a loop must go back through JMP or FORLOOP
	} {
		prog := FibProgram(1)
		prog.Fns[0].Code[2] = tc.in
		if _, err := New(prog, Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.in, err, tc.want)
		}
	}
	prog := FibProgram(1)
	prog.Fns[0].Code[9] = Instr{Op: OpMove}
	if _, err := New(prog, Options{}); err == nil || !strings.Contains(err.Error(), "code ends in MOVE") {
		t.Errorf("code falling off its end: got %v", err)
	}
}

// TestNoAllocs checks that calls and loop iterations allocate nothing: a
// run allocates only its result's box (6765 and 4999950000 are past Go's
// preallocated small ints).
func TestNoAllocs(t *testing.T) {
	for _, prog := range []*Program{FibProgram(20), LoopProgram(100000)} {
		for _, d := range dispatches {
			vm, err := New(prog, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(5, func() { vm.Run(d.d) }); n > 1 {
				t.Errorf("%s %s: %v allocations per run, want at most 1", prog.Fns[0].Name, d.name, n)
			}
		}
	}
}

// fibCalls is the number of calls of fib(20).
const fibCalls = 21891

// bench runs prog once per op with each dispatch, reporting ns per unit
// (a call of fib, an iteration of loop).
func bench(b *testing.B, prog *Program, want Value, units float64, unit string) {
	for _, d := range dispatches {
		b.Run(d.name, func(b *testing.B) {
			vm, err := New(prog, Options{MaxSteps: math.MaxInt64 / 2})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if v, err := vm.Run(d.d); err != nil || v != want {
					b.Fatalf("got %v, %v", v, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/units, "ns/"+unit)
		})
	}
}

// BenchmarkRegFib is fib(20) per op: 21 891 calls.
func BenchmarkRegFib(b *testing.B) { bench(b, FibProgram(20), Int(6765), fibCalls, "call") }

// BenchmarkRegLoop is loop(10^5) per op: 10^5 iterations of s += i.
func BenchmarkRegLoop(b *testing.B) { bench(b, LoopProgram(100000), Int(4999950000), 1e5, "iter") }

// TestRebind: a call reads its callee from the global each time.
//
//	fn f() { return 1 }
//	let r = f()
//	fn f() { return 2 }  (the global rebound)
//	r + f()
func TestRebind(t *testing.T) {
	run(t, func() *Program {
		fns := make([]*Proto, 2)
		for i := range fns {
			a := &Asm{&Proto{Name: "f", File: "f.gs", NRegs: 1}}
			a.At(i+1, 10, Instr{Op: OpLoadI, A: 0, C: int32(i + 1)})
			a.At(i+1, 10, Instr{Op: OpRet, A: 0})
			fns[i] = a.P
		}
		m := &Asm{&Proto{Name: "<main>", File: "f.gs", NRegs: 2}}
		for i, r := range []uint8{0, 1} {
			m.At(1, 1, Instr{Op: OpFn, A: r, C: int32(i)})
			m.At(1, 1, Instr{Op: OpSetG, A: r})
			m.At(2, 9, Instr{Op: OpGetG, A: r})
			m.At(2, 10, Instr{Op: OpCall, A: r})
		}
		m.At(4, 3, Instr{Op: OpAdd, A: 0, B: 0, C: 1})
		m.At(4, 1, Instr{Op: OpRet, A: 0})
		return &Program{Globals: []string{"f"}, Fns: fns, Main: m.P}
	}, Options{}, wantValue(Int(3)))
}

// TestJumpBackPolls: a loop of JMP (a while loop's back edge) counts its
// iterations and polls the cancel flag.
func TestJumpBackPolls(t *testing.T) {
	spin := func() *Program {
		a := &Asm{&Proto{Name: "<main>", File: "spin.gs", NRegs: 1}}
		a.At(1, 1, Instr{Op: OpJmp, C: 0})
		return &Program{Main: a.P}
	}
	run(t, spin, Options{MaxSteps: 100}, wantError("spin.gs:1:1: step budget exhausted: 100 loop iterations and calls", ErrStepBudget))
	for _, d := range dispatches {
		vm, err := New(spin(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		vm.Cancel()
		if _, err := vm.Run(d.d); !errors.Is(err, ErrInterrupted) {
			t.Errorf("%s: got %v, want %v", d.name, err, ErrInterrupted)
		}
	}
}
