package codegen

import (
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
)

// operands fetches in.Args as C names and types, requiring exactly n.
func (g *gen) operands(in *ir.Inst, n int) ([]string, []ir.Type, error) {
	if len(in.Args) != n {
		return nil, nil, g.instErr(in, "has %d operands, want %d", len(in.Args), n)
	}
	names := make([]string, n)
	types := make([]ir.Type, n)
	for i, r := range in.Args {
		var err error
		if names[i], types[i], err = g.reg(r, in.Pos); err != nil {
			return nil, nil, err
		}
	}
	return names, types, nil
}

func (g *gen) instErr(in *ir.Inst, format string, args ...any) error {
	return errorf(in.Pos, "codegen: %s: %s %s", g.f.Name, in.Op, fmt.Sprintf(format, args...))
}

// inst emits one instruction. Every value-producing instruction is a single
// assignment `rD = expr;` so that a destination that is also an operand is
// read before it is written.
func (g *gen) inst(in *ir.Inst) error {
	switch in.Op { // statements (stores, control flow, calls) print differently from values
	case ir.OpStore:
		return g.store(in)
	case ir.OpAtomicAdd, ir.OpAtomicSub, ir.OpAtomicMin, ir.OpAtomicMax, ir.OpAtomicCAS:
		return g.atomic(in)
	case ir.OpCall:
		return g.call(in)
	case ir.OpPrint:
		return g.print(in)
	case ir.OpLoad:
		return g.load(in)
	case ir.OpLoadField:
		return g.loadField(in)
	case ir.OpStoreField:
		return g.storeField(in)
	case ir.OpSync, ir.OpSyncWarp:
		return g.barrier(in)
	}
	d, dt, err := g.reg(in.Dst, in.Pos)
	if err != nil {
		return err
	}
	expr, err := g.valueExpr(in, dt)
	if err != nil {
		return err
	}
	g.line("%s = %s;", d, expr)
	return nil
}

// valueExpr is the C expression for a pure instruction with a destination of
// type dt.
func (g *gen) valueExpr(in *ir.Inst, dt ir.Type) (string, error) {
	if info, _ := in.Op.Info(); info.Block {
		return g.blockExpr(in, dt)
	}
	switch in.Op { // forms with their own operand shapes; same-typed ops go by the table's Arity below
	case ir.OpConst:
		if len(in.Args) != 0 {
			return "", g.instErr(in, "has operands")
		}
		s, err := literal(dt, in.Imm)
		if err != nil {
			return "", g.instErr(in, "%v", err)
		}
		return s, nil
	case ir.OpParam:
		return g.param(in, dt)
	case ir.OpTid:
		return g.tid(in, dt)
	case ir.OpShape:
		return g.shape(in, dt)
	case ir.OpMov:
		a, err := g.sameTyped(in, dt, 1)
		if err != nil {
			return "", err
		}
		return a[0], nil
	case ir.OpConvert:
		a, at, err := g.operands(in, 1)
		if err != nil {
			return "", err
		}
		return g.convert(in, dt, a[0], at[0])
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		return g.compare(in, dt)
	case ir.OpIsNan, ir.OpIsInf, ir.OpIsFinite:
		return g.classify(in, dt)
	case ir.OpSelect:
		return g.selectExpr(in, dt)
	case ir.OpShl, ir.OpShr:
		return g.shift(in, dt)
	}
	// What is left are the same-typed arithmetic and math ops, of the
	// table's arity.
	info, _ := in.Op.Info()
	if !info.IsValue() || info.Form != ir.FormSame {
		return "", g.instErr(in, "is not a value instruction")
	}
	a, err := g.sameTyped(in, dt, info.Arity)
	if err != nil {
		return "", err
	}
	var s string
	switch {
	case dt.IsFloat():
		s = floatExpr(in.Op, dt, a, g.opts.FastMath)
	case dt.IsInt():
		s = g.intExpr(in, dt, a)
	case dt == ir.Bool:
		s = boolExpr(in.Op, a)
	}
	if s == "" {
		return "", g.instErr(in, "does not apply to %s", dt)
	}
	return s, nil
}

