package cpu

import (
	"github.com/gscript-lang/gscript/lang/ir"
)

// operands resolves an instruction's Dst (dst < 0 when NoReg) and Args.
type operands struct {
	dst   int
	dt    ir.Type
	args  []int
	types []ir.Type
}

func (c *compiler) operands(ctx *fnCtx, in *ir.Inst) (operands, error) {
	o := operands{dst: -1}
	if in.Dst != ir.NoReg {
		d, t, err := c.reg(ctx, in.Dst, in.Pos)
		if err != nil {
			return o, err
		}
		o.dst, o.dt = d, t
	}
	for _, r := range in.Args {
		if r == ir.NoReg {
			o.args, o.types = append(o.args, -1), append(o.types, ir.Invalid)
			continue
		}
		a, t, err := c.reg(ctx, r, in.Pos)
		if err != nil {
			return o, err
		}
		o.args, o.types = append(o.args, a), append(o.types, t)
	}
	return o, nil
}

// need checks the operand count and that the first n args have type t.
func (c *compiler) need(ctx *fnCtx, in *ir.Inst, o operands, n int, t ir.Type, dst bool) error {
	if len(o.args) != n {
		return c.errf(ctx, in.Pos, "%s needs %d operands, has %d", in.Op, n, len(o.args))
	}
	if dst && o.dst < 0 {
		return c.errf(ctx, in.Pos, "%s needs a destination", in.Op)
	}
	for i, at := range o.types {
		if at != t {
			return c.errf(ctx, in.Pos, "%s operand %d has type %s, want %s", in.Op, i, at, t)
		}
	}
	return nil
}

// inst compiles one instruction. It returns nil (and no error) for an
// instruction hoisted into the Program's setup.
func (c *compiler) inst(ctx *fnCtx, in *ir.Inst) (instFn, error) {
	o, err := c.operands(ctx, in)
	if err != nil {
		return nil, err
	}
	switch in.Op {
	case ir.OpConst, ir.OpParam, ir.OpTid, ir.OpShape,
		ir.OpThreadId, ir.OpBlockId, ir.OpBlockDim, ir.OpGridDim, ir.OpLaneId, ir.OpWarpId:
		return c.leaf(ctx, in, o)
	case ir.OpSync, ir.OpSyncWarp:
		return c.sync(ctx, in, o)
	case ir.OpShfl, ir.OpShflDown, ir.OpShflUp, ir.OpShflXor, ir.OpBallot, ir.OpWarpAll, ir.OpWarpAny,
		ir.OpWarpSum, ir.OpWarpMin, ir.OpWarpMax, ir.OpBlockSum, ir.OpBlockMin, ir.OpBlockMax,
		ir.OpBlockScan, ir.OpBlockScanExcl, ir.OpBlockCount, ir.OpBlockAny, ir.OpBlockAll:
		return c.warpOp(ctx, in, o)
	case ir.OpMov:
		if err := c.need(ctx, in, o, 1, o.dt, true); err != nil {
			return nil, err
		}
		return mkMov(o.dt, o.dst, o.args[0]), nil
	case ir.OpConvert:
		if len(o.args) != 1 || o.dst < 0 {
			return nil, c.errf(ctx, in.Pos, "convert needs one operand and a destination")
		}
		return c.check(ctx, in, o, mkConvert(o.types[0], o.dt, o.dst, o.args[0]))
	case ir.OpLoad, ir.OpStore, ir.OpAtomicAdd, ir.OpAtomicSub, ir.OpAtomicMin, ir.OpAtomicMax, ir.OpAtomicCAS:
		return c.access(ctx, in, o)
	case ir.OpLoadField, ir.OpStoreField:
		return c.field(ctx, in, o)
	case ir.OpCall:
		return c.call(ctx, in, o)
	case ir.OpPrint:
		return c.print(ctx, in, o)
	case ir.OpShl, ir.OpShr:
		return c.shift(ctx, in, o)
	case ir.OpDiv, ir.OpRem:
		if o.dt.IsInt() {
			if err := c.need(ctx, in, o, 2, o.dt, true); err != nil {
				return nil, err
			}
			return mkIdiv(o.dt, in, o.dst, o.args[0], o.args[1], ctx.f.Name), nil
		}
	}
	return c.arith(ctx, in, o)
}

// check turns a nil maker result into an error naming the op and types.
func (c *compiler) check(ctx *fnCtx, in *ir.Inst, o operands, f instFn) (instFn, error) {
	if f == nil {
		return nil, c.errf(ctx, in.Pos, "%s is not defined for %v -> %s", in.Op, o.types, o.dt)
	}
	return f, nil
}

