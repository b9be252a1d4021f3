package check

import (
	"fmt"
	"go/constant"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg"
	"github.com/gscript-lang/gscript/lang/token"
)

// Vector, matrix and quaternion values (TYPES.md section 1; doc.go
// "Vectors"): an operand of modeVec holds one register per lane, in
// dtype's C order, and every operation on it is lane-wise scalar IR that
// lang/linalg writes, the same code the host evaluates.

// regOps is linalg's view of a body: each scalar op becomes an
// instruction at pos.
type regOps struct {
	b   *body
	pos ast.Pos
}

// Op emits op on operands of type t; comparisons give a bool.
func (o regOps) Op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg {
	if info, _ := op.Info(); info.Result == ir.ResultBool {
		t = ir.Bool
	}
	r := o.b.reg(t)
	o.b.emit(&ir.Inst{Op: op, Dst: r, Args: args, Pos: o.pos})
	return r
}

func (o regOps) Convert(x ir.Reg, from, to ir.Type) ir.Reg {
	if from == to {
		return x
	}
	r := o.b.reg(to)
	o.b.emit(&ir.Inst{Op: ir.OpConvert, Dst: r, Args: []ir.Reg{x}})
	return r
}

func (o regOps) Const(t ir.Type, v float64) ir.Reg {
	r := o.b.reg(t)
	var imm any = v
	switch {
	case t == ir.Bool:
		imm = v != 0
	case t.IsSigned():
		imm = int64(v)
	case t.IsInt():
		imm = uint64(v)
	}
	o.b.emit(&ir.Inst{Op: ir.OpConst, Dst: r, Imm: imm})
	return r
}

// vecOperand is a compound value in lanes.
func vecOperand(t dtype.Type, lanes []ir.Reg, e ast.Expr) operand {
	return operand{mode: modeVec, t: t.Elem, ct: t, regs: lanes, expr: e}
}

// linalgResult turns a linalg result into an operand: a scalar result (dot,
// ==) is a plain value.
func (b *body) linalgResult(t dtype.Type, lanes []ir.Reg, e ast.Expr) operand {
	if t.IsScalar() {
		return operand{mode: modeValue, t: t.Elem, reg: lanes[0], expr: e}
	}
	return vecOperand(t, lanes, e)
}

// typeOperand is the dtype and lanes of a value operand; untyped
// constants take lane type elem (or their default type when elem is
// Invalid). ok is false after an error (reported).
func (b *body) lanesOf(x operand, elem ir.Type, context string) (dtype.Type, []ir.Reg, bool) {
	switch x.mode {
	case modeVec:
		return x.ct, x.regs, true
	case modeConst, modeValue:
		if x.untyped() && elem != ir.Invalid {
			if x = b.convertTo(x, elem, context); x.mode == modeInvalid {
				return dtype.Type{}, nil, false
			}
		}
		if x.nonFinite && elem.IsFloat() && x.t != elem {
			x = b.convertTo(x, elem, context)
		}
		r := b.materialize(x)
		return dtype.Of(b.fn.Regs[r]), []ir.Reg{r}, true
	case modeInvalid:
		return dtype.Type{}, nil, false
	}
	b.errs.Add(x.expr.Start(), "cannot use %s in %s", x, context)
	return dtype.Type{}, nil, false
}

// laneType is the lane type of the first compound operand, which
// untyped constants among ops take; Invalid when there is none.
func laneType(ops []operand) ir.Type {
	for _, o := range ops {
		if o.mode == modeVec {
			return o.ct.Elem
		}
	}
	for _, o := range ops {
		if o.mode == modeValue {
			return o.t
		}
	}
	return ir.Invalid
}

func anyVec(ops ...operand) bool {
	for _, o := range ops {
		if o.mode == modeVec {
			return true
		}
	}
	return false
}

// vecBinary lowers x op y where one side is compound.
func (b *body) vecBinary(e ast.Expr, op token.Op, pos ast.Pos, x, y operand) operand {
	for _, o := range []operand{x, y} {
		if o.mode == modeVec && o.ct.Kind == dtype.StructKind {
			b.errs.Add(pos, "operator %s not defined on %s (structs have no arithmetic: work on their fields)", op, o)
			return invalid()
		}
	}
	elem := laneType([]operand{x, y})
	context := "operand of " + op.String()
	tx, lx, ok1 := b.lanesOf(x, elem, context)
	ty, ly, ok2 := b.lanesOf(y, elem, context)
	if !ok1 || !ok2 {
		return invalid()
	}
	t, lanes, err := linalg.Binary[ir.Reg](regOps{b, pos}, op, tx, ty, lx, ly)
	if err != nil {
		b.errs.Add(pos, "%s", err)
		return invalid()
	}
	return b.linalgResult(t, lanes, e)
}

