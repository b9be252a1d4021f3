package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// runLanes runs `out[i] = op(in[i], ...)` in a 1-D block kernel of
// block threads over len(in)/block blocks, op's operands being loads of
// the inputs, and returns out.
func runLanes[D, T any](t *testing.T, op ir.Op, dt ir.Type, block int, ins ...any) []D {
	t.Helper()
	var params []ir.Param
	var args []Arg
	n := 0
	for _, in := range ins {
		switch in := in.(type) {
		case []T:
			params, args, n = append(params, arr("in", typeOf[T](), 1)), append(args, slice(in)), len(in)
		case []int32:
			params, args = append(params, arr("lane", ir.I32, 1)), append(args, slice(in))
		}
	}
	b := kernel("lanes", append(params, arr("out", dt, 1))...).block(block)
	i := b.tid(0)
	var regs []ir.Reg
	for k := range ins {
		regs = append(regs, b.load(k, i))
	}
	b.store(len(ins), i, b.op(op, dt, regs...))
	out := make([]D, n)
	if err := b.compile(t).Launch([]int{n / block}, append(args, slice(out)), Options{}); err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	return out
}

// typeOf is the IR type of Go type T.
func typeOf[T any]() ir.Type {
	var z T
	switch any(z).(type) {
	case bool:
		return ir.Bool
	case uint8:
		return ir.U8
	case int32:
		return ir.I32
	case int64:
		return ir.I64
	case uint32:
		return ir.U32
	case uint64:
		return ir.U64
	case float32:
		return ir.F32
	}
	return ir.F64
}

// sameBits compares two values bit for bit (NaN payloads and zero signs
// included).
func sameBits[T any](a, b T) bool {
	n := unsafe.Sizeof(a)
	return string(unsafe.Slice((*byte)(unsafe.Pointer(&a)), n)) == string(unsafe.Slice((*byte)(unsafe.Pointer(&b)), n))
}

func checkLanes[T any](t *testing.T, what string, got, want []T) {
	t.Helper()
	for i := range want {
		if !sameBits(got[i], want[i]) {
			t.Fatalf("%s: thread %d got %v, want %v", what, i, got[i], want[i])
		}
	}
}

// shflRef is doc.go's shuffle rule for lane l of the warp at base.
func shflRef[T any](op ir.Op, v []T, base, l int, b int32) T {
	src := l
	switch op {
	case ir.OpShfl:
		src = int(b & 31)
	case ir.OpShflXor:
		src = l ^ int(b&31)
	case ir.OpShflDown:
		if b >= 0 && b <= 31 && l+int(b) <= 31 {
			src = l + int(b)
		}
	case ir.OpShflUp:
		if b >= 0 && b <= 31 && l-int(b) >= 0 {
			src = l - int(b)
		}
	}
	return v[base+src]
}

// laneOperands are shuffle operands, in range and out of it.
var laneOperands = []int32{0, 1, 2, 5, 16, 31, 32, 33, 63, 100, -1, -2, -31, -32, -33, math.MaxInt32, math.MinInt32}

func testShuffles[T any](t *testing.T, mk func(k int) T) {
	n := 64 * 4
	v, lane := make([]T, n), make([]int32, n)
	for k := range v {
		v[k], lane[k] = mk(k), laneOperands[(k*7)%len(laneOperands)]
	}
	for _, op := range []ir.Op{ir.OpShfl, ir.OpShflDown, ir.OpShflUp, ir.OpShflXor} {
		got := runLanes[T, T](t, op, typeOf[T](), 64, v, lane)
		want := make([]T, n)
		for k := range want {
			want[k] = shflRef(op, v, k&^31, k&31, lane[k])
		}
		checkLanes(t, fmt.Sprintf("%s/%s", op, typeOf[T]()), got, want)
	}
}

