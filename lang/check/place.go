package check

import (
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// place is the target of an assignment into a compound value: some
// lanes of a compound variable, or of an element of a compound array
// (v.x, m[1], a[i], a[i].pos.y).
type place struct {
	v     *kvar    // the variable, or the array
	elem  []ir.Reg // the element's index registers, for an array
	at    ast.Expr // the element expression, for an array
	pos   ast.Pos
	lanes []int      // the lanes, counted in v's type
	t     dtype.Type // the type they make up
	// sel, when set, is a run-time index into the lanes above, whose
	// type is then whole (t is the selection's): v[i] = s, m[i, j] += s.
	sel   *laneSel
	whole dtype.Type
	selAt ast.Expr
}

// compoundRoot reports whether the innermost name of target (a in
// a[i].x) is a compound variable or array, whose parts assignPlace
// stores.
func (b *body) compoundRoot(target ast.Expr) bool {
	for {
		switch e := target.(type) {
		case *ast.IndexExpr:
			target = e.X
		case *ast.AttrExpr:
			target = e.X
		case *ast.Ident:
			v := b.lookup(e.Name)
			return v != nil && !v.bad && v.ct.Valid() && !v.ct.IsScalar()
		default:
			return false
		}
	}
}

// placeState says how resolving a place went.
type placeState uint8

const (
	placeOK   placeState = iota
	placeErr             // an error was reported
	placeNone            // not a part of a compound variable or array: the caller reports it
)

func stateOf(ok bool) placeState {
	if ok {
		return placeOK
	}
	return placeErr
}

// placeOf resolves an assignment target.
func (b *body) placeOf(e ast.Expr) (place, placeState) {
	switch e := e.(type) {
	case *ast.Ident:
		v := b.lookup(e.Name)
		if v != nil && !v.isArray && !v.bad && !v.ct.IsScalar() {
			return place{v: v, lanes: allLanes(v.ct), t: v.ct}, placeOK
		}
	case *ast.IndexExpr:
		if arr := b.compoundArray(e.X); arr != nil {
			regs, ok := b.indexRegs(arr, e.Indices, e.Lbrack)
			return place{v: arr, elem: regs, at: e, pos: e.Lbrack, lanes: allLanes(arr.ct), t: arr.ct}, stateOf(ok)
		}
		p, st := b.placeOf(e.X)
		if st != placeOK {
			return p, st
		}
		if p.sel != nil {
			b.errs.Add(e.Lbrack, "cannot index %s again after a run-time index (write m[i, j])", exprString(e.X))
			return p, placeErr
		}
		sel, ok := b.selectLanes(p.t, e.Indices, e.Lbrack)
		if !ok {
			return p, placeErr
		}
		if sel.dyn != nil {
			p.whole, p.sel, p.t, p.selAt = p.t, &sel, sel.t, e
			return p, placeOK
		}
		return p.narrow(sel.lanes, sel.t), placeOK
	case *ast.AttrExpr:
		p, st := b.placeOf(e.X)
		if st != placeOK {
			return p, st
		}
		if p.sel != nil {
			b.errs.Add(e.Name.Pos, "cannot select .%s of %s after a run-time index (index the lane instead)", e.Name.Name, exprString(e.X))
			return p, placeErr
		}
		lanes, t, ok := b.member(p.t, e.Name, exprString(e.X)+" ("+p.t.String()+")")
		return p.narrow(lanes, t), stateOf(ok)
	}
	return place{}, placeNone
}

func allLanes(t dtype.Type) []int {
	out := make([]int, t.Lanes())
	for i := range out {
		out[i] = i
	}
	return out
}

// narrow selects lanes (counted in p.t) of p, making up type t.
func (p place) narrow(lanes []int, t dtype.Type) place {
	p.lanes, p.t = pickInts(p.lanes, lanes), t
	return p
}

func pickInts(from, idx []int) []int {
	out := make([]int, len(idx))
	for i, k := range idx {
		out[i] = from[k]
	}
	return out
}

// member selects a component of a vector or quaternion (x y z w) or a
// field of a struct; what describes the value for messages.
func (b *body) member(t dtype.Type, name *ast.Ident, what string) ([]int, dtype.Type, bool) {
	if t.Kind == dtype.StructKind {
		f, ok := t.St.Field(name.Name)
		if !ok {
			b.errs.Add(name.Pos, "%s has no field %s", what, name.Name)
			return nil, t, false
		}
		lo, hi := t.St.FieldLanes(f)
		out := make([]int, hi-lo)
		for i := range out {
			out[i] = lo + i
		}
		return out, f.Type, true
	}
	k := t.ComponentIndex(name.Name)
	if k < 0 {
		b.errs.Add(name.Pos, "%s has no component %s%s", what, name.Name, componentHint(t))
		return nil, t, false
	}
	return []int{k}, dtype.Of(t.Elem), true
}

// read loads the place's lanes (through the scratch array after a
// run-time index).
func (p place) read(b *body) []ir.Reg {
	if p.sel == nil {
		return p.readLanes(b)
	}
	return b.dynamicRead(p.whole, p.readLanes(b), *p.sel, p.selAt)
}

// write stores lanes into the place. After a run-time index the whole
// value goes through the scratch array: stored there, the selection
// overwritten, and every lane loaded back.
func (p place) write(b *body, lanes []ir.Reg) {
	if p.sel == nil {
		p.writeLanes(b, lanes)
		return
	}
	v := b.spill(p.whole, p.readLanes(b))
	b.scratchAccess(v, p.whole, *p.sel, p.selAt, lanes)
	all := make([]ir.Reg, p.whole.Lanes())
	for k := range all {
		all[k] = b.reg(p.whole.Elem)
		b.emitFrom(&ir.Inst{Op: ir.OpLoad, Dst: all[k], Param: v.param, Space: ir.SpaceLocal, Args: b.laneArgs(p.whole, nil, k)}, p.selAt)
	}
	p.writeLanes(b, all)
}

// readLanes loads the place's static lanes.
func (p place) readLanes(b *body) []ir.Reg {
	if p.elem == nil {
		return pickRegs(p.v.regs, p.lanes)
	}
	out := make([]ir.Reg, len(p.lanes))
	for i, k := range p.lanes {
		out[i] = b.loadLane(p.v, p.elem, k, p.at, p.pos)
	}
	return out
}

// writeLanes stores lanes into the place's static lanes.
func (p place) writeLanes(b *body, lanes []ir.Reg) {
	for i, k := range p.lanes {
		if p.elem == nil {
			b.emit(&ir.Inst{Op: ir.OpMov, Dst: p.v.regs[k], Args: []ir.Reg{lanes[i]}})
		} else {
			b.storeLane(p.v, p.elem, k, lanes[i], p.pos)
		}
	}
}

// assignPlace lowers an assignment into part of a compound value:
// v.x = s, m[i] = row, a[i] = v, a[i].pos += d, p.vel.y *= 0.5.
func (b *body) assignPlace(s *ast.AssignStmt, target ast.Expr) {
	p, st := b.placeOf(target)
	if st == placeNone {
		b.errs.Add(target.Start(), "cannot assign to %s (components are assignable on vector, matrix, quaternion and struct variables and array elements)", exprString(target))
	}
	if st != placeOK {
		b.expr(s.Value) // for its own errors
		return
	}
	var cur operand
	if s.Op != token.Assign {
		cur = b.linalgResult(p.t, p.read(b), target)
	}
	if y := b.laneValue(s, target, p.t, cur); y != nil {
		p.write(b, y)
	}
}

// laneValue checks the value of an assignment to a place of type t
// (applying a compound operator to cur) and returns its lanes; nil after
// an error.
func (b *body) laneValue(s *ast.AssignStmt, target ast.Expr, t dtype.Type, cur operand) []ir.Reg {
	y := b.expr(s.Value)
	if s.Op != token.Assign {
		y = b.compound(s, cur, y)
	}
	if t.IsScalar() {
		y = b.convertTo(y, t.Elem, "assignment")
		if y.mode == modeInvalid {
			return nil
		}
		return []ir.Reg{b.materialize(y)}
	}
	return b.convertVec(y, t, "assignment").regs
}

// loadLane loads lane k of element idx of a compound array.
func (b *body) loadLane(arr *kvar, idx []ir.Reg, k int, e ast.Expr, pos ast.Pos) ir.Reg {
	r := b.reg(arr.ct.LaneType(k))
	in := b.laneAccess(ir.OpLoad, arr, idx, k)
	in.Dst, in.Pos = r, pos
	b.emitFrom(in, e)
	b.read(arr)
	return r
}

// storeLane stores register r as lane k of element idx of a compound
// array.
func (b *body) storeLane(arr *kvar, idx []ir.Reg, k int, r ir.Reg, pos ast.Pos) {
	in := b.laneAccess(ir.OpStore, arr, idx, k)
	in.Dst, in.Args, in.Pos = ir.NoReg, append(in.Args, r), pos
	b.emit(in)
}

// laneAccess is the access (op is OpLoad or OpStore) of lane k of
// element idx: at the lane's index in the trailing axes, or, in an array
// of structs, a field access at the lane's byte offset.
func (b *body) laneAccess(op ir.Op, arr *kvar, idx []ir.Reg, k int) *ir.Inst {
	in := &ir.Inst{Op: op, Param: arr.param, Space: arr.space}
	if arr.ct.Kind != dtype.StructKind {
		in.Args = b.laneArgs(arr.ct, idx, k)
		return in
	}
	in.Op = map[ir.Op]ir.Op{ir.OpLoad: ir.OpLoadField, ir.OpStore: ir.OpStoreField}[op]
	in.Args, in.Imm = append([]ir.Reg{}, idx...), arr.ct.LaneOffset(k)
	return in
}

func pickRegs(regs []ir.Reg, lanes []int) []ir.Reg {
	out := make([]ir.Reg, len(lanes))
	for i, k := range lanes {
		out[i] = regs[k]
	}
	return out
}

// compoundArray is the compound array e names, or nil.
func (b *body) compoundArray(e ast.Expr) *kvar {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	v := b.lookupIdent(id)
	if v == nil || !v.isArray || v.bad || v.ct.IsScalar() {
		return nil
	}
	return v
}