// vecUnary lowers -v (and +v).
func (b *body) vecUnary(e *ast.UnaryExpr, x operand) operand {
	if e.Op == token.Add {
		x.expr = e
		return x
	}
	t, lanes, err := linalg.Unary[ir.Reg](regOps{b, e.Pos}, e.Op, x.ct, x.regs)
	if err != nil {
		b.errs.Add(e.Pos, "%s", err)
		return invalid()
	}
	return b.linalgResult(t, lanes, e)
}

// vecArgs gives the checked arguments of a constructor or linalg builtin
// their lanes.
func (b *body) vecArgs(ops []operand, name string, elem ir.Type) ([]dtype.Type, [][]ir.Reg, bool) {
	ok := true
	if elem == ir.Invalid {
		elem = laneType(ops)
	}
	ts, lanes := make([]dtype.Type, len(ops)), make([][]ir.Reg, len(ops))
	for i, o := range ops {
		if ts[i], lanes[i], ok = b.lanesOf(o, elem, "argument to "+name); !ok {
			return nil, nil, false
		}
	}
	return ts, lanes, true
}

// construct lowers vec3(...), mat33(...), quat(...) and conversions
// between element types (vec3d(v)).
func (b *body) construct(e *ast.CallExpr, t dtype.Type) operand {
	ops, ok := b.args(e.Args)
	if !ok {
		return invalid()
	}
	ts, lanes, ok := b.vecArgs(ops, t.String(), t.Elem)
	if !ok {
		return invalid()
	}
	out, err := linalg.Construct[ir.Reg](regOps{b, e.Lparen}, t, ts, lanes)
	if err != nil {
		b.errs.Add(e.Lparen, "%s", err)
		return invalid()
	}
	return vecOperand(t, out, e)
}

// linalgCall lowers dot, cross, normalize, quat_rotate ... and min, max,
// abs of compound values, on checked arguments ops.
func (b *body) linalgCall(e *ast.CallExpr, name string, ops []operand) operand {
	ts, lanes, ok := b.vecArgs(ops, name, ir.Invalid)
	if !ok {
		return invalid()
	}
	t, out, err := linalg.Call[ir.Reg](regOps{b, e.Lparen}, name, ts, lanes)
	if err != nil {
		b.errs.Add(e.Lparen, "%s", err)
		return invalid()
	}
	return b.linalgResult(t, out, e)
}

// component lowers v.x, v.y, v.z, v.w and a struct's p.field.
func (b *body) component(e *ast.AttrExpr, x operand) operand {
	lanes, t, ok := b.member(x.ct, e.Name, x.String())
	if !ok {
		return invalid()
	}
	return b.linalgResult(t, pickRegs(x.regs, lanes), e)
}

func componentHint(t dtype.Type) string {
	switch t.Kind {
	case dtype.Vec, dtype.Quat:
		return fmt.Sprintf(" (it has %s)", strings.Join(strings.Split(dtype.Component[:t.Lanes()], ""), ", "))
	case dtype.Mat:
		return " (index a matrix as m[i, j], or m[i] for a row)"
	}
	return ""
}

// vecIndex lowers v[i], m[i, j] and m[i] (a row). Constant indices pick
// lanes; a run-time index goes through the lanes' scratch array (dynamic).
func (b *body) vecIndex(e *ast.IndexExpr, x operand) operand {
	sel, ok := b.selectLanes(x.ct, e.Indices, e.Lbrack)
	if !ok {
		return invalid()
	}
	if sel.dyn != nil {
		return b.linalgResult(sel.t, b.dynamicRead(x.ct, x.regs, sel, e), e)
	}
	return b.linalgResult(sel.t, pickRegs(x.regs, sel.lanes), e)
}

// laneSel is what indices select in a compound type t: lanes, when the
// indices are constants, else dyn, one index register per index given
// (constants among them materialized), into t's lane axes. sel.t is the
// selection's type: a scalar, or a matrix row.
type laneSel struct {
	lanes []int
	dyn   []ir.Reg
	t     dtype.Type
}

