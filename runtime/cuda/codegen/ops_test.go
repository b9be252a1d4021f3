package codegen

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
)

var allTypes = []ir.Type{ir.Bool, ir.U8, ir.I32, ir.I64, ir.U32, ir.U64, ir.F32, ir.F64}

func allOps() []ir.Op {
	var ops []ir.Op
	for op := ir.Op(0); !strings.HasPrefix(op.String(), "Op("); op++ {
		ops = append(ops, op)
	}
	return ops
}

// opKernel builds `out[i] = op(a0[i], a1[i], ...)`: one array per operand
// type, then the output array (dst type), then a scalar s of type ops[0].
func opKernel(name string, op ir.Op, dst ir.Type, operands ...ir.Type) *ir.Kernel {
	var params []ir.Param
	for k, t := range operands {
		params = append(params, arr(fmt.Sprintf("a%d", k), t, 1))
	}
	params = append(params, arr("out", dst, 1))
	b := newFunc(name, params...)
	i := b.tid(0)
	var args []ir.Reg
	for k := range operands {
		args = append(args, b.load(k, i))
	}
	b.store(len(operands), i, b.op(op, dst, args...))
	return b.kernel(1)
}

// instKernel wraps one hand-made instruction: params a: array[t], out:
// array[dst], s: t; x is a[i]; the instruction's result is stored to out.
func instKernel(t, dst ir.Type, make func(b *fb, x ir.Reg) ir.Reg) *ir.Kernel {
	b := newFunc("k", arr("a", t, 1), arr("out", dst, 1), scalar("s", t))
	i := b.tid(0)
	x := b.load(0, i)
	if r := make(b, x); r != ir.NoReg {
		b.store(1, i, r)
	}
	return b.kernel(1)
}

var (
	floatOnly = map[ir.Op]bool{}
	numeric   = map[ir.Op]bool{ir.OpAdd: true, ir.OpSub: true, ir.OpMul: true, ir.OpDiv: true, ir.OpNeg: true,
		ir.OpAbs: true, ir.OpSign: true, ir.OpMin: true, ir.OpMax: true, ir.OpClamp: true}
)

func init() {
	for _, op := range []ir.Op{ir.OpSqrt, ir.OpRsqrt, ir.OpSin, ir.OpCos, ir.OpTan, ir.OpAsin, ir.OpAcos, ir.OpAtan,
		ir.OpSinh, ir.OpCosh, ir.OpTanh, ir.OpExp, ir.OpExp2, ir.OpLog, ir.OpLog2, ir.OpLog10, ir.OpFloor, ir.OpCeil,
		ir.OpRound, ir.OpTrunc, ir.OpAtan2, ir.OpPow, ir.OpFma} {
		floatOnly[op] = true
	}
}

// caseFor returns the kernel exercising op at type t and whether the IR
// contract says op applies to t.
func caseFor(op ir.Op, t ir.Type) (*ir.Kernel, bool) {
	if info, _ := op.Info(); info.Block {
		return blockCase(op, info, t)
	}
	switch {
	case floatOnly[op] || numeric[op] || op == ir.OpRem || op == ir.OpBitNot || op == ir.OpNot ||
		op == ir.OpAnd || op == ir.OpOr || op == ir.OpXor:
		info, _ := op.Info()
		ts := make([]ir.Type, info.Arity)
		for k := range ts {
			ts[k] = t
		}
		ok := floatOnly[op] && t.IsFloat() || numeric[op] && t.IsNumeric() ||
			op == ir.OpRem && t.IsInt() || op == ir.OpBitNot && t.IsInt() || op == ir.OpNot && t == ir.Bool ||
			(op == ir.OpAnd || op == ir.OpOr || op == ir.OpXor) && (t.IsInt() || t == ir.Bool)
		return opKernel("k", op, t, ts...), ok
	case op >= ir.OpEq && op <= ir.OpGe:
		return opKernel("k", op, ir.Bool, t, t), op <= ir.OpNe || t.IsNumeric()
	case op == ir.OpIsNan || op == ir.OpIsInf || op == ir.OpIsFinite:
		return opKernel("k", op, ir.Bool, t), t.IsFloat()
	case op == ir.OpShl || op == ir.OpShr:
		return opKernel("k", op, t, t, ir.I32), t.IsInt()
	case op == ir.OpSelect:
		return opKernel("k", op, t, ir.Bool, t, t), true
	case op == ir.OpMov:
		return opKernel("k", op, t, t), true
	case op == ir.OpConvert:
		return opKernel("k", op, ir.F64, t), true
	case op == ir.OpConst:
		return instKernel(t, t, func(b *fb, _ ir.Reg) ir.Reg { return b.konst(t, int64(-7)) }), true
	case op == ir.OpParam:
		return instKernel(t, t, func(b *fb, _ ir.Reg) ir.Reg { return b.param(2) }), true
	case op == ir.OpTid:
		return instKernel(t, ir.I32, func(b *fb, _ ir.Reg) ir.Reg { return b.tid(0) }), true
	case op == ir.OpShape:
		return instKernel(t, ir.I32, func(b *fb, _ ir.Reg) ir.Reg {
			d := b.f.NewReg(ir.I32)
			b.inst(&ir.Inst{Op: ir.OpShape, Dst: d, Param: 0, Imm: int64(0)})
			return d
		}), true
	case op == ir.OpLoad || op == ir.OpStore:
		return instKernel(t, t, func(b *fb, x ir.Reg) ir.Reg { return x }), true
	case op >= ir.OpAtomicAdd && op <= ir.OpAtomicCAS:
		return atomicKernel(op, t), t != ir.Bool && t != ir.U8
	case op == ir.OpLoadField || op == ir.OpStoreField:
		k, _ := irtest.FieldCopy(t, 40, op == ir.OpStoreField, ir.SpaceParam)
		return k, true
	case op == ir.OpCall:
		return callKernel(t), true
	case op == ir.OpPrint:
		return instKernel(t, t, func(b *fb, x ir.Reg) ir.Reg {
			b.inst(&ir.Inst{Op: ir.OpPrint, Dst: ir.NoReg, Args: []ir.Reg{x, x}, Format: "x={} 100% \"{}\"\n"})
			return ir.NoReg
		}), true
	}
	return nil, false
}

