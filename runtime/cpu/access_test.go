package cpu

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// Constant lane indices (x[i, 0], as the checker lowers vec3 and mat33
// arrays) take the fast paths of access.go; the same kernels with each
// constant computed (an add, which the compiler does not fold) take the
// general path, and must give the same values and errors.

// laneIdx is constant index k: an OpConst, or on the general path const
// 0 + const k.
func laneIdx(b *builder, general bool, k int64) ir.Reg {
	if general {
		return b.op(ir.OpAdd, ir.I32, i32c(b, 0), i32c(b, k))
	}
	return i32c(b, k)
}

// leadIdx is the leading index: tid(), or idx[tid()] when gather.
func leadIdx(b *builder, gather bool, idxParam int) ir.Reg {
	i := b.tid(0)
	if gather {
		i = b.load(idxParam, i)
	}
	return i
}

// laneKernel is `out[i, c, d] = a[i, c, d] + (10c + d)` over arrays of
// [n, 2, 3], for i < m (a guard that leaves partial masks).
func laneKernel(general, gather bool) *builder {
	b := kernel("lanes", arr("a", ir.F32, 3), arr("out", ir.F32, 3), scalar("m", ir.I32), arr("idx", ir.I32, 1))
	i := leadIdx(b, gather, 3)
	b.ifElse(b.op(ir.OpLt, ir.Bool, b.tid(0), b.param(2)), func() {
		for c := range int64(2) {
			for d := range int64(3) {
				x := b.load(0, i, laneIdx(b, general, c), laneIdx(b, general, d))
				y := b.op(ir.OpAdd, ir.F32, x, b.konst(ir.F32, float64(10*c+d)))
				b.store(1, i, laneIdx(b, general, c), laneIdx(b, general, d), y)
			}
		}
	}, nil)
	return b
}

// view is an Arg over buf with the given data offset, shape and strides.
func view(buf []float32, at int, shape, strides []int) Arg {
	escape(buf)
	var a ArrayArg
	a.Data = uintptr(unsafe.Pointer(&buf[at]))
	copy(a.Shape[:], shape)
	copy(a.Strides[:], strides)
	return Arg{Array: a}
}

func TestConstLaneValues(t *testing.T) {
	const n = 2500 // not a multiple of the block size
	layouts := []struct {
		name    string
		at      int
		strides []int
	}{
		{"contiguous", 0, []int{6, 3, 1}},
		{"component-major", 0, []int{1, 3 * n, n}}, // a contiguous copy per constant index
		{"reversed", 6 * (n - 1), []int{-6, 3, 1}},
	}
	for _, lay := range layouts {
		for _, gather := range []bool{false, true} {
			for _, m := range []int{n, 1777} {
				var results [2][]float32
				for g, general := range []bool{false, true} {
					a, out := make([]float32, 6*n), make([]float32, 6*n)
					for k := range a {
						a[k] = float32(k)
					}
					idx := make([]int32, n)
					for k := range idx {
						idx[k] = int32((k * 7) % n) // a permutation: 7 and 2500 are coprime
					}
					shape := []int{n, 2, 3}
					args := []Arg{view(a, lay.at, shape, lay.strides), view(out, lay.at, shape, lay.strides),
						{Bits: uint64(m)}, slice(idx)}
					err := laneKernel(general, gather).compile(t).Launch([]int{n}, args, Options{})
					runtime.KeepAlive(a) // the Args hold addresses only
					runtime.KeepAlive(out)
					runtime.KeepAlive(idx)
					if err != nil {
						t.Fatalf("%s gather=%v m=%d general=%v: %v", lay.name, gather, m, general, err)
					}
					// Check against the definition.
					for tid := range m {
						i := tid
						if gather {
							i = int(idx[tid])
						}
						for c := range 2 {
							for d := range 3 {
								at := lay.at + i*lay.strides[0] + c*lay.strides[1] + d*lay.strides[2]
								if want := a[at] + float32(10*c+d); out[at] != want {
									t.Fatalf("%s gather=%v m=%d general=%v: out[%d, %d, %d] = %v, want %v",
										lay.name, gather, m, general, i, c, d, out[at], want)
								}
							}
						}
					}
					results[g] = out
				}
				for k := range results[0] {
					if results[0][k] != results[1][k] {
						t.Fatalf("%s gather=%v m=%d: element %d is %v, general path %v", lay.name, gather, m, k, results[0][k], results[1][k])
					}
				}
			}
		}
	}
}

