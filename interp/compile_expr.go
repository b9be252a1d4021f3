package interp

import (
	"errors"
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/token"
)

// value compiles an expression whose array expression, if any, is
// materialised (one fused kernel): every consumer of a value but an
// operator gets a computed one.
func (c *compiler) value(e ast.Expr) evalFn {
	if b, ok := e.(*ast.BinaryExpr); ok && !b.Op.IsLogical() && !isComparison(b.Op) && b.Op != token.MatMul {
		// An operator materialises on its general path only: two ints
		// added are never an array expression.
		c.nest++
		defer func() { c.nest-- }()
		c.maxNest = max(c.maxNest, c.nest)
		return c.arithmetic(b, true)
	}
	f := c.operand(e)
	switch e.(type) {
	case *ast.BinaryExpr, *ast.UnaryExpr, *ast.CallExpr, *ast.AttrExpr, *ast.ParenExpr, *ast.IndexExpr:
	default:
		return f // never deferred
	}
	pos := e.Start()
	return func(th *Thread, fr *frame) (cell, error) {
		v, err := f(th, fr)
		if err != nil {
			return v, err
		}
		if _, ok := v.v.(Deferred); !ok {
			return v, nil
		}
		if v, err = th.mat(v); err != nil {
			return v, th.errorAt(pos, err)
		}
		return v, nil
	}
}

// mat materialises a deferred array expression.
func (th *Thread) mat(c cell) (cell, error) {
	d, ok := c.v.(Deferred)
	if !ok {
		return c, nil
	}
	v, err := d.Materialise(th)
	return cell{v: v}, err
}

func (c *compiler) values(es []ast.Expr) []evalFn {
	out := make([]evalFn, len(es))
	for i, e := range es {
		out[i] = c.value(e)
	}
	return out
}

// operand compiles an expression, leaving an array expression deferred
// (the operands of operators).
func (c *compiler) operand(e ast.Expr) evalFn {
	c.nest++
	if c.nest > c.maxNest {
		c.maxNest = c.nest
	}
	f := c.expr(e)
	c.nest--
	return f
}

func (c *compiler) expr(e ast.Expr) evalFn {
	switch e := e.(type) {
	case *ast.Ident:
		return c.loader(e)
	case *ast.BasicLit:
		return constFn(literal(e))
	case *ast.BoolLit:
		return constFn(Bool(e.Value), nil)
	case *ast.NilLit:
		return constFn(Nil, nil)
	case *ast.ParenExpr:
		return c.operand(e.X)
	case *ast.ListLit:
		return c.list(e)
	case *ast.DictLit:
		return c.dict(e)
	case *ast.UnaryExpr:
		return c.unary(e)
	case *ast.BinaryExpr:
		return c.binary(e)
	case *ast.CallExpr:
		return c.call(e)
	case *ast.IndexExpr:
		return c.index(e)
	case *ast.AttrExpr:
		return c.attr(e)
	}
	pos := e.Start()
	err := fmt.Errorf("unsupported expression %T", e)
	return func(th *Thread, _ *frame) (cell, error) { return cell{}, th.errorAt(pos, err) }
}

// constFn is an expression of one value, boxed once (passing it on
// allocates nothing), or a compile-time error raised when it runs.
func constFn(v Value, err error) evalFn {
	if err != nil {
		return func(*Thread, *frame) (cell, error) { return cell{}, err }
	}
	x := cell{v: v}
	return func(*Thread, *frame) (cell, error) { return x, nil }
}

func literal(e *ast.BasicLit) (Value, error) {
	switch v := e.Value.(type) {
	case uint64:
		if v > 1<<63-1 {
			return nil, &EvalError{Pos: e.Pos, Msg: fmt.Sprintf("integer literal %s overflows int", e.Raw)}
		}
		return Int(v), nil
	case float64:
		return Float(v), nil
	case string:
		return String(v), nil
	}
	return nil, &EvalError{Pos: e.Pos, Msg: fmt.Sprintf("bad literal %s", e.Raw)}
}

