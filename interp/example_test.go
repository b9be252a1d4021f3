package interp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/stdlib"
)

// Compile a script once and run it in an interpreter; read its globals.
func ExampleCompile() {
	prog, err := interp.Compile("stats.gs", []byte(`
let data = array([3.0, 1.0, 4.0, 1.0, 5.0])
let total = sum(data)
let largest = max(data)
`), stdlib.Universe())
	if err != nil {
		panic(err)
	}
	in, _ := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	if err := in.Run(context.Background(), prog); err != nil {
		panic(err)
	}
	total, _ := in.Global("total")
	largest, _ := in.Global("largest")
	fmt.Println(total, largest)
	// Output: 14.0 5.0
}

// Call a script fn from Go, with Go values converted to script values.
func ExampleInterp_Call() {
	in, _ := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	ctx := context.Background()
	if err := in.Exec(ctx, "lib.gs", []byte(`fn area(w, h) { return w * h }`)); err != nil {
		panic(err)
	}
	v, err := in.Call(ctx, "area", interp.Int(6), interp.Float(1.5))
	fmt.Println(v, err)
	// Output: 9.0 <nil>
}

// Register Go functions: the reflection-based Func, or a typed *Builtin.
func ExampleFunc() {
	greet, _ := interp.Func("greet", func(name string, times int) string {
		return strings.Repeat("hi "+name+"! ", times)
	})
	env := stdlib.Universe()
	env["greet"] = greet
	env["answer"] = interp.Int(42)
	in, _ := interp.New(interp.Options{Stdout: os.Stdout, Device: "cpu", Predeclared: env})
	defer in.Close()
	err := in.Exec(context.Background(), "main.gs", []byte(`print(greet("gopher", 2), answer)`))
	fmt.Println(err)
	// Output:
	// hi gopher! hi gopher!  42
	// <nil>
}

// Wrap a Go slice as a cpu array without copying: a kernel updates it in
// place.
func ExampleWrapSlice() {
	in, _ := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	xs := []float32{1, 2, 3, 4}
	a, err := interp.WrapSlice(in, xs)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	in.Exec(ctx, "k.gs", []byte(`
kernel double(x: array[f32]) {
    let i = tid()
    x[i] = 2.0 * x[i]
}
let xs = nil`))
	in.SetGlobal("xs", a)
	if err := in.Exec(ctx, "run.gs", []byte(`launch double[len(xs)](xs)`)); err != nil {
		panic(err)
	}
	fmt.Println(xs)
	// Output: [2 4 6 8]
}

// Errors are values a host can inspect with errors.As.
func ExampleEvalError() {
	in, _ := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	err := in.Exec(context.Background(), "bad.gs", []byte("fn f(x) {\n  return x / 0\n}\nf(1)\n"))
	var ee *interp.EvalError
	if errors.As(err, &ee) {
		fmt.Println(ee.Pos, ee.Msg, ee.Backtrace[0].Name)
	}
	err = in.Exec(context.Background(), "typo.gs", []byte("print(nope)\nprint(nada)\n"))
	var list ast.ErrorList
	if errors.As(err, &list) {
		fmt.Println(len(list), list[0])
	}
	// Output:
	// bad.gs:2:12 integer division by zero f
	// 2 typo.gs:1:7: undefined: nope
}

// Give a script its arguments and a chosen environment, and read the
// status of its exit(code).
func ExampleExitError() {
	vars := map[string]string{"MODE": "fast"}
	in, _ := interp.New(interp.Options{
		Device: "cpu", Predeclared: stdlib.Universe(),
		Argv: []string{"job.gs", "3"},
		Env:  func(name string) (string, bool) { v, ok := vars[name]; return v, ok },
	})
	defer in.Close()
	err := in.Exec(context.Background(), "job.gs", []byte(`
print(argv[1], env("MODE"), env("HOME", "no HOME"))
exit(int(argv[1]))
print("not reached")
`))
	var exit *interp.ExitError
	if errors.As(err, &exit) {
		fmt.Println("status", exit.Code)
	}
	// Output:
	// 3 fast no HOME
	// status 3
}

// Record a script's launch on a tape from Go and read a gradient.
func ExampleInterp_Record() {
	in, _ := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	ctx := context.Background()
	if err := in.Exec(ctx, "setup.gs", []byte(`
kernel square(x: array[f64], y: array[f64]) {
    let i = tid()
    y[i] = x[i] * x[i]
}
let x = arange(4, dtype=f64, requires_grad=true)
let y = zeros(4, dtype=f64)`)); err != nil {
		panic(err)
	}
	t := interp.NewTape("t")
	if err := in.Record(t, func() error { return in.Exec(ctx, "step.gs", []byte("launch square[4](x, y)")) }); err != nil {
		panic(err)
	}
	y, _ := in.Global("y")
	if err := in.Backward(t, interp.Seed{Out: y.(*interp.Array).A, Grad: interp.Float(1)}); err != nil {
		panic(err)
	}
	x, _ := in.Global("x")
	fmt.Println(t, x.(*interp.Array).Grad())
	// Output: <tape t: 1 operations> [0.0, 2.0, 4.0, 6.0]
}
