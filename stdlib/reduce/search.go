package reduce

import (
	"github.com/gscript-lang/gscript/lang/ir"
)

// The kernels of unique, searchsorted, bincount and histogram: every one
// elementwise, its threads striding over the elements (any grid). NaN
// compares as sort orders it: after every number, equal to NaN.

// elemKernel builds (once per what, dtype, variant and width) an
// elementwise kernel of parameters ps; body gets the element index.
func elemKernel(what string, t ir.Type, variant, wide bool, ps func(sg *sig, ix ir.Type) int,
	body func(b *fb, first int, i ir.Reg)) (*ir.Kernel, error) {
	s := SortSpec{In: t, Arg: variant}
	return cached(key{what: what, sort: s, wide: wide}, func() (*ir.Kernel, error) {
		if err := s.Check(); err != nil {
			return nil, err
		}
		ix := indexType(wide)
		var sg sig
		n := ps(&sg, ix)
		b := newFunc(sortName(what, t, variant, wide), sg.ps, ix)
		b.gridStride(b.Param(n), func(i ir.Reg) { body(b, n, i) })
		return b.k, ir.Verify(b.k)
	})
}

// lessNaN is x < y with NaN after every number.
func lessNaN(b *fb, x, y ir.Reg) ir.Reg {
	lt := b.test(ir.OpLt, x, y)
	if !b.typeOf(x).IsFloat() {
		return lt
	}
	return b.bin(ir.OpOr, lt, b.bin(ir.OpAnd, b.test(ir.OpNot, b.test(ir.OpIsNan, x)), b.test(ir.OpIsNan, y)))
}

// differ is x != y with NaN equal to NaN (unique's equal_nan).
func differ(b *fb, x, y ir.Reg) ir.Reg {
	ne := b.test(ir.OpNe, x, y)
	if !b.typeOf(x).IsFloat() {
		return ne
	}
	both := b.bin(ir.OpAnd, b.test(ir.OpIsNan, x), b.test(ir.OpIsNan, y))
	return b.bin(ir.OpAnd, ne, b.test(ir.OpNot, both))
}

// UniqueFlagsKernel marks in flags (bool) the elements of the sorted x
// that differ from the one before (the first always). Parameters: x,
// flags, n.
func UniqueFlagsKernel(t ir.Type, wide bool) (*ir.Kernel, error) {
	return elemKernel("unique_flags", t, false, wide, func(sg *sig, ix ir.Type) int {
		sg.add(ir.Param{Name: "x", Elem: t, NDim: 1}, ir.Param{Name: "flags", Elem: ir.Bool, NDim: 1})
		return sg.add(ir.Param{Name: "n", Elem: ix})
	}, func(b *fb, _ int, i ir.Reg) {
		first := b.test(ir.OpEq, i, b.Const(b.ix, int64(0)))
		prev := b.sel(first, i, b.bin(ir.OpSub, i, b.Const(b.ix, int64(1))))
		x, y := b.load(ir.SpaceParam, 0, t, i), b.load(ir.SpaceParam, 0, t, prev)
		b.store(ir.SpaceParam, 1, b.bin(ir.OpOr, first, differ(b, x, y)), i)
	})
}

// CompactKernel writes each flagged element of x (pos is the inclusive
// scan of the flags, so element i is flagged where pos steps) to out at
// pos-1, and its index to first. Parameters: x, pos (i64), out, first
// (i64), n.
func CompactKernel(t ir.Type, wide bool) (*ir.Kernel, error) {
	return elemKernel("compact", t, false, wide, func(sg *sig, ix ir.Type) int {
		sg.add(ir.Param{Name: "x", Elem: t, NDim: 1}, ir.Param{Name: "pos", Elem: ir.I64, NDim: 1},
			ir.Param{Name: "out", Elem: t, NDim: 1}, ir.Param{Name: "first", Elem: ir.I64, NDim: 1})
		return sg.add(ir.Param{Name: "n", Elem: ix})
	}, func(b *fb, _ int, i ir.Reg) {
		zero := b.test(ir.OpEq, i, b.Const(b.ix, int64(0)))
		prev := b.sel(zero, i, b.bin(ir.OpSub, i, b.Const(b.ix, int64(1))))
		p := b.load(ir.SpaceParam, 1, ir.I64, i)
		step := b.bin(ir.OpOr, zero, b.test(ir.OpNe, p, b.load(ir.SpaceParam, 1, ir.I64, prev)))
		b.If(step, func() {
			j := b.Conv(b.ix, b.bin(ir.OpSub, p, b.Const(ir.I64, int64(1))))
			b.store(ir.SpaceParam, 2, b.load(ir.SpaceParam, 0, t, i), j)
			b.store(ir.SpaceParam, 3, b.Conv(ir.I64, i), j)
		})
	})
}