// loader compiles the read of a resolved name.
func (c *compiler) loader(id *ast.Ident) evalFn {
	i := id.Index
	switch id.Scope {
	case ast.ScopeLocal:
		if d := id.Depth; d > 0 {
			return func(th *Thread, fr *frame) (cell, error) {
				for k := d; k > 0; k-- {
					fr = fr.parent
				}
				if v := fr.slots[i]; v.v != nil {
					return v, nil
				}
				return cell{}, th.undefined(id)
			}
		}
		return func(th *Thread, fr *frame) (cell, error) {
			if v := fr.slots[i]; v.v != nil {
				return v, nil
			}
			return cell{}, th.undefined(id)
		}
	case ast.ScopeGlobal:
		return func(th *Thread, _ *frame) (cell, error) {
			if v := th.globals.vals[i]; v.v != nil {
				return v, nil
			}
			return cell{}, th.undefined(id)
		}
	}
	name := id.Name
	return func(th *Thread, _ *frame) (cell, error) {
		if v, ok := th.in.predeclared[name]; ok && v != nil {
			return cell{v: v}, nil
		}
		return cell{}, th.undefined(id)
	}
}

func (th *Thread) undefined(id *ast.Ident) error {
	return th.errorAt(id.Pos, fmt.Errorf("%s is used before it is defined", id.Name))
}

func (c *compiler) list(e *ast.ListLit) evalFn {
	elems := c.values(e.Elems)
	return func(th *Thread, fr *frame) (cell, error) {
		var buf [8]cell
		cs := valueBuf(buf[:], len(elems))
		for i, f := range elems {
			var err error
			if cs[i], err = f(th, fr); err != nil {
				return cell{}, err
			}
		}
		return cell{v: listOfCells(cs)}, nil
	}
}

func (c *compiler) dict(e *ast.DictLit) evalFn {
	keys, vals := c.values(e.Keys), c.values(e.Values)
	return func(th *Thread, fr *frame) (cell, error) {
		d := NewDict()
		for i := range keys {
			k, err := keys[i](th, fr)
			if err != nil {
				return cell{}, err
			}
			v, err := vals[i](th, fr)
			if err != nil {
				return cell{}, err
			}
			if err := d.Set(th, k.box(), v.box()); err != nil {
				return cell{}, th.errorAt(e.Keys[i].Start(), err)
			}
		}
		return cell{v: d}, nil
	}
}

func (c *compiler) unary(e *ast.UnaryExpr) evalFn {
	if lit, ok := e.X.(*ast.BasicLit); ok && e.Op == token.Sub {
		// -1000 is a constant, boxed once.
		if v, err := literal(lit); err == nil {
			if n, err := negate(v); err == nil {
				return constFn(n, nil)
			}
		}
	}
	x := c.operand(e.X)
	op, pos := e.Op, e.Pos
	exprs := []ast.Expr{e.X}
	return func(th *Thread, fr *frame) (cell, error) {
		v, err := x(th, fr)
		if err != nil {
			return v, err
		}
		if op == token.Sub {
			if i, ok := v.asInt(); ok && i != math.MinInt64 {
				return intCell(-i), nil
			}
			if f, ok := v.asFloat(); ok {
				return floatCell(-f), nil
			}
		}
		r, err := th.unaryOp(op, v.box())
		if err != nil {
			return cell{}, th.errorAt(pos, nameFreed(err, exprs, []Value{v.box()}))
		}
		return cell{v: r}, nil
	}
}