// sameTyped fetches n operands that must all have type t.
func (g *gen) sameTyped(in *ir.Inst, t ir.Type, n int) ([]string, error) {
	a, at, err := g.operands(in, n)
	if err != nil {
		return nil, err
	}
	for i, x := range at {
		if x != t {
			return nil, g.instErr(in, "operand %d is %s, destination is %s", i, x, t)
		}
	}
	return a, nil
}

// floatMath maps float math ops to their (f32, f64) CUDA functions. sqrt
// uses the _rn intrinsics: correctly rounded whatever -prec-sqrt says.
var floatMath = map[ir.Op][2]string{
	ir.OpSqrt: {"__fsqrt_rn", "__dsqrt_rn"}, ir.OpSin: {"sinf", "sin"}, ir.OpCos: {"cosf", "cos"},
	ir.OpTan: {"tanf", "tan"}, ir.OpAsin: {"asinf", "asin"}, ir.OpAcos: {"acosf", "acos"},
	ir.OpAtan: {"atanf", "atan"}, ir.OpSinh: {"sinhf", "sinh"}, ir.OpCosh: {"coshf", "cosh"},
	ir.OpTanh: {"tanhf", "tanh"}, ir.OpExp: {"expf", "exp"}, ir.OpExp2: {"exp2f", "exp2"},
	ir.OpLog: {"logf", "log"}, ir.OpLog2: {"log2f", "log2"}, ir.OpLog10: {"log10f", "log10"},
	ir.OpFloor: {"floorf", "floor"}, ir.OpCeil: {"ceilf", "ceil"}, ir.OpRound: {"roundf", "round"},
	ir.OpTrunc: {"truncf", "trunc"}, ir.OpAbs: {"fabsf", "fabs"},
	ir.OpAtan2: {"atan2f", "atan2"}, ir.OpPow: {"powf", "pow"}, ir.OpMin: {"fminf", "fmin"},
	ir.OpMax: {"fmaxf", "fmax"}, ir.OpFma: {"fmaf", "fma"},
	// + - * / never contract into an FMA through the _rn intrinsics, so the
	// result does not depend on -fmad and matches the CPU's separate roundings.
	ir.OpAdd: {"__fadd_rn", "__dadd_rn"}, ir.OpSub: {"__fsub_rn", "__dsub_rn"},
	ir.OpMul: {"__fmul_rn", "__dmul_rn"}, ir.OpDiv: {"__fdiv_rn", "__ddiv_rn"},
}

// fastOps are the C operators that replace the _rn intrinsics of + - * /
// in a fast-math kernel, so that --use_fast_math may contract a*b+c into
// an FMA and approximate f32 division.
var fastOps = map[ir.Op]string{ir.OpAdd: "+", ir.OpSub: "-", ir.OpMul: "*", ir.OpDiv: "/"}

// floatExpr is the C expression of a float op; fast selects the operators
// and functions that NVRTC's --use_fast_math speeds up (Options.FastMath).
func floatExpr(op ir.Op, t ir.Type, a []string, fast bool) string {
	w := 0
	one, zero := "1.0f", "0.0f"
	if t == ir.F64 {
		w, one, zero = 1, "1.0", "0.0"
	}
	if fast {
		if o, ok := fastOps[op]; ok {
			return "(" + a[0] + " " + o + " " + a[1] + ")"
		}
		switch op { // fast math: the approximate intrinsics that replace the exact ones
		case ir.OpSqrt:
			return [2]string{"sqrtf", "sqrt"}[w] + "(" + a[0] + ")"
		case ir.OpRsqrt:
			return [2]string{"rsqrtf", "rsqrt"}[w] + "(" + a[0] + ")"
		}
	}
	if fn, ok := floatMath[op]; ok {
		return fn[w] + "(" + strings.Join(a, ", ") + ")"
	}
	switch op { // float ops that are no single libm call (floatMath has those)
	case ir.OpNeg:
		return "(-" + a[0] + ")"
	case ir.OpRsqrt:
		// 1/sqrt with two correct roundings; rsqrtf is only approximate.
		// (__frcp_rn gives the same bits as the division but ran the
		// strict n-body 4-6% slower on the H200.)
		return fmt.Sprintf("%s(%s, %s(%s))", floatMath[ir.OpDiv][w], one, floatMath[ir.OpSqrt][w], a[0])
	case ir.OpSign:
		// -1, 1, +0 for both zeros, or NaN itself (ir.FSign).
		return fmt.Sprintf("(%s > %s ? %s : (%s < %s ? -%s : (%s == %s ? %s : %s)))", a[0], zero, one, a[0], zero, one,
			a[0], zero, zero, a[0])
	case ir.OpClamp:
		return fmt.Sprintf("%s(%s(%s, %s), %s)", floatMath[ir.OpMin][w], floatMath[ir.OpMax][w], a[0], a[1], a[2])
	}
	return ""
}

