package cpu

import (
	le "encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// TestEvalMatchesCPU runs every irtest case of every value op (and every
// conversion) on this executor over edge and random inputs, and compares
// each lane with ir.Eval (ir.Convert) bit for bit, any NaN matching any
// NaN: ir.Eval is the oracle of the IR's scalar semantics, and the cpu's
// generated lane loops must agree with it.
func TestEvalMatchesCPU(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 1))
	n := 0
	for _, op := range ir.Ops() {
		if info, _ := op.Info(); !info.IsValue() {
			continue
		}
		for _, c := range irtest.Cases(op) {
			p, err := Compile(c.Kernel, backend.Options{})
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			for range 8 {
				if !evalRound(t, r, c, p) {
					break
				}
			}
			n++
		}
	}
	if n < 200 {
		t.Errorf("only %d value-op cases", n)
	}
}

// evalRound launches c's kernel once on fresh inputs and compares; false
// after a mismatch (reported).
func evalRound(t *testing.T, r *rand.Rand, c irtest.Case, p *Program) bool {
	t.Helper()
	params := c.Kernel.Entry.Params
	lanes := irtest.BlockShape[0]
	in := make([][]uint64, len(params)-1) // every parameter but out, the last
	bufs := make([][]byte, len(params))
	args := make([]Arg, len(params))
	for k, prm := range params {
		bufs[k] = make([]byte, lanes*prm.Elem.Size())
		if k < len(in) {
			in[k] = make([]uint64, lanes)
			for i := range in[k] {
				in[k][i] = evalInput(r, c, k, prm.Elem)
				putLane(bufs[k], prm.Elem, i, in[k][i])
			}
		}
		args[k] = slice(bufs[k], lanes)
	}
	if err := p.Launch([]int{lanes}, args, Options{}); err != nil {
		t.Errorf("%s: %v", c, err)
		return false
	}
	rt := params[len(params)-1].Elem
	ops := make([]uint64, len(in))
	for i := range lanes {
		for k := range in {
			ops[k] = in[k][i]
		}
		want, err := evalWant(c, rt, ops)
		if err != nil {
			t.Errorf("%s: ir.Eval: %v", c, err)
			return false
		}
		if got := getLane(bufs[len(params)-1], rt, i); !evalEqual(rt, got, want) {
			t.Errorf("%s on %#x: cpu %#x, ir.Eval %#x", c, ops, got, want)
			return false
		}
	}
	return true
}

// evalWant is ir.Eval's lane for operands ops (ir.Convert's for a
// conversion; irtest's select kernel is select(c, a, a)).
func evalWant(c irtest.Case, rt ir.Type, ops []uint64) (uint64, error) {
	switch c.Op {
	case ir.OpConvert:
		return ir.Convert(ops[0], c.T, rt), nil
	case ir.OpSelect:
		return ir.Eval(c.Op, c.T, ops[0], ops[1], ops[1])
	}
	return ir.Eval(c.Op, c.T, ops...)
}

// evalInput draws operand k of case c, of type t: an edge value of t half
// the time, else random bits or a small number. Divisors are never zero
// (the cpu fails the whole launch, ir.Eval returns ErrDivZero: both are
// tested elsewhere); shift counts are often at or past the width.
func evalInput(r *rand.Rand, c irtest.Case, k int, t ir.Type) uint64 {
	switch {
	case t == ir.Bool:
		return uint64(r.IntN(2))
	case (c.Op == ir.OpDiv || c.Op == ir.OpRem) && k == 1 && t.IsInt():
		for {
			if x := evalInput(r, irtest.Case{}, k, t); ir.Convert(x, t, ir.Bool) != 0 {
				return x
			}
		}
	case (c.Op == ir.OpShl || c.Op == ir.OpShr) && k == 1:
		counts := []int64{0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 1000, -1, -32, math.MinInt32}
		return ir.FromInt(counts[r.IntN(len(counts))], t)
	}
	if r.IntN(2) == 0 {
		edges := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2.5, -2.5, 3, 1e-40, -1e-310, 1e30, -1e300,
			math.MaxFloat32, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), math.Pi,
			math.MaxInt32, math.MinInt32, math.MaxUint32, 1 << 63, -1 << 63, 255, 256}
		if t.IsInt() {
			ints := []uint64{0, 1, math.MaxUint64, 1 << 63, 1<<63 - 1, 1 << 31, 1<<31 - 1, 0x80, 0xff, 2, 7}
			return ints[r.IntN(len(ints))] & ir.Convert(math.MaxUint64, ir.U64, t)
		}
		return ir.FromFloat(edges[r.IntN(len(edges))], t)
	}
	if r.IntN(2) == 0 {
		return ir.Convert(r.Uint64(), ir.U64, t) // any bits: NaN payloads, subnormals
	}
	return ir.FromFloat(r.NormFloat64()*8, t)
}

func putLane(b []byte, t ir.Type, i int, v uint64) {
	switch t.Size() {
	case 1:
		b[i] = byte(v)
	case 4:
		le.LittleEndian.PutUint32(b[4*i:], uint32(v))
	default:
		le.LittleEndian.PutUint64(b[8*i:], v)
	}
}

func getLane(b []byte, t ir.Type, i int) uint64 {
	switch t.Size() {
	case 1:
		return uint64(b[i])
	case 4:
		return uint64(le.LittleEndian.Uint32(b[4*i:]))
	}
	return le.LittleEndian.Uint64(b[8*i:])
}

// evalEqual compares results of type t, any NaN equal to any NaN.
func evalEqual(t ir.Type, got, want uint64) bool {
	switch t {
	case ir.F32:
		g, w := math.Float32frombits(uint32(got)), math.Float32frombits(uint32(want))
		return got == want || g != g && w != w
	case ir.F64:
		g, w := math.Float64frombits(got), math.Float64frombits(want)
		return got == want || g != g && w != w
	}
	return got == want
}

// TestEvalDivZeroMatchesCPU: where ir.Eval refuses a zero divisor, the
// cpu fails the launch.
func TestEvalDivZeroMatchesCPU(t *testing.T) {
	for _, op := range []ir.Op{ir.OpDiv, ir.OpRem} {
		for _, c := range irtest.Cases(op) {
			if !c.T.IsInt() {
				continue
			}
			if _, err := ir.Eval(op, c.T, 1, 0); err != ir.ErrDivZero {
				t.Errorf("%s: ir.Eval by zero: %v", c, err)
			}
			p, err := Compile(c.Kernel, backend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			args := make([]Arg, len(c.Kernel.Entry.Params))
			for k, prm := range c.Kernel.Entry.Params {
				args[k] = slice(make([]byte, 64*prm.Elem.Size()), 64) // all zero
			}
			if err := p.Launch([]int{64}, args, Options{}); err == nil {
				t.Errorf("%s: the cpu divides by zero without an error", c)
			}
		}
	}
}
