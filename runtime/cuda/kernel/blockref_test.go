package kernel

import (
	"encoding/binary"
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
)

// The Go reference of the block ops: values are bit patterns (uint64, the
// low Size bytes meaningful) so that results compare bit for bit, and
// every collective follows the evaluation order of lang/ir's doc.go step
// by step, with float32 rounding at every f32 step, as the cpu backend
// does.

func widthMask(t ir.Type) uint64 {
	if t == ir.Bool {
		return 1
	}
	if t.Size() == 8 {
		return math.MaxUint64
	}
	return 1<<(8*t.Size()) - 1
}

// signed is x of signed type t as an int64.
func signed(t ir.Type, x uint64) int64 {
	if t == ir.I32 {
		return int64(int32(uint32(x)))
	}
	return int64(x)
}

func f32(x uint64) float32 { return math.Float32frombits(uint32(x)) }
func f64(x uint64) float64 { return math.Float64frombits(x) }

func b32(f float32) uint64 { return uint64(math.Float32bits(f)) }

// refAdd is the instruction add: IEEE rounding to t, integers wrapping.
func refAdd(t ir.Type, x, y uint64) uint64 {
	switch t {
	case ir.F32:
		return b32(f32(x) + f32(y))
	case ir.F64:
		return math.Float64bits(f64(x) + f64(y))
	}
	return (x + y) & widthMask(t)
}

// refMin and refMax are OpMin and OpMax: fmin/fmax on floats (a NaN
// operand yields the other; -0 is below +0), comparisons on integers.
func refMin(t ir.Type, x, y uint64) uint64 {
	switch t {
	case ir.F32:
		return b32(ir.FMin(f32(x), f32(y)))
	case ir.F64:
		return math.Float64bits(ir.FMin(f64(x), f64(y)))
	}
	if refLess(t, y, x) {
		return y
	}
	return x
}

func refMax(t ir.Type, x, y uint64) uint64 {
	switch t {
	case ir.F32:
		return b32(ir.FMax(f32(x), f32(y)))
	case ir.F64:
		return math.Float64bits(ir.FMax(f64(x), f64(y)))
	}
	if refLess(t, x, y) {
		return y
	}
	return x
}

func refLess(t ir.Type, x, y uint64) bool {
	if t.IsSigned() {
		return signed(t, x) < signed(t, y)
	}
	return x < y
}

// refFold is the binary op a reduction folds with.
func refFold(op ir.Op) func(ir.Type, uint64, uint64) uint64 {
	switch op {
	case ir.OpWarpMin, ir.OpBlockMin:
		return refMin
	case ir.OpWarpMax, ir.OpBlockMax:
		return refMax
	}
	return refAdd
}

// refIdentity is the value of lanes without a warp in a block reduction.
func refIdentity(op ir.Op, t ir.Type) uint64 {
	w := uint(8 * t.Size())
	switch {
	case op == ir.OpBlockSum:
		return 0
	case t == ir.F32:
		return b32(float32(math.Inf(map[ir.Op]int{ir.OpBlockMin: 1, ir.OpBlockMax: -1}[op])))
	case t == ir.F64:
		return math.Float64bits(math.Inf(map[ir.Op]int{ir.OpBlockMin: 1, ir.OpBlockMax: -1}[op]))
	case op == ir.OpBlockMin && t.IsSigned():
		return 1<<(w-1) - 1
	case op == ir.OpBlockMin:
		return widthMask(t)
	case t.IsSigned():
		return (1 << (w - 1)) & widthMask(t)
	}
	return 0
}

// butterfly is the warp reduction of doc.go on one warp's 32 values: for
// m in 16, 8, 4, 2, 1, every lane's v = fold(v, v of lane^m).
func butterfly(fold func(ir.Type, uint64, uint64) uint64, t ir.Type, v []uint64) []uint64 {
	cur := append([]uint64(nil), v...)
	for m := 16; m >= 1; m /= 2 {
		next := make([]uint64, 32)
		for l := range next {
			next[l] = fold(t, cur[l], cur[l^m])
		}
		cur = next
	}
	return cur
}

