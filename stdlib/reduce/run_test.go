package reduce

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	_ "github.com/gscript-lang/gscript/runtime/cpu" // the cpu backend runs the kernels
	"github.com/gscript-lang/gscript/runtime/mem"
)

// A tensor is test data: elements (raw bits) in a buffer, seen with a
// shape and strides from element off.
type tensor struct {
	t       ir.Type
	buf     []byte
	off     int
	shape   []int
	strides []int
}

// newTensor makes a C-contiguous tensor of shape with elements from gen.
func newTensor(t ir.Type, shape []int, gen func(i int) uint64) *tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	x := &tensor{t: t, buf: make([]byte, max(n, 1)*8), shape: shape, strides: mem.ContiguousStrides(shape)}
	for i := range n {
		mem.StoreBits(x.buf, t, i, gen(i))
	}
	return x
}

// permute and slice0 make views, as mem.Array's Permute and Slice do.
func (x *tensor) permute(axes []int) *tensor {
	v := *x
	v.shape, v.strides = make([]int, len(axes)), make([]int, len(axes))
	for i, a := range axes {
		v.shape[i], v.strides[i] = x.shape[a], x.strides[a]
	}
	return &v
}

func (x *tensor) slice0(lo, hi int) *tensor {
	v := *x
	v.shape = slices.Clone(x.shape)
	v.shape[0] = hi - lo
	v.off = x.off + lo*x.strides[0]
	return &v
}

// view applies a plan's View.
func (x *tensor) view(v View) *tensor {
	p := x.permute(v.Perm)
	out := &tensor{t: x.t, buf: x.buf, off: x.off}
	for _, g := range v.Groups {
		st, ok := mem.MergedStride(p.shape[g[0]:g[1]], p.strides[g[0]:g[1]])
		if !ok {
			panic("view of axes that do not merge")
		}
		n := 1
		for _, d := range p.shape[g[0]:g[1]] {
			n *= d
		}
		out.shape, out.strides = append(out.shape, n), append(out.strides, st)
	}
	return out
}

func (x *tensor) layout() Layout { return Layout{Shape: x.shape, Strides: x.strides} }

func (x *tensor) size() int {
	n := 1
	for _, d := range x.shape {
		n *= d
	}
	return n
}

