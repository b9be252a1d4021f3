package stdlib

import (
	"math"
	"runtime"
	"unsafe"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// sortOnHost says whether sorts of cpu arrays in host memory take the Go
// radix sort (hostRadix) instead of the kernels: the same keys, digits
// and stable order, so the same result, about 100 times faster on the
// cpu's lane executor (docs/decisions.md has the figures). Tests turn
// it off to check the kernels on the cpu (export_test.go).
var sortOnHost = true

// hostSortable reports whether x, a sort's input, takes the host path.
func hostSortable(th *interp.Thread, x *mem.Array) bool {
	return sortOnHost && x.Device().Type == mem.CPU && x.HostAccessible() && !th.Capturing(x.Device())
}

// hostRadix sorts the contiguous x as rows of k into out (x's shape: x's
// dtype, or with arg the i64 indices within the rows), polling
// cancellation between rows and between a row's passes.
func hostRadix(th *interp.Thread, x, out *mem.Array, k int, arg bool) error {
	if err := th.SyncDevice(x.Device()); err != nil {
		return err
	}
	src, err := x.ReadHost()
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(x) // src is x's memory
	size := x.DType().Size()
	words := k * size // the second key buffer (the output row is the first)
	if arg {
		words = 2 * k * (size + 8) // keys and indices, twice
	}
	// The buffers are an array of the thread, so MemoryLimit counts them.
	scratch, err := newLike(th, x, ir.U8, []int{(words + 7) &^ 7})
	if err != nil {
		return err
	}
	defer scratch.Free()
	buf, err := scratch.ReadHost()
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(scratch) // buf is scratch's memory
	return out.WriteHost(func(dst []byte) error {
		switch size {
		case 1:
			return sortRows[uint8](th, x.DType(), src, dst, buf, k, arg)
		case 4:
			return sortRows[uint32](th, x.DType(), src, dst, buf, k, arg)
		}
		return sortRows[uint64](th, x.DType(), src, dst, buf, k, arg)
	})
}

// carve takes n elements of T from the front of *b (8-byte aligned
// parts: indices first, then keys).
func carve[T any](b *[]byte, n int) []T {
	var z T
	nb := n * int(unsafe.Sizeof(z))
	part := elems[T]((*b)[:nb:nb])
	*b = (*b)[nb:]
	return part[:n:n]
}

// radixKey is a key of one of the element sizes.
type radixKey interface{ ~uint8 | ~uint32 | ~uint64 }

// elems sees b as elements of T.
func elems[T any](b []byte) []T {
	var z T
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(z)))
}

// sortRows sorts each row of k elements of src (of dtype t, K's size)
// into dst, with its buffers in buf.
func sortRows[K radixKey](th *interp.Thread, t ir.Type, src, dst, buf []byte, k int, arg bool) error {
	in := elems[K](src)
	r := &rowSorter[K]{t: t, arg: arg, bits: 8 * t.Size()}
	if arg {
		r.vals, r.vb = carve[int64](&buf, k), carve[int64](&buf, k)
		r.keys = carve[K](&buf, k)
	}
	r.kb = carve[K](&buf, k)
	for lo := 0; lo < len(in); lo += k {
		if th.Canceled() {
			return interp.ErrInterrupted
		}
		if arg {
			if !r.sort(th, in[lo:lo+k]) {
				return interp.ErrInterrupted
			}
			copy(elems[int64](dst)[lo:lo+k], r.vals)
			continue
		}
		// The output row is one of the two key buffers.
		out := elems[K](dst)[lo : lo+k]
		r.keys = out
		if !r.sort(th, in[lo:lo+k]) {
			return interp.ErrInterrupted
		}
		if &r.keys[0] != &out[0] {
			r.kb = r.keys
			copy(out, r.keys)
		}
		for i, key := range out {
			out[i] = K(hostUnkey(t, uint64(key), r.bits))
		}
	}
	return nil
}

// rowSorter sorts one row at a time with buffers reused across rows.
type rowSorter[K radixKey] struct {
	t        ir.Type
	arg      bool
	keys, kb []K
	vals, vb []int64
	count    [256]int
	bits     int
}

// sort leaves the keys of row (and with arg its indices) in r.keys (and
// r.vals), sorted: an LSD radix sort of 8-bit digits that skips a digit
// every key shares. It polls th's cancellation every sortPoll keys of
// each loop (a row of 2^26 f32 takes 1.6 s on the 2-core machine, a pass
// a few hundred ms: polling between passes only stopped it that late)
// and reports false when canceled.
func (r *rowSorter[K]) sort(th *interp.Thread, row []K) bool {
	ok := polled(th, len(row), func(lo, hi int) {
		for i, x := range row[lo:hi] {
			r.keys[lo+i] = K(hostKey(r.t, r.arg, uint64(x), r.bits))
		}
	})
	if !ok {
		return false
	}
	if r.arg {
		for i := range r.vals {
			r.vals[i] = int64(i)
		}
	}
	for shift := 0; shift < r.bits; shift += 8 {
		if !r.pass(th, uint(shift)) {
			return false
		}
	}
	return true
}

