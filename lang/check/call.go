package check

import (
	"go/constant"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg"
)

// mathSpec describes a math builtin: its opcode, arity, whether it also
// takes ints, and whether it returns bool; all read from the op table.
type mathSpec struct {
	op         ir.Op
	n          int
	ints       bool
	boolResult bool
}

// mathNames are the math builtins: the op table's Builtin column.
var mathNames []string

var mathBuiltins = map[string]mathSpec{}

// atomicOps has every atomic op of the table, under its name: a new
// atomic is a builtin as soon as the table has it.
var atomicOps = map[string]ir.Op{}

func init() {
	for _, op := range ir.MathOps() {
		info, _ := op.Info()
		mathNames = append(mathNames, info.Builtin)
		mathBuiltins[info.Builtin] = mathSpec{op, info.Arity, info.Types.Has(ir.I32), info.Result == ir.ResultBool}
	}
	for _, op := range ir.Ops() {
		if info, _ := op.Info(); info.Atomic {
			atomicOps[info.Name] = op
		}
	}
}

// plainBuiltins are the kernel builtins that are not ops of a family.
var plainBuiltins = []string{"tid", "len", "select", "print", "range", "cdiv", "warp_size"}

func isBuiltin(name string) bool {
	if slices.Contains(plainBuiltins, name) || slices.Contains(randBuiltins, name) {
		return true
	}
	_, isMath := mathBuiltins[name]
	_, isAtomic := atomicOps[name]
	_, isBlock := blockOps[name]
	_, isType := dtype.ByName(name)
	return isMath || isAtomic || isBlock || isType || linalg.IsFunc(name)
}

// call checks and lowers a call; stmt is true for an expression
// statement (the result, if any, is dropped).
func (b *body) call(e *ast.CallExpr, stmt bool) operand {
	id, ok := e.Fun.(*ast.Ident)
	if attr, isAttr := e.Fun.(*ast.AttrExpr); isAttr {
		b.errs.Add(attr.Name.Pos, "method calls are host-only: a %s cannot call %s", b.kind, exprString(e.Fun))
		return invalid()
	}
	if !ok {
		b.errs.Add(e.Fun.Start(), "cannot call %s", exprString(e.Fun))
		return invalid()
	}
	if st, ok := b.kc.structType(id.Name); ok && b.lookup(id.Name) == nil {
		return b.structLit(e, st)
	}
	if len(e.Kwargs) > 0 {
		b.errs.Add(e.Kwargs[0].Name.Pos, "keyword arguments are not allowed in a %s", b.kind)
		return invalid()
	}
	if v := b.lookup(id.Name); v != nil {
		b.errs.Add(id.Pos, "cannot call non-function %s", b.ident(id))
		return invalid()
	}
	if fi := b.env[id.Name]; fi != nil {
		return b.callFunc(e, fi, stmt)
	}
	if t := ir.TypeByName(id.Name); t != ir.Invalid {
		return b.conversion(e, t)
	}
	if t, ok := dtype.ByName(id.Name); ok {
		return b.construct(e, t)
	}
	if spec, ok := mathBuiltins[id.Name]; ok {
		return b.mathCall(e, id.Name, spec)
	}
	if op, ok := atomicOps[id.Name]; ok {
		return b.atomic(e, id.Name, op, stmt)
	}
	if op, ok := blockOps[id.Name]; ok {
		return b.blockCall(e, id.Name, op)
	}
	if slices.Contains(randBuiltins, id.Name) {
		return b.randCall(e, id.Name)
	}
	if linalg.IsFunc(id.Name) {
		ops, ok := b.args(e.Args)
		if !ok {
			return invalid()
		}
		return b.linalgCall(e, id.Name, ops)
	}
	switch id.Name {
	case "tid":
		regs := b.tid(e, 1)
		if regs == nil {
			return invalid()
		}
		return operand{mode: modeValue, t: ir.I32, reg: regs[0], expr: e}
	case "len":
		return b.lenCall(e)
	case "cdiv":
		return b.cdivCall(e)
	case "warp_size":
		return b.warpSize(e)
	case "select":
		return b.selectCall(e)
	case "print":
		return b.printCall(e)
	case "range":
		b.errs.Add(id.Pos, "range(...) is allowed only in a for loop")
		return invalid()
	}
	b.undefined(id)
	return invalid()
}

