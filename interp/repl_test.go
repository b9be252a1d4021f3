package interp_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/stdlib"
)

func TestExecREPLKeepsStateAcrossEntries(t *testing.T) {
	var out bytes.Buffer
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx := context.Background()
	steps := []struct {
		src, value, errRe string
	}{
		{src: "let x = 40"},
		{src: "x + 2", value: "42"},
		{src: "_ * 2", value: "84"},
		{src: "print(\"side effect\")"},
		{src: "let y = undefined_name", errRe: "undefined"},
		{src: "y", errRe: "undefined: y"}, // the failed entry defined nothing
		{src: "1 / 0", errRe: "division by zero"},
		{src: "x", value: "40"}, // state survives errors
		{src: "kernel k(a: array[f32]) { a[tid()] = 2.0 }\narray z: f32[3]\nlaunch k[3](z)\nz", value: "[2.0, 2.0, 2.0]"},
	}
	for _, s := range steps {
		v, err := in.ExecREPL(ctx, "<repl>", []byte(s.src))
		switch {
		case s.errRe != "":
			var list ast.ErrorList
			var ee *interp.EvalError
			if err == nil || !(errors.As(err, &list) || errors.As(err, &ee)) {
				t.Errorf("%q: error %v, want %q", s.src, err, s.errRe)
			}
		case err != nil:
			t.Errorf("%q: %v", s.src, err)
		case s.value == "" && v != nil:
			t.Errorf("%q gave value %v", s.src, v)
		case s.value != "" && (v == nil || v.String() != s.value):
			t.Errorf("%q = %v, want %s", s.src, v, s.value)
		}
	}
	if out.String() != "side effect\n" {
		t.Errorf("output %q", out.String())
	}
}
