package cpu

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// jacobiRef is jacobiKernel's interior update in plain Go, in the same
// f32 order: ((up + down) + left) + right, times 0.25.
func jacobiRef(u []float32, rows, cols, rs, cs int) []float32 {
	v := make([]float32, rows*cols)
	at := func(i, j int) float32 { return u[i*rs+j*cs] }
	for i := 1; i < rows-1; i++ {
		for j := 1; j < cols-1; j++ {
			v[i*cols+j] = 0.25 * (((at(i-1, j) + at(i+1, j)) + at(i, j-1)) + at(i, j+1))
		}
	}
	return v
}

// TestJacobiRuns: jacobi-2d on rows long enough for the run path (70,
// 1030: blocks crossing rows, partial last blocks) and too short for it
// (40: the general path), on a contiguous u and a transposed view of one
// (strided runs), gives the plain loop's bits.
func TestJacobiRuns(t *testing.T) {
	p := jacobiKernel().compile(t)
	for _, sz := range [][2]int{{70, 70}, {40, 40}, {9, 1030}, {300, 66}} {
		rows, cols := sz[0], sz[1]
		for _, transposed := range []bool{false, true} {
			data := make([]float32, rows*cols)
			for k := range data {
				data[k] = float32(k%13) * 0.37
			}
			rs, cs := cols, 1
			ua := slice(data, rows, cols)
			if transposed { // u[i, j] = data[j*rows + i]
				rs, cs = 1, rows
				ua.Array.Strides[0], ua.Array.Strides[1] = 1, rows
			}
			v := make([]float32, rows*cols)
			if err := p.Launch([]int{rows - 2, cols - 2}, []Arg{ua, slice(v, rows, cols)}, Options{}); err != nil {
				t.Fatal(err)
			}
			want := jacobiRef(data, rows, cols, rs, cs)
			for k := range v {
				if math.Float32bits(v[k]) != math.Float32bits(want[k]) {
					t.Fatalf("%dx%d transposed=%v: v[%d] = %v, want %v", rows, cols, transposed, k, v[k], want[k])
				}
			}
			runtime.KeepAlive(data)
		}
	}
}

// shiftKernel is `let r, c = tid(); y[r, c + off] = x[r, c]` (off a
// scalar i32 parameter): a run store whose offset is a launch argument.
func shiftKernel() *builder {
	b := kernel("shift", arr("x", ir.F32, 2), arr("y", ir.F32, 2), scalar("off", ir.I32))
	r, c := b.tid(0), b.tid(1)
	off := b.param(2)
	b.store(1, r, b.op(ir.OpAdd, ir.I32, c, off), b.load(0, r, c))
	return b
}

// TestAffineBounds: an index that leaves the array on the run path is
// reported as the general path reports it (the lowest lane, its axis and
// value), for offsets past either end; in range, the shift is exact.
func TestAffineBounds(t *testing.T) {
	p := shiftKernel().compile(t)
	const rows, cols = 5, 200
	x, y := make([]float32, rows*cols), make([]float32, rows*cols)
	for k := range x {
		x[k] = float32(k)
	}
	run := func(off int32, launchCols int) error {
		clear(y)
		return p.Launch([]int{rows, launchCols}, []Arg{slice(x, rows, cols), slice(y, rows, cols), {Bits: uint64(uint32(off))}}, Options{})
	}
	if err := run(3, cols-3); err != nil {
		t.Fatal(err)
	}
	for r := range rows {
		for c := range cols - 3 {
			if y[r*cols+c+3] != x[r*cols+c] {
				t.Fatalf("y[%d, %d] = %v, want %v", r, c+3, y[r*cols+c+3], x[r*cols+c])
			}
		}
	}
	for _, tc := range []struct {
		off  int32
		want string
	}{
		{1, "index 200 out of bounds for axis 1 of array y with shape [5, 200]"},
		{-1, "index -1 out of bounds for axis 1 of array y with shape [5, 200]"},
		{math.MaxInt32, "index 2147483647 out of bounds for axis 1 of array y with shape [5, 200]"}, // lane 0; lane 1 wraps
	} {
		err := run(tc.off, cols)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("off %d: error %v, want %q", tc.off, err, tc.want)
		}
	}
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
}

// TestAffineLazyFill: under a partial mask (`if i < n - 1 { y[i] = x[i
// + 1] }`) the accesses take the general path, which fills the lazy i
// and i + 1 first.
func TestAffineLazyFill(t *testing.T) {
	b := kernel("next", arr("x", ir.I32, 1), arr("y", ir.I32, 1), scalar("n", ir.I32))
	i := b.tid(0)
	last := b.op(ir.OpSub, ir.I32, b.param(2), i32c(b, 1))
	b.ifElse(b.op(ir.OpLt, ir.Bool, i, last), func() {
		b.store(1, i, b.load(0, b.op(ir.OpAdd, ir.I32, i, i32c(b, 1))))
	}, nil)
	p := b.compile(t)
	const n = 3000
	x, y := make([]int32, n), make([]int32, n)
	for k := range x {
		x[k] = int32(k * 3)
	}
	if err := p.Launch([]int{n}, []Arg{slice(x), slice(y), {Bits: n}}, Options{}); err != nil {
		t.Fatal(err)
	}
	for k := range n - 1 {
		if y[k] != x[k+1] {
			t.Fatalf("y[%d] = %d, want %d", k, y[k], x[k+1])
		}
	}
	if y[n-1] != 0 {
		t.Fatalf("y[n-1] = %d, want 0 (masked off)", y[n-1])
	}
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
}

// TestLowestBlockError: with workers claiming chunks of blocks, the
// error reported is still the lowest failing thread's: `y[2 * i] = 1`
// fails from i = n / 2 on, in many blocks of every chunk.
func TestLowestBlockError(t *testing.T) {
	b := kernel("twice", arr("y", ir.I32, 1))
	i := b.tid(0)
	b.store(0, b.op(ir.OpMul, ir.I32, i, i32c(b, 2)), i32c(b, 1))
	p := b.compile(t)
	const n = 300 * lanes
	y := make([]int32, n)
	want := "index 307200 out of bounds" // 2 * n / 2
	for range 20 {
		err := p.Launch([]int{n}, []Arg{slice(y)}, Options{Workers: 3})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want %q", err, want)
		}
	}
	runtime.KeepAlive(y)
}
