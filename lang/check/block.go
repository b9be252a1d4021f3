package check

import (
	"go/constant"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// Block kernels (COOPERATIVE.md sections 1-3): the block shape, shared and
// local arrays, and the builtins of block kernels.

// blockOps has every op of the table that exists only in block kernels,
// under its name: a new one is a builtin as soon as the table has it.
var blockOps = map[string]ir.Op{}

func init() {
	for _, op := range ir.Ops() {
		if info, _ := op.Info(); info.Block {
			blockOps[info.Name] = op
		}
	}
}

// blockLimits are CUDA's per-axis block extents for x (the last axis), y
// and z, as ir.Verify checks them.
var blockLimits = [3]int64{1024, 1024, 64}

const (
	// maxSharedBytes is the most shared memory a block may ask for: the
	// opt-in limit of the largest devices (227 KiB on sm_90). A device
	// with less refuses the launch (backends check it per device).
	maxSharedBytes = 232448
	// maxLocalBytes is the most local memory one thread may have (CUDA's
	// limit per thread).
	maxLocalBytes = 512 << 10
)

// axisNames names the axes of a block of rank n, C order (x is the last).
func axisNames(n int) []string { return []string{"z", "y", "x"}[3-n:] }

// blockShape checks `block(B0, ...)` of kernel d and makes the body a
// block kernel's. The extents are evaluated with the parameters in scope
// (so that `block(n)` says n is not a constant) into discarded code.
func (b *body) blockShape(d *ast.KernelDecl) {
	if d.Block == nil {
		return
	}
	if n := len(d.Block); n > 3 {
		b.errs.Add(d.BlockPos, "block(...) has %d extents, at most 3", n)
		b.badBlock = true
		return
	}
	shape := make([]int, len(d.Block))
	threads := int64(1)
	names := axisNames(len(d.Block))
	var discard []ir.Stmt
	b.into(&discard, func() {
		for i, e := range d.Block {
			v, ok := b.constCount(e, "block extent")
			limit := blockLimits[len(d.Block)-1-i]
			if ok && v > limit {
				b.errs.Add(e.Start(), "block extent %d along %s (axis %d) is too large: at most %d", v, names[i], i, limit)
				ok = false
			}
			if !ok {
				b.badBlock = true
				continue
			}
			shape[i], threads = int(v), threads*v
		}
	})
	if b.badBlock {
		return
	}
	b.blockText = blockString(shape)
	if threads > ir.MaxBlockThreads {
		b.errs.Add(d.BlockPos, "%s has %d threads, at most %d", b.blockText, threads, ir.MaxBlockThreads)
		b.badBlock = true
		return
	}
	b.block, b.uni = shape, &uniformity{}
}

// blockString writes a block shape as declared: "block(16, 16)".
func blockString(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	return "block(" + strings.Join(parts, ", ") + ")"
}

// constCount evaluates e, which must be an integer constant of at least 1
// and small enough for an int64; what names it in messages.
func (b *body) constCount(e ast.Expr, what string) (int64, bool) {
	v, ok := b.constInt(e, what)
	if !ok {
		return 0, false
	}
	n, exact := constant.Int64Val(v)
	if !exact || n < 1 {
		b.errs.Add(e.Start(), "%s %s must be at least 1", what, v.ExactString())
		return 0, false
	}
	return n, true
}

// constInt evaluates e, which must be an integer constant.
func (b *body) constInt(e ast.Expr, what string) (constant.Value, bool) {
	x := b.expr(e)
	switch {
	case x.mode == modeInvalid:
		return nil, false
	case x.mode != modeConst || !isInteger(x):
		b.errs.Add(e.Start(), "%s %s must be an integer constant", what, x)
		return nil, false
	}
	return constant.ToInt(x.val), true
}

// usable reports whether block builtin name may be called here, and says
// why not otherwise; warp ops also need whole warps.
func (b *body) usable(e *ast.CallExpr, name string, warp bool) bool {
	switch {
	case b.kind == "func":
		b.errs.Add(e.Fun.Start(), "%s() cannot be used in func %s: block operations exist only in the body of a block kernel, not in the funcs it calls", name, b.name)
	case b.badBlock:
		// the block shape's error was reported
	case b.block == nil:
		b.errs.Add(e.Fun.Start(), "%s() is only available in a block kernel (declare one with block(...))", name)
	case warp && b.threads()%ir.WarpSize != 0:
		b.errs.Add(e.Fun.Start(), "%s() needs whole warps: %s has %d threads, not a multiple of %d", name, b.blockText, b.threads(), ir.WarpSize)
	default:
		return true
	}
	return false
}

func (b *body) threads() int {
	n := 1
	for _, d := range b.block {
		n *= d
	}
	return n
}

// blockCall checks and lowers a call of a block builtin (an op of the
// table with the Block flag).
func (b *body) blockCall(e *ast.CallExpr, name string, op ir.Op) operand {
	info, _ := op.Info()
	if !b.usable(e, name, info.Warp) {
		return invalid()
	}
	switch {
	case info.Form == ir.FormLane:
		return b.shuffle(e, name, op)
	case info.Form != ir.FormLeaf:
		return b.collective(e, name, op, info)
	case !b.noArgs(e, name):
		return invalid()
	case info.Axis == ir.AxisBlock:
		regs := b.blockIndex(e, name, op, 1)
		if regs == nil {
			return invalid()
		}
		return operand{mode: modeValue, t: ir.I32, reg: regs[0], expr: e}
	case info.Result == ir.ResultNone:
		b.emit(&ir.Inst{Op: op, Dst: ir.NoReg, Pos: e.Fun.Start()})
		if info.Barrier {
			b.uni.barrier(name, e.Fun.Start())
		}
		return operand{mode: modeNoValue, expr: e}
	}
	dst := b.reg(ir.I32)
	b.emitFrom(&ir.Inst{Op: op, Dst: dst}, e)
	return operand{mode: modeValue, t: ir.I32, reg: dst, expr: e}
}

// emitFrom emits in, whose result may vary between threads, described as
// the expression e in uniformity errors.
func (b *body) emitFrom(in *ir.Inst, e ast.Expr) {
	b.emit(in)
	if varies(in.Op) {
		b.uni.from(in.Dst, e)
	}
}

// blockIndex lowers thread_id(), block_id(), block_dim() or grid_dim()
// unpacked into n names, which must be one per block axis.
func (b *body) blockIndex(e *ast.CallExpr, name string, op ir.Op, n int) []ir.Reg {
	if !b.blockRank(e, name, n) {
		return nil
	}
	regs := make([]ir.Reg, n)
	for axis := range regs {
		regs[axis] = b.reg(ir.I32)
		b.emitFrom(&ir.Inst{Op: op, Dst: regs[axis], Imm: axis}, e)
	}
	return regs
}

// blockRank checks that a per-axis builtin is unpacked into one name per
// block axis.
func (b *body) blockRank(e *ast.CallExpr, name string, n int) bool {
	r := len(b.block)
	switch {
	case n == r:
		return true
	case n == 1:
		b.errs.Add(e.Fun.Start(), "%s() returns %d values in a kernel with %s: unpack them, as in let %s = %s()",
			name, r, b.blockText, strings.Join(axisNames(r), ", "), name)
	case r == 1:
		b.errs.Add(e.Fun.Start(), "%s() returns 1 value in a kernel with %s, not %d", name, b.blockText, n)
	default:
		b.errs.Add(e.Fun.Start(), "%s() returns %d values in a kernel with %s, not %d", name, r, b.blockText, n)
	}
	return false
}

// shuffle lowers shfl, shfl_down, shfl_up and shfl_xor: a scalar of any
// type and an i32 lane, offset or mask.
func (b *body) shuffle(e *ast.CallExpr, name string, op ir.Op) operand {
	ops, ok := b.args(e.Args)
	if !ok || !b.argCount(e, name, 2) {
		return invalid()
	}
	t, ok := b.unifyMany(name, e.Lparen, ops[:1])
	if !ok {
		return invalid()
	}
	v := b.convertTo(ops[0], t, "argument to "+name)
	lane := b.convertTo(ops[1], ir.I32, "argument to "+name)
	if v.mode == modeInvalid || lane.mode == modeInvalid {
		return invalid()
	}
	args := []ir.Reg{b.materialize(v), b.materialize(lane)}
	dst := b.reg(t)
	b.emitFrom(&ir.Inst{Op: op, Dst: dst, Args: args}, e)
	return operand{mode: modeValue, t: t, reg: dst, expr: e}
}

// collective lowers a warp or block op of one operand: votes and ballot
// take a bool, reductions and scans a number.
func (b *body) collective(e *ast.CallExpr, name string, op ir.Op, info ir.OpInfo) operand {
	ops, ok := b.args(e.Args)
	if !ok || !b.argCount(e, name, 1) {
		return invalid()
	}
	t, ok := b.unifyMany(name, e.Lparen, ops)
	if !ok {
		return invalid()
	}
	if !info.Types.Has(t) {
		want := "numeric"
		if info.Types == ir.Bools {
			want = "bool"
		}
		b.errs.Add(e.Args[0].Start(), "%s needs a %s argument, got %s", name, want, t)
		return invalid()
	}
	regs, ok := b.convertAll(ops, t, "argument to "+name)
	if !ok {
		return invalid()
	}
	rt := map[ir.Result]ir.Type{ir.ResultBool: ir.Bool, ir.ResultU32: ir.U32, ir.ResultI32: ir.I32}[info.Result]
	if info.Result == ir.ResultSame {
		rt = t
	}
	dst := b.reg(rt)
	b.emitFrom(&ir.Inst{Op: op, Dst: dst, Args: regs}, e)
	if info.Barrier {
		b.uni.barrier(name, e.Fun.Start())
	}
	return operand{mode: modeValue, t: rt, reg: dst, expr: e}
}

// warpSize is warp_size(): the i32 constant 32 on every backend, so it is
// allowed in any kernel or func.
func (b *body) warpSize(e *ast.CallExpr) operand {
	if !b.noArgs(e, "warp_size") {
		return invalid()
	}
	return operand{mode: modeConst, t: ir.I32, val: constant.MakeInt64(ir.WarpSize), expr: e}
}

// cdivCall lowers cdiv(a, b), the ceiling of the exact quotient of two
// integers of one type: a/b rounded toward +Inf, so cdiv(7, 2) == 4 and
// cdiv(-7, 2) == -3. It is q + 1 where the truncated quotient q left a
// remainder of the divisor's sign, and never overflows where a / b does
// not.
func (b *body) cdivCall(e *ast.CallExpr) operand {
	ops, ok := b.args(e.Args)
	if !ok || !b.argCount(e, "cdiv", 2) {
		return invalid()
	}
	t, ok := b.unifyMany("cdiv", e.Lparen, ops)
	if !ok {
		return invalid()
	}
	if !t.IsInt() {
		b.errs.Add(e.Args[0].Start(), "cdiv needs integer arguments, got %s", t)
		return invalid()
	}
	if ops[1].mode == modeConst && isZero(ops[1].val) {
		b.errs.Add(e.Args[1].Start(), "division by zero")
		return invalid()
	}
	if ops[0].mode == modeConst && ops[1].mode == modeConst {
		if allUntyped(ops) {
			t = ir.Invalid
		}
		return b.typedConst(e, t, cdivConst(ops[0].val, ops[1].val))
	}
	regs, ok := b.convertAll(ops, t, "argument to cdiv")
	if !ok {
		return invalid()
	}
	return operand{mode: modeValue, t: t, reg: b.cdivRegs(t, regs[0], regs[1], e.Fun.Start()), expr: e}
}

// cdivConst is cdiv of two integer constants.
func cdivConst(x, y constant.Value) constant.Value {
	x, y = constant.ToInt(x), constant.ToInt(y)
	q := constant.BinaryOp(x, token.QUO_ASSIGN, y)
	r := constant.BinaryOp(x, token.SUB, constant.BinaryOp(q, token.MUL, y))
	if constant.Sign(r) != 0 && constant.Sign(r) == constant.Sign(y) {
		q = constant.BinaryOp(q, token.ADD, constant.MakeInt64(1))
	}
	return q
}

// cdivRegs emits cdiv of x and y, of integer type t; a zero divisor is the
// division's run-time error at pos.
func (b *body) cdivRegs(t ir.Type, x, y ir.Reg, pos ast.Pos) ir.Reg {
	q, r := b.reg(t), b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpDiv, Dst: q, Args: []ir.Reg{x, y}, Pos: pos})
	b.emit(&ir.Inst{Op: ir.OpRem, Dst: r, Args: []ir.Reg{x, y}, Pos: pos})
	zero := b.constReg(t, constant.MakeInt64(0))
	up := b.cmp(ir.OpNe, r, zero)
	if t.IsSigned() {
		// r and y have one sign when r ^ y >= 0
		sign := b.reg(t)
		b.emit(&ir.Inst{Op: ir.OpXor, Dst: sign, Args: []ir.Reg{r, y}})
		same, both := b.cmp(ir.OpGe, sign, zero), b.reg(ir.Bool)
		b.emit(&ir.Inst{Op: ir.OpAnd, Dst: both, Args: []ir.Reg{up, same}})
		up = both
	}
	one := b.constReg(t, constant.MakeInt64(1))
	inc, out := b.reg(t), b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpSelect, Dst: inc, Args: []ir.Reg{up, one, zero}})
	b.emit(&ir.Inst{Op: ir.OpAdd, Dst: out, Args: []ir.Reg{q, inc}})
	return out
}

