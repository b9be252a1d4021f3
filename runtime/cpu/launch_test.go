package cpu

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// TestTidND launches 1-D..4-D grids; each thread writes its linear id
// (from the C-order tid components) to out[i0, ..., ik].
func TestTidND(t *testing.T) {
	for _, dims := range [][]int{{2500}, {37, 61}, {5, 7, 41}, {3, 4, 5, 23}} {
		nd := len(dims)
		b := kernel("k", arr("out", ir.I32, nd))
		var ids []ir.Reg
		for ax := range nd {
			ids = append(ids, b.tid(ax))
		}
		b.k.TidDims = nd
		lin := ids[0]
		for ax := 1; ax < nd; ax++ {
			lin = b.op(ir.OpAdd, ir.I32, b.op(ir.OpMul, ir.I32, lin, i32c(b, int64(dims[ax]))), ids[ax])
		}
		b.store(0, append(ids, lin)...)
		total := 1
		for _, d := range dims {
			total *= d
		}
		out := make([]int32, total)
		for i := range out {
			out[i] = -1
		}
		if err := b.compile(t).Launch(dims, []Arg{slice(out, dims...)}, Options{}); err != nil {
			t.Fatal(err)
		}
		for i, v := range out {
			if v != int32(i) {
				t.Fatalf("dims %v: out[%d] = %d", dims, i, v)
			}
		}
	}
}

// TestStridedViews reads and writes non-contiguous views with offset data,
// through the tid fast path (1-D) and the general path (2-D transpose).
func TestStridedViews(t *testing.T) {
	b := kernel("k", arr("x", ir.F64, 1), arr("y", ir.F64, 1))
	i := b.tid(0)
	b.store(1, i, b.op(ir.OpMul, ir.F64, b.load(0, i), b.konst(ir.F64, 2.0)))
	n := 1500
	buf := make([]float64, 3*n+10)
	for k := range buf {
		buf[k] = float64(k)
	}
	ybuf := make([]float64, 2*n+4)
	escape(buf) // on the heap, as is ybuf: see slice
	escape(ybuf)
	x := Arg{Array: ArrayArg{Data: uintptr(unsafe.Pointer(&buf[10])), Shape: [4]int{n}, Strides: [4]int{3}}}
	// y walks backwards from ybuf[3+2*(n-1)]: element k at 3+2*(n-1)-2k.
	y := Arg{Array: ArrayArg{Data: uintptr(unsafe.Pointer(&ybuf[3+2*(n-1)])), Shape: [4]int{n}, Strides: [4]int{-2}}}
	if err := b.compile(t).Launch([]int{n}, []Arg{x, y}, Options{}); err != nil {
		t.Fatal(err)
	}
	for k := range n {
		if got, want := ybuf[3+2*(n-1)-2*k], 2*float64(10+3*k); got != want {
			t.Fatalf("y[%d] = %v, want %v", k, got, want)
		}
	}
	for k := 0; k < len(ybuf); k++ {
		if (k < 3 || k > 3+2*(n-1) || (k-3)%2 == 1) && ybuf[k] != 0 {
			t.Fatalf("ybuf[%d] = %v written outside the view", k, ybuf[k])
		}
	}

	// 2-D: out[i, j] = m[j, i] with m a transposed view (strides 1, rows).
	b = kernel("t", arr("m", ir.I32, 2), arr("out", ir.I32, 2))
	i, j := b.tid(0), b.tid(1)
	b.store(1, i, j, b.load(0, j, i))
	rows, cols := 33, 45 // out is rows x cols; m is cols x rows
	data := make([]int32, rows*cols)
	for k := range data {
		data[k] = int32(k)
	}
	escape(data) // on the heap: see slice
	// m[a, b] = data[b*cols + a]: a view of data (rows x cols) transposed.
	m := Arg{Array: ArrayArg{Data: uintptr(unsafe.Pointer(&data[0])), Shape: [4]int{cols, rows}, Strides: [4]int{1, cols}}}
	out := make([]int32, rows*cols)
	if err := b.compile(t).Launch([]int{rows, cols}, []Arg{m, slice(out, rows, cols)}, Options{}); err != nil {
		t.Fatal(err)
	}
	for r := range rows {
		for c := range cols {
			if got, want := out[r*cols+c], int32(r*cols+c); got != want {
				t.Fatalf("out[%d, %d] = %d, want %d", r, c, got, want)
			}
		}
	}
}