// errKernel is `out[i, 0, 0] = a[i, c, d]`, i tid() or idx[tid()]; it
// returns the load, where the bounds error is.
func errKernel(general, gather bool, c, d int64) (*builder, *ir.Inst) {
	b := kernel("oob", arr("a", ir.F32, 3), arr("out", ir.F32, 3), arr("idx", ir.I32, 1))
	i := leadIdx(b, gather, 2)
	ci, di := laneIdx(b, general, c), laneIdx(b, general, d)
	ld := b.emit(&ir.Inst{Op: ir.OpLoad, Dst: b.f.NewReg(ir.F32), Param: 0, Args: []ir.Reg{i, ci, di}})
	b.store(1, i, laneIdx(b, general, 0), laneIdx(b, general, 0), ld.Dst)
	return b, ld
}

func TestConstLaneBounds(t *testing.T) {
	const n = 1500
	cases := []struct {
		name    string
		threads int
		bad     int // idx[bad] = n + 3 when gathering
		c, d    int64
		want    string
	}{
		{"leading", n + 700, -1, 1, 2, fmt.Sprintf("index %d out of bounds for axis 0 of array a with shape [%d, 2, 3]", n, n)},
		{"constant", n, -1, 0, 3, fmt.Sprintf("index 3 out of bounds for axis 2 of array a with shape [%d, 2, 3]", n)},
		{"negative constant", n, -1, -1, 0, fmt.Sprintf("index -1 out of bounds for axis 1 of array a with shape [%d, 2, 3]", n)},
		// Every lane has the bad constant: lane 0 reports it, before the
		// leading index of a later lane.
		{"both", n + 700, -1, 2, 1, fmt.Sprintf("index 2 out of bounds for axis 1 of array a with shape [%d, 2, 3]", n)},
		{"gathered leading", n, 1234, 1, 1, fmt.Sprintf("index %d out of bounds for axis 0 of array a with shape [%d, 2, 3]", n+3, n)},
	}
	for _, tc := range cases {
		for _, gather := range []bool{false, true} {
			if tc.bad >= 0 && !gather {
				continue
			}
			for _, general := range []bool{false, true} {
				b, ld := errKernel(general, gather, tc.c, tc.d)
				a, out := make([]float32, 6*n), make([]float32, 6*n)
				idx := make([]int32, tc.threads) // idx[k] = k: past a where tid() is
				for k := range idx {
					idx[k] = int32(k)
				}
				if tc.bad >= 0 {
					idx[tc.bad] = n + 3
				}
				err := b.compile(t).Launch([]int{tc.threads}, []Arg{slice(a, n, 2, 3), slice(out, n, 2, 3), slice(idx)}, Options{})
				runtime.KeepAlive(a) // the Args hold addresses only
				runtime.KeepAlive(out)
				runtime.KeepAlive(idx)
				var ke *KernelError
				if !errors.As(err, &ke) {
					t.Fatalf("%s gather=%v general=%v: err = %v, want a KernelError", tc.name, gather, general, err)
				}
				if ke.Msg != tc.want || ke.Pos != ld.Pos || ke.Kernel != "oob" {
					t.Errorf("%s gather=%v general=%v: err = %v at %v\nwant %s at %v", tc.name, gather, general, ke.Msg, ke.Pos, tc.want, ld.Pos)
				}
			}
		}
	}
}