// bufferDecl declares a shared or local array: static extents, a scalar
// element type, at the top level of the body; shared arrays only in block
// kernels. A bad declaration poisons the name.
func (b *body) bufferDecl(s *ast.BufferDecl) {
	v, ok := b.buffer(s)
	if !ok {
		b.poison(s.Name.Name)
		return
	}
	b.define(v)
}

func (b *body) buffer(s *ast.BufferDecl) (*kvar, bool) {
	what, limit, per := "local", int64(maxLocalBytes), "thread"
	if s.Shared {
		what, limit, per = "shared", maxSharedBytes, "block"
	}
	if !b.bufferPlace(s, what) {
		return nil, false
	}
	ct, ok := dtype.ByName(s.Elem.Name)
	if st, isStruct := b.kc.structType(s.Elem.Name); !ok && isStruct {
		if st == nil {
			return nil, false // its declaration's error was reported
		}
		ct, ok = st.Type(), true
	}
	if !ok {
		b.errs.Add(s.Elem.Pos, "unknown type %s for %s array %s (want one of %s, or a vector type)", s.Elem.Name, what, s.Name.Name, scalarNameList)
		return nil, false
	}
	elem, lanes := ct.Elem, ct.Dims()
	if most := 4 - len(lanes); len(s.Dims) > most {
		b.errs.Add(s.Dims[most].Start(), "%s array %s has %d dimensions, at most %d%s", what, s.Name.Name, len(s.Dims), most, rankNote(ct))
		return nil, false
	}
	var exts []constant.Value
	var discard []ir.Stmt
	b.into(&discard, func() { exts, ok = b.extents(s.Dims, what+" array extent") })
	if !ok {
		return nil, false
	}
	used := int64(0)
	if s.Shared {
		used = int64(b.ks.k.SharedBytes()+15) &^ 15 // SharedBytes aligns each array to 16 bytes
	} else {
		for _, l := range b.fn.Locals {
			used += int64(l.Bytes())
		}
	}
	need := constant.BinaryOp(constant.MakeInt64(used), token.ADD,
		constant.BinaryOp(product(exts), token.MUL, constant.MakeInt64(int64(ct.Size()))))
	if constant.Compare(need, token.GTR, constant.MakeInt64(limit)) {
		b.errs.Add(s.Pos, "%s arrays need %s bytes per %s, at most %d", what, need.ExactString(), per, limit)
		return nil, false
	}
	buf := ir.Buffer{Name: s.Name.Name, Elem: elem, Pos: s.Pos}
	for _, x := range exts {
		n, _ := constant.Int64Val(x)
		buf.Dims = append(buf.Dims, int(n))
	}
	// the lanes of a compound element are trailing axes, as in arrays
	v := &kvar{name: buf.Name, isArray: true, elem: elem, ndim: len(buf.Dims), dims: buf.Dims, ct: ct}
	buf.Dims = append(slices.Clip(buf.Dims), lanes...)
	if s.Shared {
		v.space, v.param = ir.SpaceShared, len(b.ks.k.Shared)
		b.ks.k.Shared = append(b.ks.k.Shared, buf)
	} else {
		v.space, v.param = ir.SpaceLocal, len(b.fn.Locals)
		b.fn.Locals = append(b.fn.Locals, buf)
	}
	return v, true
}