func TestBoundsErrors(t *testing.T) {
	// Fast path: y[i] = 1 over more threads than y has; y is a view of a
	// larger buffer whose tail must stay untouched.
	b := kernel("fill", arr("y", ir.F32, 1))
	i := b.tid(0)
	st := b.store(0, i, b.konst(ir.F32, 1.0))
	buf := make([]float32, 2000)
	y := slice(buf[:1500])
	y.Array.Name = "ys"
	err := b.compile(t).Launch([]int{2000}, []Arg{y}, Options{})
	var ke *KernelError
	if !errors.As(err, &ke) {
		t.Fatalf("err = %v, want a KernelError", err)
	}
	want := st.Pos.String() + ": kernel fill: index 1500 out of bounds for axis 0 of array ys with shape [1500]"
	if err.Error() != want {
		t.Errorf("err = %q\nwant  %q", err, want)
	}
	for k := 1500; k < 2000; k++ {
		if buf[k] != 0 {
			t.Fatalf("buf[%d] written out of bounds", k)
		}
	}

	// General path, 2-D, negative index on axis 1, param name used.
	b = kernel("g", arr("grid", ir.I64, 2))
	i = b.tid(0)
	j := b.op(ir.OpSub, ir.I32, i, i32c(b, 5))
	b.store(0, i32c(b, 0), j, b.konst(ir.I64, int64(7)))
	g := make([]int64, 6)
	err = b.compile(t).Launch([]int{10}, []Arg{slice(g, 2, 3)}, Options{})
	if err == nil || !strings.Contains(err.Error(), "kernel g: index -5 out of bounds for axis 1 of array grid with shape [2, 3]") {
		t.Errorf("err = %v", err)
	}

	// A masked-out lane's bad index does not fault: if i < n { y[i] = .. }.
	b = kernel("m", arr("y", ir.I32, 1), scalar("n", ir.I32))
	i = b.tid(0)
	b.ifElse(b.op(ir.OpLt, ir.Bool, i, b.param(1)), func() { b.store(0, i, i) }, nil)
	small := make([]int32, 100)
	if err := b.compile(t).Launch([]int{3000}, []Arg{slice(small), {Bits: 100}}, Options{}); err != nil {
		t.Errorf("guarded store: %v", err)
	}
	if small[99] != 99 {
		t.Errorf("small[99] = %d", small[99])
	}
}

func TestDivisionByZero(t *testing.T) {
	// out[i] = 100 / d[i], and a guarded version that skips zeros.
	b := kernel("div", arr("d", ir.I32, 1), arr("out", ir.I32, 1))
	i := b.tid(0)
	q := b.emit(&ir.Inst{Op: ir.OpDiv, Dst: b.f.NewReg(ir.I32), Args: []ir.Reg{i32c(b, 100), b.load(0, i)}})
	b.store(1, i, q.Dst)
	d := []int32{1, 2, 0, 4}
	out := make([]int32, 4)
	err := b.compile(t).Launch([]int{4}, []Arg{slice(d), slice(out)}, Options{})
	if want := q.Pos.String() + ": kernel div: integer division by zero"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}

	b = kernel("guard", arr("d", ir.U64, 1), arr("out", ir.U64, 1))
	i = b.tid(0)
	dv := b.load(0, i)
	b.ifElse(b.op(ir.OpNe, ir.Bool, dv, b.konst(ir.U64, int64(0))), func() {
		b.store(1, i, b.op(ir.OpRem, ir.U64, b.konst(ir.U64, int64(100)), dv))
	}, nil)
	du := []uint64{7, 0, 3, 0}
	ou := make([]uint64, 4)
	if err := b.compile(t).Launch([]int{4}, []Arg{slice(du), slice(ou)}, Options{}); err != nil {
		t.Fatal(err)
	}
	if !equal(ou, []uint64{2, 0, 1, 0}) {
		t.Errorf("guarded rem = %v", ou)
	}
}

func atomicOp(b *builder, op ir.Op, dst ir.Reg, p int, args ...ir.Reg) {
	b.emit(&ir.Inst{Op: op, Dst: dst, Param: p, Args: args})
}