// elems lists the elements in C order.
func (x *tensor) elems() []uint64 {
	var out []uint64
	idx := make([]int, len(x.shape))
	for range x.size() {
		off := x.off
		for k, i := range idx {
			off += i * x.strides[k]
		}
		out = append(out, mem.LoadBits(x.buf, x.t, off))
		for k := len(idx) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < x.shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return out
}

func (x *tensor) arg() backend.Arg {
	a := backend.Array{Data: uintptr(unsafe.Pointer(&x.buf[0])) + uintptr(x.off*x.t.Size())}
	copy(a.Shape[:], x.shape)
	copy(a.Strides[:], x.strides)
	return backend.Arg{Array: a}
}

func scalar(t ir.Type, v any) backend.Arg {
	bits, _ := ir.ImmBits(v, t)
	if t == ir.I32 {
		bits = uint64(int64(int32(bits)))
	}
	return backend.Arg{Bits: bits}
}

func run(t *testing.T, k *ir.Kernel, grid int, args []backend.Arg, keep ...*tensor) {
	t.Helper()
	p, err := backend.Compile(k, mem.CPUDevice, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Launch(&backend.Env{}, []int{grid}, args); err != nil {
		t.Fatalf("%s: %v", k.Entry.Name, err)
	}
	runtime.KeepAlive(keep)
}

// fullOnCPU runs the two passes of s over ins (wide or not) and returns
// the result values.
func fullOnCPU(t *testing.T, s Spec, ins []*tensor, scal []backend.Arg, wide bool) []uint64 {
	t.Helper()
	ls := make([]Layout, len(ins))
	for i, x := range ins {
		ls[i] = x.layout()
	}
	plan := PlanFull(s.Kind, ls)
	f, err := FullKernels(s, nil, len(plan.Shape), wide)
	if err != nil {
		t.Fatal(err)
	}
	ix := indexType(wide)
	var args []backend.Arg
	var keep []*tensor
	for _, x := range ins {
		v := x.view(plan.View)
		keep = append(keep, v)
		args = append(args, v.arg())
	}
	parts := make([]*tensor, len(f.Acc))
	for c, at := range f.Acc {
		parts[c] = newTensor(at, []int{MaxBlocks}, func(int) uint64 { return 0 })
		args = append(args, parts[c].arg())
	}
	args = append(args, scalar(ix, int64(0)), scalar(ix, int64(plan.N)))
	for _, e := range plan.Shape[1:] {
		args = append(args, scalar(ix, int64(e)))
	}
	g := Blocks(plan.N)
	run(t, f.Pass1, g, append(args, scal...), append(keep, parts...)...)
	res := newTensor(f.Res, []int{f.NRes}, func(int) uint64 { return 0 })
	args = nil
	for _, p := range parts {
		args = append(args, p.arg())
	}
	run(t, f.Pass2, 1, append(args, res.arg(), scalar(ir.I32, int64(g))), append(parts, res)...)
	return res.elems()
}

// smallInts makes elements that are small ints of t (any order of adding
// them is exact), with NaN at every nanEvery-th for floats (0: none).
func smallInts(t ir.Type, seed uint64, nanEvery int) func(i int) uint64 {
	r := rand.New(rand.NewPCG(seed, 7))
	return func(i int) uint64 {
		v := r.IntN(7) - 3
		switch {
		case t == ir.Bool:
			v = r.IntN(2)
		case !t.IsSigned() && !t.IsFloat():
			v += 3
		case t.IsFloat() && nanEvery > 0 && i%nanEvery == nanEvery-1:
			return ir.FromFloat(math.NaN(), t)
		}
		return ir.FromInt(int64(v), t)
	}
}

// value reads raw bits of type t as a float64 (exact for the test data).
func value(t ir.Type, bits uint64) float64 { return math.Float64frombits(ir.Convert(bits, t, ir.F64)) }

// reference is the reduction of elements xs (and ys) as the host sees it:
// float64 for sums, means and values, int64 for counts and indices, 0 or
// 1 for truths.
func reference(k Kind, t ir.Type, xs, ys []uint64) float64 {
	vals := make([]float64, len(xs))
	for i, b := range xs {
		vals[i] = value(t, b)
	}
	switch k {
	case Sum, Mean, Norm, Dot:
		s := 0.0
		for i, v := range vals {
			switch k {
			case Norm:
				v *= v
			case Dot:
				v *= value(t, ys[i])
			}
			s += v
		}
		if k == Mean {
			s /= float64(len(vals))
		}
		return s
	case Prod:
		p := 1.0
		for _, v := range vals {
			p *= v
		}
		return p
	case Min, Max, ArgMin, ArgMax:
		return extremeRef(k, vals)
	case CountNonzero:
		n := 0
		for _, v := range vals {
			if v != 0 {
				n++
			}
		}
		return float64(n)
	case NanSum, NanMean, NanMin, NanMax, NanArgMin, NanArgMax:
		return nanRef(k, vals)
	case Any, All, Equal:
		for i, v := range vals {
			if k == Equal {
				v = b2f(v == value(t, ys[i]))
			}
			if (v != 0) == (k == Any) {
				return b2f(k == Any)
			}
		}
		return b2f(k != Any)
	}
	panic(k)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// extremeRef is NumPy's min/max/argmin/argmax: the first NaN wins.
func extremeRef(k Kind, vals []float64) float64 {
	best := 0
	for i, v := range vals {
		if math.IsNaN(vals[best]) {
			break
		}
		if math.IsNaN(v) || (k == Min || k == ArgMin) && v < vals[best] || (k == Max || k == ArgMax) && v > vals[best] {
			best = i
		}
	}
	if k == ArgMin || k == ArgMax {
		return float64(best)
	}
	return vals[best]
}

// nanRef is NumPy's nan functions: NaN left out of sums, means and
// extremes (NaN when nothing is left), and ranked worst by nanargmin and
// nanargmax (-1 when nothing is left, where NumPy raises).
func nanRef(k Kind, vals []float64) float64 {
	var nums []float64
	worst := math.Inf(1)
	if k == NanArgMax {
		worst = math.Inf(-1)
	}
	ranked := make([]float64, len(vals))
	for i, v := range vals {
		ranked[i] = v
		if math.IsNaN(v) {
			ranked[i] = worst
			continue
		}
		nums = append(nums, v)
	}
	switch {
	case k == NanSum:
		return reference(Sum, ir.F64, f64Bits(nums), nil)
	case k == NanMean:
		return reference(Sum, ir.F64, f64Bits(nums), nil) / float64(len(nums))
	case len(nums) == 0 && (k == NanArgMin || k == NanArgMax):
		return -1
	case len(nums) == 0:
		return math.NaN()
	}
	base := map[Kind]Kind{NanMin: Min, NanMax: Max, NanArgMin: ArgMin, NanArgMax: ArgMax}[k]
	if k == NanMin || k == NanMax {
		return extremeRef(base, nums)
	}
	return extremeRef(base, ranked)
}

func f64Bits(xs []float64) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = math.Float64bits(x)
	}
	return out
}

// decode turns a full reduction's results (of n elements) into
// reference's terms.
func decode(s Spec, f *Full, vals []uint64, n int) float64 {
	switch {
	case s.Kind == Mean:
		return math.Float64frombits(vals[0]) / float64(n)
	case s.Kind == NanMean:
		return math.Float64frombits(vals[0]) / math.Float64frombits(vals[1])
	case f.NRes >= 2 && f.Res == ir.I64 && s.Kind == NanSum:
		return float64(int64(vals[0]))*(1<<32) + float64(int64(vals[1]))
	case f.NRes >= 2 && f.Res == ir.I64 && (s.Kind == Sum || s.Kind == Dot):
		return float64(int64(vals[0]))*(1<<32) + float64(int64(vals[1]))
	case s.Kind == Norm:
		return math.Float64frombits(vals[0])
	case s.Kind == Prod && f.NRes == 2:
		return float64(int64(vals[0]))
	}
	return value(f.Res, vals[0])
}

func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestFullMatchesReference reduces contiguous, sliced and transposed
// tensors of every dtype with narrow and wide kernels on the cpu.
func TestFullMatchesReference(t *testing.T) {
	base := []int{6, 5, 7}
	views := map[string]func(x *tensor) *tensor{
		"contiguous": func(x *tensor) *tensor { return x },
		"slice":      func(x *tensor) *tensor { return x.slice0(1, 5) },
		"transposed": func(x *tensor) *tensor { return x.permute([]int{2, 0, 1}) },
		"inner":      func(x *tensor) *tensor { return x.permute([]int{0, 2, 1}).slice0(2, 3) },
	}
	for _, s := range specs() {
		if s.Kind == AllClose || (s.Kind.Inputs() == 2 && s.In[0] != s.In[1]) {
			continue // allclose has its own test; reference compares one dtype
		}
		for name, view := range views {
			for _, wide := range []bool{false, true} {
				x := view(newTensor(s.In[0], base, smallInts(s.In[0], 1, 11)))
				ins := []*tensor{x}
				if s.Kind.Inputs() == 2 {
					ins = append(ins, view(newTensor(s.In[1], base, smallInts(s.In[1], 2, 0))))
				}
				f, _ := FullKernels(s, nil, 1, wide)
				got := decode(s, f, fullOnCPU(t, s, ins, nil, wide), x.size())
				var ys []uint64
				if len(ins) == 2 {
					ys = ins[1].elems()
				}
				want := reference(s.Kind, s.In[0], x.elems(), ys)
				if s.Kind == Norm {
					got = math.Sqrt(got)
					want = math.Sqrt(want)
				}
				if !sameFloat(got, want) {
					t.Errorf("%v %s wide=%v: got %v, want %v", s, name, wide, got, want)
				}
			}
		}
	}
}

// TestAxisMatchesReference reduces every axis set of a 3-D tensor, plain
// and transposed, with both strategies, against the reference per output.
func TestAxisMatchesReference(t *testing.T) {
	axisSets := [][]int{{0}, {1}, {2}, {0, 2}, {1, 2}, {0, 1}, {0, 1, 2}, {}}
	for _, s := range specs() {
		if s.Kind.Inputs() == 2 {
			continue
		}
		for _, perm := range [][]int{{0, 1, 2}, {2, 0, 1}} {
			x := newTensor(s.In[0], []int{4, 3, 5}, smallInts(s.In[0], 3, 7)).permute(perm)
			for _, axes := range axisSets {
				for _, st := range []Strategy{Row, Column} {
					for _, wide := range []bool{false, true} {
						checkAxis(t, s, x, axes, st, wide)
					}
				}
			}
		}
	}
}

func checkAxis(t *testing.T, s Spec, x *tensor, axes []int, st Strategy, wide bool) {
	t.Helper()
	p, err := PlanAxis(x.layout(), axes, false, Target{})
	if err != nil {
		t.Fatal(err)
	}
	p.Strategy, p.Grid = st, p.M
	if st == Column {
		p.Grid = (p.M + blockThreads - 1) / blockThreads
	}
	k, err := AxisKernel(s, nil, st, p.Kept, len(p.Ext)-p.Kept, wide)
	if err != nil {
		t.Fatal(err)
	}
	ix := indexType(wide)
	v := x.view(p.View)
	out := newTensor(AxisOut(s.Kind, s.In[0]), []int{p.M}, func(int) uint64 { return 0 })
	args := []backend.Arg{v.arg(), out.arg(), scalar(ix, int64(p.M)), scalar(ix, int64(p.K))}
	for g, e := range p.Ext {
		if g != 0 && g != p.Kept {
			args = append(args, scalar(ix, int64(e)))
		}
	}
	run(t, k, p.Grid, args, v, out)
	// The reference reduces the viewed tensor's rows: M rows of K.
	rows := v.elems()
	for m, got := range out.elems() {
		want := reference(s.Kind, s.In[0], rows[m*p.K:(m+1)*p.K], nil)
		if s.Kind == Norm {
			want = math.Sqrt(want)
		}
		if g := value(out.t, got); !sameFloat(g, roundTo(out.t, want)) {
			t.Fatalf("%v axes %v %s wide=%v: out[%d] = %v, want %v", s, axes, st, wide, m, g, want)
		}
	}
}

// roundTo is v as an element of t holds it.
func roundTo(t ir.Type, v float64) float64 { return value(t, ir.FromFloat(v, t)) }

// TestAllClose checks allclose and isclose against NumPy's rule.
func TestAllClose(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	xs := []float64{1, 2, 3, nan, inf, -inf, 0, 1e-9}
	ys := []float64{1, 2.00001, 3.1, nan, inf, inf, 1e-8, 0}
	want := []bool{true, true, false, false, true, false, true, true}
	x := newTensor(ir.F64, []int{len(xs)}, func(i int) uint64 { return math.Float64bits(xs[i]) })
	y := newTensor(ir.F64, []int{len(ys)}, func(i int) uint64 { return math.Float64bits(ys[i]) })
	tol := []backend.Arg{scalar(ir.F64, 1e-5), scalar(ir.F64, 1e-8), scalar(ir.Bool, false)}
	k, err := IsCloseKernel([2]ir.Type{ir.F64, ir.F64}, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	out := newTensor(ir.Bool, []int{len(xs)}, func(int) uint64 { return 0 })
	run(t, k, 1, append([]backend.Arg{x.arg(), y.arg(), out.arg(), scalar(ir.I32, int64(len(xs)))}, tol...), x, y, out)
	for i, b := range out.elems() {
		if (b != 0) != want[i] {
			t.Errorf("isclose(%v, %v) = %v", xs[i], ys[i], b != 0)
		}
	}
	s := Spec{Kind: AllClose, In: [2]ir.Type{ir.F64, ir.F64}}
	if got := fullOnCPU(t, s, []*tensor{x, y}, tol, false); got[0] != 0 {
		t.Error("allclose of arrays with a far pair is true")
	}
	tol[2] = scalar(ir.Bool, true)
	x2, y2 := x.slice0(0, 2), y.slice0(0, 2)
	if got := fullOnCPU(t, s, []*tensor{x2, y2}, tol, false); got[0] != 1 {
		t.Error("allclose of close arrays is false")
	}
}

// TestFullRange reduces a sub-range [lo, hi) of the flat elements, as the
// host does for exact int sums of 2^31 elements or more (Full.Chunk).
func TestFullRange(t *testing.T) {
	s := Spec{Kind: Sum, In: [2]ir.Type{ir.I64}}
	x := newTensor(ir.I64, []int{50000}, func(i int) uint64 { return uint64(i) })
	f, err := FullKernels(s, nil, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := 12345, 43210
	parts := []*tensor{newTensor(ir.I64, []int{MaxBlocks}, func(int) uint64 { return 0 }),
		newTensor(ir.I64, []int{MaxBlocks}, func(int) uint64 { return 0 })}
	g := Blocks(hi - lo)
	args := []backend.Arg{x.arg(), parts[0].arg(), parts[1].arg(), scalar(ir.I64, int64(lo)), scalar(ir.I64, int64(hi))}
	run(t, f.Pass1, g, args, x, parts[0], parts[1])
	res := newTensor(ir.I64, []int{f.NRes}, func(int) uint64 { return 0 })
	run(t, f.Pass2, 1, []backend.Arg{parts[0].arg(), parts[1].arg(), res.arg(), scalar(ir.I32, int64(g))}, parts[0], parts[1], res)
	v := res.elems()
	got := int64(v[0])<<32 + int64(v[1])
	if want := int64(hi-1+lo) * int64(hi-lo) / 2; got != want {
		t.Errorf("sum of [%d, %d) = %d, want %d", lo, hi, got, want)
	}
}
