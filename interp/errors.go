package interp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// CallFrame is one fn call in a backtrace: the fn's name and the position of
// the call.
type CallFrame struct {
	Name string
	Pos  ast.Pos
}

// EvalError is a run-time error: a position, a message, the chain of fn
// calls that led there (innermost first) and the Go cause, if any.
type EvalError struct {
	Pos       ast.Pos
	Msg       string
	Backtrace []CallFrame
	Cause     error
	internal  bool // a Go panic turned into an error: not catchable
}

// Error formats the error as `file:line:col: message` followed by one
// `  in NAME (file:line:col)` line per fn call, innermost first: at most
// the first and last backtraceEnds calls, with a line counting those left
// out between them, and a run of one call repeated (deep recursion)
// printed once with its count.
func (e *EvalError) Error() string {
	var b strings.Builder
	b.WriteString(e.Pos.String())
	b.WriteString(": ")
	b.WriteString(e.Msg)
	bt := e.Backtrace
	if len(bt) <= 2*backtraceEnds {
		writeFrames(&b, bt)
		return b.String()
	}
	writeFrames(&b, bt[:backtraceEnds])
	fmt.Fprintf(&b, "\n  ... %d more calls", len(bt)-2*backtraceEnds)
	writeFrames(&b, bt[len(bt)-backtraceEnds:])
	return b.String()
}

// backtraceEnds is how many calls an error prints from each end of its
// backtrace.
const backtraceEnds = 10

func writeFrames(b *strings.Builder, bt []CallFrame) {
	for i := 0; i < len(bt); i++ {
		f := bt[i]
		b.WriteString("\n  in ")
		b.WriteString(f.Name)
		b.WriteString(" (")
		b.WriteString(f.Pos.String())
		b.WriteString(")")
		n := 0
		for i+1 < len(bt) && bt[i+1] == f {
			i++
			n++
		}
		if n > 0 {
			fmt.Fprintf(b, "\n  ... repeated %d more times", n)
		}
	}
}

// Unwrap returns the Go cause.
func (e *EvalError) Unwrap() error { return e.Cause }

// errorAt turns err into an *EvalError at pos with the current backtrace.
// An *EvalError passes through unchanged: the innermost position wins.
func (th *Thread) errorAt(pos ast.Pos, err error) error {
	if err == nil {
		return nil
	}
	var ee *EvalError
	if errors.As(err, &ee) {
		return err
	}
	return &EvalError{Pos: pos, Msg: err.Error(), Backtrace: th.backtrace(), Cause: err}
}

func (th *Thread) backtrace() []CallFrame {
	if th.depth == 0 {
		return nil
	}
	bt := make([]CallFrame, th.depth)
	for i, c := range th.stack[:th.depth] {
		bt[th.depth-1-i] = CallFrame{Name: c.fn.Name.Name, Pos: *c.pos}
	}
	return bt
}

// freedError is mem.ErrFreed naming the variable that holds the freed
// array; errors.Is still finds mem.ErrFreed.
type freedError struct{ name string }

func (e *freedError) Error() string { return "array " + e.name + " has been freed" }
func (e *freedError) Unwrap() error { return mem.ErrFreed }

// nameFreed is err, when it is mem.ErrFreed from an operator or a call,
// naming the first operand that is a variable holding a freed array
// (exprs[i] evaluated to vals[i]): "array a has been freed", not a bare
// "array has been freed". A positioned error (from a fn called) and any
// other error pass unchanged.
func nameFreed(err error, exprs []ast.Expr, vals []Value) error {
	var ee *EvalError
	if !errors.Is(err, mem.ErrFreed) || errors.As(err, &ee) {
		return err
	}
	for i, e := range exprs[:min(len(exprs), len(vals))] {
		id, isName := e.(*ast.Ident)
		if a, ok := vals[i].(*Array); isName && ok && a.A.Freed() {
			return &freedError{id.Name}
		}
	}
	return err
}
