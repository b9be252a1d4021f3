package interp_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/stdlib"
)

// FuzzExec parses, checks and runs arbitrary scripts: no input may panic
// (a panic recovered by the interpreter shows as "internal error"), hang
// past its deadline, or report an error without a position.
func FuzzExec(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.gs")
	examples, _ := filepath.Glob("../examples/*.gs")
	for _, path := range append(files, examples...) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, chunk := range strings.Split(string(data), "\n---\n") {
			f.Add(chunk)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		in, err := interp.New(interp.Options{
			Stdout: io.Discard, Stderr: io.Discard, Predeclared: stdlib.Universe(),
			MemoryLimit: 64 << 20,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		err = in.Exec(ctx, "fuzz.gs", []byte(src))
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("ran %v past a 200ms deadline", d)
		}
		if err == nil {
			return
		}
		if strings.Contains(err.Error(), "internal error") {
			t.Fatalf("panic inside the interpreter: %v", err)
		}
		var list ast.ErrorList
		var ee *interp.EvalError
		switch {
		case errors.As(err, &list):
			for _, e := range list {
				if !e.Pos.IsValid() {
					t.Fatalf("compile error without a position: %v", e)
				}
			}
		case errors.As(err, &ee):
			if !ee.Pos.IsValid() {
				t.Fatalf("run-time error without a position: %v", err)
			}
		default:
			t.Fatalf("error of type %T is neither an ErrorList nor an EvalError: %v", err, err)
		}
	})
}