// refShuffle is shfl, shfl_down, shfl_up or shfl_xor on one warp: v the
// values, b the lane operands (i32).
func refShuffle(op ir.Op, v []uint64, b []int32) []uint64 {
	out := make([]uint64, 32)
	for l := range out {
		src, ok := 0, true
		switch op {
		case ir.OpShfl:
			src = int(b[l] & 31)
		case ir.OpShflXor:
			src = l ^ int(b[l]&31)
		case ir.OpShflDown:
			src, ok = l+int(b[l]), b[l] >= 0 && b[l] <= 31
		case ir.OpShflUp:
			src, ok = l-int(b[l]), b[l] >= 0 && b[l] <= 31
		}
		if ok && src >= 0 && src <= 31 {
			out[l] = v[src]
		} else {
			out[l] = v[l]
		}
	}
	return out
}

// refWarpScan is the inclusive scan of one warp: for d in 1, 2, 4, 8, 16:
// u = shfl_up(s, d); if lane >= d { s = u + s }.
func refWarpScan(t ir.Type, v []uint64) []uint64 {
	s := append([]uint64(nil), v...)
	for d := 1; d <= 16; d *= 2 {
		next := append([]uint64(nil), s...)
		for l := d; l < 32; l++ {
			next[l] = refAdd(t, s[l-d], s[l])
		}
		s = next
	}
	return s
}

// refBlock is op over one block's values in linear thread order (b: the
// lane operands of shuffles), giving every thread's result.
func refBlock(op ir.Op, t ir.Type, v []uint64, b []int32) []uint64 {
	n := len(v)
	out := make([]uint64, n)
	warps := n / 32
	switch op {
	case ir.OpShfl, ir.OpShflDown, ir.OpShflUp, ir.OpShflXor:
		for w := range warps {
			copy(out[32*w:], refShuffle(op, v[32*w:32*w+32], b[32*w:32*w+32]))
		}
	case ir.OpBallot, ir.OpWarpAll, ir.OpWarpAny:
		for w := range warps {
			var ballot uint64
			for l := range 32 {
				ballot |= v[32*w+l] << l
			}
			r := ballot
			switch op {
			case ir.OpWarpAll:
				r = b2u(ballot == math.MaxUint32)
			case ir.OpWarpAny:
				r = b2u(ballot != 0)
			}
			for l := range 32 {
				out[32*w+l] = r
			}
		}
	case ir.OpWarpSum, ir.OpWarpMin, ir.OpWarpMax:
		for w := range warps {
			copy(out[32*w:], butterfly(refFold(op), t, v[32*w:32*w+32]))
		}
	case ir.OpBlockSum, ir.OpBlockMin, ir.OpBlockMax:
		fold := refFold(op)
		slots := make([]uint64, 32)
		for l := range slots {
			slots[l] = refIdentity(op, t)
		}
		for w := range warps {
			slots[w] = butterfly(fold, t, v[32*w:32*w+32])[0] // lane 0 stores
		}
		r := butterfly(fold, t, slots)
		for i := range out {
			out[i] = r[i%32]
		}
	case ir.OpBlockScan, ir.OpBlockScanExcl:
		refScan(op == ir.OpBlockScanExcl, t, v, out)
	case ir.OpBlockCount, ir.OpBlockAny, ir.OpBlockAll:
		c := 0
		for _, x := range v {
			c += int(x)
		}
		r := uint64(c)
		switch op {
		case ir.OpBlockAny:
			r = b2u(c > 0)
		case ir.OpBlockAll:
			r = b2u(c == n)
		}
		for i := range out {
			out[i] = r
		}
	default:
		panic("refBlock: " + op.String())
	}
	return out
}