// binary compiles a binary operator. Ints and floats take an unboxed path
// (arith, compareCells); anything else, and any error, goes through
// binary() with the operands boxed, the one definition of the operators.
func (c *compiler) binary(e *ast.BinaryExpr) evalFn {
	if isComparison(e.Op) {
		return c.compare(e)
	}
	if e.Op.IsLogical() {
		cond := c.logical(e)
		return func(th *Thread, fr *frame) (cell, error) {
			b, err := cond(th, fr)
			return boolCell(b), err
		}
	}
	if e.Op != token.MatMul {
		return c.arithmetic(e, false)
	}
	x, y := c.operand(e.X), c.operand(e.Y)
	return func(th *Thread, fr *frame) (cell, error) {
		a, b, err := evalPair(th, fr, x, y)
		if err != nil {
			return cell{}, err
		}
		v, err := th.matmulOp(e, a.box(), b.box())
		return cell{v: v}, th.errorAt(e.OpPos, err)
	}
}

// arithmetic compiles an arithmetic or bit operator; with mat, an array
// expression it makes is materialised (value's context).
func (c *compiler) arithmetic(e *ast.BinaryExpr, mat bool) evalFn {
	op := e.Op
	slow := c.arithSlow(e, mat)
	if f := c.constOperand(e, slow); f != nil {
		return f
	}
	x, y := c.operand(e.X), c.operand(e.Y)
	// + and - of two ints, the host's commonest operators, are checked
	// inline, without arith's call and intOp's switch.
	switch op {
	case token.Add:
		return func(th *Thread, fr *frame) (cell, error) {
			a, b, err := evalPair(th, fr, x, y)
			if err != nil {
				return cell{}, err
			}
			if ai, ok := a.asInt(); ok {
				if bi, ok := b.asInt(); ok {
					if r := ai + bi; (r > ai) == (bi > 0) {
						return intCell(r), nil
					}
				}
			}
			return arithOrSlow(th, op, a, b, slow)
		}
	case token.Sub:
		return func(th *Thread, fr *frame) (cell, error) {
			a, b, err := evalPair(th, fr, x, y)
			if err != nil {
				return cell{}, err
			}
			if ai, ok := a.asInt(); ok {
				if bi, ok := b.asInt(); ok {
					if r := ai - bi; (r < ai) == (bi > 0) {
						return intCell(r), nil
					}
				}
			}
			return arithOrSlow(th, op, a, b, slow)
		}
	}
	return func(th *Thread, fr *frame) (cell, error) {
		a, b, err := evalPair(th, fr, x, y)
		if err != nil {
			return cell{}, err
		}
		return arithOrSlow(th, op, a, b, slow)
	}
}

// arithSlow is the general path of an arithmetic or bit operator:
// binary() on the operands boxed, its errors positioned; with mat, an
// array expression it makes is materialised.
func (c *compiler) arithSlow(e *ast.BinaryExpr, mat bool) func(th *Thread, a, b cell) (cell, error) {
	op, pos := e.Op, e.OpPos
	exprs := []ast.Expr{e.X, e.Y}
	return func(th *Thread, a, b cell) (cell, error) {
		av, bv := a.box(), b.box()
		v, err := binary(th, op, av, bv)
		if err != nil { // the operands' slices only on the error path: binary ops are the host's hot path
			return cell{}, th.errorAt(pos, nameFreed(err, exprs, []Value{av, bv}))
		}
		if d, ok := v.(Deferred); ok && mat {
			if v, err = d.Materialise(th); err != nil {
				return cell{}, th.errorAt(e.Start(), err)
			}
		}
		return cell{v: v}, nil
	}
}

func arithOrSlow(th *Thread, op token.Op, a, b cell, slow func(*Thread, cell, cell) (cell, error)) (cell, error) {
	if r, ok, err := arith(op, a, b); ok && err == nil {
		return r, nil
	}
	return slow(th, a, b) // an error is binary()'s to word
}

func evalPair(th *Thread, fr *frame, x, y evalFn) (cell, cell, error) {
	a, err := x(th, fr)
	if err != nil {
		return a, a, err
	}
	b, err := y(th, fr)
	return a, b, err
}