// intExpr handles integer arithmetic. Signed + - * and negation go through
// the unsigned type: they wrap as in Go instead of being undefined as in C.
// u8 arithmetic happens in int (C's promotion) and is cast back.
func (g *gen) intExpr(in *ir.Inst, t ir.Type, a []string) string {
	ct, _ := ctype(t)
	wrap := func(op string) string {
		if t.IsSigned() {
			u := utype(t)
			return fmt.Sprintf("(%s)((%s)%s %s (%s)%s)", ct, u, a[0], op, u, a[1])
		}
		return fmt.Sprintf("(%s)(%s %s %s)", ct, a[0], op, a[1])
	}
	switch in.Op { // int ops whose C needs care (wrapping, division checks, C's min/max)
	case ir.OpAdd:
		return wrap("+")
	case ir.OpSub:
		return wrap("-")
	case ir.OpMul:
		return wrap("*")
	case ir.OpAnd:
		return fmt.Sprintf("(%s)(%s & %s)", ct, a[0], a[1])
	case ir.OpOr:
		return fmt.Sprintf("(%s)(%s | %s)", ct, a[0], a[1])
	case ir.OpXor:
		return fmt.Sprintf("(%s)(%s ^ %s)", ct, a[0], a[1])
	case ir.OpBitNot:
		return fmt.Sprintf("(%s)(~%s)", ct, a[0])
	case ir.OpNeg:
		return fmt.Sprintf("(%s)(0u - (%s)%s)", ct, utype(t), a[0])
	case ir.OpDiv, ir.OpRem:
		return g.divide(in, t, a)
	case ir.OpAbs:
		if !t.IsSigned() {
			return a[0]
		}
		return fmt.Sprintf("(%s < 0 ? (%s)(0u - (%s)%s) : %s)", a[0], ct, utype(t), a[0], a[0])
	case ir.OpSign:
		if !t.IsSigned() {
			return fmt.Sprintf("(%s)(%s != 0)", ct, a[0])
		}
		return fmt.Sprintf("(%s)((%s > 0) - (%s < 0))", ct, a[0], a[0])
	case ir.OpMin:
		return fmt.Sprintf("(%s < %s ? %s : %s)", a[0], a[1], a[0], a[1])
	case ir.OpMax:
		return fmt.Sprintf("(%s > %s ? %s : %s)", a[0], a[1], a[0], a[1])
	case ir.OpClamp:
		m := fmt.Sprintf("(%s > %s ? %s : %s)", a[0], a[1], a[0], a[1])
		return fmt.Sprintf("(%s < %s ? %s : %s)", m, a[2], m, a[2])
	}
	return ""
}

// divide emits Go's truncating division through the gs_div_*/gs_rem_*
// helpers; in Debug builds a zero divisor is reported first.
func (g *gen) divide(in *ir.Inst, t ir.Type, a []string) string {
	if g.opts.Debug {
		g.line("if (%s == 0) gs_fail(%d, %d, -1, -1, 0, 0);", a[1], ErrDivZero, g.ids[in])
	}
	kind := map[ir.Type]string{ir.U8: "u32", ir.I32: "i32", ir.U32: "u32", ir.I64: "i64", ir.U64: "u64"}[t]
	fn := "gs_div_" + kind
	if in.Op == ir.OpRem {
		fn = "gs_rem_" + kind
	}
	g.use(fn)
	if t == ir.U8 {
		return fmt.Sprintf("(unsigned char)%s(%s, %s)", fn, a[0], a[1])
	}
	return fmt.Sprintf("%s(%s, %s)", fn, a[0], a[1])
}