// args checks call arguments; ok is false when one had an error already
// reported.
func (b *body) args(list []ast.Expr) ([]operand, bool) {
	out := make([]operand, len(list))
	ok := true
	for i, a := range list {
		out[i] = b.expr(a)
		ok = ok && out[i].mode != modeInvalid
	}
	return out, ok
}

func (b *body) argCount(e *ast.CallExpr, name string, want int) bool {
	if len(e.Args) != want {
		plural := "s"
		if want == 1 {
			plural = ""
		}
		b.errs.Add(e.Lparen, "%s expects %d argument%s, got %d", name, want, plural, len(e.Args))
		return false
	}
	return true
}

// unifyMany finds the common type of scalar operands: typed ones must
// agree; when all are untyped, float wins over int.
func (b *body) unifyMany(name string, pos ast.Pos, ops []operand) (ir.Type, bool) {
	t := ir.Invalid
	claimable := false // t is only that of an inf or nan, which another type may claim
	for _, o := range ops {
		if o.mode != modeConst && o.mode != modeValue {
			b.errs.Add(o.expr.Start(), "cannot use %s as argument to %s", o, name)
			return t, false
		}
		if o.untyped() || o.nonFinite && t != ir.Invalid {
			continue // convertAll gives it t
		}
		if t != ir.Invalid && o.t != t && !claimable {
			b.errs.Add(pos, "mismatched types %s and %s in %s", t, o.t, name)
			return t, false
		}
		t, claimable = o.t, o.nonFinite
	}
	if t != ir.Invalid {
		return t, true
	}
	t = defaultType(ops[0].val)
	for _, o := range ops {
		if o.val.Kind() == constant.Float && t != ir.Bool {
			t = ir.F32
		}
	}
	return t, true
}

// convertAll converts operands to t and materializes them.
func (b *body) convertAll(ops []operand, t ir.Type, context string) ([]ir.Reg, bool) {
	regs := make([]ir.Reg, len(ops))
	for i, o := range ops {
		o = b.convertTo(o, t, context)
		if o.mode == modeInvalid {
			return nil, false
		}
		regs[i] = b.materialize(o)
	}
	return regs, true
}

func (b *body) mathCall(e *ast.CallExpr, name string, spec mathSpec) operand {
	ops, ok := b.args(e.Args)
	if ok && anyVec(ops...) && linalg.IsFunc(name) { // min, max, abs of vectors
		return b.linalgCall(e, name, ops)
	}
	if !ok || !b.argCount(e, name, spec.n) {
		return invalid()
	}
	t, ok := b.unifyMany(name, e.Lparen, ops)
	if !ok {
		return invalid()
	}
	if allUntyped(ops) && !spec.ints && t.IsInt() {
		t = ir.F32 // sqrt(2) is an f32 sqrt
	}
	if !spec.ints && !t.IsFloat() {
		b.errs.Add(e.Args[0].Start(), "%s needs a float argument, got %s", name, t)
		return invalid()
	}
	if !t.IsNumeric() {
		b.errs.Add(e.Args[0].Start(), "%s needs a numeric argument, got %s", name, t)
		return invalid()
	}
	regs, ok := b.convertAll(ops, t, "argument to "+name)
	if !ok {
		return invalid()
	}
	rt := t
	if spec.boolResult {
		rt = ir.Bool
	}
	dst := b.reg(rt)
	b.emit(&ir.Inst{Op: spec.op, Dst: dst, Args: regs})
	return operand{mode: modeValue, t: rt, reg: dst, expr: e}
}

