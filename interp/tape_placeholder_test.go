package interp_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestTapePlaceholder: until the tape runtime lands, a tape block is a
// positioned run-time error at its keyword, whatever its body. (The lead
// replaces this test with tape_placeholder.go.)
func TestTapePlaceholder(t *testing.T) {
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	err = in.Exec(context.Background(), "t.gs", []byte("let x = 1\n  tape t {\n    x = 2\n}\n"))
	var ee *interp.EvalError
	if !errors.As(err, &ee) || ee.Msg != "tape blocks are not yet supported" || ee.Pos.String() != "t.gs:2:3" {
		t.Fatalf("error %v, want t.gs:2:3: tape blocks are not yet supported", err)
	}
}