// TestConstLaneStoreBounds: a store with a bad constant writes nothing.
func TestConstLaneStoreBounds(t *testing.T) {
	const n = 100
	b := kernel("st", arr("p", ir.F32, 2))
	i := b.tid(0)
	b.store(0, i, i32c(b, 0), b.konst(ir.F32, 1.0))
	st := b.store(0, i, i32c(b, 3), b.konst(ir.F32, 2.0))
	buf := make([]float32, 4*n) // p is [n, 3] over the first 3n
	err := b.compile(t).Launch([]int{n}, []Arg{slice(buf[:3*n], n, 3)}, Options{})
	want := st.Pos.String() + fmt.Sprintf(": kernel st: index 3 out of bounds for axis 1 of array p with shape [%d, 3]", n)
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	for k, v := range buf {
		if v == 2 || (k >= 3*n && v != 0) {
			t.Fatalf("buf[%d] = %v written out of bounds", k, v)
		}
	}
}

// TestConstLaneAtomics: atomic_add(h[i % 4, k], k + 1) for each k, and
// atomic_add(total[1, 2], 1), whose indices are all constants.
func TestConstLaneAtomics(t *testing.T) {
	const n = 3001
	for _, general := range []bool{false, true} {
		b := kernel("hist", arr("h", ir.I32, 2), arr("total", ir.I64, 2))
		i := b.tid(0)
		row := b.op(ir.OpRem, ir.I32, i, i32c(b, 4))
		for k := range int64(3) {
			b.emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Param: 0, Args: []ir.Reg{row, laneIdx(b, general, k), i32c(b, k+1)}})
		}
		b.emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Param: 1,
			Args: []ir.Reg{laneIdx(b, general, 1), laneIdx(b, general, 2), b.konst(ir.I64, int64(1))}})
		h, total := make([]int32, 4*3), make([]int64, 2*3)
		if err := b.compile(t).Launch([]int{n}, []Arg{slice(h, 4, 3), slice(total, 2, 3)}, Options{}); err != nil {
			t.Fatalf("general=%v: %v", general, err)
		}
		for r := range 4 {
			rows := (n - r + 3) / 4
			for k := range 3 {
				if want := int32(rows * (k + 1)); h[r*3+k] != want {
					t.Errorf("general=%v: h[%d, %d] = %d, want %d", general, r, k, h[r*3+k], want)
				}
			}
		}
		for k, v := range total {
			if want := int64(0); k == 5 {
				want = n
				if v != want {
					t.Errorf("general=%v: total[1, 2] = %d, want %d", general, v, want)
				}
			} else if v != want {
				t.Errorf("general=%v: total element %d = %d", general, k, v)
			}
		}
	}

	// A bad constant fails the atomic.
	b := kernel("hist", arr("h", ir.I32, 2))
	i := b.tid(0)
	at := b.emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Param: 0, Args: []ir.Reg{i, i32c(b, 7), i32c(b, 1)}})
	err := b.compile(t).Launch([]int{4}, []Arg{slice(make([]int32, 12), 4, 3)}, Options{})
	if want := at.Pos.String() + ": kernel hist: index 7 out of bounds for axis 1 of array h with shape [4, 3]"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// TestConstLaneSharedLocal: constant lane indices into a shared [B, 3]
// tile (with and without race detection, which keeps the general path)
// and a per-thread local [3] array:
//
//	loc[c] = x[i, c]; s[t, c] = loc[2 - c]; sync(); out[i, c] = s[B-1-t, c]
func TestConstLaneSharedLocal(t *testing.T) {
	const B, grid = 64, 5
	for _, debug := range []bool{false, true} {
		b := kernel("tile", arr("x", ir.F32, 2), arr("out", ir.F32, 2)).block(B)
		s := b.shared("s", ir.F32, B, 3)
		loc := b.local("loc", ir.F32, 3)
		i, th := b.tid(0), b.index(ir.OpThreadId, 0)
		for c := range int64(3) {
			b.storeIn(ir.SpaceLocal, loc, i32c(b, c), b.load(0, i, i32c(b, c)))
		}
		for c := range int64(3) {
			b.storeIn(ir.SpaceShared, s, th, i32c(b, c), b.loadIn(ir.SpaceLocal, loc, i32c(b, 2-c)))
		}
		b.sync(ir.OpSync)
		mirror := b.op(ir.OpSub, ir.I32, i32c(b, B-1), th)
		for c := range int64(3) {
			b.store(1, i, i32c(b, c), b.loadIn(ir.SpaceShared, s, mirror, i32c(b, c)))
		}
		p, err := Compile(b.k, backend.Options{Debug: debug})
		if err != nil {
			t.Fatal(err)
		}
		x, out := make([]float32, 3*B*grid), make([]float32, 3*B*grid)
		for k := range x {
			x[k] = float32(k)
		}
		if err := p.Launch([]int{grid}, []Arg{slice(x, B*grid, 3), slice(out, B*grid, 3)}, Options{}); err != nil {
			t.Fatalf("debug=%v: %v", debug, err)
		}
		for k := range B * grid {
			src := k - k%B + B - 1 - k%B
			for c := range 3 {
				if want := x[src*3+2-c]; out[k*3+c] != want {
					t.Fatalf("debug=%v: out[%d, %d] = %v, want %v", debug, k, c, out[k*3+c], want)
				}
			}
		}
	}
}