// selectLanes checks indices into a compound type: 1 for a vector or
// quaternion, 1 (a row) or 2 for a matrix; constants are checked against
// the extents here, run-time indices by the scratch array's bounds checks.
func (b *body) selectLanes(t dtype.Type, indices []ast.Expr, pos ast.Pos) (laneSel, bool) {
	if t.IsScalar() || t.Kind == dtype.StructKind {
		b.errs.Add(pos, "cannot index a value of type %s%s", t, map[bool]string{true: " (read its fields by name)"}[t.Kind == dtype.StructKind])
		return laneSel{}, false
	}
	max := 1
	if t.Kind == dtype.Mat {
		max = 2
	}
	if len(indices) == 0 || len(indices) > max {
		b.errs.Add(pos, "%s takes %s", t, map[int]string{1: "one index", 2: "one or two indices"}[max])
		return laneSel{}, false
	}
	extents := t.Dims()
	ops := make([]operand, len(indices))
	dynamic := false
	for i, ie := range indices {
		x := b.expr(ie)
		switch {
		case x.mode == modeInvalid:
			return laneSel{}, false
		case (x.mode != modeConst && x.mode != modeValue) || !isInteger(x):
			b.errs.Add(ie.Start(), "index %s of %s must be an integer", x, t)
			return laneSel{}, false
		case x.mode == modeConst:
			n, exact := constant.Int64Val(constant.ToInt(x.val))
			if !exact || n < 0 || n >= int64(extents[i]) {
				b.errs.Add(ie.Start(), "index %s out of range for %s (0 to %d)", x.val.ExactString(), t, extents[i]-1)
				return laneSel{}, false
			}
		default:
			dynamic = true
		}
		ops[i] = x
	}
	sel := laneSel{t: dtype.Of(t.Elem)}
	if t.Kind == dtype.Mat && len(ops) == 1 {
		sel.t = dtype.Type{Kind: dtype.Vec, Elem: t.Elem, N: t.M} // a row
	}
	if dynamic {
		for _, x := range ops {
			if x.untyped() {
				x = b.convertTo(x, ir.I32, "index")
			}
			sel.dyn = append(sel.dyn, b.materialize(x))
		}
		return sel, true
	}
	idx := make([]int, len(ops))
	for i, x := range ops {
		n, _ := constant.Int64Val(constant.ToInt(x.val))
		idx[i] = int(n)
	}
	switch {
	case t.Kind != dtype.Mat:
		sel.lanes = []int{idx[0]}
	case len(idx) == 2:
		sel.lanes = []int{idx[0]*t.M + idx[1]}
	default:
		for c := range t.M {
			sel.lanes = append(sel.lanes, idx[0]*t.M+c)
		}
	}
	return sel, true
}

// scratch is the local array that holds a value of compound type t while
// a run-time index reads or writes one of its lanes (one per type and
// func): lanes live in registers, which an index cannot pick, so they are
// stored, indexed there (bounds-checked as any array), and loaded back.
func (b *body) scratch(t dtype.Type) *kvar {
	if v := b.scratches[t]; v != nil {
		return v
	}
	buf := ir.Buffer{Name: t.String() + " lanes", Elem: t.Elem, Dims: t.Dims(), Pos: b.fn.Pos}
	v := &kvar{name: buf.Name, isArray: true, elem: t.Elem, ndim: len(buf.Dims), dims: buf.Dims,
		space: ir.SpaceLocal, param: len(b.fn.Locals), ct: dtype.Of(t.Elem)}
	b.fn.Locals = append(b.fn.Locals, buf)
	if b.scratches == nil {
		b.scratches = map[dtype.Type]*kvar{}
	}
	b.scratches[t] = v
	return v
}

// spill stores lanes (a value of type t) into t's scratch array.
func (b *body) spill(t dtype.Type, lanes []ir.Reg) *kvar {
	v := b.scratch(t)
	for k, r := range lanes {
		args := append(b.laneArgs(t, nil, k), r)
		b.emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: v.param, Space: ir.SpaceLocal, Args: args})
	}
	return v
}

// dynamicRead is the selection sel (with run-time indices) of a value of
// type t held in lanes.
func (b *body) dynamicRead(t dtype.Type, lanes []ir.Reg, sel laneSel, e ast.Expr) []ir.Reg {
	v := b.spill(t, lanes)
	return b.scratchAccess(v, t, sel, e, nil)
}

