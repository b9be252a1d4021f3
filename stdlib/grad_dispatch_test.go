package stdlib_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
)

// TestGradRefused: a builtin without a backward, given an array that
// requires a gradient inside a tape, fails at the call; outside a tape,
// or given arrays that need no gradient, it runs.
func TestGradRefused(t *testing.T) {
	for _, body := range []string{
		"let y = cumprod(x)", "let y = sort(x)", "let y = tile(x, 2)", "let y = nansum(x)",
		"let y = unique(x)", "let y = outer(x, x)", "let y = roll(x, 1)",
	} {
		in := newGradInterp(t)
		execGS(t, in, "let x = array([3.0, 1.0, 2.0], requires_grad=true)\nlet c = array([3.0, 1.0, 2.0])")
		tp := interp.NewTape("t")
		err := in.Record(tp, func() error { return in.Exec(context.Background(), "b.gs", []byte(body)) })
		name := strings.TrimPrefix(strings.SplitN(body, "(", 2)[0], "let y = ")
		if err == nil || !strings.Contains(err.Error(), name+" is not differentiable yet") {
			t.Errorf("%s on a tape: got %v, want %q", body, err, name+" is not differentiable yet")
		}
		plain := strings.ReplaceAll(body, "x", "c")
		if err := in.Record(tp, func() error { return in.Exec(context.Background(), "c.gs", []byte(plain)) }); err != nil {
			t.Errorf("%s on a tape (no gradient needed): %v", plain, err)
		}
		execGS(t, in, body)
	}
}

// TestGradFreeBuiltins: builtins whose results carry no gradient run on
// a tape with arrays that require one.
func TestGradFreeBuiltins(t *testing.T) {
	in := newGradInterp(t)
	execGS(t, in, "let x = array([3.0, 1.0, 2.0], requires_grad=true)")
	tp := interp.NewTape("t")
	body := "let i = argmax(x)\nlet n = len(x)\nlet s = argsort(x)\nlet ok = allclose(x, x)\nprint(x)\nlet pos = sum(x > 1.0)"
	if err := in.Record(tp, func() error { return in.Exec(context.Background(), "b.gs", []byte(body)) }); err != nil {
		t.Fatal(err)
	}
	if tp.Len() != 0 {
		t.Fatalf("recorded %d operations, want none", tp.Len())
	}
}

// TestGradViewsRecordNothing: views of an array that requires a gradient
// (a.T, transpose, a reshape that needs no copy, a slice) are not
// recorded: their gradients are views of its gradient (TestGradCopies
// checks the values).
func TestGradViewsRecordNothing(t *testing.T) {
	in := newGradInterp(t)
	execGS(t, in, "let x = array([[3.0, 1.0, 2.0], [0.5, 1.5, 2.5]], requires_grad=true)")
	tp := interp.NewTape("t")
	body := "let a = x.T\nlet b = transpose(x, [1, 0])\nlet c = reshape(x, [3, 2])\nlet d = x[1]\nlet e = x.reshape([6])"
	if err := in.Record(tp, func() error { return in.Exec(context.Background(), "b.gs", []byte(body)) }); err != nil {
		t.Fatal(err)
	}
	if tp.Len() != 0 {
		t.Fatalf("views recorded %d operations, want none", tp.Len())
	}
	if err := in.Record(tp, func() error { return in.Exec(context.Background(), "c.gs", []byte("let f = reshape(x.T, [6])")) }); err != nil {
		t.Fatal(err)
	}
	if tp.Len() != 1 {
		t.Fatalf("a reshape that copies recorded %d operations, want 1", tp.Len())
	}
}
