package linalg_test

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cpu"
)

// hostOps are the ops Host evaluates, by operand type.
var hostOps = map[ir.Type][]ir.Op{
	ir.F32: floatOps, ir.F64: floatOps,
	ir.I32:  {ir.OpNeg, ir.OpAbs, ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpMin, ir.OpMax, ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpSelect},
	ir.Bool: {ir.OpNot, ir.OpAnd, ir.OpOr, ir.OpEq, ir.OpNe, ir.OpSelect},
}

var floatOps = []ir.Op{ir.OpNeg, ir.OpAbs, ir.OpSqrt, ir.OpSin, ir.OpCos, ir.OpAcos, ir.OpAdd, ir.OpSub, ir.OpMul,
	ir.OpDiv, ir.OpMin, ir.OpMax, ir.OpAtan2, ir.OpFma, ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpSelect}

// Every op Host implements, and every conversion, gives the cpu's bits.
func TestHostOpsMatchCPU(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for typ, ops := range hostOps {
		for _, op := range ops {
			info, _ := op.Info()
			ts := make([]ir.Type, info.Arity)
			for i := range ts {
				ts[i] = typ
			}
			if op == ir.OpSelect {
				ts[0] = ir.Bool
			}
			compareOp(t, r, op.String(), ts, func(o linalg.Ops[ir.Reg], a []ir.Reg) ir.Reg { return o.Op(op, typ, a...) },
				func(h *linalg.Host, a []uint64) uint64 { return h.Op(op, typ, a...) }, info.ResultType(typ))
		}
	}
	for _, from := range []ir.Type{ir.F32, ir.F64, ir.I32, ir.Bool} {
		for _, to := range []ir.Type{ir.F32, ir.F64, ir.I32, ir.Bool} {
			compareOp(t, r, "convert", []ir.Type{from}, func(o linalg.Ops[ir.Reg], a []ir.Reg) ir.Reg { return o.Convert(a[0], from, to) },
				func(h *linalg.Host, a []uint64) uint64 { return h.Convert(a[0], from, to) }, to)
		}
	}
}

// compareOp builds emit (named name) as a one-thread kernel over parameters of types
// ts and compares its result with eval's on random inputs.
func compareOp(t *testing.T, r *rand.Rand, name string, ts []ir.Type, emit func(linalg.Ops[ir.Reg], []ir.Reg) ir.Reg,
	eval func(*linalg.Host, []uint64) uint64, rt ir.Type) {
	t.Helper()
	f := &ir.Func{Name: "k"}
	for _, u := range ts {
		f.Params = append(f.Params, ir.Param{Name: "p", Elem: u})
	}
	b := ir.NewBuilder(f)
	args := make([]ir.Reg, len(ts))
	for i := range ts {
		args[i] = b.Param(i)
	}
	res := emit(linalg.Builder{B: b}, args)
	f.Params = append(f.Params, ir.Param{Name: "out", Elem: rt, NDim: 1})
	b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: len(ts), Args: []ir.Reg{b.Const(ir.I32, int64(0)), res}})
	prog, err := cpu.Compile(&ir.Kernel{Entry: f}, backend.Options{})
	if err != nil {
		t.Fatalf("%v -> %s: %v", ts, rt, err)
	}
	for range 200 {
		in := make([]uint64, len(ts))
		var launch []cpu.Arg
		for i, u := range ts {
			in[i] = input(r, u)
			x := in[i]
			if u == ir.I32 {
				x = uint64(int64(int32(x)))
			}
			launch = append(launch, cpu.Arg{Bits: x})
		}
		h := &linalg.Host{}
		want := eval(h, in)
		if h.Err != nil {
			continue // an integer division by zero
		}
		buf := make([]uint64, 1)
		launch = append(launch, cpu.Arg{Array: cpu.ArrayArg{Data: uintptr(unsafe.Pointer(&buf[0])), Shape: [4]int{1}, Strides: [4]int{1}}})
		if err := prog.Launch([]int{1}, launch, cpu.Options{}); err != nil {
			t.Fatal(err)
		}
		if got := lane(buf, rt, 0); got != want {
			t.Errorf("%s %v -> %s on %#x: cpu %#x, host %#x", name, ts, rt, in, got, want)
			return
		}
	}
}