// TestShuffles: every shuffle at every element size, with lane operands
// out of range in both directions.
func TestShuffles(t *testing.T) {
	testShuffles(t, func(k int) bool { return k%3 == 0 })
	testShuffles(t, func(k int) uint8 { return uint8(k * 5) })
	testShuffles(t, func(k int) int32 { return int32(k*1000 - 7) })
	testShuffles(t, func(k int) float32 { return float32(k) / 3 })
	testShuffles(t, func(k int) int64 { return int64(k) << 40 })
	testShuffles(t, func(k int) float64 { return -float64(k) / 7 })
}

// TestDivergentShuffle: a shuffle under a branch that half of a warp
// takes fails the launch at the shuffle (a full-mask shuffle on CUDA is
// undefined there), naming the warp.
func TestDivergentShuffle(t *testing.T) {
	b := kernel("divergent", arr("x", ir.I32, 1), arr("out", ir.I32, 1)).block(64)
	i := b.tid(0)
	lane := b.index(ir.OpLaneId, 0)
	v := b.load(0, i)
	even := b.op(ir.OpEq, ir.Bool, b.op(ir.OpRem, ir.I32, lane, i32c(b, 2)), i32c(b, 0))
	b.ifElse(even, func() {
		b.store(1, i, b.op(ir.OpShflXor, ir.I32, v, i32c(b, 1)))
	}, nil)
	n := 64 * 2
	err := b.compile(t).Launch([]int{n / 64}, []Arg{slice(make([]int32, n)), slice(make([]int32, n))}, Options{Workers: 1})
	want := "kernel divergent: shfl_xor() reached by 16 of 32 threads of warp 0 of block (0): the others branched away before it"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// TestVotes: ballot, warp_all, warp_any and block_count/any/all over
// blocks whose predicates are all true, all false, one lane, or mixed.
func TestVotes(t *testing.T) {
	const bs = 96
	patterns := []func(k int) bool{
		func(int) bool { return true }, func(int) bool { return false },
		func(k int) bool { return k == 37 }, func(k int) bool { return k%5 < 2 },
		func(k int) bool { return k < 32 }, func(k int) bool { return k != 64 },
	}
	p := make([]bool, bs*len(patterns))
	for k := range p {
		p[k] = patterns[k/bs](k % bs)
	}
	ballot := runLanes[uint32, bool](t, ir.OpBallot, ir.U32, bs, p)
	wall := runLanes[bool, bool](t, ir.OpWarpAll, ir.Bool, bs, p)
	wany := runLanes[bool, bool](t, ir.OpWarpAny, ir.Bool, bs, p)
	count := runLanes[int32, bool](t, ir.OpBlockCount, ir.I32, bs, p)
	ball := runLanes[bool, bool](t, ir.OpBlockAll, ir.Bool, bs, p)
	bany := runLanes[bool, bool](t, ir.OpBlockAny, ir.Bool, bs, p)
	for k := range p {
		var bits uint32
		for l := range 32 {
			if p[k&^31+l] {
				bits |= 1 << l
			}
		}
		c := 0
		for _, v := range p[k/bs*bs : (k/bs+1)*bs] {
			c += b2i(v)
		}
		if ballot[k] != bits || wall[k] != (bits == math.MaxUint32) || wany[k] != (bits != 0) {
			t.Fatalf("thread %d: ballot %x all %v any %v, want %x", k, ballot[k], wall[k], wany[k], bits)
		}
		if count[k] != int32(c) || ball[k] != (c == bs) || bany[k] != (c > 0) {
			t.Fatalf("thread %d: block_count %d all %v any %v, want %d", k, count[k], ball[k], bany[k], c)
		}
	}
}

// The references below write lang/ir/doc.go's orders out as plainly as
// possible, in T's arithmetic.

// warpRef is the butterfly: for m in 16, 8, 4, 2, 1: v = f(v, shfl_xor(v, m)).
func warpRef[T any](v []T, f func(a, b T) T) []T {
	v = append([]T(nil), v...)
	for _, m := range []int{16, 8, 4, 2, 1} {
		next := make([]T, 32)
		for l := range next {
			next[l] = f(v[l], v[l^m])
		}
		v = next
	}
	return v
}

// blockRef: warp op, lane 0 of each warp to its slot, warp op of the
// slots padded with id; thread t gets lane t%32's result.
func blockRef[T any](v []T, f func(a, b T) T, id T) []T {
	slots := make([]T, 32)
	for l := range slots {
		slots[l] = id
	}
	for w := range len(v) / 32 {
		slots[w] = warpRef(v[w*32:(w+1)*32], f)[0]
	}
	r := warpRef(slots, f)
	out := make([]T, len(v))
	for k := range out {
		out[k] = r[k%32]
	}
	return out
}

// scanRef is the block scan of doc.go, inclusive or exclusive.
func scanRef[T any](v []T, add func(a, b T) T, excl bool) []T {
	nw := len(v) / 32
	s := make([][]T, nw)
	for w := range nw {
		s[w] = append([]T(nil), v[w*32:(w+1)*32]...)
		for _, d := range []int{1, 2, 4, 8, 16} {
			u := append([]T(nil), s[w]...) // u = shfl_up(s, d)
			for l := range u {
				if l >= d {
					u[l] = s[w][l-d]
				}
			}
			for l := d; l < 32; l++ {
				s[w][l] = add(u[l], s[w][l])
			}
		}
	}
	out := make([]T, len(v))
	var zero T
	for w := range nw {
		var p T
		for k := range w {
			if k == 0 {
				p = s[0][31]
			} else {
				p = add(p, s[k][31])
			}
		}
		for l := range 32 {
			e := s[w][0]
			if l > 0 {
				e = s[w][l-1]
			}
			x := s[w][l]
			switch {
			case excl && l == 0 && w == 0:
				x = zero
			case excl && l == 0:
				x = p
			case excl:
				x = e
				if w > 0 {
					x = add(p, e)
				}
			case w > 0:
				x = add(p, x)
			}
			out[w*32+l] = x
		}
	}
	return out
}

// floatMin is OpMin for floats: a NaN operand yields the other.
func floatMin[T float](a, b T) T {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	}
	return T(math.Min(float64(a), float64(b)))
}

