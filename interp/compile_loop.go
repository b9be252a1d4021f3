package interp

import (
	"errors"
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// loopBody runs a loop body once: done when the loop ends (break, return
// or an error).
func loopBody(th *Thread, fr *frame, body execFn, pos ast.Pos) (ctrl, bool, error) {
	if err := th.step(); err != nil {
		return ctrlNone, true, th.errorAt(pos, err)
	}
	switch r, err := body(th, fr); {
	case err != nil:
		return ctrlNone, true, err
	case r == ctrlBreak:
		return ctrlNone, true, nil
	case r == ctrlReturn:
		return r, true, nil
	}
	return ctrlNone, false, nil
}

func (c *compiler) forStmt(s *ast.ForStmt) execFn {
	body := c.block(s.Body.Stmts)
	if call, ok := s.Iter.(*ast.CallExpr); ok && isPredeclared(call.Fun, "range") && len(s.Vars) == 0 {
		return c.forRange(s, call, body)
	}
	bind := c.loopVars(s)
	it := c.value(s.Iter)
	pos, iterPos := s.Pos, s.Iter.Start()
	return func(th *Thread, fr *frame) (ctrl, error) {
		x, err := it(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		if l, ok := x.v.(*List); ok {
			return forList(th, fr, l.iter(), bind, body, pos, iterPos)
		}
		iter, err := th.Iter(x.box())
		if err != nil {
			return ctrlNone, th.errorAt(iterPos, err)
		}
		for {
			v, ok, err := iter.Next()
			if err != nil {
				return ctrlNone, th.errorAt(iterPos, err)
			}
			if !ok {
				return ctrlNone, nil
			}
			if err := bind(th, fr, valCell(v)); err != nil {
				return ctrlNone, th.errorAt(pos, err)
			}
			if r, done, err := loopBody(th, fr, body, pos); done {
				return r, err
			}
		}
	}
}

// forList is `for v in l`: the elements are read as cells, so an int or
// float list's stay unboxed.
func forList(th *Thread, fr *frame, it *listIter, bind setFn, body execFn, pos, iterPos ast.Pos) (ctrl, error) {
	for {
		v, ok, err := it.nextCell()
		if err != nil {
			return ctrlNone, th.errorAt(iterPos, err)
		}
		if !ok {
			return ctrlNone, nil
		}
		if err := bind(th, fr, v); err != nil {
			return ctrlNone, th.errorAt(pos, err)
		}
		if r, done, err := loopBody(th, fr, body, pos); done {
			return r, err
		}
	}
}

// loopVars compiles the binding of a loop's element: one name, or several
// that unpack it. A single name the body never reads is not stored.
func (c *compiler) loopVars(s *ast.ForStmt) setFn {
	if len(s.Vars) == 0 {
		if !s.VarUsed {
			return func(*Thread, *frame, cell) error { return nil }
		}
		set := c.storer(s.Var)
		return func(th *Thread, fr *frame, v cell) error {
			set(th, fr, v)
			return nil
		}
	}
	sets := make([]func(*Thread, *frame, cell), len(s.Vars))
	for i, id := range s.Vars {
		sets[i] = c.storer(id)
	}
	return func(th *Thread, fr *frame, v cell) error {
		var buf [4]cell
		elems := valueBuf(buf[:], len(sets))
		if err := th.unpackCells(v.box(), elems); err != nil {
			return err
		}
		for i, set := range sets {
			set(th, fr, elems[i])
		}
		return nil
	}
}

// forRange is `for i in range(...)`: the ints are made as they are needed,
// unboxed, never as a list.
func (c *compiler) forRange(s *ast.ForStmt, call *ast.CallExpr, body execFn) execFn {
	args := c.rangeArgs(call)
	pos := s.Pos
	var set func(*Thread, *frame, cell)
	slot, local, direct := 0, false, false
	if s.VarUsed {
		set = c.storer(s.Var)
		slot, local, direct = directSlot(s.Var)
	}
	return func(th *Thread, fr *frame) (ctrl, error) {
		lo, hi, step, err := args(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		// Counting the iterations first keeps the counter from overflowing:
		// the step after the last value is never taken.
		i := lo
		for n := RangeLen(lo, hi, step); n > 0; n, i = n-1, i+step {
			switch {
			case direct && local:
				fr.slots[slot] = cell{intTag, uint64(i)}
			case direct:
				th.globals.vals[slot] = cell{intTag, uint64(i)}
			case set != nil:
				set(th, fr, intCell(i))
			}
			// loopBody's work, inline: a range loop is the host's hottest.
			if err := th.step(); err != nil {
				return ctrlNone, th.errorAt(pos, err)
			}
			switch r, err := body(th, fr); {
			case err != nil:
				return ctrlNone, err
			case r == ctrlBreak:
				return ctrlNone, nil
			case r == ctrlReturn:
				return r, nil
			}
		}
		return ctrlNone, nil
	}
}

// rangeArgs compiles range(stop) / range(start, stop[, step]).
func (c *compiler) rangeArgs(call *ast.CallExpr) func(th *Thread, fr *frame) (lo, hi, step int64, err error) {
	if len(call.Kwargs) > 0 || len(call.Args) < 1 || len(call.Args) > 3 {
		pos := call.Lparen
		return func(th *Thread, _ *frame) (int64, int64, int64, error) {
			return 0, 0, 0, th.errorAt(pos, fmt.Errorf("range takes 1 to 3 int arguments"))
		}
	}
	fs := c.values(call.Args)
	starts := make([]ast.Pos, len(call.Args))
	for i, a := range call.Args {
		starts[i] = a.Start()
	}
	return func(th *Thread, fr *frame) (lo, hi, step int64, err error) {
		var vals [3]int64
		for i, f := range fs {
			v, err := f(th, fr)
			if err != nil {
				return 0, 0, 0, err
			}
			n, ok := v.asInt()
			if !ok {
				return 0, 0, 0, th.errorAt(starts[i], fmt.Errorf("range argument must be an int, not %s", v.box().Type()))
			}
			vals[i] = n
		}
		lo, step = 0, 1
		switch len(fs) {
		case 1:
			hi = vals[0]
		case 2:
			lo, hi = vals[0], vals[1]
		case 3:
			lo, hi, step = vals[0], vals[1], vals[2]
		}
		if step == 0 {
			return 0, 0, 0, th.errorAt(starts[2], fmt.Errorf("range step must not be zero"))
		}
		return lo, hi, step, nil
	}
}

func isPredeclared(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name && id.Scope == ast.ScopePredeclared
}

// RangeLen is the number of values of range(lo, hi, step), computed
// without overflow (the distance between two int64s fits a uint64).
func RangeLen(lo, hi, step int64) uint64 {
	switch {
	case step > 0 && lo < hi:
		return (uint64(hi)-uint64(lo)-1)/uint64(step) + 1
	case step < 0 && lo > hi:
		return (uint64(lo)-uint64(hi)-1)/(-uint64(step)) + 1
	}
	return 0
}

// try compiles `try { } catch e { }` (HOST.md section 3): a script error
// raised in the body, in a fn it calls or in a builtin, runs the catch
// block with e bound to the error; the limits an embedder set are not
// catchable (catchable).
func (c *compiler) try(s *ast.TryStmt) execFn {
	body := c.block(s.Body.Stmts)
	handler := c.block(s.Catch.Stmts)
	var set func(*Thread, *frame, cell)
	if s.Var != nil {
		set = c.storer(s.Var)
	}
	return func(th *Thread, fr *frame) (ctrl, error) {
		depth, nest := th.depth, th.evalDepth
		r, err := body(th, fr)
		if err == nil || !catchable(err) {
			return r, err
		}
		th.depth, th.evalDepth = depth, nest
		if set != nil {
			set(th, fr, cell{v: newErrorValue(err)})
		}
		return handler(th, fr)
	}
}

// uncatchable are the errors try leaves alone (catchable).
var uncatchable = []error{ErrInterrupted, errStepBudget, backend.ErrStepBudget, errDepth, errEvalDepth, ErrClosed, mem.ErrMemoryLimit}

// catchable reports whether try may catch err: not an interrupt, a step,
// depth or memory limit, or a closed interpreter, so that an embedder's
// limits hold whatever the script does.
func catchable(err error) bool {
	for _, target := range uncatchable {
		if errors.Is(err, target) {
			return false
		}
	}
	var ee *EvalError
	return !errors.As(err, &ee) || !ee.internal
}