// bufferPlace checks where a shared or local array is declared: at the
// top level of a body (the IR zeroes local arrays once, when their func
// starts, and a shared array is one per block), shared ones in block
// kernels only.
func (b *body) bufferPlace(s *ast.BufferDecl, what string) bool {
	switch {
	case s.Shared && b.kind == "func":
		b.errs.Add(s.Pos, "shared arrays cannot be declared in func %s: declare them in the block kernel's body", b.name)
	case s.Shared && b.badBlock:
		// the block shape's error was reported
	case s.Shared && b.block == nil:
		b.errs.Add(s.Pos, "shared arrays exist only in block kernels (declare one with block(...))")
	case b.depth != 1 && s.Shared:
		b.errs.Add(s.Pos, "shared array %s must be declared at the top level of the kernel body: it is one array for the whole block", s.Name.Name)
	case b.depth != 1:
		b.errs.Add(s.Pos, "local array %s must be declared at the top level of the %s body: local arrays are zeroed once, when the %s starts", s.Name.Name, b.kind, b.kind)
	default:
		return true
	}
	return false
}

// extents evaluates the constant extents of a shared or local array.
func (b *body) extents(dims []ast.Expr, what string) ([]constant.Value, bool) {
	out := make([]constant.Value, len(dims))
	ok := true
	for i, e := range dims {
		v, vok := b.constInt(e, what)
		if vok && constant.Sign(v) < 1 {
			b.errs.Add(e.Start(), "%s %s must be at least 1", what, v.ExactString())
			vok = false
		}
		out[i], ok = v, ok && vok
	}
	return out, ok
}

func product(vs []constant.Value) constant.Value {
	p := constant.MakeInt64(1)
	for _, v := range vs {
		p = constant.BinaryOp(p, token.MUL, v)
	}
	return p
}