// intArith are the operators intOp computes for two host ints.
var intArith = [...]bool{token.Add: true, token.Sub: true, token.Mul: true, token.Quo: true, token.Rem: true,
	token.And: true, token.Or: true, token.Xor: true, token.Shl: true, token.Shr: true}

// arith is a op b for two ints or two floats, unboxed; ok is false for
// other operands and operators (binary() handles them).
func arith(op token.Op, a, b cell) (cell, bool, error) {
	ai, aInt := a.asInt()
	bi, bInt := b.asInt()
	if aInt && bInt {
		if int(op) >= len(intArith) || !intArith[op] {
			return cell{}, false, nil
		}
		r, err := intOp(op, ai, bi)
		return intCell(r), true, err
	}
	// A float, or an int with a float (i * 0.5): a float, as binary's
	// promotion gives.
	af, ok := a.asReal()
	if !ok {
		return cell{}, false, nil
	}
	bf, ok := b.asReal()
	if !ok {
		return cell{}, false, nil
	}
	switch op {
	case token.Add:
		return floatCell(af + bf), true, nil
	case token.Sub:
		return floatCell(af - bf), true, nil
	case token.Mul:
		return floatCell(af * bf), true, nil
	case token.Quo:
		return floatCell(af / bf), true, nil
	}
	return cell{}, false, nil
}

func isComparison(op token.Op) bool { return op.IsComparison() }

// unparen is e without the parentheses around it.
func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// cond compiles a condition: only bools are conditions. && and || short
// circuit; comparisons of two ints or two floats compare unboxed.
func (c *compiler) cond(e ast.Expr) condFn {
	pos := e.Start() // a condition's error is at its first token, parentheses included
	e = unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok {
		switch {
		case b.Op.IsLogical():
			return c.logical(b)
		case isComparison(b.Op):
			return c.comparison(b)
		}
	}
	f := c.value(e)
	return func(th *Thread, fr *frame) (bool, error) {
		v, err := f(th, fr)
		if err != nil {
			return false, err
		}
		b, ok := v.v.(Bool)
		if !ok {
			return false, th.errorAt(pos, fmt.Errorf("condition must be a bool, not %s", v.box().Type()))
		}
		return bool(b), nil
	}
}

func (c *compiler) logical(e *ast.BinaryExpr) condFn {
	x, y := c.cond(e.X), c.cond(e.Y)
	if e.Op == token.LOr {
		return func(th *Thread, fr *frame) (bool, error) {
			a, err := x(th, fr)
			if err != nil || a {
				return a, err
			}
			return y(th, fr)
		}
	}
	return func(th *Thread, fr *frame) (bool, error) {
		a, err := x(th, fr)
		if err != nil || !a {
			return a, err
		}
		return y(th, fr)
	}
}

// comparison compiles == != < <= > >= as a condition.
func (c *compiler) comparison(e *ast.BinaryExpr) condFn {
	slow := c.compareSlow(e)
	op, pos := e.Op, e.OpPos
	if f := c.compareConst(e, slow); f != nil {
		return f
	}
	x, y := c.operand(e.X), c.operand(e.Y)
	return func(th *Thread, fr *frame) (bool, error) {
		a, b, err := evalPair(th, fr, x, y)
		if err != nil {
			return false, err
		}
		if r, ok := compareCells(op, a, b); ok {
			return r, nil
		}
		v, err := slow(th, a, b)
		if err != nil {
			return false, err
		}
		return condValue(th, pos, v)
	}
}

// compare compiles == != < <= > >= as a value: a bool, or the bool array
// of an elementwise comparison.
func (c *compiler) compare(e *ast.BinaryExpr) evalFn {
	x, y := c.operand(e.X), c.operand(e.Y)
	slow := c.compareSlow(e)
	op := e.Op
	return func(th *Thread, fr *frame) (cell, error) {
		a, b, err := evalPair(th, fr, x, y)
		if err != nil {
			return cell{}, err
		}
		if r, ok := compareCells(op, a, b); ok {
			return boolCell(r), nil
		}
		return slow(th, a, b)
	}
}

