package reduce

import (
	"cmp"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// sortKernels builds every kernel of the sorts and searches of t.
func sortKernels(t ir.Type, wide bool) ([]*ir.Kernel, error) {
	var ks []*ir.Kernel
	add := func(k *ir.Kernel, err error) error {
		ks = append(ks, k)
		return err
	}
	for _, arg := range []bool{false, true} {
		s := SortSpec{In: t, Arg: arg}
		for _, p := range []SortPass{{}, {First: true}, {Last: true}, {First: true, Last: true}} {
			if err := add(SortOnesweepKernel(s, p, wide)); err != nil {
				return nil, err
			}
		}
		if err := add(SortCountKernel(s, wide)); err != nil {
			return nil, err
		}
		if err := add(SortSmallKernel(s, wide)); err != nil {
			return nil, err
		}
		if err := add(SearchKernel(t, arg, wide)); err != nil {
			return nil, err
		}
	}
	for _, build := range []func() (*ir.Kernel, error){
		func() (*ir.Kernel, error) { return UniqueFlagsKernel(t, wide) },
		func() (*ir.Kernel, error) { return CompactKernel(t, wide) },
		func() (*ir.Kernel, error) { return HistogramKernel(t, wide) },
		func() (*ir.Kernel, error) { return RepeatKernel(t, wide) },
	} {
		if err := add(build()); err != nil {
			return nil, err
		}
	}
	if t.IsInt() || t == ir.Bool {
		for _, w := range []bool{false, true} {
			if err := add(BincountKernel(t, w, wide)); err != nil {
				return nil, err
			}
		}
	}
	return ks, nil
}

// TestSortKernelsPrintAsCUDA builds the sort and search kernels of every
// dtype and width, prints each as CUDA C (what a GPU run compiles) and
// keeps each block's shared memory within CUDA's 48 KiB without an opt-in.
func TestSortKernelsPrintAsCUDA(t *testing.T) {
	for _, dt := range dtypes {
		for _, wide := range []bool{false, true} {
			ks, err := sortKernels(dt, wide)
			if err != nil {
				t.Fatalf("%s wide %v: %v", dt, wide, err)
			}
			for _, k := range ks {
				if _, err := codegen.Source(k, codegen.Options{}); err != nil {
					t.Errorf("%s: %v", k.Entry.Name, err)
				}
				if n := codegen.SharedBytes(k); n > 48<<10 {
					t.Errorf("%s: %d bytes of shared memory", k.Entry.Name, n)
				}
			}
		}
	}
}

// onesweepOnCPU sorts the rows of k elements of x (raw bits of t) with
// the count and onesweep kernels, narrow, compiled with the cpu's Debug
// checks (bounds, and shared-memory races: the warps' counts are read and
// advanced by different lanes of a warp in turn). It returns the sorted
// elements, or with arg the indices.
func onesweepOnCPU(t *testing.T, s SortSpec, x []uint64, k int) []uint64 {
	t.Helper()
	n, raw, passes := len(x), SortRaw(s.In), SortPasses(s.In)
	tile := min(SortTile(s.In, s.Arg, false), (k+255)/256*256)
	tiles := (k + tile - 1) / tile
	blocks := n / k * tiles
	in := newTensor(raw, []int{n}, func(i int) uint64 { return x[i] })
	hist := newTensor(ir.I32, []int{n / k * passes * digits}, func(int) uint64 { return 0 })
	tickets := newTensor(ir.I32, []int{passes}, func(int) uint64 { return 0 })
	flags := [2]*tensor{}
	for i := range flags {
		flags[i] = newTensor(ir.U32, []int{blocks * digits}, func(int) uint64 { return 0xdead })
	}
	flags[0] = newTensor(ir.U32, []int{blocks * digits}, func(int) uint64 { return 0 })
	zero := func(t ir.Type) *tensor { return newTensor(t, []int{n}, func(int) uint64 { return 0 }) }
	keys := [2]*tensor{zero(SortKey(s.In)), zero(SortKey(s.In))}
	vals := [2]*tensor{zero(ir.I32), zero(ir.I32)}
	outT := raw
	if s.Arg {
		outT = ir.I64
	}
	out := zero(outT)
	launch := func(k *ir.Kernel, grid int, args []backend.Arg) {
		t.Helper()
		p, err := backend.Compile(k, mem.CPUDevice, backend.Options{Debug: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Launch(&backend.Env{}, []int{grid}, args); err != nil {
			t.Fatalf("%s: %v", k.Entry.Name, err)
		}
	}
	count, err := SortCountKernel(s, false)
	if err != nil {
		t.Fatal(err)
	}
	// A count tile of one onesweep tile: the most global atomics.
	launch(count, blocks, []backend.Arg{in.arg(), hist.arg(), scalar(ir.I32, k), scalar(ir.I32, tiles), scalar(ir.I32, tile)})
	for pass := range passes {
		p := SortPass{First: pass == 0, Last: pass == passes-1}
		kern, err := SortOnesweepKernel(s, p, false)
		if err != nil {
			t.Fatal(err)
		}
		kin, vin, kout, vout := keys[pass%2], vals[pass%2], keys[(pass+1)%2], vals[(pass+1)%2]
		if p.First {
			kin = in
		}
		if p.Last {
			kout, vout = out, out
		}
		args := []backend.Arg{kin.arg()}
		if !(s.Arg && p.Last) {
			args = append(args, kout.arg())
		}
		if s.Arg {
			if !p.First {
				args = append(args, vin.arg())
			}
			args = append(args, vout.arg())
		}
		args = append(args, hist.arg(), flags[pass%2].arg())
		if !p.Last {
			args = append(args, flags[(pass+1)%2].arg())
		}
		args = append(args, tickets.arg(), scalar(ir.I32, k), scalar(ir.I32, tiles), scalar(ir.I32, tile), scalar(ir.I32, 8*pass))
		launch(kern, blocks, args)
	}
	runtime.KeepAlive([]any{in, hist, tickets, flags, keys, vals, out})
	return out.elems()
}

// TestOnesweepRowsAndTiles sorts rows of lengths around the tile (one
// element short, exact, one over, several tiles) and many short rows,
// checking sort and argsort (stable) against Go's stable sort, with the
// cpu's race checks on: keys of few distinct values (long runs of peers
// in a warp), negative ints, and floats with NaN (last), -0.0 and
// infinities.
func TestOnesweepRowsAndTiles(t *testing.T) {
	tile := SortTile(ir.U32, false, false)
	argTile := SortTile(ir.F32, true, false) // argsort's: 14 a thread, not 28
	cases := []struct {
		t    ir.Type
		rows int
		k    int
	}{
		{ir.U32, 1, tile - 1}, {ir.U32, 1, tile}, {ir.U32, 1, tile + 1}, {ir.I32, 2, 3*tile + 77},
		{ir.F32, 1, 2*tile + 5}, {ir.F32, 1, argTile}, {ir.F32, 2, argTile + 1}, {ir.U8, 3, 5000}, {ir.I32, 40, 33}, {ir.F64, 2, 1500}, {ir.Bool, 1, 700},
	}
	rng := rand.New(rand.NewPCG(7, 26))
	for _, c := range cases {
		n := c.rows * c.k
		x := make([]uint64, n)
		for i := range x {
			v := rng.IntN(61) - 30
			switch c.t {
			case ir.F32:
				x[i] = uint64(math.Float32bits(float32(v) / 4))
			case ir.F64:
				x[i] = math.Float64bits(float64(v) / 8)
			case ir.Bool:
				x[i] = uint64(v & 1)
			default:
				x[i] = ir.Convert(uint64(int64(v)), ir.I64, c.t)
			}
		}
		if c.t.IsFloat() {
			specials := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), -math.NaN()}
			for j, f := range specials {
				x[(j*97+3)%n] = ir.FromFloat(f, c.t)
			}
		}
		for _, arg := range []bool{false, true} {
			got := onesweepOnCPU(t, SortSpec{In: c.t, Arg: arg}, x, c.k)
			for r := range c.rows {
				row := x[r*c.k : (r+1)*c.k]
				order := make([]int, c.k)
				for i := range order {
					order[i] = i
				}
				slices.SortStableFunc(order, func(i, j int) int { return cmpKeys(c.t, row[i], row[j], arg) })
				for i, j := range order {
					g := got[r*c.k+i]
					if arg && int(g) != j || !arg && !sameElem(c.t, g, row[j]) {
						t.Fatalf("%s rows %d k %d arg %v: row %d element %d is %#x, want %#x (index %d)", c.t, c.rows, c.k, arg, r, i, g, row[j], j)
					}
				}
			}
		}
	}
}

// cmpKeys orders raw bits of t as sort does: by value, NaN last, and
// -0.0 before 0.0 unless eqZeros (argsort takes them as equal).
func cmpKeys(t ir.Type, x, y uint64, eqZeros bool) int {
	switch {
	case t.IsSigned() && !t.IsFloat():
		return cmp.Compare(int64(ir.Convert(x, t, ir.I64)), int64(ir.Convert(y, t, ir.I64)))
	case !t.IsFloat():
		return cmp.Compare(x, y)
	}
	a, b := value(t, x), value(t, y)
	switch {
	case math.IsNaN(a) || math.IsNaN(b):
		return cmp.Compare(b2f(math.IsNaN(a)), b2f(math.IsNaN(b)))
	case !eqZeros && a == 0 && b == 0:
		return cmp.Compare(b2f(!math.Signbit(a)), b2f(!math.Signbit(b)))
	}
	return cmp.Compare(a, b)
}

// sameElem says whether a sorted element is the input's: the same bits,
// or both NaN (the sort gives one NaN back for all).
func sameElem(t ir.Type, x, y uint64) bool {
	return x == y || t.IsFloat() && math.IsNaN(value(t, x)) && math.IsNaN(value(t, y))
}
