package check

import (
	"go/constant"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// index lowers a[i, ...] (a load) and a.shape[k].
func (b *body) index(e *ast.IndexExpr) operand {
	if attr, ok := e.X.(*ast.AttrExpr); ok && attr.Name.Name == "shape" {
		return b.shape(e, attr)
	}
	x := b.expr(e.X)
	if x.mode == modeInvalid {
		return x
	}
	if x.mode == modeVec {
		return b.vecIndex(e, x)
	}
	if x.mode != modeArray {
		b.errs.Add(e.Lbrack, "cannot index %s", x)
		return invalid()
	}
	regs, ok := b.indexRegs(x.arr, e.Indices, e.Lbrack)
	if !ok {
		return invalid()
	}
	if !x.arr.ct.IsScalar() {
		return b.loadVec(x.arr, regs, e, e.Lbrack)
	}
	dst := b.reg(x.arr.elem)
	b.emitFrom(&ir.Inst{Op: ir.OpLoad, Dst: dst, Param: x.arr.param, Space: x.arr.space, Args: regs, Pos: e.Lbrack}, e)
	b.read(x.arr)
	return operand{mode: modeValue, t: x.arr.elem, reg: dst, expr: e}
}

// read notes a read of array arr: reading a parameter makes a func's
// result depend on memory (body.readsMem).
func (b *body) read(arr *kvar) {
	if arr.space == ir.SpaceParam {
		b.readsMem = true
	}
}

// indexRegs checks one integer index per dimension. Index registers keep
// their own integer type (any of u8 i32 i64 u32 u64); untyped constants
// become i32.
func (b *body) indexRegs(arr *kvar, indices []ast.Expr, pos ast.Pos) ([]ir.Reg, bool) {
	if len(indices) != arr.ndim {
		b.errs.Add(pos, "array %s has %d dimensions, indexed with %d", arr.name, arr.ndim, len(indices))
		return nil, false
	}
	regs := make([]ir.Reg, len(indices))
	ok := true
	for i, ie := range indices {
		x := b.expr(ie)
		if x.mode == modeInvalid {
			ok = false
			continue
		}
		if (x.mode != modeConst && x.mode != modeValue) || !isInteger(x) {
			b.errs.Add(ie.Start(), "index %s must be an integer", x)
			ok = false
			continue
		}
		if x.mode == modeConst && constant.Sign(x.val) < 0 {
			b.errs.Add(ie.Start(), "index %s must not be negative", x)
			ok = false
			continue
		}
		if x.untyped() {
			if x = b.convertTo(x, ir.I32, "index"); x.mode == modeInvalid {
				ok = false
				continue
			}
		}
		regs[i] = b.materialize(x)
	}
	return regs, ok
}

// shape lowers a.shape[k] for a constant axis k.
func (b *body) shape(e *ast.IndexExpr, attr *ast.AttrExpr) operand {
	x := b.expr(attr.X)
	if x.mode == modeInvalid {
		return x
	}
	if x.mode != modeArray {
		b.errs.Add(attr.Name.Pos, "%s.shape undefined: %s is not an array", exprString(attr.X), x)
		return invalid()
	}
	if len(e.Indices) != 1 {
		b.errs.Add(e.Lbrack, "%s takes one axis index", exprString(attr))
		return invalid()
	}
	k := b.expr(e.Indices[0])
	if k.mode == modeInvalid {
		return k
	}
	axis, exact := int64(-1), false
	if k.mode == modeConst && isInteger(k) {
		axis, exact = constant.Int64Val(constant.ToInt(k.val))
	}
	if !exact {
		b.errs.Add(e.Indices[0].Start(), "%s must be indexed by a constant integer, got %s", exprString(attr), k)
		return invalid()
	}
	if axis < 0 || axis >= int64(x.arr.ndim) {
		b.errs.Add(e.Indices[0].Start(), "axis %d out of range: %s has %d dimensions", axis, x.arr.name, x.arr.ndim)
		return invalid()
	}
	if x.arr.dims != nil { // a shared or local array's extents are constants
		return b.typedConst(e, ir.I32, constant.MakeInt64(int64(x.arr.dims[axis])))
	}
	dst := b.reg(ir.I32)
	b.emit(&ir.Inst{Op: ir.OpShape, Dst: dst, Imm: int(axis), Param: x.arr.param})
	return operand{mode: modeValue, t: ir.I32, reg: dst, expr: e}
}

func (b *body) assign(s *ast.AssignStmt) {
	switch t := s.Target.(type) {
	case *ast.Ident:
		b.assignVar(s, t)
	case *ast.IndexExpr:
		if attr, ok := t.X.(*ast.AttrExpr); ok && attr.Name.Name == "shape" {
			b.errs.Add(t.Start(), "cannot assign to %s", exprString(t))
			return
		}
		if b.compoundRoot(t) {
			b.assignPlace(s, t)
			return
		}
		b.assignElem(s, t)
	case *ast.AttrExpr:
		b.assignPlace(s, t)
	default:
		b.errs.Add(s.Target.Start(), "cannot assign to %s", exprString(s.Target))
	}
}

// compound computes `target op= value` as target op value.
func (b *body) compound(s *ast.AssignStmt, cur, y operand) operand {
	op := s.Op.Compound()
	e := &ast.BinaryExpr{X: s.Target, Op: op, OpPos: s.OpPos, Y: s.Value}
	return b.binary(e, op, s.OpPos, cur, y)
}

func (b *body) assignVar(s *ast.AssignStmt, id *ast.Ident) {
	v := b.lookupIdent(id)
	switch {
	case v == nil && (b.env[id.Name] != nil || isBuiltin(id.Name)):
		b.errs.Add(id.Pos, "cannot assign to %s (not a variable)", id.Name)
		return
	case v == nil:
		b.undefined(id)
		return
	case v.bad:
		b.expr(s.Value) // for its own errors
		return
	case v.isArray:
		b.errs.Add(id.Pos, "cannot assign to array %s (store elements with %s[i] = v)", id.Name, id.Name)
		return
	}
	y := b.expr(s.Value)
	if s.Op != token.Assign {
		y = b.compound(s, b.ident(id), y)
	}
	if !v.ct.IsScalar() {
		if y = b.convertVec(y, v.ct, "assignment"); y.mode != modeInvalid {
			b.assignVec(v, y)
		}
		return
	}
	y = b.convertTo(y, v.t, "assignment")
	if y.mode == modeInvalid {
		return
	}
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: v.reg, Args: []ir.Reg{b.materialize(y)}})
}

func (b *body) assignElem(s *ast.AssignStmt, t *ast.IndexExpr) {
	x := b.expr(t.X)
	if x.mode == modeInvalid {
		b.expr(s.Value)
		return
	}
	if x.mode != modeArray {
		b.errs.Add(t.Lbrack, "cannot index %s", x)
		return
	}
	regs, ok := b.indexRegs(x.arr, t.Indices, t.Lbrack)
	y := b.expr(s.Value)
	if !ok {
		return
	}
	if s.Op != token.Assign {
		cur := b.reg(x.arr.elem)
		b.emitFrom(&ir.Inst{Op: ir.OpLoad, Dst: cur, Param: x.arr.param, Space: x.arr.space, Args: regs, Pos: t.Lbrack}, t)
		b.read(x.arr)
		y = b.compound(s, operand{mode: modeValue, t: x.arr.elem, reg: cur, expr: t}, y)
	}
	y = b.convertTo(y, x.arr.elem, "assignment")
	if y.mode == modeInvalid {
		return
	}
	args := append(append([]ir.Reg{}, regs...), b.materialize(y))
	b.emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: x.arr.param, Space: x.arr.space, Args: args, Pos: t.Lbrack})
}