// RunLengthsKernel turns the first indices of u runs of n elements into
// the runs' lengths. Parameters: first (i64), counts (i64), u, n.
func RunLengthsKernel(wide bool) (*ir.Kernel, error) {
	return elemKernel("run_lengths", ir.I64, false, wide, func(sg *sig, ix ir.Type) int {
		sg.add(ir.Param{Name: "first", Elem: ir.I64, NDim: 1}, ir.Param{Name: "counts", Elem: ir.I64, NDim: 1})
		return sg.add(ir.Param{Name: "u", Elem: ix}, ir.Param{Name: "n", Elem: ix})
	}, func(b *fb, u int, i ir.Reg) {
		next := b.bin(ir.OpAdd, i, b.Const(b.ix, int64(1)))
		end := b.vars([]ir.Reg{b.Conv(ir.I64, b.Param(u+1))})[0]
		b.If(b.test(ir.OpLt, next, b.Param(u)), func() { b.set(end, b.load(ir.SpaceParam, 0, ir.I64, next)) })
		b.store(ir.SpaceParam, 1, b.bin(ir.OpSub, end, b.load(ir.SpaceParam, 0, ir.I64, i)), i)
	})
}

// bisect is the number of elements of the sorted a[0:n] (of dtype t)
// before v (of cmpType(t)): those less than v (left), or not greater
// (right), with NaN last.
func bisect(b *fb, a int, t ir.Type, n, v ir.Reg, right bool) ir.Reg {
	lo := b.vars([]ir.Reg{b.Const(b.ix, int64(0))})[0]
	hi := b.vars([]ir.Reg{n})[0]
	b.While(func() ir.Reg { return b.test(ir.OpLt, lo, hi) }, func() {
		mid := b.bin(ir.OpAdd, lo, b.bin(ir.OpShr, b.bin(ir.OpSub, hi, lo), b.Const(ir.I32, int64(1))))
		x := b.Conv(cmpType(t), b.load(ir.SpaceParam, a, t, mid))
		before := lessNaN(b, x, v)
		if right {
			before = b.test(ir.OpNot, lessNaN(b, v, x))
		}
		b.If(before, func() { b.set(lo, b.bin(ir.OpAdd, mid, b.Const(b.ix, int64(1)))) })
		b.If(b.test(ir.OpNot, before), func() { b.set(hi, mid) })
	})
	return lo
}

// SearchKernel is searchsorted: out[i] (i64) is where v[i] goes in the
// sorted a. Parameters: a, v (both of t), out, na, n (v's length).
func SearchKernel(t ir.Type, right, wide bool) (*ir.Kernel, error) {
	return elemKernel("search", t, right, wide, func(sg *sig, ix ir.Type) int {
		sg.add(ir.Param{Name: "a", Elem: t, NDim: 1}, ir.Param{Name: "v", Elem: t, NDim: 1},
			ir.Param{Name: "out", Elem: ir.I64, NDim: 1}, ir.Param{Name: "na", Elem: ix})
		return sg.add(ir.Param{Name: "n", Elem: ix})
	}, func(b *fb, n int, i ir.Reg) {
		v := b.Conv(cmpType(t), b.load(ir.SpaceParam, 1, t, i))
		b.store(ir.SpaceParam, 2, b.Conv(ir.I64, bisect(b, 0, t, b.Param(n-1), v, right)), i)
	})
}