// compareSlow is a comparison of anything but two ints or two floats.
func (c *compiler) compareSlow(e *ast.BinaryExpr) func(th *Thread, a, b cell) (cell, error) {
	op, pos := e.Op, e.OpPos
	exprs := []ast.Expr{e.X, e.Y}
	return func(th *Thread, a, b cell) (cell, error) {
		av, bv := a.box(), b.box()
		v, err := binary(th, op, av, bv)
		if err != nil {
			return cell{}, th.errorAt(pos, nameFreed(err, exprs, []Value{av, bv}))
		}
		return cell{v: v}, nil
	}
}

// compareCells compares two ints or two floats unboxed.
func compareCells(op token.Op, a, b cell) (bool, bool) {
	if ai, ok := a.asInt(); ok {
		bi, ok := b.asInt()
		if !ok {
			return false, false
		}
		return cmpResult(op, cmp3(ai < bi, ai > bi)), true
	}
	af, ok := a.asFloat()
	if !ok {
		return false, false
	}
	bf, ok := b.asFloat()
	if !ok {
		return false, false
	}
	if math.IsNaN(af) || math.IsNaN(bf) {
		return op == token.Neq, true
	}
	return cmpResult(op, cmp3(af < bf, af > bf)), true
}

func cmpResult(op token.Op, c int) bool {
	switch op {
	case token.Eql:
		return c == 0
	case token.Neq:
		return c != 0
	case token.Lss:
		return c < 0
	case token.Leq:
		return c <= 0
	case token.Gtr:
		return c > 0
	}
	return c >= 0
}

// matmulOp is a @ b: a call of the predeclared matmul (NumPy's operator),
// whatever a script binds to the name.
func (th *Thread) matmulOp(e *ast.BinaryExpr, x, y Value) (Value, error) {
	f, ok := th.in.predeclared["matmul"]
	if !ok {
		return nil, errors.New("matmul is not available: the @ operator calls matmul(a, b)")
	}
	var err error
	if x, err = th.materialise(x); err != nil {
		return nil, err
	}
	if y, err = th.materialise(y); err != nil {
		return nil, err
	}
	return th.Call(f, &Args{Pos: e.OpPos, Positional: []Value{x, y}, exprs: []ast.Expr{e.X, e.Y}})
}

// index compiles an element read, or a view (arrays) or a copy (lists,
// strings) when a component is a slice.
func (c *compiler) index(e *ast.IndexExpr) evalFn {
	x := c.value(e.X)
	pos := e.Lbrack
	if e.Slices() {
		comps := c.comps(e.Indices)
		return func(th *Thread, fr *frame) (cell, error) {
			xv, err := x(th, fr)
			if err != nil {
				return xv, err
			}
			cs, err := comps(th, fr)
			if err != nil {
				return cell{}, err
			}
			v, err := sliceValue(xv.box(), cs)
			return cell{v: v}, th.errorAt(pos, err)
		}
	}
	idx := c.values(e.Indices)
	if len(idx) == 1 {
		i0 := idx[0]
		return func(th *Thread, fr *frame) (cell, error) {
			xv, iv, err := evalPair(th, fr, x, i0)
			if err != nil {
				return cell{}, err
			}
			return th.index1(xv, iv, &pos)
		}
	}
	return func(th *Thread, fr *frame) (cell, error) {
		xv, err := x(th, fr)
		if err != nil {
			return xv, err
		}
		iv, err := evalAll(th, fr, idx)
		if err != nil {
			return cell{}, err
		}
		v, err := index(th, xv.box(), iv)
		return cell{v: v}, th.errorAt(pos, err)
	}
}