func TestAtomicHistogram(t *testing.T) {
	// atomic_add(hist, i % 256, 1) from 1M threads, plus a f32 total.
	b := kernel("hist", arr("hist", ir.I32, 1), arr("tot", ir.F32, 1), arr("u", ir.U64, 1))
	i := b.tid(0)
	atomicOp(b, ir.OpAtomicAdd, ir.NoReg, 0, b.op(ir.OpRem, ir.I32, i, i32c(b, 256)), i32c(b, 1))
	atomicOp(b, ir.OpAtomicAdd, ir.NoReg, 1, i32c(b, 0), b.konst(ir.F32, 1.0))
	atomicOp(b, ir.OpAtomicSub, ir.NoReg, 2, i32c(b, 0), b.konst(ir.U64, int64(3)))
	n := 1 << 20
	hist, tot, u := make([]int32, 256), make([]float32, 1), []uint64{uint64(3 * n)}
	if err := b.compile(t).Launch([]int{n}, []Arg{slice(hist), slice(tot), slice(u)}, Options{Workers: 4}); err != nil {
		t.Fatal(err)
	}
	for k, c := range hist {
		if c != int32(n/256) {
			t.Fatalf("hist[%d] = %d, want %d", k, c, n/256)
		}
	}
	if tot[0] != float32(n) || u[0] != 0 {
		t.Errorf("total = %v, u = %d", tot[0], u[0])
	}
}

func TestAtomicMinMaxCAS(t *testing.T) {
	// old = atomic_max(mx, 0, v); atomic_min(mn, 0, v); atomic_cas(lock, 0, 0, i+1)
	b := kernel("mm", arr("v", ir.F64, 1), arr("mx", ir.F64, 1), arr("mn", ir.I64, 1),
		arr("lock", ir.I32, 1), arr("olds", ir.I32, 1), arr("fmn", ir.F32, 1))
	i := b.tid(0)
	v := b.load(0, i)
	z := i32c(b, 0)
	atomicOp(b, ir.OpAtomicMax, b.f.NewReg(ir.F64), 1, z, v)
	atomicOp(b, ir.OpAtomicMin, ir.NoReg, 2, z, b.op(ir.OpConvert, ir.I64, v))
	old := b.f.NewReg(ir.I32)
	atomicOp(b, ir.OpAtomicCAS, old, 3, z, z, b.op(ir.OpAdd, ir.I32, i, i32c(b, 1)))
	b.store(4, i, old)
	atomicOp(b, ir.OpAtomicMin, ir.NoReg, 5, z, b.op(ir.OpConvert, ir.F32, v))
	n := 50000
	vs := make([]float64, n)
	for k := range vs {
		vs[k] = float64((k*7919)%n) - 1000.5
	}
	vs[123] = math.NaN() // fmax/fmin ignore NaN operands
	mx, mn := []float64{math.Inf(-1)}, []int64{math.MaxInt64}
	lock, olds, fmn := []int32{0}, make([]int32, n), []float32{float32(math.NaN())}
	if err := b.compile(t).Launch([]int{n}, []Arg{slice(vs), slice(mx), slice(mn), slice(lock), slice(olds), slice(fmn)}, Options{}); err != nil {
		t.Fatal(err)
	}
	if mx[0] != float64(n-1)-1000.5 || fmn[0] != -1000.5 {
		t.Errorf("max = %v, f32 min = %v", mx[0], fmn[0])
	}
	if mn[0] != math.MinInt64 { // NaN converts to MinInt64 (amd64 semantics)
		t.Errorf("min = %v", mn[0])
	}
	winners := 0
	for k, o := range olds {
		if o == 0 {
			winners++
			if lock[0] != int32(k+1) {
				t.Errorf("lock = %d, winner %d", lock[0], k)
			}
		} else if o != lock[0] {
			t.Errorf("olds[%d] = %d, lock %d", k, o, lock[0])
		}
	}
	if winners != 1 {
		t.Errorf("%d CAS winners", winners)
	}
}

func spinKernel() *builder {
	// loop forever { }
	b := kernel("spin", arr("out", ir.I32, 1))
	i := b.tid(0)
	b.loop(nil, func() { b.store(0, i, i) }, nil)
	return b
}

