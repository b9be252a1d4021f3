package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/token"
)

// The nodes below are the engine's superinstructions: the shapes host
// loops and recursion spend their time in (`n - 1`, `i < n`, `s += i`)
// compiled into one closure each, reading a slot of the running fn or an
// int literal directly instead of through an operand's closure. Anything
// but two ints takes the node's general path.

// intLiteral is e's value when e is an int literal.
func intLiteral(e ast.Expr) (int64, cell, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok {
		return 0, cell{}, false
	}
	v, err := literal(lit)
	i, isInt := v.(Int)
	if err != nil || !isInt {
		return 0, cell{}, false
	}
	return int64(i), cell{v: v}, true
}

// localSlot is e's slot when e names a local of the running fn.
func localSlot(e ast.Expr) (*ast.Ident, bool) {
	id, ok := e.(*ast.Ident)
	return id, ok && id.Scope == ast.ScopeLocal && id.Depth == 0
}

// constOperand compiles x + k and x - k for an int literal k, or returns
// nil.
func (c *compiler) constOperand(e *ast.BinaryExpr, slow func(*Thread, cell, cell) (cell, error)) evalFn {
	k, kc, ok := intLiteral(e.Y)
	if !ok || (e.Op != token.Add && e.Op != token.Sub) {
		return nil
	}
	op := e.Op
	if op == token.Sub {
		k = -k // a literal is not negative: -k cannot overflow
	}
	if id, ok := localSlot(e.X); ok {
		i := id.Index
		return func(th *Thread, fr *frame) (cell, error) {
			a := fr.slots[i]
			if ai, ok := a.asInt(); ok {
				if r := ai + k; (r > ai) == (k > 0) {
					return intCell(r), nil
				}
			}
			if !a.set() {
				return cell{}, th.undefined(id)
			}
			return arithOrSlow(th, op, a, kc, slow) // a float: x - 1 of 0.5
		}
	}
	x := c.operand(e.X)
	return func(th *Thread, fr *frame) (cell, error) {
		a, err := x(th, fr)
		if err != nil {
			return a, err
		}
		if ai, ok := a.asInt(); ok {
			if r := ai + k; (r > ai) == (k > 0) {
				return intCell(r), nil
			}
		}
		return arithOrSlow(th, op, a, kc, slow)
	}
}

// compareConst compiles the condition x < k (and the other comparisons)
// for an int literal k, or returns nil.
func (c *compiler) compareConst(e *ast.BinaryExpr, slow func(*Thread, cell, cell) (cell, error)) condFn {
	k, kc, ok := intLiteral(e.Y)
	if !ok {
		return nil
	}
	op, pos := e.Op, e.OpPos
	general := func(th *Thread, a cell) (bool, error) {
		if r, ok := compareCells(op, a, kc); ok {
			return r, nil
		}
		v, err := slow(th, a, kc)
		if err != nil {
			return false, err
		}
		return condValue(th, pos, v)
	}
	if id, ok := localSlot(e.X); ok {
		i := id.Index
		return func(th *Thread, fr *frame) (bool, error) {
			a := fr.slots[i]
			if ai, ok := a.asInt(); ok {
				return intCompare(op, ai, k), nil
			}
			if !a.set() {
				return false, th.undefined(id)
			}
			return general(th, a)
		}
	}
	x := c.operand(e.X)
	return func(th *Thread, fr *frame) (bool, error) {
		a, err := x(th, fr)
		if err != nil {
			return false, err
		}
		if ai, ok := a.asInt(); ok {
			return intCompare(op, ai, k), nil
		}
		return general(th, a)
	}
}

// intCompare is a op b for a comparison operator.
func intCompare(op token.Op, a, b int64) bool {
	switch op {
	case token.Lss:
		return a < b
	case token.Leq:
		return a <= b
	case token.Gtr:
		return a > b
	case token.Geq:
		return a >= b
	case token.Eql:
		return a == b
	}
	return a != b
}

// slotCompare is e's parts when e is `x op k` (parenthesised or not) for
// x a local of the running fn and k an int literal: the guard of a
// recursion (`if n < 2`), which ifStmt tests without a condition's call.
func slotCompare(e ast.Expr) (slot int, op token.Op, k int64, ok bool) {
	e = unparen(e)
	b, isBin := e.(*ast.BinaryExpr)
	if !isBin || !isComparison(b.Op) {
		return 0, 0, 0, false
	}
	id, isLocal := localSlot(b.X)
	k, _, isInt := intLiteral(b.Y)
	if !isLocal || !isInt {
		return 0, 0, 0, false
	}
	return id.Index, b.Op, k, true
}

// condValue is a comparison's value as a condition.
func condValue(th *Thread, pos ast.Pos, v cell) (bool, error) {
	r, ok := v.v.(Bool)
	if !ok { // an array's elementwise comparison
		return false, th.errorAt(pos, fmt.Errorf("condition must be a bool, not %s", v.box().Type()))
	}
	return bool(r), nil
}

// directSlot says where a variable's cell is when the engine can address
// it without a closure: a local of the running fn or a global.
func directSlot(id *ast.Ident) (index int, local, ok bool) {
	switch {
	case id.Scope == ast.ScopeLocal && id.Depth == 0:
		return id.Index, true, true
	case id.Scope == ast.ScopeGlobal:
		return id.Index, false, true
	}
	return 0, false, false
}

// compoundSlot compiles `x op= v` for a variable the engine addresses
// directly; two ints or two floats are combined in place, a string
// appended to a string builds it in a buffer, anything else (and any
// error, which general positions) goes to general (compoundIdent's path).
func (c *compiler) compoundSlot(t *ast.Ident, op token.Op, v evalFn, general func(th *Thread, fr *frame, old, x cell) (ctrl, error)) execFn {
	i, local, ok := directSlot(t)
	if !ok {
		return nil
	}
	return func(th *Thread, fr *frame) (ctrl, error) {
		x, err := v(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		var p *cell
		if local {
			p = &fr.slots[i]
		} else {
			p = &th.globals.vals[i]
		}
		if _, ok := p.v.(intMark); ok && op == token.Add {
			if _, ok := x.v.(intMark); ok { // s += i, compoundCell's first case, inline
				if a, b := int64(p.n), int64(x.n); (a+b > a) == (b > 0) {
					p.n = uint64(a + b)
					return ctrlNone, nil
				}
			}
		}
		if th.compoundCell(p, op, x) {
			return ctrlNone, nil
		}
		old := *p
		if !old.set() {
			return ctrlNone, th.undefined(t)
		}
		return general(th, fr, old, x)
	}
}

// compoundCell is `*p op= x` when it takes the engine's unboxed way: two
// ints or two floats combined in place, or a string appended to a string
// being built (strs.go). False leaves *p alone, for the general path
// (which words any error).
func (th *Thread) compoundCell(p *cell, op token.Op, x cell) bool {
	old := *p
	if _, ok := old.v.(intMark); ok && op == token.Add {
		b, isInt := int64(x.n), false
		switch xv := x.v.(type) {
		case intMark:
			isInt = true
		case Int: // an element of a list, a builtin's result
			b, isInt = int64(xv), true
		}
		if a := int64(old.n); isInt {
			if r := a + b; (r > a) == (b > 0) {
				p.n = uint64(r)
				return true
			}
		}
	} else if op == token.Add && old.v != nil {
		if r, ok, err := th.appendCell(old, x); ok && err == nil {
			*p = r
			return true
		}
	}
	if r, ok, err := arith(op, old, x); ok && err == nil {
		*p = r
		return true
	}
	return false
}