func boolExpr(op ir.Op, a []string) string {
	switch op { // bool ops: C's logical operators
	case ir.OpNot:
		return "(!" + a[0] + ")"
	case ir.OpAnd:
		return fmt.Sprintf("(%s && %s)", a[0], a[1])
	case ir.OpOr:
		return fmt.Sprintf("(%s || %s)", a[0], a[1])
	case ir.OpXor:
		return fmt.Sprintf("(%s != %s)", a[0], a[1])
	}
	return ""
}

// shift implements Go's shifts: the count is unsigned (a negative signed
// count counts as huge), counts >= the width give 0, or the sign fill for >>
// of a signed value. C leaves those cases undefined, so they are guarded.
func (g *gen) shift(in *ir.Inst, dt ir.Type) (string, error) {
	a, at, err := g.operands(in, 2)
	if err != nil {
		return "", err
	}
	if !dt.IsInt() || at[0] != dt || !at[1].IsInt() {
		return "", g.instErr(in, "does not apply to %s, %s -> %s", at[0], at[1], dt)
	}
	ct, _ := ctype(dt)
	c := "(unsigned long long)" + a[1]
	if at[1].IsSigned() {
		c = "(unsigned long long)(long long)" + a[1]
	}
	w := dt.Size() * 8
	switch {
	case in.Op == ir.OpShr && dt.IsSigned():
		return fmt.Sprintf("(%s >> (%s >= %dull ? %d : (int)%s))", a[0], c, w, w-1, c), nil
	case in.Op == ir.OpShr:
		return fmt.Sprintf("(%s >= %dull ? (%s)0 : (%s)(%s >> %s))", c, w, ct, ct, a[0], c), nil
	case dt.IsSigned():
		return fmt.Sprintf("(%s >= %dull ? (%s)0 : (%s)((%s)%s << %s))", c, w, ct, ct, utype(dt), a[0], c), nil
	}
	return fmt.Sprintf("(%s >= %dull ? (%s)0 : (%s)(%s << %s))", c, w, ct, ct, a[0], c), nil
}

func (g *gen) compare(in *ir.Inst, dt ir.Type) (string, error) {
	a, at, err := g.operands(in, 2)
	if err != nil {
		return "", err
	}
	if dt != ir.Bool || at[0] != at[1] {
		return "", g.instErr(in, "compares %s with %s into %s", at[0], at[1], dt)
	}
	ordered := in.Op != ir.OpEq && in.Op != ir.OpNe
	if ordered && !at[0].IsNumeric() {
		return "", g.instErr(in, "does not apply to %s", at[0])
	}
	op := map[ir.Op]string{ir.OpEq: "==", ir.OpNe: "!=", ir.OpLt: "<", ir.OpLe: "<=", ir.OpGt: ">", ir.OpGe: ">="}[in.Op]
	return fmt.Sprintf("(%s %s %s)", a[0], op, a[1]), nil
}

// classify tests the float's bits (exponent all ones), which no compiler
// flag (fast math, -ftz) can change.
func (g *gen) classify(in *ir.Inst, dt ir.Type) (string, error) {
	a, at, err := g.operands(in, 1)
	if err != nil {
		return "", err
	}
	if dt != ir.Bool || !at[0].IsFloat() {
		return "", g.instErr(in, "does not apply to %s -> %s", at[0], dt)
	}
	bits := fmt.Sprintf("(__float_as_uint(%s) & 0x7fffffffu)", a[0])
	inf := "0x7f800000u"
	if at[0] == ir.F64 {
		bits = fmt.Sprintf("((unsigned long long)__double_as_longlong(%s) & 0x7fffffffffffffffull)", a[0])
		inf = "0x7ff0000000000000ull"
	}
	op := map[ir.Op]string{ir.OpIsNan: ">", ir.OpIsInf: "==", ir.OpIsFinite: "<"}[in.Op]
	return fmt.Sprintf("(%s %s %s)", bits, op, inf), nil
}