// index1 is x[i] for one index, not a slice: a list's element and a
// dict's value of an int key without boxing the index.
func (th *Thread) index1(x, i cell, pos *ast.Pos) (cell, error) {
	switch x := x.v.(type) {
	case *List:
		if k, ok := x.slot(i); ok {
			return x.cellAt(k), nil
		}
	case *Dict:
		if k, ok := i.asInt(); ok {
			if v, found := x.getInt(k); found {
				return cell{v: v}, nil
			}
		}
	}
	var buf [1]Value
	buf[0] = i.box()
	v, err := index(th, x.box(), buf[:])
	if err != nil {
		return cell{}, th.errorAt(*pos, err)
	}
	return cell{v: v}, nil
}

// comps compiles the components of a slicing index expression. A step
// of 0 is reported at its own expression.
func (c *compiler) comps(idx []ast.Expr) func(th *Thread, fr *frame) ([]comp, error) {
	type compCode struct {
		i, lo, hi, step evalFn
		e               ast.Expr
		s               *ast.SliceComponent
	}
	code := make([]compCode, len(idx))
	for k, e := range idx {
		s, ok := e.(*ast.SliceComponent)
		if !ok {
			code[k] = compCode{i: c.value(e), e: e}
			continue
		}
		cc := compCode{s: s}
		if s.Lo != nil {
			cc.lo = c.value(s.Lo)
		}
		if s.Hi != nil {
			cc.hi = c.value(s.Hi)
		}
		if s.Step != nil {
			cc.step = c.value(s.Step)
		}
		code[k] = cc
	}
	return func(th *Thread, fr *frame) ([]comp, error) {
		out := make([]comp, len(code))
		for k, cc := range code {
			if cc.s == nil {
				i, err := th.intOf(fr, cc.i, cc.e, "index")
				out[k] = comp{i: i}
				if err != nil {
					return nil, err
				}
				continue
			}
			cm := comp{slice: true, step: 1}
			var err error
			if cm.lo, err = th.boundOf(fr, cc.lo, cc.s.Lo); err != nil {
				return nil, err
			}
			if cm.hi, err = th.boundOf(fr, cc.hi, cc.s.Hi); err != nil {
				return nil, err
			}
			if cc.step != nil {
				if cm.step, err = th.intOf(fr, cc.step, cc.s.Step, "slice step"); err != nil {
					return nil, err
				}
				if cm.step == 0 {
					return nil, th.errorAt(cc.s.Step.Start(), errors.New("slice step cannot be zero"))
				}
			}
			out[k] = cm
		}
		return out, nil
	}
}

func (th *Thread) intOf(fr *frame, f evalFn, e ast.Expr, what string) (int, error) {
	v, err := f(th, fr)
	if err != nil {
		return 0, err
	}
	i, err := toInt(v.box())
	if err != nil {
		return 0, th.errorAt(e.Start(), fmt.Errorf("%s: %v", what, err))
	}
	return i, nil
}

// boundOf evaluates an optional slice bound.
func (th *Thread) boundOf(fr *frame, f evalFn, e ast.Expr) (*int, error) {
	if f == nil {
		return nil, nil
	}
	i, err := th.intOf(fr, f, e, "slice bound")
	if err != nil {
		return nil, err
	}
	return &i, nil
}

func (c *compiler) attr(e *ast.AttrExpr) evalFn {
	x := c.operand(e.X)
	name, pos, xpos := e.Name.Name, e.Name.Pos, e.X.Start()
	return func(th *Thread, fr *frame) (cell, error) {
		xv, err := x(th, fr)
		if err != nil {
			return xv, err
		}
		if d, ok := xv.v.(Deferred); ok && name == "astype" {
			return cell{v: asType(d)}, nil // (a * b).astype(f64) fuses
		}
		if xv, err = th.mat(xv); err != nil {
			return cell{}, th.errorAt(xpos, err)
		}
		v, err := getAttr(th, xv.box(), name)
		return cell{v: v}, th.errorAt(pos, err)
	}
}