// blockCase is a block kernel of irtest.BlockShape exercising block op at
// type t: index ops and barriers store beside an array of t (so they apply
// at every t), the others take operands of t.
func blockCase(op ir.Op, info ir.OpInfo, t ir.Type) (*ir.Kernel, bool) {
	var k *ir.Kernel
	switch info.Form {
	case ir.FormLeaf:
		k = instKernel(t, ir.I32, func(b *fb, _ ir.Reg) ir.Reg {
			if info.Result == ir.ResultNone {
				b.inst(&ir.Inst{Op: op, Dst: ir.NoReg})
				return ir.NoReg
			}
			d := b.f.NewReg(ir.I32)
			b.inst(&ir.Inst{Op: op, Dst: d, Imm: int64(0)})
			return d
		})
	case ir.FormLane:
		k = opKernel("k", op, t, t, ir.I32)
	default:
		k = opKernel("k", op, info.ResultType(t), t)
	}
	k.Block = irtest.BlockShape
	return k, info.Form == ir.FormLeaf || info.Types.Has(t)
}

// atomicKernel: old = atomic_op(out, i, a[i] [, a[i]]); a[i] = old.
func atomicKernel(op ir.Op, t ir.Type) *ir.Kernel {
	return instKernel(t, t, func(b *fb, x ir.Reg) ir.Reg {
		i := ir.Reg(0) // the tid register
		args := []ir.Reg{i, x}
		if op == ir.OpAtomicCAS {
			args = append(args, x)
		}
		old := b.f.NewReg(t)
		b.inst(&ir.Inst{Op: op, Dst: old, Param: 1, Args: args})
		b.inst(&ir.Inst{Op: op, Dst: ir.NoReg, Param: 1, Args: args})
		b.store(0, i, old)
		return ir.NoReg
	})
}

// callKernel calls func id(v: array[t], x: t) -> t { v[0]; return x }.
func callKernel(t ir.Type) *ir.Kernel {
	k := instKernel(t, t, func(b *fb, x ir.Reg) ir.Reg {
		d := b.f.NewReg(t)
		b.inst(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: []ir.Reg{d}, Callee: 0, Args: []ir.Reg{ir.NoReg, x}, ArrayArgs: []int{1, -1}})
		return d
	})
	k.Funcs = []*ir.Func{callFunc(t)}
	return k
}

var placeholder = regexp.MustCompile(`TODO|<nil>|%!|invalid|Type\(|Op\(|\bnil\b`)

func TestEveryOpEveryType(t *testing.T) {
	for _, op := range allOps() {
		for _, ty := range allTypes {
			k, ok := caseFor(op, ty)
			if k == nil {
				t.Fatalf("no test case for op %s", op)
			}
			for _, debug := range []bool{false, true} {
				src, err := Source(k, Options{Debug: debug})
				switch {
				case ok && err != nil:
					t.Errorf("%s on %s (debug %v): %v", op, ty, debug, err)
				case !ok && err == nil:
					t.Errorf("%s on %s: no error for an op that does not apply", op, ty)
				case ok && placeholder.MatchString(src):
					t.Errorf("%s on %s: placeholder %q in\n%s", op, ty, placeholder.FindString(src), src)
				}
			}
		}
	}
}

func callFunc(t ir.Type) *ir.Func {
	fn := newFunc("id", arr("v", t, 1), scalar("x", t))
	x := fn.param(1)
	zero := fn.konst(ir.I32, int64(0))
	fn.load(0, zero)
	fn.emit(&ir.Return{Values: []ir.Reg{x}})
	fn.f.Results = []ir.Type{t}
	return fn.f
}

func TestConvertEveryPair(t *testing.T) {
	for _, from := range allTypes {
		for _, to := range allTypes {
			src, err := Source(opKernel("k", ir.OpConvert, to, from), Options{})
			if err != nil {
				t.Errorf("convert %s -> %s: %v", from, to, err)
				continue
			}
			if from.IsFloat() && to.IsInt() && !strings.Contains(src, "gs_f2") {
				t.Errorf("convert %s -> %s does not use the Go conversion helpers:\n%s", from, to, src)
			}
		}
	}
}

func TestShiftCountTypes(t *testing.T) {
	for _, ty := range allTypes[1:6] {
		for _, ct := range allTypes[1:6] {
			for _, op := range []ir.Op{ir.OpShl, ir.OpShr} {
				src, err := Source(opKernel("k", op, ty, ty, ct), Options{})
				if err != nil {
					t.Fatalf("%s %s by %s: %v", op, ty, ct, err)
				}
				w := fmt.Sprintf(">= %dull", ty.Size()*8)
				if !strings.Contains(src, w) {
					t.Errorf("%s %s by %s: no guard %q:\n%s", op, ty, ct, w, src)
				}
				signedCount := strings.Contains(src, "(unsigned long long)(long long)r")
				if signedCount != ct.IsSigned() {
					t.Errorf("%s by %s: signed count handling %v", op, ct, signedCount)
				}
			}
		}
	}
}