// sortPoll is the keys a sort's loop handles between polls: a few
// milliseconds at most.
const sortPoll = 1 << 18

// polled runs f over [lo, hi) chunks of n in order, polling th's
// cancellation before each; false: canceled.
func polled(th *interp.Thread, n int, f func(lo, hi int)) bool {
	for lo := 0; lo < n; lo += sortPoll {
		if th.Canceled() {
			return false
		}
		f(lo, min(n, lo+sortPoll))
	}
	return true
}

// pass is one stable counting pass on the digit at shift (none when every
// key has the same digit there), polling as sort does; false: canceled.
func (r *rowSorter[K]) pass(th *interp.Thread, shift uint) bool {
	r.count = [256]int{}
	ok := polled(th, len(r.keys), func(lo, hi int) {
		for _, key := range r.keys[lo:hi] {
			r.count[key>>shift&255]++
		}
	})
	if !ok || r.count[r.keys[0]>>shift&255] == len(r.keys) {
		return ok
	}
	at := 0
	for d, c := range r.count {
		r.count[d] = at
		at += c
	}
	ok = polled(th, len(r.keys), func(lo, hi int) { r.scatter(shift, lo, hi) })
	if !ok {
		return false
	}
	if r.arg {
		r.vals, r.vb = r.vb, r.vals
	}
	r.keys, r.kb = r.kb, r.keys
	return true
}

// scatter moves keys [lo, hi) (and with arg their indices) to their
// places in the other buffers, by the running counts.
func (r *rowSorter[K]) scatter(shift uint, lo, hi int) {
	if r.arg {
		for i, key := range r.keys[lo:hi] {
			d := key >> shift & 255
			r.kb[r.count[d]], r.vb[r.count[d]] = key, r.vals[lo+i]
			r.count[d]++
		}
		return
	}
	for _, key := range r.keys[lo:hi] {
		d := key >> shift & 255
		r.kb[r.count[d]] = key
		r.count[d]++
	}
}

// hostKey is the kernels' toKey (stdlib/reduce/sort.go) on raw bits of
// t, keys of bits bits.
func hostKey(t ir.Type, arg bool, x uint64, bits int) uint64 {
	sign := uint64(1) << (bits - 1)
	all := ^uint64(0) >> (64 - bits)
	switch {
	case t.IsSigned():
		return x ^ sign
	case !t.IsFloat():
		return x
	}
	inf := uint64(0x7f800000)
	if bits == 64 {
		inf = 0x7ff0000000000000
	}
	switch {
	case x&^sign > inf:
		return all
	case arg && x == sign:
		return sign
	case x&sign != 0:
		return ^x & all
	}
	return x | sign
}

// hostUnkey is the kernels' fromKey.
func hostUnkey(t ir.Type, key uint64, bits int) uint64 {
	sign := uint64(1) << (bits - 1)
	switch {
	case t.IsSigned():
		return key ^ sign
	case !t.IsFloat():
		return key
	case key&sign != 0:
		return key ^ sign
	}
	return ^key & (^uint64(0) >> (64 - bits))
}

// hostUnique is uniqueRuns's steps after the sort on the host, for the
// sorted cpu array s: the first of each run of equal elements (NaN equal
// to NaN) and the runs' lengths, as the kernels compute them.
func hostUnique(th *interp.Thread, s *mem.Array, counts bool) (vals, runs *mem.Array, err error) {
	b, err := s.ReadHost()
	if err != nil {
		return nil, nil, err
	}
	defer runtime.KeepAlive(s) // b is s's memory
	t := s.DType()
	var firsts []int
	for i := range s.Size() {
		if i == 0 || !sameElem(t, mem.LoadBits(b, t, i), mem.LoadBits(b, t, i-1)) {
			firsts = append(firsts, i)
		}
	}
	if vals, err = newLike(th, s, t, []int{len(firsts)}); err != nil {
		return nil, nil, err
	}
	err = vals.WriteHost(func(out []byte) error {
		for j, i := range firsts {
			mem.StoreBits(out, t, j, mem.LoadBits(b, t, i))
		}
		return nil
	})
	if err != nil || !counts {
		return vals, nil, err
	}
	if runs, err = newLike(th, s, ir.I64, []int{len(firsts)}); err != nil {
		return nil, nil, err
	}
	return vals, runs, runs.WriteHost(func(out []byte) error {
		for j, i := range firsts {
			end := s.Size()
			if j+1 < len(firsts) {
				end = firsts[j+1]
			}
			mem.StoreBits(out, ir.I64, j, uint64(end-i))
		}
		return nil
	})
}

// sameElem compares raw bits of t as unique does: by value, NaN equal to
// NaN (and -0.0 to 0.0).
func sameElem(t ir.Type, x, y uint64) bool {
	if !t.IsFloat() {
		return x == y
	}
	if t == ir.F32 {
		a, b := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
		return a == b || a != a && b != b
	}
	a, b := math.Float64frombits(x), math.Float64frombits(y)
	return a == b || a != a && b != b
}