func (g *gen) selectExpr(in *ir.Inst, dt ir.Type) (string, error) {
	a, at, err := g.operands(in, 3)
	if err != nil {
		return "", err
	}
	if at[0] != ir.Bool || at[1] != dt || at[2] != dt {
		return "", g.instErr(in, "operands %s, %s, %s -> %s", at[0], at[1], at[2], dt)
	}
	return fmt.Sprintf("(%s ? %s : %s)", a[0], a[1], a[2]), nil
}

// convert is T(a) with Go's semantics; float->int goes through the gs_f2*
// helpers (Go on amd64: NaN and out-of-range give the minimum integer).
func (g *gen) convert(in *ir.Inst, t ir.Type, a string, s ir.Type) (string, error) {
	ct, _ := ctype(t)
	switch {
	case s == t:
		return a, nil
	case t == ir.Bool:
		return fmt.Sprintf("(%s != 0)", a), nil
	case s == ir.Bool || t.IsFloat() || s.IsInt() && t.IsInt():
		return fmt.Sprintf("((%s)%s)", ct, a), nil
	case s.IsFloat() && t.IsInt():
		switch t {
		case ir.I32:
			g.use("gs_f2i32")
			return fmt.Sprintf("gs_f2i32(%s)", a), nil
		case ir.U8:
			g.use("gs_f2i32")
			return fmt.Sprintf("((unsigned char)gs_f2i32(%s))", a), nil
		case ir.I64:
			g.use("gs_f2i64")
			return fmt.Sprintf("gs_f2i64(%s)", a), nil
		case ir.U32:
			g.use("gs_f2i64")
			return fmt.Sprintf("((unsigned int)gs_f2i64(%s))", a), nil
		case ir.U64:
			g.use("gs_f2u64")
			return fmt.Sprintf("gs_f2u64(%s)", a), nil
		}
	}
	return "", g.instErr(in, "cannot convert %s to %s", s, t)
}

func (g *gen) param(in *ir.Inst, dt ir.Type) (string, error) {
	if in.Param < 0 || in.Param >= len(g.f.Params) {
		return "", g.instErr(in, "parameter %d out of range", in.Param)
	}
	p := g.f.Params[in.Param]
	if p.IsArray() || p.Elem != dt {
		return "", g.instErr(in, "parameter %s is not a %s scalar", p.Name, dt)
	}
	return pname(g.f, in.Param), nil
}

func (g *gen) tid(in *ir.Inst, dt ir.Type) (string, error) {
	axis, ok := immInt(in.Imm)
	switch {
	case !g.entry:
		return "", g.instErr(in, "in device func (tid() is only available in kernels)")
	case !ok || axis < 0 || axis >= g.k.TidDims:
		return "", g.instErr(in, "axis %v out of range for a %d-D kernel", in.Imm, g.k.TidDims)
	case dt != ir.I32:
		return "", g.instErr(in, "destination is %s, want i32", dt)
	}
	return fmt.Sprintf("gs_tid%d", axis), nil
}

// shape reads an array parameter's extent, or a shared or local array's
// static one.
func (g *gen) shape(in *ir.Inst, dt ir.Type) (string, error) {
	var name string
	var dims []int
	if in.Space == ir.SpaceParam {
		p, err := g.arrayParam(in)
		if err != nil {
			return "", err
		}
		name, dims = p.Name, make([]int, p.NDim)
	} else {
		b, _, err := g.buffer(in)
		if err != nil {
			return "", err
		}
		name, dims = b.Name, b.Dims
	}
	axis, ok := immInt(in.Imm)
	switch {
	case !ok || axis < 0 || axis >= len(dims):
		return "", g.instErr(in, "axis %v out of range for %s with %d dimensions", in.Imm, name, len(dims))
	case dt != ir.I32:
		return "", g.instErr(in, "destination is %s, want i32", dt)
	case in.Space != ir.SpaceParam:
		return fmt.Sprint(dims[axis]), nil
	}
	return fmt.Sprintf("(int)%s.shape[%d]", pname(g.f, in.Param), axis), nil
}

func immInt(v any) (int, bool) {
	switch v := v.(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case int32:
		return int(v), true
	case uint64:
		return int(v), v < 1<<31
	}
	return 0, false
}