// arith compiles the element-wise operations of ops_gen.go.
func (c *compiler) arith(ctx *fnCtx, in *ir.Inst, o operands) (instFn, error) {
	if o.dst < 0 || len(o.args) == 0 {
		return nil, c.errf(ctx, in.Pos, "%s needs operands and a destination", in.Op)
	}
	t := o.types[0] // operand type (Dst is bool for comparisons and tests)
	var f instFn
	switch n := len(o.args); {
	case in.Op == ir.OpSelect:
		if n != 3 || o.types[0] != ir.Bool || o.types[1] != o.dt || o.types[2] != o.dt {
			return nil, c.errf(ctx, in.Pos, "select needs (bool, %s, %s)", o.dt, o.dt)
		}
		return c.check(ctx, in, o, mkSel(o.dt, o.dst, o.args[0], o.args[1], o.args[2]))
	case n == 1:
		f = unary(in.Op, t, o.dst, o.args[0])
	case n == 2:
		f = binary(in.Op, t, o.dst, o.args[0], o.args[1])
	case n == 3:
		f = ternary(in.Op, t, o.dst, o.args[0], o.args[1], o.args[2])
	}
	if f == nil {
		return c.check(ctx, in, o, nil)
	}
	for _, at := range o.types {
		if at != t {
			return c.check(ctx, in, o, nil)
		}
	}
	if want := resultType(in.Op, t); o.dt != want {
		return nil, c.errf(ctx, in.Pos, "%s on %s gives %s, destination is %s", in.Op, t, want, o.dt)
	}
	return f, nil
}

func resultType(op ir.Op, t ir.Type) ir.Type {
	switch op {
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpIsNan, ir.OpIsInf, ir.OpIsFinite:
		return ir.Bool
	}
	return t
}

func unary(op ir.Op, t ir.Type, d, a int) instFn {
	if t.IsInt() {
		switch op {
		case ir.OpAbs:
			return mkIabs(t, d, a)
		case ir.OpSign:
			return mkIsign(t, d, a)
		}
	}
	mk := unaryOps[op]
	if mk == nil {
		return nil
	}
	return mk(t, d, a)
}

var unaryOps = map[ir.Op]func(ir.Type, int, int) instFn{
	ir.OpNeg: mkNeg, ir.OpNot: mkNot, ir.OpBitNot: mkBitnot, ir.OpAbs: mkFabs, ir.OpSign: mkFsign,
	ir.OpSqrt: mkSqrt, ir.OpRsqrt: mkRsqrt, ir.OpSin: mkSin, ir.OpCos: mkCos, ir.OpTan: mkTan,
	ir.OpAsin: mkAsin, ir.OpAcos: mkAcos, ir.OpAtan: mkAtan, ir.OpSinh: mkSinh, ir.OpCosh: mkCosh,
	ir.OpTanh: mkTanh, ir.OpExp: mkExp, ir.OpExp2: mkExp2, ir.OpLog: mkLog, ir.OpLog2: mkLog2,
	ir.OpLog10: mkLog10, ir.OpFloor: mkFloor, ir.OpCeil: mkCeil, ir.OpRound: mkRound, ir.OpTrunc: mkTrunc,
	ir.OpIsNan: mkIsnan, ir.OpIsInf: mkIsinf, ir.OpIsFinite: mkIsfinite,
}

func binary(op ir.Op, t ir.Type, d, a, b int) instFn {
	var mk func(ir.Type, int, int, int) instFn
	switch {
	case t == ir.Bool:
		mk = boolOps[op]
	case t.IsInt() && op == ir.OpMin:
		mk = mkImin
	case t.IsInt() && op == ir.OpMax:
		mk = mkImax
	default:
		mk = binaryOps[op]
	}
	if mk == nil {
		return nil
	}
	return mk(t, d, a, b)
}

func ternary(op ir.Op, t ir.Type, d, a, b, c int) instFn {
	switch {
	case op == ir.OpClamp && t.IsInt():
		return mkIclamp(t, d, a, b, c)
	case op == ir.OpClamp:
		return mkFclamp(t, d, a, b, c)
	case op == ir.OpFma:
		return mkFma(t, d, a, b, c)
	}
	return nil
}

var boolOps = map[ir.Op]func(ir.Type, int, int, int) instFn{
	ir.OpAnd: mkBand, ir.OpOr: mkBor, ir.OpXor: mkBxor, ir.OpEq: mkEq, ir.OpNe: mkNe,
}

var binaryOps = map[ir.Op]func(ir.Type, int, int, int) instFn{
	ir.OpAdd: mkAdd, ir.OpSub: mkSub, ir.OpMul: mkMul, ir.OpDiv: mkFdiv,
	ir.OpAnd: mkAnd, ir.OpOr: mkOr, ir.OpXor: mkXor,
	ir.OpEq: mkEq, ir.OpNe: mkNe, ir.OpLt: mkLt, ir.OpLe: mkLe, ir.OpGt: mkGt, ir.OpGe: mkGe,
	ir.OpMin: mkFmin, ir.OpMax: mkFmax, ir.OpAtan2: mkAtan2, ir.OpPow: mkPow,
}
