package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg/linalgtest"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cpu"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// The linear-algebra cases (lang/linalg/linalgtest: every operation at
// every accepted type) run in batches: one kernel per linalgPerKernel
// operations, launched over linalgSamples threads; thread s loads every
// argument lane of every operation of the batch from row s of one 2-D
// input array per lane type (column by column, operation after
// operation) and stores every result lane to row s of one 2-D output
// array per result lane type.
const (
	linalgSamples   = 256
	linalgPerKernel = 48
	// linalgUlps is the tolerance of operations whose IR uses an op the
	// strict CUDA build does not round correctly (sin, cos, ...).
	linalgUlps = 4
	// linalgHuge bounds the arguments whose approximate results are
	// compared: sin and cos of arguments like 1e30 differ between CUDA's
	// libm and Go's in more than the last bits (both reduce the argument,
	// differently), which says nothing of linalg.
	linalgHuge = 1e6
)

var (
	linalgIn  = []ir.Type{ir.F32, ir.F64, ir.I32}
	linalgOut = []ir.Type{ir.F32, ir.F64, ir.I32, ir.Bool}
)

// linalgExact are the ops the strict CUDA build computes exactly as Host
// (correctly rounded, --fmad=false, Go's conversions); an operation whose
// IR uses any other is compared within linalgUlps.
var linalgExact = map[ir.Op]bool{
	ir.OpConst: true, ir.OpMov: true, ir.OpConvert: true, ir.OpParam: true, ir.OpLoad: true, ir.OpStore: true, ir.OpTid: true,
	ir.OpNeg: true, ir.OpNot: true, ir.OpAdd: true, ir.OpSub: true, ir.OpMul: true, ir.OpDiv: true, ir.OpAnd: true, ir.OpOr: true,
	ir.OpEq: true, ir.OpNe: true, ir.OpLt: true, ir.OpLe: true, ir.OpGt: true, ir.OpGe: true,
	ir.OpSqrt: true, ir.OpAbs: true, ir.OpMin: true, ir.OpMax: true, ir.OpFma: true, ir.OpSelect: true,
}

// linalgCase is one operation of a batch, with its inputs and Host's
// results.
type linalgCase struct {
	c      linalgtest.Combo
	rt     dtype.Type
	cols   [][]int      // the input column of each argument lane (in the array of its lane type)
	out    int          // the first output column of the result (in the array of rt.Elem)
	approx []string     // the ops of its IR outside linalgExact, by name
	args   [][][]uint64 // per sample: the lanes of each argument
	want   [][]uint64   // per sample: Host's result lanes
}

type linalgBatch struct {
	k         *ir.Kernel
	cases     []*linalgCase
	inW, outW map[ir.Type]int // columns of each array
}

// linalgParam is the index of the input (out false) or output array of lane
// type e.
func linalgParam(e ir.Type, out bool) int {
	if out {
		return len(linalgIn) + slices.Index(linalgOut, e)
	}
	return slices.Index(linalgIn, e)
}