// BincountKernel adds 1 (or, weighted, w[i]) to out[x[i]] with atomics:
// exact for counts in any order; weights are f64 sums in the order the
// atomics land. Parameters: x (of t), [w (f64)], out (i64, or f64
// weighted), n.
func BincountKernel(t ir.Type, weighted, wide bool) (*ir.Kernel, error) {
	outT := ir.I64
	if weighted {
		outT = ir.F64
	}
	return elemKernel("bincount", t, weighted, wide, func(sg *sig, ix ir.Type) int {
		sg.add(ir.Param{Name: "x", Elem: t, NDim: 1})
		if weighted {
			sg.add(ir.Param{Name: "w", Elem: ir.F64, NDim: 1})
		}
		sg.add(ir.Param{Name: "out", Elem: outT, NDim: 1})
		return sg.add(ir.Param{Name: "n", Elem: ix})
	}, func(b *fb, n int, i ir.Reg) {
		at := b.Conv(b.ix, b.load(ir.SpaceParam, 0, t, i))
		v := b.Const(ir.I64, int64(1))
		if weighted {
			v = b.load(ir.SpaceParam, 1, ir.F64, i)
		}
		b.Emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Param: n - 1, Space: ir.SpaceParam, Args: []ir.Reg{at, v}})
	})
}

// HistogramKernel counts each element of x (as f64) into the bin of the
// f64 edges (bins+1 of them, increasing) that holds it, NumPy's rule:
// edges[j] <= v < edges[j+1], the last bin closed; elements outside
// [edges[0], edges[bins]] and NaN are not counted. Parameters: x (of t),
// edges, out (i64, bins), bins, n.
func HistogramKernel(t ir.Type, wide bool) (*ir.Kernel, error) {
	return elemKernel("histogram", t, false, wide, func(sg *sig, ix ir.Type) int {
		sg.add(ir.Param{Name: "x", Elem: t, NDim: 1}, ir.Param{Name: "edges", Elem: ir.F64, NDim: 1},
			ir.Param{Name: "out", Elem: ir.I64, NDim: 1}, ir.Param{Name: "bins", Elem: ix})
		return sg.add(ir.Param{Name: "n", Elem: ix})
	}, func(b *fb, n int, i ir.Reg) {
		bins := b.Param(n - 1)
		v := b.Conv(ir.F64, b.load(ir.SpaceParam, 0, t, i))
		lo := b.load(ir.SpaceParam, 1, ir.F64, b.Const(b.ix, int64(0)))
		hi := b.load(ir.SpaceParam, 1, ir.F64, bins)
		in := b.bin(ir.OpAnd, b.test(ir.OpGe, v, lo), b.test(ir.OpLe, v, hi))
		b.If(in, func() {
			j := b.bin(ir.OpSub, bisect(b, 1, ir.F64, b.bin(ir.OpAdd, bins, b.Const(b.ix, int64(1))), v, true), b.Const(b.ix, int64(1)))
			j = b.bin(ir.OpMin, j, b.bin(ir.OpSub, bins, b.Const(b.ix, int64(1))))
			b.Emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Param: 2, Space: ir.SpaceParam, Args: []ir.Reg{j, b.Const(ir.I64, int64(1))}})
		})
	})
}

// RepeatKernel is repeat with a count per element: out (1-D, the C-order
// elements of [outer, total, inner]) takes row src[j] of x (contiguous,
// [outer, d, inner]) at row j. Parameters: x, src (i64), out, n (out's
// size), d, total, inner.
func RepeatKernel(t ir.Type, wide bool) (*ir.Kernel, error) {
	return elemKernel("repeat", t, false, wide, func(sg *sig, ix ir.Type) int {
		sg.add(ir.Param{Name: "x", Elem: t, NDim: 1}, ir.Param{Name: "src", Elem: ir.I64, NDim: 1},
			ir.Param{Name: "out", Elem: t, NDim: 1})
		return sg.add(ir.Param{Name: "n", Elem: ix}, ir.Param{Name: "d", Elem: ix},
			ir.Param{Name: "total", Elem: ix}, ir.Param{Name: "inner", Elem: ix})
	}, func(b *fb, n int, q ir.Reg) {
		d, total, inner := b.Param(n+1), b.Param(n+2), b.Param(n+3)
		in, r := b.bin(ir.OpRem, q, inner), b.bin(ir.OpDiv, q, inner)
		j, o := b.bin(ir.OpRem, r, total), b.bin(ir.OpDiv, r, total)
		row := b.Conv(b.ix, b.load(ir.SpaceParam, 1, ir.I64, j))
		at := b.bin(ir.OpAdd, b.bin(ir.OpMul, b.bin(ir.OpAdd, b.bin(ir.OpMul, o, d), row), inner), in)
		b.store(ir.SpaceParam, 2, b.load(ir.SpaceParam, 0, t, at), q)
	})
}
