package reduce

import (
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Kind is a reduction.
type Kind uint8

const (
	Sum Kind = iota
	Prod
	Min
	Max
	ArgMin
	ArgMax
	Any
	All
	CountNonzero
	Mean
	Norm
	Dot      // two inputs: the sum of their products
	AllClose // two inputs: all(isclose(x, y)), with the tolerances as scalars
	Equal    // two inputs: all(x == y), values compared exactly
	// The NaN-ignoring reductions (nan.go).
	NanSum
	NanMean
	NanMin
	NanMax
	NanArgMin
	NanArgMax
)

var kindNames = [...]string{"sum", "prod", "min", "max", "argmin", "argmax", "any", "all",
	"count_nonzero", "mean", "norm", "dot", "allclose", "equal",
	"nansum", "nanmean", "nanmin", "nanmax", "nanargmin", "nanargmax"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Inputs is the number of arrays a reduction reads.
func (k Kind) Inputs() int {
	if k == Dot || k == AllClose || k == Equal {
		return 2
	}
	return 1
}

// HasIdentity reports whether the reduction of no elements has a value;
// min, max, argmin and argmax of nothing are errors, as in NumPy.
func (k Kind) HasIdentity() bool {
	return (k < Min || k > ArgMax) && (k < NanMin || k > NanArgMax)
}

// IsArg reports whether the reduction gives an index (argmin, argmax and
// their NaN-ignoring forms): its result depends on the visiting order,
// and it takes one axis.
func (k Kind) IsArg() bool { return k == ArgMin || k == ArgMax || k == NanArgMin || k == NanArgMax }

// Spec is a reduction of inputs of dtypes In (In[1] Invalid for a
// reduction of one array). It is comparable: kernels are cached by it.
type Spec struct {
	Kind Kind
	In   [2]ir.Type
}

// Check reports a dtype the reduction does not take.
func (s Spec) Check() error {
	for i := range s.Kind.Inputs() {
		if !ir.Scalars.Has(s.In[i]) {
			return fmt.Errorf("%s of an array of %s", s.Kind, s.In[i])
		}
	}
	if s.Kind.Inputs() == 1 && s.In[1] != ir.Invalid {
		return fmt.Errorf("%s takes one array", s.Kind)
	}
	return nil
}

// AxisOut is the dtype of a reduction along axes (the choice written in
// the package doc): floats keep their dtype (accumulated in f64); sums and
// products of signed ints and bools are i64, of unsigned ints u64; means
// and norms of ints and bools are f64; indices and counts are i64.
func AxisOut(k Kind, t ir.Type) ir.Type {
	if k >= NanSum {
		k = nanBase[k-NanSum]
	}
	switch k {
	case Sum, Prod:
		switch {
		case t.IsFloat():
			return t
		case t == ir.U8 || t == ir.U32 || t == ir.U64:
			return ir.U64
		}
		return ir.I64
	case Mean, Norm:
		if t.IsFloat() {
			return t
		}
		return ir.F64
	case Min, Max:
		return t
	case ArgMin, ArgMax, CountNonzero:
		return ir.I64
	}
	return ir.Bool
}

// reducer is one reduction as IR fragments. An accumulator is a tuple of
// registers of types acc; elem maps the loaded elements (and their index
// at, for argmin/argmax) to one, comb merges two (associative, and for
// every reduction here commutative, so a tree in any shape gives one
// value), and ident is the accumulator of no elements.
type reducer struct {
	acc   []ir.Type
	ident func(b *fb) []ir.Reg
	elem  func(b *fb, xs []ir.Reg, at ir.Reg) []ir.Reg
	comb  func(b *fb, x, y []ir.Reg) []ir.Reg
	// coll is a block collective per component that merges as comb does,
	// or nil: the block reduction is then a shuffle tree of comb.
	coll []ir.Op
	// full turns the reduction of everything into nres result values of
	// type res, which the host reads.
	full func(b *fb, a []ir.Reg) []ir.Reg
	res  ir.Type
	nres int
	// out turns an accumulator of k elements (k of the index type) into
	// the element of an axis reduction's output, of type outT.
	out  func(b *fb, a []ir.Reg, k ir.Reg) ir.Reg
	outT ir.Type
	// scalars are the reduction's own scalar parameters (the tolerances
	// of allclose), read into b.scal at the kernel's entry.
	scalars []ir.Param
	// bounded says the result is exact only over fewer than 2^31
	// elements (exact int sums): the host reduces longer ranges in parts.
	bounded bool
	// next, when set, adds elements xs at index at to an accumulator of
	// lower indices only, more cheaply than comb with elem (argmin and
	// argmax: no tie to break).
	next func(b *fb, acc, xs []ir.Reg, at ir.Reg) []ir.Reg
}

// add adds the elements xs at index at to acc, which holds elements of
// lower indices only (the loops visit indices in increasing order).
func (r *reducer) add(b *fb, acc, xs []ir.Reg, at ir.Reg) []ir.Reg {
	if r.next != nil {
		return r.next(b, acc, xs, at)
	}
	return r.comb(b, acc, r.elem(b, xs, at))
}

// mode says what a kernel reduces: everything (the host reads a scalar)
// or along axes (an output array).
type mode uint8

const (
	modeFull mode = iota
	modeAxis
)

// newReducer builds the reducer of s for kernels of index type ix.
func newReducer(s Spec, m mode, ix ir.Type) (*reducer, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	t := s.In[0]
	var r *reducer
	switch s.Kind {
	case Sum:
		r = sumReducer(t, m)
	case Prod:
		r = prodReducer(t, m)
	case Min, Max:
		r = extremeReducer(t, s.Kind == Max)
	case ArgMin, ArgMax:
		r = argReducer(t, s.Kind == ArgMax, ix)
	case Any, All:
		r = logicReducer(s.Kind == All)
	case CountNonzero:
		r = addReducer(ir.I64, func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg {
			return []ir.Reg{b.Conv(ir.I64, nonzero(b, xs[0]))}
		})
	case Mean:
		r = f64Sum(func(b *fb, x ir.Reg) ir.Reg { return b.Conv(ir.F64, x) })
		r.out = func(b *fb, a []ir.Reg, k ir.Reg) ir.Reg {
			return b.Conv(r.outT, b.bin(ir.OpDiv, a[0], b.Conv(ir.F64, k)))
		}
	case Norm:
		r = f64Sum(func(b *fb, x ir.Reg) ir.Reg { y := b.Conv(ir.F64, x); return b.bin(ir.OpMul, y, y) })
		r.out = func(b *fb, a []ir.Reg, _ ir.Reg) ir.Reg { return b.Conv(r.outT, b.bin(ir.OpSqrt, a[0])) }
	case Dot:
		r = dotReducer(s.In)
	case AllClose:
		r = logicReducer(true)
		r.elem = func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg { return []ir.Reg{isclose(b, xs[0], xs[1])} }
		r.scalars = closeScalars
	case Equal:
		r = logicReducer(true)
		r.elem = func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg { return []ir.Reg{equalValues(b, xs[0], xs[1])} }
	default:
		if r = nanReducer(s, m, ix); r == nil {
			return nil, fmt.Errorf("unknown reduction %s", s.Kind)
		}
	}
	r.outT = AxisOut(s.Kind, t)
	if r.out == nil {
		r.out = func(b *fb, a []ir.Reg, _ ir.Reg) ir.Reg { return b.Conv(r.outT, a[0]) }
	}
	return r, nil
}

// one returns the single result register of an accumulator.
func one(b *fb, a []ir.Reg) []ir.Reg { return []ir.Reg{a[0]} }

// addReducer sums elements mapped by elem into one accumulator of type t
// (wrapping for ints).
func addReducer(t ir.Type, elem func(b *fb, xs []ir.Reg, at ir.Reg) []ir.Reg) *reducer {
	return &reducer{
		acc:   []ir.Type{t},
		ident: func(b *fb) []ir.Reg { return []ir.Reg{b.Const(t, int64(0))} },
		elem:  elem,
		comb:  func(b *fb, x, y []ir.Reg) []ir.Reg { return []ir.Reg{b.bin(ir.OpAdd, x[0], y[0])} },
		coll:  []ir.Op{ir.OpBlockSum},
		full:  one, res: t, nres: 1,
	}
}

// f64Sum sums f(x) in f64.
func f64Sum(f func(b *fb, x ir.Reg) ir.Reg) *reducer {
	return addReducer(ir.F64, func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg { return []ir.Reg{f(b, xs[0])} })
}

// sumReducer: floats in f64; ints along axes in the output dtype
// (wrapping, as NumPy); ints of everything exactly (limbs).
func sumReducer(t ir.Type, m mode) *reducer {
	switch {
	case t.IsFloat():
		return f64Sum(func(b *fb, x ir.Reg) ir.Reg { return b.Conv(ir.F64, x) })
	case m == modeAxis:
		out := AxisOut(Sum, t)
		return addReducer(out, func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg { return []ir.Reg{b.Conv(out, xs[0])} })
	case t.Size() < 8:
		r := addReducer(ir.I64, func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg { return []ir.Reg{b.Conv(ir.I64, xs[0])} })
		r.bounded = true
		return r
	}
	return limbReducer(false, func(b *fb, xs []ir.Reg) []ir.Reg { return limbs(b, xs[0]) })
}

// limbs splits a 64-bit int x into hi = x >> 32 (arithmetic for i64,
// logical for u64) and lo = x & (2^32-1), both as i64: x = hi*2^32 + lo.
// Summed separately over fewer than 2^31 elements neither can overflow,
// so the host recombines them into the exact sum (package doc).
func limbs(b *fb, x ir.Reg) []ir.Reg {
	t := b.typeOf(x)
	hi := b.Conv(ir.I64, b.bin(ir.OpShr, x, b.Const(ir.I32, int64(32))))
	lo := b.Conv(ir.I64, b.bin(ir.OpAnd, x, b.Const(t, int64(0xffffffff))))
	return []ir.Reg{hi, lo}
}

// limbReducer sums the (hi, lo) limbs that elem gives; withFlag adds a
// third component, a bool that any element may set (an overflow), which
// the result gives as 0 or 1.
func limbReducer(withFlag bool, elem func(b *fb, xs []ir.Reg) []ir.Reg) *reducer {
	r := &reducer{
		acc: []ir.Type{ir.I64, ir.I64},
		ident: func(b *fb) []ir.Reg {
			id := []ir.Reg{b.Const(ir.I64, int64(0)), b.Const(ir.I64, int64(0))}
			if withFlag {
				id = append(id, b.Const(ir.Bool, false))
			}
			return id
		},
		elem: func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg { return elem(b, xs) },
		comb: func(b *fb, x, y []ir.Reg) []ir.Reg {
			out := []ir.Reg{b.bin(ir.OpAdd, x[0], y[0]), b.bin(ir.OpAdd, x[1], y[1])}
			if withFlag {
				out = append(out, b.bin(ir.OpOr, x[2], y[2]))
			}
			return out
		},
		coll: []ir.Op{ir.OpBlockSum, ir.OpBlockSum},
		full: func(b *fb, a []ir.Reg) []ir.Reg {
			if withFlag {
				return []ir.Reg{a[0], a[1], b.Conv(ir.I64, a[2])}
			}
			return a
		},
		res: ir.I64, nres: 2,
	}
	r.bounded = true
	if withFlag {
		r.acc = append(r.acc, ir.Bool)
		r.coll = append(r.coll, ir.OpBlockAny)
		r.nres = 3
	}
	return r
}

// prodReducer: floats in f64; ints along axes in the output dtype
// (wrapping); ints of everything as the wrapped i64 product W beside an
// f64 product A that detects overflow (package doc).
func prodReducer(t ir.Type, m mode) *reducer {
	mul := func(b *fb, x, y []ir.Reg) []ir.Reg {
		out := make([]ir.Reg, len(x))
		for i := range x {
			out[i] = b.bin(ir.OpMul, x[i], y[i])
		}
		return out
	}
	acc := []ir.Type{AxisOut(Prod, t)}
	if t.IsFloat() {
		acc = []ir.Type{ir.F64}
	} else if m == modeFull {
		acc = []ir.Type{ir.I64, ir.F64}
	}
	return &reducer{
		acc: acc,
		ident: func(b *fb) []ir.Reg {
			out := make([]ir.Reg, len(acc))
			for i, at := range acc {
				out[i] = b.Const(at, int64(1))
			}
			return out
		},
		elem: func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg {
			out := make([]ir.Reg, len(acc))
			for i, at := range acc {
				out[i] = b.Conv(at, xs[0])
			}
			return out
		},
		comb: mul,
		full: prodFull, res: acc[0], nres: len(acc),
	}
}

// prodFull gives a float product as is, and an int product as (W, flag):
// flag is 1 unless W is the exact product. Products of nonzero ints never
// shrink, so A is NaN (an Inf times 0) or 0 only when some element is 0,
// and W is then exactly 0; otherwise A is within 2^-40 of the true
// product P (at most 64 roundings matter before |P| passes 2^63), while a
// wrapped W differs from P by a multiple of 2^64, at least |P|/1.5: a
// relative distance of 2^-20 between A and W separates the two.
func prodFull(b *fb, a []ir.Reg) []ir.Reg {
	if len(a) == 1 {
		return a
	}
	w, p := a[0], a[1]
	absP := b.bin(ir.OpAbs, p)
	diff := b.bin(ir.OpAbs, b.bin(ir.OpSub, p, b.Conv(ir.F64, w)))
	near := b.test(ir.OpLe, diff, b.bin(ir.OpMul, absP, b.Const(ir.F64, 0x1p-20)))
	exact := b.bin(ir.OpOr, b.test(ir.OpIsNan, p), b.test(ir.OpEq, p, b.Const(ir.F64, 0.0)))
	exact = b.bin(ir.OpOr, exact, b.bin(ir.OpAnd, b.test(ir.OpIsFinite, p), near))
	return []ir.Reg{w, b.Conv(ir.I64, b.test(ir.OpNot, exact))}
}

// cmpType is the type min/max and argmin/argmax compare in: the dtype,
// with bools as u8 (the comparison ops take numbers).
func cmpType(t ir.Type) ir.Type {
	if t == ir.Bool {
		return ir.U8
	}
	return t
}

// worst is the value no element loses to: +Inf/-Inf for float min/max,
// the type's largest/smallest value for ints.
func worst(t ir.Type, isMax bool) any {
	switch {
	case t.IsFloat() && isMax:
		return math.Inf(-1)
	case t.IsFloat():
		return math.Inf(1)
	case isMax && t.IsSigned():
		return int64(-1) << (8*t.Size() - 1)
	case isMax:
		return int64(0)
	case t.IsSigned():
		return int64(uint64(1)<<(8*t.Size()-1) - 1)
	}
	return uint64(math.MaxUint64) >> (64 - 8*t.Size())
}

// beats is the comparison a min (x < y) or max (x > y) keeps x for.
func beats(isMax bool) ir.Op {
	if isMax {
		return ir.OpGt
	}
	return ir.OpLt
}

// extremeReducer: ints through OpMin/OpMax and their block collectives;
// floats through a select that propagates NaN (OpMin is fmin-like and
// would drop it): x wins when it beats y or is NaN, so a NaN, once met,
// is never replaced, as NumPy's min and max return NaN.
func extremeReducer(t ir.Type, isMax bool) *reducer {
	ct := cmpType(t)
	r := &reducer{
		acc:   []ir.Type{ct},
		ident: func(b *fb) []ir.Reg { return []ir.Reg{b.Const(ct, worst(ct, isMax))} },
		elem:  func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg { return []ir.Reg{b.Conv(ct, xs[0])} },
		full:  one, res: ct, nres: 1,
	}
	if ct.IsFloat() {
		r.comb = func(b *fb, x, y []ir.Reg) []ir.Reg {
			keep := b.bin(ir.OpOr, b.test(beats(isMax), x[0], y[0]), b.test(ir.OpIsNan, x[0]))
			return []ir.Reg{b.sel(keep, x[0], y[0])}
		}
		return r
	}
	op, coll := ir.OpMin, ir.OpBlockMin
	if isMax {
		op, coll = ir.OpMax, ir.OpBlockMax
	}
	r.comb = func(b *fb, x, y []ir.Reg) []ir.Reg { return []ir.Reg{b.bin(op, x[0], y[0])} }
	r.coll = []ir.Op{coll}
	return r
}

// argReducer keeps (value, index) pairs: the better value wins, a tie goes
// to the lower index (the first occurrence), and NaN beats every number
// (NumPy's argmin and argmax both give the first NaN). The rule is
// commutative, so any tree gives the first best element. A loop adding
// later elements (next) takes one only when it is strictly better, a NaN
// over a number, or the accumulator is still the identity.
func argReducer(t ir.Type, isMax bool, ix ir.Type) *reducer {
	ct := cmpType(t)
	maxIx := int64(math.MaxInt32)
	if ix == ir.I64 {
		maxIx = math.MaxInt64
	}
	pick := func(b *fb, keep ir.Reg, x, y []ir.Reg) []ir.Reg {
		return []ir.Reg{b.sel(keep, x[0], y[0]), b.sel(keep, x[1], y[1])}
	}
	return &reducer{
		acc: []ir.Type{ct, ix},
		ident: func(b *fb) []ir.Reg {
			return []ir.Reg{b.Const(ct, worst(ct, isMax)), b.Const(ix, maxIx)}
		},
		elem: func(b *fb, xs []ir.Reg, at ir.Reg) []ir.Reg { return []ir.Reg{b.Conv(ct, xs[0]), at} },
		comb: func(b *fb, x, y []ir.Reg) []ir.Reg {
			first := b.test(ir.OpLt, x[1], y[1])
			tie := b.bin(ir.OpAnd, b.test(ir.OpEq, x[0], y[0]), first)
			keep := b.bin(ir.OpOr, b.test(beats(isMax), x[0], y[0]), tie)
			if ct.IsFloat() {
				yNum := b.test(ir.OpNot, b.test(ir.OpIsNan, y[0]))
				nan := b.bin(ir.OpAnd, b.test(ir.OpIsNan, x[0]), b.bin(ir.OpOr, yNum, first))
				keep = b.bin(ir.OpOr, keep, nan)
			}
			return pick(b, keep, x, y)
		},
		next: func(b *fb, acc, xs []ir.Reg, at ir.Reg) []ir.Reg {
			y := b.Conv(ct, xs[0])
			take := b.test(beats(isMax), y, acc[0])
			if ct.IsFloat() {
				// y beats acc unless it is no better or acc is NaN:
				// a NaN y beats any number, and nothing beats a NaN.
				worse := b.test(ir.OpLe, y, acc[0])
				if !isMax {
					worse = b.test(ir.OpGe, y, acc[0])
				}
				take = b.test(ir.OpNot, b.bin(ir.OpOr, worse, b.test(ir.OpIsNan, acc[0])))
			}
			take = b.bin(ir.OpOr, take, b.test(ir.OpEq, acc[1], b.Const(ix, maxIx)))
			return pick(b, take, []ir.Reg{y, at}, acc)
		},
		full: func(b *fb, a []ir.Reg) []ir.Reg { return []ir.Reg{b.Conv(ir.I64, a[1])} },
		res:  ir.I64, nres: 1,
		out: func(b *fb, a []ir.Reg, _ ir.Reg) ir.Reg { return b.Conv(ir.I64, a[1]) },
	}
}

// nonzero is x != 0 (NaN counts: it is not zero).
func nonzero(b *fb, x ir.Reg) ir.Reg {
	return b.test(ir.OpNe, x, b.Const(b.typeOf(x), int64(0)))
}

// logicReducer is any (or all, isAll) of the elements' truth.
func logicReducer(isAll bool) *reducer {
	op, coll := ir.OpOr, ir.OpBlockAny
	if isAll {
		op, coll = ir.OpAnd, ir.OpBlockAll
	}
	return &reducer{
		acc:   []ir.Type{ir.Bool},
		ident: func(b *fb) []ir.Reg { return []ir.Reg{b.Const(ir.Bool, isAll)} },
		elem:  func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg { return []ir.Reg{nonzero(b, xs[0])} },
		comb:  func(b *fb, x, y []ir.Reg) []ir.Reg { return []ir.Reg{b.bin(op, x[0], y[0])} },
		coll:  []ir.Op{coll},
		full:  one, res: ir.Bool, nres: 1,
	}
}

// dotReducer: with a float input, the f64 sum of f64 products; for ints,
// the exact sum of i64 products as limbs, with a flag for a product or an
// operand that leaves i64.
func dotReducer(in [2]ir.Type) *reducer {
	if in[0].IsFloat() || in[1].IsFloat() {
		return addReducer(ir.F64, func(b *fb, xs []ir.Reg, _ ir.Reg) []ir.Reg {
			return []ir.Reg{b.bin(ir.OpMul, b.Conv(ir.F64, xs[0]), b.Conv(ir.F64, xs[1]))}
		})
	}
	wide := in[0].Size() == 8 || in[1].Size() == 8
	return limbReducer(true, func(b *fb, xs []ir.Reg) []ir.Reg {
		x, badX := toI64(b, xs[0])
		y, badY := toI64(b, xs[1])
		p := b.bin(ir.OpMul, x, y)
		bad := b.bin(ir.OpOr, badX, badY)
		if wide {
			bad = b.bin(ir.OpOr, bad, mulOverflows(b, x, y, p))
		}
		return append(limbs(b, p), bad)
	})
}

// toI64 converts an int or bool to i64 and says whether it did not fit
// (a u64 of 2^63 or more).
func toI64(b *fb, x ir.Reg) (ir.Reg, ir.Reg) {
	if b.typeOf(x) != ir.U64 {
		return b.Conv(ir.I64, x), b.Const(ir.Bool, false)
	}
	return b.Conv(ir.I64, x), b.test(ir.OpGt, x, b.Const(ir.U64, uint64(math.MaxInt64)))
}

// mulOverflows reports whether p, the wrapped product x*y of i64s, is not
// the true product: p / x != y, with x = 0 and x = -1 taken apart (C's
// MinInt64 / -1 is undefined).
func mulOverflows(b *fb, x, y, p ir.Reg) ir.Reg {
	minusOne := b.test(ir.OpEq, x, b.Const(ir.I64, int64(-1)))
	plain := b.bin(ir.OpAnd, b.test(ir.OpNe, x, b.Const(ir.I64, int64(0))), b.test(ir.OpNot, minusOne))
	div := b.sel(plain, x, b.Const(ir.I64, int64(1)))
	q := b.bin(ir.OpDiv, p, div)
	wrong := b.bin(ir.OpAnd, plain, b.test(ir.OpNe, q, y))
	minY := b.test(ir.OpEq, y, b.Const(ir.I64, int64(math.MinInt64)))
	return b.bin(ir.OpOr, wrong, b.bin(ir.OpAnd, minusOne, minY))
}

// closeScalars are allclose's and isclose's tolerances.
var closeScalars = []ir.Param{{Name: "rtol", Elem: ir.F64}, {Name: "atol", Elem: ir.F64}, {Name: "equal_nan", Elem: ir.Bool}}

// isclose is NumPy's: |x - y| <= atol + rtol*|y| for finite values, x == y
// for infinities, NaN close to NaN only with equal_nan; in f64. The
// tolerances are b.scal.
func isclose(b *fb, x, y ir.Reg) ir.Reg {
	x, y = b.Conv(ir.F64, x), b.Conv(ir.F64, y)
	rtol, atol, eqNaN := b.scal[0], b.scal[1], b.scal[2]
	diff := b.bin(ir.OpAbs, b.bin(ir.OpSub, x, y))
	tol := b.bin(ir.OpAdd, atol, b.bin(ir.OpMul, rtol, b.bin(ir.OpAbs, y)))
	finite := b.bin(ir.OpAnd, b.test(ir.OpIsFinite, x), b.test(ir.OpIsFinite, y))
	close := b.bin(ir.OpOr, b.test(ir.OpEq, x, y), b.bin(ir.OpAnd, finite, b.test(ir.OpLe, diff, tol)))
	nans := b.bin(ir.OpAnd, b.test(ir.OpIsNan, x), b.test(ir.OpIsNan, y))
	return b.bin(ir.OpOr, close, b.bin(ir.OpAnd, eqNaN, nans))
}

// equalValues compares two elements by value: in f64 when either is a
// float, else as integers, where a u64 of 2^63 or more equals no signed
// value (both are read as i64 and must also be non-negative).
func equalValues(b *fb, x, y ir.Reg) ir.Reg {
	tx, ty := b.typeOf(x), b.typeOf(y)
	switch {
	case tx == ty:
		return b.test(ir.OpEq, x, y)
	case tx.IsFloat() || ty.IsFloat():
		return b.test(ir.OpEq, b.Conv(ir.F64, x), b.Conv(ir.F64, y))
	case (tx == ir.U64 || ty == ir.U64) && !tx.IsSigned() && !ty.IsSigned():
		return b.test(ir.OpEq, b.Conv(ir.U64, x), b.Conv(ir.U64, y))
	}
	xi, yi := b.Conv(ir.I64, x), b.Conv(ir.I64, y)
	eq := b.test(ir.OpEq, xi, yi)
	if tx == ir.U64 || ty == ir.U64 {
		eq = b.bin(ir.OpAnd, eq, b.test(ir.OpGe, xi, b.Const(ir.I64, int64(0))))
	}
	return eq
}
