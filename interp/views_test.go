package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// a @ b calls the predeclared matmul with (a, b), whatever the script
// binds to the name.
func TestMatmulOperatorCallsMatmul(t *testing.T) {
	env := stdlib.Universe()
	env["matmul"] = &interp.Builtin{Name: "matmul", Fn: func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		a, b := args.Positional[0].(*interp.Array), args.Positional[1].(*interp.Array)
		return interp.String(interp.ShapeString(a.A.Shape()) + "@" + interp.ShapeString(b.A.Shape())), nil
	}}
	var out strings.Builder
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: env})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := "let a = zeros([2, 3])\nfn f(matmul) { return a @ a.T }\nprint(f(1), a[0] @ a.T)\n"
	if err := in.Exec(context.Background(), "t.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "[2, 3]@[3, 2] [3]@[3, 2]\n" {
		t.Errorf("printed %q", got)
	}
}

// A slice assignment of the wrong shape writes nothing, and the message
// names both shapes at the assignment.
func TestAssignViewWrongShapeWritesNothing(t *testing.T) {
	var out strings.Builder
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx := context.Background()
	if _, err := in.ExecREPL(ctx, "a.gs", []byte("array m: f32[2, 3] = 1\narray v: f32[2] = 5")); err != nil {
		t.Fatal(err)
	}
	_, err = in.ExecREPL(ctx, "b.gs", []byte("m[:, :] = v"))
	if err == nil || !strings.Contains(err.Error(), "b.gs:1:2: cannot assign an array of shape [2] to a view of shape [2, 3]") {
		t.Fatalf("error %v", err)
	}
	if _, err := in.ExecREPL(ctx, "c.gs", []byte("print(m)")); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]\n" {
		t.Errorf("after the failed assignment: %q", got)
	}
}