// scratchAccess loads the selection from scratch array v, or, when vals
// is set, stores vals there; it returns the loaded lanes.
func (b *body) scratchAccess(v *kvar, t dtype.Type, sel laneSel, e ast.Expr, vals []ir.Reg) []ir.Reg {
	var index [][]ir.Reg // the indices of each selected lane
	if t.Kind == dtype.Mat && len(sel.dyn) == 1 {
		for c := range t.M {
			index = append(index, []ir.Reg{sel.dyn[0], regOps{b: b}.Const(ir.I32, float64(c))})
		}
	} else {
		index = [][]ir.Reg{sel.dyn}
	}
	var out []ir.Reg
	pos := e.Start()
	if ix, ok := e.(*ast.IndexExpr); ok {
		pos = ix.Lbrack
	}
	for i, args := range index {
		if vals != nil {
			b.emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: v.param, Space: ir.SpaceLocal, Args: append(append([]ir.Reg{}, args...), vals[i]), Pos: pos})
			continue
		}
		r := b.reg(t.Elem)
		b.emitFrom(&ir.Inst{Op: ir.OpLoad, Dst: r, Param: v.param, Space: ir.SpaceLocal, Args: args, Pos: pos}, e)
		out = append(out, r)
	}
	return out
}

// laneIndex is the position of lane k in a compound array element's
// trailing axes.
func laneIndex(t dtype.Type, k int) []int {
	if t.Kind == dtype.Mat {
		return []int{k / t.M, k % t.M}
	}
	return []int{k}
}

// loadVec loads every lane of element regs of a compound array.
func (b *body) loadVec(arr *kvar, regs []ir.Reg, e ast.Expr, pos ast.Pos) operand {
	lanes := make([]ir.Reg, arr.ct.Lanes())
	for k := range lanes {
		lanes[k] = b.loadLane(arr, regs, k, e, pos)
	}
	return vecOperand(arr.ct, lanes, e)
}

// laneArgs appends the constant indices of lane k to an element's index
// registers.
func (b *body) laneArgs(t dtype.Type, regs []ir.Reg, k int) []ir.Reg {
	args := append([]ir.Reg{}, regs...)
	for _, i := range laneIndex(t, k) {
		args = append(args, regOps{b: b}.Const(ir.I32, float64(i)))
	}
	return args
}

// convertVec checks that x is a compound value of type t.
func (b *body) convertVec(x operand, t dtype.Type, context string) operand {
	if x.mode == modeInvalid {
		return x
	}
	if x.mode != modeVec || x.ct != t {
		hint := ""
		if x.mode == modeVec && x.ct.Kind == t.Kind && x.ct.N == t.N && x.ct.M == t.M {
			hint = fmt.Sprintf(" (convert with %s(...))", t)
		}
		b.errs.Add(x.expr.Start(), "cannot use %s as %s value in %s%s", x, t, context, hint)
		return invalid()
	}
	return x
}

// newVecVar makes a compound variable holding copies of lanes.
func (b *body) newVecVar(name string, t dtype.Type, lanes []ir.Reg) {
	v := &kvar{name: name, t: t.Elem, ct: t, regs: make([]ir.Reg, len(lanes))}
	for k, r := range lanes {
		v.regs[k] = b.reg(t.LaneType(k))
		b.uni.named(v.regs[k], name)
		b.emit(&ir.Inst{Op: ir.OpMov, Dst: v.regs[k], Args: []ir.Reg{r}})
	}
	b.define(v)
}

// assignVec moves y's lanes into variable v's registers.
func (b *body) assignVec(v *kvar, y operand) {
	for k, r := range y.regs {
		b.emit(&ir.Inst{Op: ir.OpMov, Dst: v.regs[k], Args: []ir.Reg{r}})
	}
}

// vecSelect lowers select(c, a, b) of two compound values lane by lane.
func (b *body) vecSelect(e *ast.CallExpr, c ir.Reg, x, y operand) operand {
	if x.mode != modeVec || y.mode != modeVec || x.ct != y.ct {
		b.errs.Add(e.Lparen, "mismatched types %s and %s in select", operandType(x), operandType(y))
		return invalid()
	}
	lanes := make([]ir.Reg, len(x.regs))
	for k := range lanes {
		lanes[k] = regOps{b, e.Lparen}.Op(ir.OpSelect, x.ct.LaneType(k), c, x.regs[k], y.regs[k])
	}
	return vecOperand(x.ct, lanes, e)
}

func operandType(x operand) string {
	if x.mode == modeVec {
		return x.ct.String()
	}
	if x.untyped() {
		return "untyped " + kindName(x.val)
	}
	return x.t.String()
}

// printParts is the print format of a compound value: vec3({}, {}, {}),
// mat22([{}, {}], [{}, {}]), P(pos=vec3({}, {}, {}), m={}).
func printParts(t dtype.Type) string {
	holes := func(n int) string { return strings.TrimSuffix(strings.Repeat("{}, ", n), ", ") }
	if t.Kind == dtype.StructKind {
		fields := make([]string, len(t.St.Fields))
		for i, f := range t.St.Fields {
			fields[i] = f.Name + "=" + holes(1)
			if !f.Type.IsScalar() {
				fields[i] = f.Name + "=" + printParts(f.Type)
			}
		}
		return t.String() + "(" + strings.Join(fields, ", ") + ")"
	}
	if t.Kind != dtype.Mat {
		return t.String() + "(" + holes(t.Lanes()) + ")"
	}
	rows := make([]string, t.N)
	for i := range rows {
		rows[i] = "[" + holes(t.M) + "]"
	}
	return t.String() + "(" + strings.Join(rows, ", ") + ")"
}