func TestCancel(t *testing.T) {
	p := spinKernel().compile(t)
	out := make([]int32, 5000)
	var stop atomic.Bool
	go func() {
		time.Sleep(20 * time.Millisecond)
		stop.Store(true)
	}()
	done := make(chan error, 1)
	go func() { done <- p.Launch([]int{5000}, []Arg{slice(out)}, Options{Cancel: &stop}) }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrCanceled) {
			t.Fatalf("err = %v, want ErrCanceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("launch did not stop")
	}
	// The frames go back to the pool clean: a normal launch still works.
	p2 := saxpyKernel().compile(t)
	stop.Store(true)
	x := make([]float32, 10)
	if err := p2.Launch([]int{10}, []Arg{slice(x), slice(x), {}}, Options{Cancel: &stop}); !errors.Is(err, ErrCanceled) {
		t.Errorf("pre-canceled launch: %v", err)
	}
}

func TestLaunchValidation(t *testing.T) {
	p := saxpyKernel().compile(t)
	x := make([]float32, 4)
	args := []Arg{slice(x), slice(x), {}}
	if err := p.Launch([]int{4}, args[:2], Options{}); err == nil || !strings.Contains(err.Error(), "takes 3 arguments, got 2") {
		t.Errorf("short args: %v", err)
	}
	if err := p.Launch([]int{4}, append(args, Arg{}), Options{}); err == nil {
		t.Error("too many args accepted")
	}
	for _, dims := range [][]int{{}, {1, 2, 3, 4, 5}, {-1}, {2, 2}, {1 << 31}} {
		if err := p.Launch(dims, args, Options{}); err == nil {
			t.Errorf("dims %v accepted", dims)
		}
	}
	big := kernel("big", arr("out", ir.I32, 1))
	big.store(0, big.tid(1), i32c(big, 1))
	if err := big.compile(t).Launch([]int{1 << 16, 1 << 16}, []Arg{slice(make([]int32, 1))}, Options{}); err == nil {
		t.Error("2^32 threads accepted")
	}
	// Zero threads: nothing runs, no error, even with a nil array.
	if err := p.Launch([]int{0}, []Arg{{}, {}, {}}, Options{}); err != nil {
		t.Errorf("zero threads: %v", err)
	}
}

func TestPrint(t *testing.T) {
	// print("t", i, x, i % 2 == 0) with x = f32(i) / 10
	b := kernel("p")
	i := b.tid(0)
	x := b.op(ir.OpDiv, ir.F32, b.op(ir.OpConvert, ir.F32, i), b.konst(ir.F32, 10.0))
	ev := b.op(ir.OpEq, ir.Bool, b.op(ir.OpRem, ir.I32, i, i32c(b, 2)), i32c(b, 0))
	b.ifElse(b.op(ir.OpLt, ir.Bool, i, i32c(b, 4)), func() {
		b.emit(&ir.Inst{Op: ir.OpPrint, Dst: ir.NoReg, Args: []ir.Reg{i, x, ev}, Format: "t {} {} {}\n"})
	}, nil)
	big := b.konst(ir.F64, 1e20)
	b.ifElse(b.op(ir.OpEq, ir.Bool, i, i32c(b, 5)), func() {
		b.emit(&ir.Inst{Op: ir.OpPrint, Dst: ir.NoReg, Args: []ir.Reg{big, b.konst(ir.U64, uint64(1<<63))}, Format: "big {} {}\n"})
	}, nil)
	p := b.compile(t)
	var out bytes.Buffer
	if err := p.Launch([]int{6}, nil, Options{Out: &out}); err != nil {
		t.Fatal(err)
	}
	want := "t 0 0.0 true\nt 1 0.1 false\nt 2 0.2 true\nt 3 0.3 false\nbig 1e+20 9223372036854775808\n"
	if out.String() != want {
		t.Errorf("print output %q, want %q", out.String(), want)
	}
	if err := p.Launch([]int{6}, nil, Options{}); err != nil {
		t.Errorf("nil Out: %v", err)
	}
}

// TestConcurrentLaunches shares one Program between goroutines.
func TestConcurrentLaunches(t *testing.T) {
	p := saxpyKernel().compile(t)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			n := 5000 + g
			x, y := make([]float32, n), make([]float32, n)
			for k := range x {
				x[k] = float32(k)
			}
			if err := p.Launch([]int{n}, []Arg{slice(x), slice(y), {Bits: uint64(math.Float32bits(float32(g)))}}, Options{}); err != nil {
				t.Error(err)
				return
			}
			for k := range y {
				if y[k] != float32(g)*float32(k) {
					t.Errorf("g %d: y[%d] = %v", g, k, y[k])
					return
				}
			}
		})
	}
	wg.Wait()
}