func floatMax[T float](a, b T) T {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	}
	return T(math.Max(float64(a), float64(b)))
}

// testCollectives checks every numeric collective at type T against the
// references, over blocks of 32, 96 (slots past the last warp) and 1024.
func testCollectives[T number](t *testing.T, vals []T, mn, mx func(a, b T) T, lo, hi T) {
	add := func(a, b T) T { return a + b }
	for _, bs := range []int{32, 96, 1024} {
		n := bs * 3
		v := make([]T, n)
		for k := range v {
			v[k] = vals[(k*31+k/7)%len(vals)]
		}
		var warps [3][]T
		for w := range n / 32 {
			ws := v[w*32 : (w+1)*32]
			warps[0] = append(warps[0], warpRef(ws, add)...)
			warps[1] = append(warps[1], warpRef(ws, mn)...)
			warps[2] = append(warps[2], warpRef(ws, mx)...)
		}
		var blocks [5][]T
		for blk := range 3 {
			bv := v[blk*bs : (blk+1)*bs]
			blocks[0] = append(blocks[0], blockRef(bv, add, 0)...)
			blocks[1] = append(blocks[1], blockRef(bv, mn, hi)...)
			blocks[2] = append(blocks[2], blockRef(bv, mx, lo)...)
			blocks[3] = append(blocks[3], scanRef(bv, add, false)...)
			blocks[4] = append(blocks[4], scanRef(bv, add, true)...)
		}
		tt := typeOf[T]()
		for k, op := range []ir.Op{ir.OpWarpSum, ir.OpWarpMin, ir.OpWarpMax} {
			checkLanes(t, fmt.Sprintf("%s/%s block %d", op, tt, bs), runLanes[T, T](t, op, tt, bs, v), warps[k])
		}
		for k, op := range []ir.Op{ir.OpBlockSum, ir.OpBlockMin, ir.OpBlockMax, ir.OpBlockScan, ir.OpBlockScanExcl} {
			checkLanes(t, fmt.Sprintf("%s/%s block %d", op, tt, bs), runLanes[T, T](t, op, tt, bs, v), blocks[k])
		}
	}
}

