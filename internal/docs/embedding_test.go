package docs_test

// The Go code of docs/embedding.md, as examples that go test runs.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// Compile once, run in a fresh interpreter, read a global.
func Example_compileRun() {
	env := stdlib.Universe()
	prog, err := interp.Compile("mean.gs", []byte(`
let x = linspace(0, 1, 5)
let m = mean(x)
`), env)
	if err != nil {
		panic(err) // an ast.ErrorList: every syntax, name and type error
	}
	in, err := interp.New(interp.Options{Device: "cpu", Predeclared: env})
	if err != nil {
		panic(err)
	}
	defer in.Close()
	if err := in.Run(context.Background(), prog); err != nil {
		panic(err)
	}
	m, _ := in.Global("m")
	fmt.Println(m)
	// Output: 0.5
}

// Files confined to one directory, with budgets.
func Example_budgets() {
	dir, _ := os.MkdirTemp("", "gscript-doc")
	defer os.RemoveAll(dir)
	files, err := interp.RootedFiles(dir, dir)
	if err != nil {
		panic(err)
	}
	in, _ := interp.New(interp.Options{
		Stdout: os.Stdout, Device: "cpu", Predeclared: stdlib.Universe(),
		Files:       files,
		MaxSteps:    10_000,
		MemoryLimit: 1 << 20,
	})
	defer in.Close()
	ctx := context.Background()
	fmt.Println(in.Exec(ctx, "ok.gs", []byte(`save("x.npy", arange(3)); print(load("x.npy"))`)))
	_, err = os.Stat(filepath.Join(dir, "x.npy"))
	fmt.Println(err == nil)
	fmt.Println(in.Exec(ctx, "escape.gs", []byte(`save("../x.npy", arange(3))`)))
	fmt.Println(in.Exec(ctx, "loop.gs", []byte(`while true { }`)))
	fmt.Println(in.Exec(ctx, "big.gs", []byte(`let a = zeros(1 << 20)`)))
	// Output:
	// [0, 1, 2]
	// <nil>
	// true
	// escape.gs:1:5: save ../x.npy: path escapes from parent
	// loop.gs:1:1: step budget of 10000 loop iterations and calls exhausted
	// big.gs:1:14: host allocator: cannot allocate 4194304 bytes on cpu: memory limit of 1048576 bytes reached (0 in use)
}

// Without Files, file builtins fail with ErrNoFileAccess.
func Example_noFiles() {
	in, _ := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
	defer in.Close()
	err := in.Exec(context.Background(), "s.gs", []byte(`save("x.npy", zeros(2))`))
	fmt.Println(errors.Is(err, interp.ErrNoFileAccess))
	// Output: true
}

// A typed builtin that launches a script's kernel from Go.
func Example_launchKernel() {
	env := stdlib.Universe()
	prog, err := interp.Compile("k.gs", []byte(`
kernel scale(x: array[f32], a: f32) {
    let i = tid()
    x[i] = a * x[i]
}`), env)
	if err != nil {
		panic(err)
	}
	scale := prog.Kernels()[0].IR
	env["triple"] = &interp.Builtin{Name: "triple", Fn: func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := args.Check(1, 1); err != nil {
			return nil, err
		}
		x, ok := args.Positional[0].(*interp.Array)
		if !ok {
			return nil, fmt.Errorf("triple: want an array, not %s", args.Positional[0].Type())
		}
		n := x.A.Size()
		return interp.Nil, th.LaunchKernel(scale, th.CurrentDevice(), []int{n}, x, interp.Float(3))
	}}
	in, _ := interp.New(interp.Options{Stdout: os.Stdout, Device: "cpu", Predeclared: env})
	defer in.Close()
	err = in.Exec(context.Background(), "main.gs", []byte(`
let x = ones(4)
triple(x)
print(x)`))
	fmt.Println(err)
	// Output:
	// [3.0, 3.0, 3.0, 3.0]
	// <nil>
}