// linalgBatches builds every operation into batch kernels and draws
// their inputs (Host's results with them).
func linalgBatches(t testing.TB) []*linalgBatch {
	cs := linalgtest.Combos()
	if len(cs) < 300 {
		t.Fatalf("only %d combinations", len(cs))
	}
	var bs []*linalgBatch
	for start := 0; start < len(cs); start += linalgPerKernel {
		f := &ir.Func{Name: fmt.Sprintf("linalg%d", len(bs))}
		for _, e := range linalgIn {
			f.Params = append(f.Params, ir.Param{Name: "in_" + e.String(), Elem: e, NDim: 2})
		}
		for _, e := range linalgOut {
			f.Params = append(f.Params, ir.Param{Name: "out_" + e.String(), Elem: e, NDim: 2})
		}
		b := ir.NewBuilder(f)
		tid := f.NewReg(ir.I32)
		b.Emit(&ir.Inst{Op: ir.OpTid, Dst: tid, Imm: int64(0)})
		bt := &linalgBatch{inW: map[ir.Type]int{}, outW: map[ir.Type]int{}}
		for _, c := range cs[start:min(start+linalgPerKernel, len(cs))] {
			lc := &linalgCase{c: c, cols: make([][]int, len(c.Ts))}
			args := make([][]ir.Reg, len(c.Ts))
			for i, u := range c.Ts {
				for range u.Lanes() {
					col := bt.inW[u.Elem]
					bt.inW[u.Elem]++
					lc.cols[i] = append(lc.cols[i], col)
					r := f.NewReg(u.Elem)
					b.Emit(&ir.Inst{Op: ir.OpLoad, Dst: r, Param: linalgParam(u.Elem, false), Args: []ir.Reg{tid, b.Const(ir.I32, int64(col))}})
					args[i] = append(args[i], r)
				}
			}
			from := len(f.Body)
			rt, out, err := linalgtest.Emit(b, c, args)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(linalgOut, rt.Elem) {
				t.Fatalf("%v: result lanes of type %s", c, rt.Elem)
			}
			lc.rt, lc.out, lc.approx = rt, bt.outW[rt.Elem], inexact(f.Body[from:])
			for k, r := range out {
				b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: linalgParam(rt.Elem, true), Args: []ir.Reg{tid, b.Const(ir.I32, int64(lc.out+k)), r}})
			}
			bt.outW[rt.Elem] += len(out)
			bt.cases = append(bt.cases, lc)
		}
		bt.k = &ir.Kernel{Entry: f, TidDims: 1}
		bs = append(bs, bt)
	}
	// Inputs and Host's results, concurrently per batch (each its own
	// generator, so the draw does not depend on scheduling). An input Host
	// refuses (an integer division by zero, which stops a whole batch on
	// the cpu) is drawn again.
	var wg sync.WaitGroup
	fails := make([]error, len(bs))
	for i, bt := range bs {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(7, uint64(i)))
			for _, lc := range bt.cases {
				for range linalgSamples {
					for try := 0; ; try++ {
						args := linalgtest.Inputs(r, lc.c)
						if _, want, ok := linalgtest.Want(lc.c, args); ok {
							lc.args, lc.want = append(lc.args, args), append(lc.want, want)
							break
						}
						if try == 1000 {
							fails[i] = fmt.Errorf("%v: Host fails on 1000 inputs in a row", lc.c)
							return
						}
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range fails {
		if err != nil {
			t.Fatal(err)
		}
	}
	return bs
}

// inexact names the ops of body outside linalgExact.
func inexact(body []ir.Stmt) []string {
	set := map[string]bool{}
	var walk func([]ir.Stmt)
	walk = func(ss []ir.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ir.Inst:
				if !linalgExact[s.Op] {
					set[s.Op.String()] = true
				}
			case *ir.If:
				walk(s.Then)
				walk(s.Else)
			case *ir.Loop:
				walk(s.Cond)
				walk(s.Body)
				walk(s.Post)
			default:
				set[fmt.Sprintf("%T", s)] = true
			}
		}
	}
	walk(body)
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// inputs are the batch's input arrays, row by row, by lane type.
func (bt *linalgBatch) inputs() map[ir.Type][]uint64 {
	in := map[ir.Type][]uint64{}
	for _, e := range linalgIn {
		in[e] = make([]uint64, linalgSamples*max(bt.inW[e], 1))
	}
	for _, lc := range bt.cases {
		for s, args := range lc.args {
			for i, lanes := range args {
				e := lc.c.Ts[i].Elem
				for k, x := range lanes {
					in[e][s*max(bt.inW[e], 1)+lc.cols[i][k]] = x
				}
			}
		}
	}
	return in
}

// linalgArg is the 2-D C-order array argument of w columns at addr.
func linalgArg(addr uintptr, w int) backend.Arg {
	w = max(w, 1)
	return backend.Arg{Array: backend.Array{Data: addr, Shape: [4]int{linalgSamples, w}, Strides: [4]int{w, 1}}}
}

// linalgRun runs a batch somewhere: given the input arrays, it returns
// the output arrays by lane type.
type linalgRun func(bt *linalgBatch, in map[ir.Type][]uint64) (map[ir.Type][]uint64, error)

// linalgStats counts the operations by how they compared and keeps, per
// function and lane type, the largest ulp distance of those compared
// within a tolerance.
type linalgStats struct {
	n, exact, within, wrong int
	worst                   map[string]*linalgWorst
}

type linalgWorst struct {
	ulps    float64
	at      string
	approx  []string
	inexact int // lanes not bit-equal
	lanes   int
}

// compare checks every case of bt against Host: lanes of bool and i32
// results, and of float results of operations built from linalgExact ops
// only, must equal Host's bits (any NaN matching any NaN unless
// nanBits); other float lanes must lie within tol ulps.
func (st *linalgStats) compare(t *testing.T, where string, bt *linalgBatch, got map[ir.Type][]uint64, tol float64, nanBits bool) {
	t.Helper()
	for _, lc := range bt.cases {
		e := lc.rt.Elem
		w := max(bt.outW[e], 1)
		approx := len(lc.approx) > 0 && e.IsFloat()
		var wst *linalgWorst
		if approx {
			key := fmt.Sprintf("%s in %s", lc.c.Name, e)
			if wst = st.worst[key]; wst == nil {
				wst = &linalgWorst{approx: lc.approx}
				st.worst[key] = wst
			}
		}
		exact, bad := true, 0
		for s, want := range lc.want {
			if approx && hugeArg(lc.c, lc.args[s]) {
				continue
			}
			for k, wv := range want {
				gv := got[e][s*w+lc.out+k]
				if gv == wv || (!nanBits && e.IsFloat() && isNaN(e, gv) && isNaN(e, wv)) {
					if approx {
						wst.lanes++
					}
					continue
				}
				exact = false
				d := math.Inf(1)
				if approx && tol > 0 {
					d = ulpDist(e, gv, wv)
					wst.lanes++
					wst.inexact++
					if d > wst.ulps {
						wst.ulps, wst.at = d, fmt.Sprintf("%v on %s: %s, Host %s", lc.c, showArgs(lc.c, lc.args[s]), show(e, gv), show(e, wv))
					}
				}
				if d > tol {
					if bad++; bad <= 3 {
						t.Errorf("%s: %v on %s: lane %d is %s, Host %s", where, lc.c, showArgs(lc.c, lc.args[s]), k, show(e, gv), show(e, wv))
					}
				}
			}
		}
		st.n++
		switch {
		case bad > 0:
			st.wrong++
		case exact:
			st.exact++
		default:
			st.within++
		}
	}
}

func isNaN(e ir.Type, x uint64) bool {
	if e == ir.F32 {
		return f32(x) != f32(x)
	}
	return f64(x) != f64(x)
}

// ulpDist is |got - want| in units in the last place of e at want's
// magnitude, or at 1e-30 for smaller ones; +Inf for a NaN or infinity
// against anything else.
func ulpDist(e ir.Type, got, want uint64) float64 {
	g, w, mant := f64(got), f64(want), 53
	if e == ir.F32 {
		g, w, mant = float64(f32(got)), float64(f32(want)), 24
	}
	switch {
	case g == w:
		return 0
	case math.IsNaN(g) || math.IsNaN(w) || math.IsInf(g, 0) || math.IsInf(w, 0):
		return math.Inf(1)
	}
	_, exp := math.Frexp(max(math.Abs(w), 1e-30))
	return math.Abs(g-w) / math.Ldexp(1, exp-mant)
}

// hugeArg reports whether a float argument lane exceeds linalgHuge.
func hugeArg(c linalgtest.Combo, args [][]uint64) bool {
	for i, lanes := range args {
		for _, x := range lanes {
			e := c.Ts[i].Elem
			v := f64(x)
			if e == ir.F32 {
				v = float64(f32(x))
			}
			if e.IsFloat() && math.Abs(v) > linalgHuge {
				return true
			}
		}
	}
	return false
}

func showArgs(c linalgtest.Combo, args [][]uint64) string {
	var parts []string
	for i, lanes := range args {
		var ls []string
		for _, x := range lanes {
			ls = append(ls, show(c.Ts[i].Elem, x))
		}
		parts = append(parts, "("+strings.Join(ls, ", ")+")")
	}
	return strings.Join(parts, " ")
}

// runLinalg runs every batch with run and compares.
func runLinalg(t *testing.T, where string, bs []*linalgBatch, run linalgRun, tol float64, nanBits bool) *linalgStats {
	st := &linalgStats{worst: map[string]*linalgWorst{}}
	for _, bt := range bs {
		got, err := run(bt, bt.inputs())
		if err != nil {
			t.Fatalf("%s: %s: %v", where, bt.k.Entry.Name, err)
		}
		st.compare(t, where, bt, got, tol, nanBits)
	}
	return st
}

// TestLinalgBatches checks the batch kernels of TestGPULinalg without a
// GPU: each generates CUDA C, and on the cpu backend every lane equals
// Host's bits (NaNs included), which proves the batching (columns,
// rows, inputs) right.
func TestLinalgBatches(t *testing.T) {
	bs := linalgBatches(t)
	for _, bt := range bs {
		if _, err := codegen.Source(bt.k, codegen.Options{}); err != nil {
			t.Fatalf("%s: %v", bt.k.Entry.Name, err)
		}
	}
	st := runLinalg(t, "cpu", bs, func(bt *linalgBatch, in map[ir.Type][]uint64) (map[ir.Type][]uint64, error) {
		p, err := cpu.Compile(bt.k, backend.Options{})
		if err != nil {
			return nil, err
		}
		var args []backend.Arg
		var bufs [][]byte
		for _, e := range linalgIn {
			buf := encode(e, in[e])
			bufs = append(bufs, buf)
			args = append(args, linalgArg(uintptr(unsafe.Pointer(&buf[0])), bt.inW[e]))
		}
		for _, e := range linalgOut {
			buf := make([]byte, linalgSamples*max(bt.outW[e], 1)*e.Size())
			bufs = append(bufs, buf)
			args = append(args, linalgArg(uintptr(unsafe.Pointer(&buf[0])), bt.outW[e]))
		}
		err = p.Launch([]int{linalgSamples}, args, cpu.Options{})
		runtime.KeepAlive(bufs)
		if err != nil {
			return nil, err
		}
		out := map[ir.Type][]uint64{}
		for j, e := range linalgOut {
			out[e] = decode(e, bufs[len(linalgIn)+j])
		}
		return out, nil
	}, 0, true)
	if st.exact != st.n {
		t.Errorf("cpu: %d of %d operations x types differ from Host", st.n-st.exact, st.n)
	}
	t.Logf("linalg on the cpu: %d operations x types in %d kernels of %d threads, all bit for bit", st.n, len(bs), linalgSamples)
}

// TestGPULinalg runs every linear-algebra operation at every accepted
// type (lang/linalg/linalgtest, as TestHostMatchesCPU on the cpu) on the
// GPU, strict build, and compares with ir.Host: bit for bit (any NaN
// matching any NaN: the GPU's NaN is 0x7fffffff, x86's 0xffc00000) where
// the IR uses only the exactly rounded ops of linalgExact, else within
// linalgUlps ulps, logging the largest distance per function.
func TestGPULinalg(t *testing.T) {
	bs := linalgBatches(t) // built before the skip: no GPU needed
	drv, ctx, info := gpu(t)
	b := NewBuilder(drv, nil)

	start := time.Now()
	ks := make([]*Kernel, len(bs))
	errs := make([]error, len(bs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range jobs {
				errs[i] = ctx.Do(func() error {
					var err error
					ks[i], err = b.Build(bs[i].k, info, Options{})
					return err
				})
			}
		})
	}
	for i := range bs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	defer ctx.Do(func() error {
		for _, k := range ks {
			if k != nil {
				k.Unload()
			}
		}
		return nil
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", bs[i].k.Entry.Name, err)
		}
	}
	built := time.Since(start)

	var st *linalgStats
	start = time.Now()
	err := ctx.Do(func() error {
		s, err := drv.StreamCreate(cuda.StreamNonBlocking)
		if err != nil {
			return err
		}
		defer drv.StreamDestroy(s)
		g := &rig{t: t, drv: drv, s: s}
		defer g.free()
		index := map[*linalgBatch]int{}
		for i, bt := range bs {
			index[bt] = i
		}
		st = runLinalg(t, "GPU", bs, func(bt *linalgBatch, in map[ir.Type][]uint64) (map[ir.Type][]uint64, error) {
			var args []backend.Arg
			for _, e := range linalgIn {
				a := g.upload(e, in[e])
				args = append(args, linalgArg(a.Array.Data, bt.inW[e]))
			}
			for _, e := range linalgOut {
				a := g.zeros(e, linalgSamples*max(bt.outW[e], 1))
				args = append(args, linalgArg(a.Array.Data, bt.outW[e]))
			}
			if err := ks[index[bt]].Launch(s, []int{linalgSamples}, args); err != nil {
				return nil, err
			}
			out := map[ir.Type][]uint64{}
			for j, e := range linalgOut {
				out[e] = g.download(e, args[len(linalgIn)+j], linalgSamples*max(bt.outW[e], 1))
			}
			return out, nil
		}, linalgUlps, false)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ran := time.Since(start)

	names := make([]string, 0, len(st.worst))
	for n := range st.worst {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w := st.worst[n]
		line := fmt.Sprintf("%s (uses %s): %d of %d lanes not bit-equal, max %.3g ulp", n, strings.Join(w.approx, ", "), w.inexact, w.lanes, w.ulps)
		if w.at != "" {
			line += " at " + w.at
		}
		t.Log(line)
	}
	t.Logf("%d kernels built in %v, launched and compared in %v (%d samples each)", len(bs), built, ran, linalgSamples)
	t.Logf("linalg on %s: %d operations x types, %d exact, %d within %d ulp, %d wrong", info.Name, st.n, st.exact, st.within, linalgUlps, st.wrong)
}