func (b *body) conversion(e *ast.CallExpr, t ir.Type) operand {
	ops, ok := b.args(e.Args)
	if !ok || !b.argCount(e, t.String(), 1) {
		return invalid()
	}
	x := ops[0]
	if x.mode != modeConst && x.mode != modeValue {
		b.errs.Add(e.Args[0].Start(), "cannot convert %s to %s", x, t)
		return invalid()
	}
	if (typeOf(x) == ir.Bool) != (t == ir.Bool) {
		b.errs.Add(e.Args[0].Start(), "cannot convert %s to %s", x, t)
		return invalid()
	}
	if x.mode == modeConst {
		if t.IsInt() && constant.ToInt(x.val).Kind() != constant.Int {
			b.errs.Add(e.Args[0].Start(), "cannot convert %s to %s (truncated)", x, t)
			return invalid()
		}
		return b.typedConst(e, t, x.val)
	}
	if x.t == t {
		return operand{mode: modeValue, t: t, reg: x.reg, expr: e}
	}
	dst := b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpConvert, Dst: dst, Args: []ir.Reg{x.reg}})
	return operand{mode: modeValue, t: t, reg: dst, expr: e}
}

// tid lowers a tid() call unpacked into n names and checks that every
// tid() of the kernel agrees on n.
func (b *body) tid(e *ast.CallExpr, n int) []ir.Reg {
	if b.kind != "kernel" {
		b.errs.Add(e.Fun.Start(), "tid() is only available in kernels, not in func %s", b.name)
		return nil
	}
	if !b.noArgs(e, "tid") {
		return nil
	}
	switch {
	case b.block != nil:
		// one name per block axis: block_id * block_dim + thread_id
		if !b.blockRank(e, "tid", n) {
			return nil
		}
		b.tidDims = n
	case b.tidDims == 0:
		b.tidDims, b.tidPos = n, e.Fun.Start()
	case b.tidDims != n:
		b.errs.Add(e.Fun.Start(), "tid() returns %d values here but %d in line %d", n, b.tidDims, b.tidPos.Line)
		return nil
	}
	regs := make([]ir.Reg, n)
	for axis := range regs {
		regs[axis] = b.reg(ir.I32)
		b.emitFrom(&ir.Inst{Op: ir.OpTid, Dst: regs[axis], Imm: axis}, e)
	}
	return regs
}

// noArgs checks that a builtin of no arguments got none.
func (b *body) noArgs(e *ast.CallExpr, name string) bool {
	if len(e.Args) > 0 {
		b.errs.Add(e.Lparen, "%s() takes no arguments", name)
		return false
	}
	return true
}

func (b *body) lenCall(e *ast.CallExpr) operand {
	ops, ok := b.args(e.Args)
	if !ok || !b.argCount(e, "len", 1) {
		return invalid()
	}
	if ops[0].mode != modeArray {
		b.errs.Add(e.Args[0].Start(), "invalid argument: %s for len (want an array)", ops[0])
		return invalid()
	}
	if dims := ops[0].arr.dims; dims != nil {
		return b.typedConst(e, ir.I32, constant.MakeInt64(int64(dims[0])))
	}
	dst := b.reg(ir.I32)
	b.emit(&ir.Inst{Op: ir.OpShape, Dst: dst, Imm: 0, Param: ops[0].arr.param})
	return operand{mode: modeValue, t: ir.I32, reg: dst, expr: e}
}

func (b *body) selectCall(e *ast.CallExpr) operand {
	ops, ok := b.args(e.Args)
	if !ok || !b.argCount(e, "select", 3) {
		return invalid()
	}
	c := b.convertTo(ops[0], ir.Bool, "select condition")
	if c.mode == modeInvalid {
		return invalid()
	}
	if anyVec(ops[1:]...) {
		return b.vecSelect(e, b.materialize(c), ops[1], ops[2])
	}
	t, ok := b.unifyMany("select", e.Lparen, ops[1:])
	if !ok {
		return invalid()
	}
	regs, ok := b.convertAll(ops[1:], t, "argument to select")
	if !ok {
		return invalid()
	}
	dst := b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpSelect, Dst: dst, Args: []ir.Reg{b.materialize(c), regs[0], regs[1]}})
	return operand{mode: modeValue, t: t, reg: dst, expr: e}
}

