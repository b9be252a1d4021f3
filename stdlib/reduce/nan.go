package reduce

import (
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
)

// nanBase is the reduction each NaN-ignoring kind is, on arrays without
// NaN (ints and bools): its output dtype and, for those, its kernels.
var nanBase = [...]Kind{NanSum - NanSum: Sum, NanMean - NanSum: Mean, NanMin - NanSum: Min,
	NanMax - NanSum: Max, NanArgMin - NanSum: ArgMin, NanArgMax - NanSum: ArgMax}

// nanReducer is the reducer of a NaN-ignoring kind (nil for another
// kind), as NumPy's nan functions: a NaN element counts as absent. nansum
// sums the others (0 for all-NaN), nanmean divides their sum by their
// count (NaN for all-NaN: 0/0), nanmin and nanmax start from NaN and keep
// any number over it (NaN for all-NaN), and nanargmin and nanargmax rank
// NaN as the worst value and give -1 for an all-NaN run, which the host
// reports as NumPy's ValueError.
func nanReducer(s Spec, m mode, ix ir.Type) *reducer {
	if s.Kind < NanSum || s.Kind > NanArgMax {
		return nil
	}
	t := s.In[0]
	switch s.Kind {
	case NanSum:
		if !t.IsFloat() {
			return sumReducer(t, m)
		}
		return f64Sum(func(b *fb, x ir.Reg) ir.Reg {
			y := b.Conv(ir.F64, x)
			return b.sel(b.test(ir.OpIsNan, y), b.Const(ir.F64, 0.0), y)
		})
	case NanMean:
		return nanMeanReducer(t)
	case NanMin, NanMax:
		return nanExtremeReducer(t, s.Kind == NanMax)
	}
	return nanArgReducer(t, s.Kind == NanArgMax, ix)
}

// nanMeanReducer sums (x, 1) over the numbers in f64 (a count in f64 is
// exact below 2^53 elements); the mean is their quotient.
func nanMeanReducer(t ir.Type) *reducer {
	r := &reducer{
		acc:   []ir.Type{ir.F64, ir.F64},
		ident: func(b *fb) []ir.Reg { return []ir.Reg{b.Const(ir.F64, 0.0), b.Const(ir.F64, 0.0)} },
		elem: func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg {
			x, one := b.Conv(ir.F64, xs[0]), b.Const(ir.F64, 1.0)
			if !t.IsFloat() {
				return []ir.Reg{x, one}
			}
			nan, zero := b.test(ir.OpIsNan, x), b.Const(ir.F64, 0.0)
			return []ir.Reg{b.sel(nan, zero, x), b.sel(nan, zero, one)}
		},
		comb: func(b *fb, x, y []ir.Reg) []ir.Reg {
			return []ir.Reg{b.bin(ir.OpAdd, x[0], y[0]), b.bin(ir.OpAdd, x[1], y[1])}
		},
		coll: []ir.Op{ir.OpBlockSum, ir.OpBlockSum},
		full: func(b *fb, a []ir.Reg) []ir.Reg { return a },
		res:  ir.F64, nres: 2,
	}
	r.out = func(b *fb, a []ir.Reg, _ ir.Reg) ir.Reg { return b.Conv(r.outT, b.bin(ir.OpDiv, a[0], a[1])) }
	return r
}

// nanExtremeReducer: ints as min/max; floats from a NaN identity, where
// x wins when it beats y or y is NaN, so a number always replaces NaN and
// only an all-NaN run gives NaN.
func nanExtremeReducer(t ir.Type, isMax bool) *reducer {
	r := extremeReducer(t, isMax)
	if !t.IsFloat() {
		return r
	}
	r.ident = func(b *fb) []ir.Reg { return []ir.Reg{b.Const(t, math.NaN())} }
	r.comb = func(b *fb, x, y []ir.Reg) []ir.Reg {
		keep := b.bin(ir.OpOr, b.test(beats(isMax), x[0], y[0]), b.test(ir.OpIsNan, y[0]))
		return []ir.Reg{b.sel(keep, x[0], y[0])}
	}
	return r
}

// nanArgReducer is NumPy's nanargmin/nanargmax: a float NaN element
// competes as the worst value (+inf for min, -inf for max) at its index,
// so ties go to the first as argmin's do ([nan, -inf] gives 0, as
// NumPy), and a third component says whether any number was seen: an
// all-NaN run gives the index -1, which the host reports.
func nanArgReducer(t ir.Type, isMax bool, ix ir.Type) *reducer {
	r := argReducer(t, isMax, ix)
	index := func(b *fb, a []ir.Reg) ir.Reg {
		if len(a) < 3 {
			return b.Conv(ir.I64, a[1])
		}
		return b.sel(a[2], b.Conv(ir.I64, a[1]), b.Const(ir.I64, int64(-1)))
	}
	r.full = func(b *fb, a []ir.Reg) []ir.Reg { return []ir.Reg{index(b, a)} }
	r.out = func(b *fb, a []ir.Reg, _ ir.Reg) ir.Reg { return index(b, a) }
	if !t.IsFloat() {
		return r
	}
	elem, next, ident, comb := r.elem, r.next, r.ident, r.comb
	num := func(b *fb, x ir.Reg) (ir.Reg, ir.Reg) {
		nan := b.test(ir.OpIsNan, x)
		return b.sel(nan, b.Const(t, worst(t, isMax)), x), b.test(ir.OpNot, nan)
	}
	r.acc = append(r.acc, ir.Bool)
	r.ident = func(b *fb) []ir.Reg { return append(ident(b), b.Const(ir.Bool, false)) }
	r.elem = func(b *fb, xs []ir.Reg, at ir.Reg) []ir.Reg {
		x, seen := num(b, xs[0])
		return append(elem(b, []ir.Reg{x}, at), seen)
	}
	r.comb = func(b *fb, x, y []ir.Reg) []ir.Reg {
		return append(comb(b, x[:2], y[:2]), b.bin(ir.OpOr, x[2], y[2]))
	}
	r.next = func(b *fb, acc, xs []ir.Reg, at ir.Reg) []ir.Reg {
		x, seen := num(b, xs[0])
		return append(next(b, acc[:2], []ir.Reg{x}, at), b.bin(ir.OpOr, acc[2], seen))
	}
	return r
}
