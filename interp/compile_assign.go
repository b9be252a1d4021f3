package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/token"
)

// setFn stores a value into a compiled assignment target.
type setFn func(th *Thread, fr *frame, v cell) error

func identTargets(c *compiler, ids []*ast.Ident) []setFn {
	out := make([]setFn, len(ids))
	for i, id := range ids {
		set := c.storer(id)
		out[i] = func(th *Thread, fr *frame, v cell) error {
			set(th, fr, v)
			return nil
		}
	}
	return out
}

// unpack compiles `let a, b = value` and `a, b = value`: a tuple value
// (`a, b = b, a`) is evaluated whole before any target is written, without
// building a list; any other value must give as many values (Unpack).
func (c *compiler) unpack(targets []setFn, value ast.Expr) execFn {
	if t, ok := value.(*ast.ListLit); ok && t.Tuple && len(t.Elems) == len(targets) {
		elems := c.values(t.Elems)
		return func(th *Thread, fr *frame) (ctrl, error) {
			var buf [4]cell
			vals := buf[:0]
			for _, e := range elems {
				v, err := e(th, fr)
				if err != nil {
					return ctrlNone, err
				}
				vals = append(vals, v)
			}
			for i, set := range targets {
				if err := set(th, fr, vals[i]); err != nil {
					return ctrlNone, err
				}
			}
			return ctrlNone, nil
		}
	}
	v := c.value(value)
	at := value.Start()
	return func(th *Thread, fr *frame) (ctrl, error) {
		x, err := v(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		var buf [4]cell
		elems := valueBuf(buf[:], len(targets))
		if err := th.unpackCells(x.box(), elems); err != nil {
			return ctrlNone, th.errorAt(at, err)
		}
		for i, set := range targets {
			if err := set(th, fr, elems[i]); err != nil {
				return ctrlNone, err
			}
		}
		return ctrlNone, nil
	}
}

// valueBuf is buf[:n], or a new slice when n is past its capacity.
func valueBuf[T any](buf []T, n int) []T {
	if n <= len(buf) {
		return buf[:n]
	}
	return make([]T, n)
}

func (c *compiler) assign(s *ast.AssignStmt) execFn {
	if len(s.Targets) > 0 {
		targets := make([]setFn, len(s.Targets))
		for i, t := range s.Targets {
			targets[i] = c.target(t)
		}
		return c.unpack(targets, s.Value)
	}
	op := s.Op.Compound() // token.Add for +=, token.Invalid for =
	switch t := s.Target.(type) {
	case *ast.Ident:
		if op == token.Invalid {
			set := c.target(t)
			v := c.value(s.Value)
			return func(th *Thread, fr *frame) (ctrl, error) {
				x, err := v(th, fr)
				if err == nil {
					err = set(th, fr, x)
				}
				return ctrlNone, err
			}
		}
		return c.compoundIdent(t, op, s)
	case *ast.IndexExpr:
		return c.assignIndex(t, op, s)
	case *ast.AttrExpr:
		return c.assignAttr(t, op, s)
	}
	pos := s.Pos
	return func(th *Thread, _ *frame) (ctrl, error) {
		return ctrlNone, th.errorAt(pos, fmt.Errorf("cannot assign to this expression"))
	}
}

// target compiles a plain `=` target of an unpacking or an assignment.
func (c *compiler) target(e ast.Expr) setFn {
	switch t := e.(type) {
	case *ast.Ident:
		set := c.storer(t)
		return func(th *Thread, fr *frame, v cell) error {
			set(th, fr, v)
			return nil
		}
	case *ast.IndexExpr:
		return c.indexStore(t, token.Invalid, t.Lbrack, t.Lbrack)
	case *ast.AttrExpr:
		store := c.attrStore(t, token.Invalid, t.Name.Pos)
		return func(th *Thread, fr *frame, v cell) error { return store(th, fr, v.box()) }
	}
	pos := e.Start()
	return func(th *Thread, _ *frame, _ cell) error {
		return th.errorAt(pos, fmt.Errorf("cannot assign to this expression"))
	}
}

// compoundIdent is `x op= v`. An array x is updated in place, one kernel
// (NumPy's y += expr); a list or string may be extended in place
// (Thread.InPlace); numbers take the engine's unboxed path.
func (c *compiler) compoundIdent(t *ast.Ident, op token.Op, s *ast.AssignStmt) execFn {
	get := c.loader(t)
	v := c.operand(s.Value)
	general := c.compoundGeneral(t, op, s)
	if f := c.compoundSlot(t, op, v, general); f != nil {
		return f
	}
	return func(th *Thread, fr *frame) (ctrl, error) {
		x, err := v(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		old, err := get(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		return general(th, fr, old, x)
	}
}

// compoundGeneral is the general path of `t op= v`, given t's value (old)
// and v's (x): an array updated in place, a list or string extended, or
// binary() of the two, stored into t.
func (c *compiler) compoundGeneral(t *ast.Ident, op token.Op, s *ast.AssignStmt) func(th *Thread, fr *frame, old, x cell) (ctrl, error) {
	set := c.storer(t)
	valPos, opPos := s.Value.Start(), s.OpPos
	exprs := []ast.Expr{s.Target, s.Value}
	return func(th *Thread, fr *frame, old, x cell) (ctrl, error) {
		if r, ok, err := arith(op, old, x); ok {
			if err != nil {
				return ctrlNone, th.errorAt(opPos, err)
			}
			set(th, fr, r)
			return ctrlNone, nil
		}
		if a, ok := old.v.(*Array); ok {
			err := th.updateArray(a, op, x.box())
			if err != nil {
				err = nameFreed(err, exprs, []Value{a, x.box()})
			}
			return ctrlNone, th.errorAt(opPos, err)
		}
		x, err := th.mat(x)
		if err != nil {
			return ctrlNone, th.errorAt(valPos, err)
		}
		r, err := th.compoundValue(op, old.box(), x.box())
		if err != nil {
			return ctrlNone, th.errorAt(opPos, err)
		}
		set(th, fr, valCell(r))
		return ctrlNone, nil
	}
}

// compoundValue is old op v for a compound assignment of host values.
func (th *Thread) compoundValue(op token.Op, old, v Value) (Value, error) {
	if r, ok, err := th.InPlace(op, old, v); ok {
		return r, err
	}
	return binary(th, op, old, v)
}

// assignIndex is `x[...] op= v`.
func (c *compiler) assignIndex(t *ast.IndexExpr, op token.Op, s *ast.AssignStmt) execFn {
	store := c.indexStore(t, op, s.Value.Start(), s.OpPos)
	v := c.operand(s.Value) // y[...] = expr stays deferred: written into the view in place
	return func(th *Thread, fr *frame) (ctrl, error) {
		x, err := v(th, fr)
		if err == nil {
			err = store(th, fr, x)
		}
		return ctrlNone, err
	}
}

// indexStore compiles the store of a value, which may be a deferred array
// expression (valPos is its position), into an element or a view.
func (c *compiler) indexStore(t *ast.IndexExpr, op token.Op, valPos, opPos ast.Pos) setFn {
	xf := c.value(t.X)
	setVar := c.varSetter(t.X)
	if t.Slices() {
		comps := c.comps(t.Indices)
		return func(th *Thread, fr *frame, v cell) error {
			x, err := xf(th, fr)
			if err != nil {
				return err
			}
			cs, err := comps(th, fr)
			if err != nil {
				return err
			}
			return th.assignSlice(t, x.box(), cs, op, v.box(), opPos)
		}
	}
	idxf := c.values(t.Indices)
	if len(idxf) == 1 && op == token.Invalid {
		i0 := idxf[0]
		store := c.store1(t, valPos, opPos)
		return func(th *Thread, fr *frame, v cell) error {
			x, k, err := evalPair(th, fr, xf, i0)
			if err != nil {
				return err
			}
			return store(th, fr, x, k, v)
		}
	}
	return func(th *Thread, fr *frame, v cell) error {
		x, err := xf(th, fr)
		if err != nil {
			return err
		}
		idx, err := evalAll(th, fr, idxf)
		if err != nil {
			return err
		}
		return th.storeIndex(t, x.box(), idx, op, v.box(), valPos, opPos, func() func(Value) { return bindSetter(setVar, th, fr) })
	}
}

// storeIndex stores v into x[idx] (combined with the old element by op).
// setVar, called only for a vector x, is the store into x's variable.
func (th *Thread) storeIndex(t *ast.IndexExpr, x Value, idx []Value, op token.Op, v Value, valPos, opPos ast.Pos, setVar func() func(Value)) error {
	var err error
	if a, ok := x.(*Array); ok && len(idx) < a.NDim() && !hasIndexArray(idx) {
		// m[i] = v writes the row m[i], a view.
		cs := make([]comp, len(idx))
		for k, iv := range idx {
			if cs[k].i, err = toInt(iv); err != nil {
				return th.errorAt(t.Indices[k].Start(), fmt.Errorf("array index: %v", err))
			}
		}
		return th.assignSlice(t, x, cs, op, v, opPos)
	}
	if v, err = th.materialise(v); err != nil {
		return th.errorAt(valPos, err)
	}
	if vec, ok := x.(*Vector); ok && !isStruct(vec) {
		return th.errorAt(t.Lbrack, th.assignComponent(setVar(), vec, "", idx, op, v))
	}
	if op != token.Invalid {
		old, err := index(th, x, idx)
		if err != nil {
			return th.errorAt(t.Lbrack, err)
		}
		if v, err = binary(th, op, old, v); err != nil {
			return th.errorAt(opPos, err)
		}
	}
	return th.errorAt(t.Lbrack, setIndex(th, x, idx, v))
}

// varSetter is the store into e when e is a variable (a vector's
// component assignment replaces the variable's vector), else nil.
// store1Fn stores v into x[k], evaluated.
type store1Fn func(th *Thread, fr *frame, x, k, v cell) error

// store1 compiles `t = v` for t an element with one index, not a slice:
// d[k] = v and l[i] = v read the index without a slice, and an int or
// float stored into a list of them stays unboxed.
func (c *compiler) store1(t *ast.IndexExpr, valPos, opPos ast.Pos) store1Fn {
	setVar := c.varSetter(t.X)
	return func(th *Thread, fr *frame, x, k, v cell) error {
		var err error
		switch x := x.v.(type) {
		case *Dict:
			if v, err = th.mat(v); err != nil {
				return th.errorAt(valPos, err)
			}
			return th.errorAt(t.Lbrack, x.Set(th, k.box(), v.box()))
		case *List:
			if i, ok := x.slot(k); ok {
				if v, err = th.mat(v); err != nil {
					return th.errorAt(valPos, err)
				}
				return th.errorAt(t.Lbrack, th.setCell(x, i, v))
			}
		}
		return th.storeIndex(t, x.box(), []Value{k.box()}, token.Invalid, v.box(), valPos, opPos, func() func(Value) { return bindSetter(setVar, th, fr) })
	}
}

func (c *compiler) varSetter(e ast.Expr) func(th *Thread, fr *frame) func(Value) {
	id, ok := e.(*ast.Ident)
	if !ok || (id.Scope != ast.ScopeLocal && id.Scope != ast.ScopeGlobal) {
		return nil
	}
	set := c.storer(id)
	return func(th *Thread, fr *frame) func(Value) {
		return func(v Value) { set(th, fr, valCell(v)) }
	}
}

// assignSlice writes v (combined with the view's old value by op, for
// y[2:10] += v) into the view of x that cs select.
func (th *Thread) assignSlice(t *ast.IndexExpr, x Value, cs []comp, op token.Op, v Value, opPos ast.Pos) error {
	a, ok := x.(*Array)
	if !ok {
		return th.errorAt(t.Lbrack, fmt.Errorf("not yet supported: assigning to a slice of a %s (build a new one with +)", x.Type()))
	}
	view, err := viewOf(a, cs)
	if err != nil {
		return th.errorAt(t.Lbrack, err)
	}
	if op != token.Invalid {
		// y[2:10] += v: one kernel, in place (updateArray).
		return th.errorAt(opPos, th.updateArray(a.wrap(view), op, v))
	}
	if a.Compound() {
		return th.errorAt(t.Lbrack, th.assignCompound(a.wrap(view), v))
	}
	return th.errorAt(t.Lbrack, th.AssignView(view, v))
}

// assignAttr is `x.name op= v`.
func (c *compiler) assignAttr(t *ast.AttrExpr, op token.Op, s *ast.AssignStmt) execFn {
	store := c.attrStore(t, op, s.OpPos)
	v := c.value(s.Value)
	return func(th *Thread, fr *frame) (ctrl, error) {
		x, err := v(th, fr)
		if err == nil {
			err = store(th, fr, x.box())
		}
		return ctrlNone, err
	}
}

func (c *compiler) attrStore(t *ast.AttrExpr, op token.Op, opPos ast.Pos) func(th *Thread, fr *frame, v Value) error {
	xf := c.value(t.X)
	setVar := c.varSetter(t.X)
	name, pos := t.Name.Name, t.Name.Pos
	return func(th *Thread, fr *frame, v Value) error {
		xc, err := xf(th, fr)
		if err != nil {
			return err
		}
		x := xc.box()
		if vec, ok := x.(*Vector); ok && !isStruct(vec) {
			return th.errorAt(pos, th.assignComponent(bindSetter(setVar, th, fr), vec, name, nil, op, v))
		}
		if op != token.Invalid {
			old, err := getAttr(th, x, name)
			if err != nil {
				return th.errorAt(pos, err)
			}
			if v, err = binary(th, op, old, v); err != nil {
				return th.errorAt(opPos, err)
			}
		}
		return th.errorAt(pos, setAttr(x, name, v))
	}
}

func bindSetter(f func(th *Thread, fr *frame) func(Value), th *Thread, fr *frame) func(Value) {
	if f == nil {
		return nil
	}
	return f(th, fr)
}

func evalAll(th *Thread, fr *frame, fs []evalFn) ([]Value, error) {
	out := make([]Value, len(fs))
	for i, f := range fs {
		v, err := f(th, fr)
		if err != nil {
			return nil, err
		}
		out[i] = v.box()
	}
	return out, nil
}