// refScan: warp scans, lane 31's total of each warp in its slot, the
// earlier warps' totals summed left to right (p), then s or p + s;
// exclusive with e = shfl_up(s, 1): lane 0 gets 0 or p, the others e or
// p + e.
func refScan(exclusive bool, t ir.Type, v, out []uint64) {
	warps := len(v) / 32
	s := make([][]uint64, warps)
	for w := range warps {
		s[w] = refWarpScan(t, v[32*w:32*w+32])
	}
	for w := range warps {
		var p uint64
		if w > 0 {
			p = s[0][31]
			for i := 1; i < w; i++ {
				p = refAdd(t, p, s[i][31])
			}
		}
		for l := range 32 {
			r := s[w][l]
			if exclusive {
				r = 0
				if l > 0 {
					r = s[w][l-1]
				}
				if w > 0 && l == 0 {
					r = p
				} else if w > 0 {
					r = refAdd(t, p, r)
				}
			} else if w > 0 {
				r = refAdd(t, p, r)
			}
			out[32*w+l] = r
		}
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// encode packs values of type t little-endian, as the device holds them.
func encode(t ir.Type, v []uint64) []byte {
	n := t.Size()
	out := make([]byte, n*len(v))
	for i, x := range v {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], x)
		copy(out[n*i:], w[:n])
	}
	return out
}

func decode(t ir.Type, b []byte) []uint64 {
	n := t.Size()
	out := make([]uint64, len(b)/n)
	for i := range out {
		var w [8]byte
		copy(w[:], b[n*i:n*i+n])
		out[i] = binary.LittleEndian.Uint64(w[:])
	}
	return out
}

// rng is a small deterministic generator (xorshift64*), fast enough for
// 2^28 inputs.
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = rng(x)
	return x * 2685821657736338717
}

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// float is a value of t spread over magnitudes 2^-20..2^20 (so that the
// order of a sum shows in its bits), with some signed zeros.
func (r *rng) float(t ir.Type) uint64 {
	x := r.next()
	if x%32 == 0 {
		z := math.Copysign(0, float64(int(x>>8&1)*2-1))
		if t == ir.F32 {
			return b32(float32(z))
		}
		return math.Float64bits(z)
	}
	m := float64(x>>11)/(1<<53) + 0.5
	e := int(x>>3&63) % 41
	f := math.Ldexp(m, e-20)
	if x&4 != 0 {
		f = -f
	}
	if t == ir.F32 {
		return b32(float32(f))
	}
	return math.Float64bits(f)
}

// values are n random inputs of type t for op: full-width integers,
// floats of many magnitudes (for min/max and shuffles also one NaN in
// some warps, which IEEE min/max drop), bools as often true as the warp's
// bias (all false, rare, even, frequent, all true) says.
func (r *rng) values(op ir.Op, t ir.Type, n int) []uint64 {
	v := make([]uint64, n)
	bias := []int{0, 3, 50, 97, 100}
	for i := range v {
		switch {
		case t == ir.Bool:
			v[i] = b2u(r.intn(100) < bias[(i/32)%len(bias)])
		case t.IsFloat():
			v[i] = r.float(t)
		default:
			v[i] = r.next() & widthMask(t)
		}
	}
	nan := op == ir.OpWarpMin || op == ir.OpWarpMax || op == ir.OpBlockMin || op == ir.OpBlockMax || op == ir.OpShfl
	for w := 0; nan && t.IsFloat() && 32*w+7 < n; w += 3 {
		if t == ir.F32 {
			v[32*w+7] = b32(float32(math.NaN()))
		} else {
			v[32*w+7] = math.Float64bits(math.NaN())
		}
	}
	return v
}

// lanes are lane operands for shuffles: mostly in 0..31, some just
// outside, some anywhere in i32.
func (r *rng) lanes(n int) []int32 {
	b := make([]int32, n)
	for i := range b {
		switch x := r.intn(10); {
		case x < 6:
			b[i] = int32(r.intn(32))
		case x < 8:
			b[i] = int32(r.intn(80) - 40)
		default:
			b[i] = int32(uint32(r.next()))
		}
	}
	return b
}
