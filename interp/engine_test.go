package interp_test

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestCallsAllocateNothing: a fn whose locals no closure captures runs
// in a frame the thread reuses, with its int arguments, locals and
// result unboxed, so a loop of calls allocates nothing per call (HOST.md
// section 1).
func TestCallsAllocateNothing(t *testing.T) {
	in := newLimited(t, interp.Options{})
	setup := `
fn add(a, b) {
    let c = a + b
    return c - 1000
}
fn fib(n) {
    if n < 2 { return n }
    return fib(n - 1) + fib(n - 2)
}`
	if err := in.Exec(context.Background(), "setup.gs", []byte(setup)); err != nil {
		t.Fatal(err)
	}
	checkLoopAllocates(t, "let s = 0\nfor i in range(%d) { s += add(i, 5000) + fib(3) }", func(src string) {
		if err := in.Exec(context.Background(), "loop.gs", []byte(src)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestLoopsAllocateNothing: an int accumulator and a loop counter stay
// unboxed, at top level and in a fn.
func TestLoopsAllocateNothing(t *testing.T) {
	in := newLimited(t, interp.Options{})
	if err := in.Exec(context.Background(), "setup.gs", []byte(`fn f(n) { let s = 0; for i in range(n) { s += i * 3 - 1 }; return s }`)); err != nil {
		t.Fatal(err)
	}
	for _, loop := range []string{
		"let s = 0\nfor i in range(%d) { s += i }",
		"let s = 0.5\nlet i = 0\nwhile i < %d { s += 1.5; i += 1 }",
		"let r = f(%d)",
		"let s = 0.0\nfor i in range(%d) { s += i * 0.5 - 1 }",
		// s += t appends into a buffer (strs.go): its doublings, not
		// one string per iteration.
		"let s = \"\"\nfor i in range(%d) { s += \"ab\" }",
		"fn b(n) { let s = \"x\"; for i in range(n) { s += \"ab\" }; return len(s) }\nlet r = b(%d)",
	} {
		checkLoopAllocates(t, loop, func(src string) {
			if err := in.Exec(context.Background(), "loop.gs", []byte(src)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestMaxDepth: recursion past Options.MaxDepth is a positioned error
// with a backtrace of the first and last ten calls, and the interpreter
// goes on.
func TestMaxDepth(t *testing.T) {
	in := newLimited(t, interp.Options{MaxDepth: 50})
	src := "fn down(n) {\n    return down(n + 1)\n}\ndown(0)\n"
	err := in.Exec(context.Background(), "deep.gs", []byte(src))
	var ee *interp.EvalError
	if !errors.As(err, &ee) {
		t.Fatalf("err = %v, want an *EvalError", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"deep.gs:2:16: call stack too deep: more than 50 nested fn calls",
		"\n  in down (deep.gs:2:16)\n  ... repeated 9 more times\n  ... 30 more calls\n  in down (deep.gs:2:16)\n  ... repeated 8 more times\n  in down (deep.gs:4:5)",
		"\n  in down (deep.gs:4:5)",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if lines := strings.Count(msg, "\n"); lines > 8 {
		t.Errorf("%d lines for 50 calls, want the ends only:\n%s", lines, msg)
	}
	if err := in.Exec(context.Background(), "after.gs", []byte("fn f(n) { if n == 0 { return 0 }; return f(n - 1) }\nassert f(40) == 0")); err != nil {
		t.Errorf("after the error: %v", err)
	}
}

// TestDefaultMaxDepth: 10 000 nested calls work by default (CPython's
// limit is 1000); one more is an error, not a Go stack overflow.
func TestDefaultMaxDepth(t *testing.T) {
	in := newLimited(t, interp.Options{})
	src := "fn d(n) { if n == 0 { return 0 }; return 1 + d(n - 1) }\nassert d(9990) == 9990\nd(20000)"
	err := in.Exec(context.Background(), "deep.gs", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "more than 10000 nested fn calls") {
		t.Fatalf("err = %v, want the depth error", err)
	}
}

// TestFnFramesAreNotShared: a frame reused between calls never leaks a
// value into the next call at that depth, and a fn that declares a fn
// keeps its own frame for the closures made in it.
func TestFnFramesAreNotShared(t *testing.T) {
	in := newLimited(t, interp.Options{})
	src := `
fn set(first) {
    if first { let x = 1 }
    let y = 0
    return y
}
set(true)
assert set(false) == 0
fn counter() {
    let n = 0
    fn inc() { n += 1; return n }
    return inc
}
let a = counter()
let b = counter()
a()
a()
assert a() == 3
assert b() == 1
fn apply(f, x) { return f(x) }
fn twice(x) { return apply(fn2, apply(fn2, x)) }
fn fn2(x) { return x * 2 }
assert twice(3) == 12
`
	if err := in.Exec(context.Background(), "frames.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
}

// TestReturnedCallsKeepNothingAlive: a list a fn's local held is not
// kept alive by the frame the fn ran in once it returned, though the
// register machine clears such frames lazily (vm.go's clearStale): by the
// next builtin call, and when the run ends.
func TestReturnedCallsKeepNothingAlive(t *testing.T) {
	var watched weak.Pointer[interp.List]
	env := stdlib.Universe()
	env["watch"] = &interp.Builtin{Name: "watch", Fn: func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		watched = weak.Make(args.Positional[0].(*interp.List))
		return interp.Nil, nil
	}}
	env["collected"] = &interp.Builtin{Name: "collected", Fn: func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		runtime.GC()
		return interp.Bool(watched.Value() == nil), nil
	}}
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: env})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := `
fn make(n) {
    let l = [n, n + 1]
    watch(l)
    let r = n + 1
    return r
}
fn run() {
    let s = make(1) + make(2)
    assert collected()
    return make(s)
}
let last = run()
`
	if err := in.Exec(context.Background(), "frames.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	if watched.Value() != nil {
		t.Error("the last call's list is alive after the run")
	}
}

// TestLimitsAreNotCatchable: try does not catch the step budget, the
// memory limit or a cancelled context, so an embedder's limits hold.
func TestLimitsAreNotCatchable(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts interp.Options
		src  string
		want string
	}{
		{"steps", interp.Options{MaxSteps: 1000}, "try { while true { } } catch { print(\"caught\") }", "step budget of 1000"},
		{"memory", interp.Options{MemoryLimit: 1 << 20}, "try { let a = zeros(1 << 20) } catch { print(\"caught\") }", "memory limit"},
		{"depth", interp.Options{MaxDepth: 20}, "fn f(n) { return f(n + 1) }\ntry { f(0) } catch { print(\"caught\") }", "call stack too deep"},
		// the same in fn bodies, which the register machine runs
		{"steps in a fn", interp.Options{MaxSteps: 1000}, "fn spin() { while true { } }\nfn g() { try { spin() } catch { print(\"caught\") } }\ng()", "step budget of 1000"},
		{"steps in a range", interp.Options{MaxSteps: 1000}, "fn g() { try { for i in range(1000000) { } } catch { print(\"caught\") } }\ng()", "step budget of 1000"},
		{"steps of calls", interp.Options{MaxSteps: 1000}, "fn f(n) { if n < 1 { return 0 }\nreturn f(n - 1) + f(n - 1) }\nfn g() { try { f(30) } catch { print(\"caught\") } }\ng()", "step budget of 1000"},
		{"depth in a fn", interp.Options{MaxDepth: 20}, "fn f(n) { return f(n + 1) }\nfn g() { try { f(0) } catch { print(\"caught\") } }\ng()", "call stack too deep"},
		// a cpu kernel's loops count toward MaxKernelSteps
		{"kernel steps", interp.Options{MaxKernelSteps: 1000}, "kernel spin(x: array[f32]) {\nlet i = 0\nwhile i < 100000 { i += 1 }\nx[tid()] = 1.0\n}\narray x: f32[4]\ntry { launch spin[4](x) } catch { print(\"caught\") }", "step budget of 1000 kernel loop iterations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			tc.opts.Stdout = &out
			in := newLimited(t, tc.opts)
			err := in.Exec(context.Background(), "limit.gs", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) || out.Len() > 0 {
				t.Errorf("err = %v, output %q; want %q, uncaught", err, out.String(), tc.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	in := newLimited(t, interp.Options{})
	go cancel()
	err := in.Exec(ctx, "cancel.gs", []byte("try { while true { } } catch { print(\"caught\") }"))
	if !errors.Is(err, interp.ErrInterrupted) {
		t.Errorf("err = %v, want ErrInterrupted", err)
	}
	for _, src := range []string{
		"fn g() { try { while true { } } catch { print(\"caught\") } }\ng()",
		"fn h(x) { return x }\nfn g() { try { while true { h(1) } } catch { print(\"caught\") } }\ng()",
	} {
		ctx, cancel := context.WithCancel(context.Background())
		in := newLimited(t, interp.Options{})
		go cancel()
		if err := in.Exec(ctx, "cancel.gs", []byte(src)); !errors.Is(err, interp.ErrInterrupted) {
			t.Errorf("%s: err = %v, want ErrInterrupted", src, err)
		}
	}
}

// TestInterruptStopsTheNextStep: the step after a cancel is the last, so
// a loop whose body is a slow builtin stops at once (HOST.md section 1:
// Ctrl-C within 10 ms), not after a batch of further calls.
func TestInterruptStopsTheNextStep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	env := stdlib.Universe()
	env["slow"] = &interp.Builtin{Name: "slow", Fn: func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		calls++
		if calls == 50 {
			cancel()
			for deadline := time.Now().Add(5 * time.Second); !th.Canceled() && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond) // the context's AfterFunc sets the flag on its own goroutine
			}
		}
		return interp.Nil, nil
	}}
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: env})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	err = in.Exec(ctx, "slow.gs", []byte("for i in range(100000) { slow() }"))
	if !errors.Is(err, interp.ErrInterrupted) || calls != 50 {
		t.Errorf("err = %v after %d calls, want ErrInterrupted after 50", err, calls)
	}
}