// TestRunIndices: `out[i] = a[i] + 1` with i = idx[tid()]. Where the
// indices of a block are a run (base + lane), the load and the store copy
// (runAt); reversed indices or a gap take the gathers. Every pattern
// gives the definition's values over a contiguous and a strided array,
// and a run that leaves the array in the last block reports the general
// path's error.
func TestRunIndices(t *testing.T) {
	const n, m = 3000, 3040 // n threads (not a multiple of the block); arrays of m
	b := kernel("runs", arr("a", ir.F32, 1), arr("out", ir.F32, 1), arr("idx", ir.I32, 1))
	i := b.load(2, b.tid(0))
	ld := b.emit(&ir.Inst{Op: ir.OpLoad, Dst: b.f.NewReg(ir.F32), Param: 0, Args: []ir.Reg{i}})
	b.store(1, i, b.op(ir.OpAdd, ir.F32, ld.Dst, b.konst(ir.F32, 1)))
	prog := b.compile(t)
	patterns := map[string]func(k int) int{
		"run":         func(k int) int { return k },
		"shifted run": func(k int) int { return k + 40 },
		"reversed":    func(k int) int { return n - 1 - k },
		"gap":         func(k int) int { return k + k/500 },
	}
	for name, p := range patterns {
		for _, stride := range []int{1, 3} {
			a, out := make([]float32, m*stride), make([]float32, m*stride)
			for k := range a {
				a[k] = float32(k)
			}
			idx := make([]int32, n)
			for k := range idx {
				idx[k] = int32(p(k))
			}
			args := []Arg{view(a, 0, []int{m}, []int{stride}), view(out, 0, []int{m}, []int{stride}), slice(idx)}
			if err := prog.Launch([]int{n}, args, Options{}); err != nil {
				t.Fatalf("%s stride %d: %v", name, stride, err)
			}
			runtime.KeepAlive(a) // the Args hold addresses only
			runtime.KeepAlive(out)
			runtime.KeepAlive(idx)
			want := make([]float32, len(out))
			for k := range idx {
				j := int(idx[k]) * stride
				want[j] = a[j] + 1
			}
			for k := range out {
				if out[k] != want[k] {
					t.Fatalf("%s stride %d: out[%d] = %v, want %v", name, stride, k, out[k], want[k])
				}
			}
		}
	}
	a, out, idx := make([]float32, m), make([]float32, m), make([]int32, n)
	for k := range idx {
		idx[k] = int32(k + 41) // in bounds for the first blocks; lane n-1 reads m
	}
	err := prog.Launch([]int{n}, []Arg{slice(a, m), slice(out, m), slice(idx)}, Options{})
	runtime.KeepAlive(a)
	runtime.KeepAlive(out)
	runtime.KeepAlive(idx)
	var ke *KernelError
	want := fmt.Sprintf("index %d out of bounds for axis 0 of array a with shape [%d]", m, m)
	if !errors.As(err, &ke) || ke.Msg != want || ke.Pos != ld.Pos {
		t.Errorf("a run past the array: %v, want %s at %v", err, want, ld.Pos)
	}
}