func intCollectives[T integer](t *testing.T, lo, hi T) {
	var vals []T
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		vals = append(vals, T(r.Uint64()>>(r.IntN(64))))
	}
	vals = append(vals, lo, hi, 0, 1, hi-1)
	testCollectives(t, vals, func(a, b T) T { return min(a, b) }, func(a, b T) T { return max(a, b) }, lo, hi)
}

func floatCollectives[T float](t *testing.T) {
	var vals []T
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		// Wide exponents, so that rounding in T (not in float64) shows.
		vals = append(vals, T(r.NormFloat64()*math.Pow(2, float64(r.IntN(60)-30))))
	}
	testCollectives(t, vals, floatMin[T], floatMax[T], T(math.Inf(-1)), T(math.Inf(1)))
	// Special values: zeros of both signs, infinities, NaN.
	specials := []T{T(math.Copysign(0, -1)), 0, 1, -2.5, T(math.Inf(1)), T(math.Inf(-1)), T(math.NaN()), 3}
	testCollectives(t, specials, floatMin[T], floatMax[T], T(math.Inf(-1)), T(math.Inf(1)))
}

// TestCollectives: warp and block sums, min, max and scans at every
// numeric type, bit for bit against the doc.go orders.
func TestCollectives(t *testing.T) {
	intCollectives[uint8](t, 0, math.MaxUint8)
	intCollectives[int32](t, math.MinInt32, math.MaxInt32)
	intCollectives[int64](t, math.MinInt64, math.MaxInt64)
	intCollectives[uint32](t, 0, math.MaxUint32)
	intCollectives[uint64](t, 0, math.MaxUint64)
	floatCollectives[float32](t)
	floatCollectives[float64](t)
}

// TestCollectiveOrders pins the orders down where they show: integer
// results equal plain sums and prefix sums; an f32 block_sum rounds in
// f32 at each step (1 added to 2^24 is lost), not in f64.
func TestCollectiveOrders(t *testing.T) {
	v := make([]int32, 256)
	for k := range v {
		v[k] = int32(k*k - 1000)
	}
	sum, scan, excl := runLanes[int32, int32](t, ir.OpBlockSum, ir.I32, 256, v),
		runLanes[int32, int32](t, ir.OpBlockScan, ir.I32, 256, v), runLanes[int32, int32](t, ir.OpBlockScanExcl, ir.I32, 256, v)
	var total int32
	for k := range v {
		if excl[k] != total {
			t.Fatalf("exclusive scan %d = %d, want %d", k, excl[k], total)
		}
		total += v[k]
		if scan[k] != total {
			t.Fatalf("scan %d = %d, want %d", k, scan[k], total)
		}
	}
	if sum[0] != total || sum[255] != total {
		t.Errorf("block_sum = %d, want %d", sum[0], total)
	}
	f := make([]float32, 64)
	f[0] = 1 << 24
	for k := 1; k < len(f); k++ {
		f[k] = 1
	}
	fs := runLanes[float32, float32](t, ir.OpBlockSum, ir.F32, 64, f)
	// Lane 0 of warp 0: 2^24 + 1 rounds to 2^24 at the first step, so its
	// warp total is 2^24 + 30 (later steps add even numbers), plus 32.
	if want := float32(1<<24 + 30 + 32); fs[0] != want {
		t.Errorf("f32 block_sum = %v, want %v", fs[0], want)
	}
}