// printCall lowers print(...): scalars become "{}" placeholders, string
// literals are copied into the format, separated by spaces, with a final
// newline.
func (b *body) printCall(e *ast.CallExpr) operand {
	var parts []string
	var regs []ir.Reg
	ok := true
	for _, a := range e.Args {
		if lit, isLit := a.(*ast.BasicLit); isLit && lit.Kind == "string" {
			s, _ := lit.Value.(string)
			if strings.Contains(s, "{}") {
				b.errs.Add(lit.Pos, "print string cannot contain {} in a %s (it is the value placeholder)", b.kind)
				ok = false
			}
			parts = append(parts, s)
			continue
		}
		x := b.expr(a)
		if x.mode == modeArray {
			b.errs.Add(a.Start(), "cannot print array %s in a %s (print its elements)", exprString(a), b.kind)
		}
		if x.mode == modeInvalid || x.mode == modeArray || !b.singleValue(&x) {
			ok = false
			continue
		}
		if x.mode == modeVec {
			regs = append(regs, x.regs...)
			parts = append(parts, printParts(x.ct))
			continue
		}
		regs = append(regs, b.materialize(x))
		parts = append(parts, "{}")
	}
	if ok {
		b.emit(&ir.Inst{Op: ir.OpPrint, Dst: ir.NoReg, Args: regs, Format: strings.Join(parts, " ") + "\n", Pos: e.Fun.Start()})
		b.usesPrint()
	}
	return operand{mode: modeNoValue, expr: e}
}

func (b *body) usesPrint() {
	if b.ks != nil {
		b.ks.k.UsesPrint = true
	}
}

func (b *body) usesAtomics() {
	if b.ks != nil {
		b.ks.k.UsesAtomics = true
	}
}

// atomic lowers atomic_op(a, idx..., v) and atomic_cas(a, idx..., cmp, v).
func (b *body) atomic(e *ast.CallExpr, name string, op ir.Op, stmt bool) operand {
	if len(e.Args) == 0 {
		b.errs.Add(e.Lparen, "%s needs an array argument", name)
		return invalid()
	}
	a := b.expr(e.Args[0])
	if a.mode == modeInvalid {
		return a
	}
	if a.mode != modeArray {
		b.errs.Add(e.Args[0].Start(), "first argument to %s must be an array, got %s", name, a)
		return invalid()
	}
	arr := a.arr
	if !arr.ct.IsScalar() {
		return b.vecAtomic(e, name, op, arr, stmt)
	}
	if arr.elem == ir.U8 || arr.elem == ir.Bool {
		b.errs.Add(e.Args[0].Start(), "%s is not supported on %s", name, arrayTypeString(arr.elem, arr.ndim))
		return invalid()
	}
	nvals := 1
	if op == ir.OpAtomicCAS {
		nvals = 2
	}
	if len(e.Args) != 1+arr.ndim+nvals {
		b.errs.Add(e.Lparen, "%s on %s (%d dimensions) needs %d indices and %d value(s), got %d arguments",
			name, arr.name, arr.ndim, arr.ndim, nvals, len(e.Args)-1)
		return invalid()
	}
	regs, ok := b.indexRegs(arr, e.Args[1:1+arr.ndim], e.Lparen)
	vals, _ := b.args(e.Args[1+arr.ndim:])
	vregs, vok := b.convertAll(vals, arr.elem, "argument to "+name)
	if !ok || !vok {
		return invalid()
	}
	dst := ir.NoReg
	if !stmt {
		dst = b.reg(arr.elem)
	}
	b.emitFrom(&ir.Inst{Op: op, Dst: dst, Param: arr.param, Space: arr.space, Args: append(regs, vregs...), Pos: e.Fun.Start()}, e)
	b.read(arr)
	b.usesAtomics()
	if stmt {
		return operand{mode: modeNoValue, expr: e}
	}
	return operand{mode: modeValue, t: arr.elem, reg: dst, expr: e}
}

