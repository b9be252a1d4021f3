package irtest

import (
	"math"
	"math/rand/v2"

	"github.com/gscript-lang/gscript/lang/ir"
)

// The oracle side of the backends' value-op tests: what ir.Eval says a
// lane of a Case computes, the operands to feed it, and how results
// compare. runtime/cpu (TestEvalMatchesCPU) and runtime/cuda/kernel
// (TestEvalOnHost) run the same cases against the same oracle.

// Want is ir.Eval's lane of value case c for operands ops (ir.Convert's
// for a conversion to rt; the select kernel is select(c, a, a)).
func Want(c Case, rt ir.Type, ops []uint64) (uint64, error) {
	switch c.Op {
	case ir.OpConvert:
		return ir.Convert(ops[0], c.T, rt), nil
	case ir.OpSelect:
		return ir.Eval(c.Op, c.T, ops[0], ops[1], ops[1])
	}
	return ir.Eval(c.Op, c.T, ops...)
}

// Operand draws operand k of op, of type t: an edge value half the time,
// else any bits (NaN payloads, subnormals) or a small number. Divisors
// are never zero (a backend fails or leaves it to Debug builds, and
// ir.Eval returns ErrDivZero: each is tested on its own); shift counts are
// often at or past the width, or negative.
func Operand(r *rand.Rand, op ir.Op, k int, t ir.Type) uint64 {
	switch {
	case t == ir.Bool:
		return uint64(r.IntN(2))
	case (op == ir.OpDiv || op == ir.OpRem) && k == 1 && t.IsInt():
		for {
			if x := Operand(r, ir.OpAdd, k, t); ir.Convert(x, t, ir.Bool) != 0 {
				return x
			}
		}
	case (op == ir.OpShl || op == ir.OpShr) && k == 1:
		counts := []int64{0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 1000, -1, -32, math.MinInt32}
		return ir.FromInt(counts[r.IntN(len(counts))], t)
	case r.IntN(2) == 0 && t.IsInt():
		ints := []uint64{0, 1, math.MaxUint64, 1 << 63, 1<<63 - 1, 1 << 31, 1<<31 - 1, 0x80, 0xff, 2, 7}
		return ints[r.IntN(len(ints))] & ir.Convert(math.MaxUint64, ir.U64, t)
	case r.IntN(2) == 0:
		edges := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2.5, -2.5, 3, 1e-40, -1e-310, 1e30, -1e300,
			math.MaxFloat32, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), math.Pi,
			math.MaxInt32, math.MinInt32, math.MaxUint32, 1 << 63, -1 << 63, 255, 256}
		return ir.FromFloat(edges[r.IntN(len(edges))], t)
	case r.IntN(2) == 0:
		return ir.Convert(r.Uint64(), ir.U64, t)
	}
	return ir.FromFloat(r.NormFloat64()*8, t)
}

// SameBits compares results of type t bit for bit, any NaN equal to any
// NaN (the IR does not promise NaN payloads).
func SameBits(t ir.Type, got, want uint64) bool {
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