// vecAtomic lowers atomic_add(a, i..., v) and the other atomics on a
// compound array lane by lane (as Warp does): each lane is one atomic,
// so the element as a whole is not updated atomically. The result is
// the lanes' old values.
func (b *body) vecAtomic(e *ast.CallExpr, name string, op ir.Op, arr *kvar, stmt bool) operand {
	if op == ir.OpAtomicCAS || arr.ct.Kind == dtype.StructKind {
		b.errs.Add(e.Fun.Start(), "%s is not supported on %s", name, arr.typeString())
		return invalid()
	}
	if len(e.Args) != 2+arr.ndim {
		b.errs.Add(e.Lparen, "%s on %s (%d dimensions) needs %d indices and a %s value, got %d arguments",
			name, arr.name, arr.ndim, arr.ndim, arr.ct, len(e.Args)-1)
		return invalid()
	}
	regs, ok := b.indexRegs(arr, e.Args[1:1+arr.ndim], e.Lparen)
	y := b.convertVec(b.expr(e.Args[1+arr.ndim]), arr.ct, "argument to "+name)
	if !ok || y.mode == modeInvalid {
		return invalid()
	}
	old := make([]ir.Reg, len(y.regs))
	for k, r := range y.regs {
		old[k] = ir.NoReg
		if !stmt {
			old[k] = b.reg(arr.elem)
		}
		args := append(b.laneArgs(arr.ct, regs, k), r)
		b.emitFrom(&ir.Inst{Op: op, Dst: old[k], Param: arr.param, Space: arr.space, Args: args, Pos: e.Fun.Start()}, e)
	}
	b.read(arr)
	b.usesAtomics()
	if stmt {
		return operand{mode: modeNoValue, expr: e}
	}
	return vecOperand(arr.ct, old, e)
}

// structLit lowers a struct constructor, P(a, b=...) in a kernel or func:
// positional arguments in field order, then keywords; omitted fields are
// zero (as on the host). st is nil when the declaration had an error.
func (b *body) structLit(e *ast.CallExpr, st *dtype.Struct) operand {
	if st == nil {
		return invalid()
	}
	vals := make([]ast.Expr, len(st.Fields))
	if len(e.Args) > len(st.Fields) {
		b.errs.Add(e.Lparen, "too many arguments to %s: have %d, it has %d fields", st.Name, len(e.Args), len(st.Fields))
		return invalid()
	}
	copy(vals, e.Args)
	for _, kw := range e.Kwargs {
		i := slices.IndexFunc(st.Fields, func(f dtype.Field) bool { return f.Name == kw.Name.Name })
		switch {
		case i < 0:
			b.errs.Add(kw.Name.Pos, "%s has no field %s", st.Name, kw.Name.Name)
			return invalid()
		case vals[i] != nil:
			b.errs.Add(kw.Name.Pos, "field %s of %s given twice", kw.Name.Name, st.Name)
			return invalid()
		}
		vals[i] = kw.Value
	}
	var lanes []ir.Reg
	for i, f := range st.Fields {
		regs, ok := b.fieldValue(vals[i], f, st)
		if !ok {
			return invalid()
		}
		lanes = append(lanes, regs...)
	}
	return vecOperand(st.Type(), lanes, e)
}

// fieldValue checks the value of field f in a constructor of st (zeros
// when e is nil) and returns its lanes.
func (b *body) fieldValue(e ast.Expr, f dtype.Field, st *dtype.Struct) ([]ir.Reg, bool) {
	o := regOps{b: b}
	if e == nil {
		out := make([]ir.Reg, f.Type.Lanes())
		for k := range out {
			out[k] = o.Const(f.Type.LaneType(k), 0)
		}
		return out, true
	}
	context := fmt.Sprintf("field %s of %s", f.Name, st.Name)
	x := b.expr(e)
	if f.Type.IsScalar() {
		x = b.convertTo(x, f.Type.Elem, context)
		if x.mode == modeInvalid {
			return nil, false
		}
		return []ir.Reg{b.materialize(x)}, true
	}
	x = b.convertVec(x, f.Type, context)
	return x.regs, x.mode != modeInvalid
}