// callFunc lowers a device func call: array arguments are passed by
// parameter index, scalars by register.
func (b *body) callFunc(e *ast.CallExpr, fi *funcInfo, stmt bool) operand {
	b.edges = append(b.edges, callEdge{callee: fi, pos: e.Fun.Start()})
	ops, ok := b.args(e.Args)
	if !ok {
		return invalid()
	}
	if len(ops) != len(fi.sig) {
		what := "not enough"
		if len(ops) > len(fi.sig) {
			what = "too many"
		}
		b.errs.Add(e.Lparen, "%s arguments in call to %s: have %d, want %d", what, fi.name, len(ops), len(fi.sig))
		return invalid()
	}
	args, arrays, ok := b.funcArgs(ops, fi)
	if !ok || fi.badResult {
		return invalid()
	}
	callee := 0
	if b.ks != nil && b.kc.funcsOK {
		callee = b.ks.callee(b.kc, fi)
	}
	var dsts []ir.Reg
	if fi.result.Valid() && !stmt {
		for k := range fi.result.Lanes() {
			dsts = append(dsts, b.reg(fi.result.LaneType(k)))
		}
	}
	b.emit(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: dsts, Args: args, ArrayArgs: arrays, Callee: callee, Pos: e.Fun.Start()})
	if fi.readsMem {
		for _, r := range dsts {
			b.uni.from(r, e)
		}
	}
	if dsts == nil {
		return operand{mode: modeNoValue, expr: e}
	}
	return b.linalgResult(fi.result, dsts, e)
}

// funcArgs checks every argument against its source parameter and
// returns the IR call's operands: a compound value passes one register
// per lane. A parameter whose type was an error accepts anything: that
// error was reported at the func.
func (b *body) funcArgs(ops []operand, fi *funcInfo) (args []ir.Reg, arrays []int, ok bool) {
	ok = true
	for i, p := range fi.sig {
		context := "argument to " + fi.name
		switch {
		case !p.Type.Valid():
			args, arrays, ok = append(args, ir.NoReg), append(arrays, -1), false
		case p.NDim > 0:
			idx, argOK := b.arrayArg(ops[i], p, fi.name)
			args, arrays, ok = append(args, ir.NoReg), append(arrays, idx), ok && argOK
		case !p.Type.IsScalar():
			x := b.convertVec(ops[i], p.Type, context)
			if x.mode == modeInvalid {
				x.regs, ok = make([]ir.Reg, p.Type.Lanes()), false
			}
			for _, r := range x.regs {
				args, arrays = append(args, r), append(arrays, -1)
			}
		default:
			x := b.convertTo(ops[i], p.Type.Elem, context)
			r := ir.NoReg
			if x.mode == modeInvalid {
				ok = false
			} else {
				r = b.materialize(x)
			}
			args, arrays = append(args, r), append(arrays, -1)
		}
	}
	return args, arrays, ok
}

func (b *body) arrayArg(x operand, p dtype.Param, fname string) (int, bool) {
	if x.mode == modeArray && x.arr.space != ir.SpaceParam {
		b.errs.Add(x.expr.Start(), "cannot pass %s array %s to func %s: funcs take array parameters only", x.arr.space, x.arr.name, fname)
		return -1, false
	}
	want := (&kvar{elem: p.Type.Elem, ndim: p.NDim, ct: p.Type}).typeString()
	if x.mode != modeArray || x.arr.ct != p.Type || x.arr.ndim != p.NDim {
		b.errs.Add(x.expr.Start(), "cannot use %s as %s value in argument to %s", x, want, fname)
		return -1, false
	}
	return x.arr.param, true
}

func allUntyped(ops []operand) bool {
	for _, o := range ops {
		if !o.untyped() {
			return false
		}
	}
	return true
}

// KernelBuiltins lists, sorted, the names a kernel or func body can call
// besides its own funcs: the REPL completes them inside kernel bodies.
func KernelBuiltins() []string {
	names := append(slices.Clone(plainBuiltins), mathNames...)
	for _, m := range []map[string]ir.Op{atomicOps, blockOps} {
		for name := range m {
			names = append(names, name)
		}
	}
	for _, t := range ir.Scalars.Types() {
		names = append(names, t.String())
	}
	for _, t := range dtype.Compounds() {
		names = append(names, t.String())
	}
	for _, f := range linalg.Names() {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}
