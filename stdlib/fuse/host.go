package fuse

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// The cpu's host path (doc.go, "cpu host path"): a flat plan whose ops
// all have a loop here runs as Go loops over chunks of the flat index,
// one pass per op over an L1-sized chunk, array leaves read in place and
// the root written straight into the output, on every core. The loops
// compute what the cpu executor's lanes compute (the same Go operations
// in the same dtypes), so the bits are the kernel's.

// useHost turns the host path on; tests turn it off to compare the two
// engines and to see the kernels' cache.
var useHost = true

// hostChunk is the elements of one chunk: 8 chunk buffers of f64 fit a
// 64 KiB L1-and-L2 budget, and a chunk amortises the worker's poll.
const hostChunk = 4096

// hostMin is the size below which the host path runs on the calling
// goroutine alone: starting workers costs more than the work.
const hostMin = 1 << 15

// hnode is a node of an expression compiled for the host path.
type hnode struct {
	e    *Expr
	t    ir.Type // the value's dtype (a leaf's; an op's result)
	in   ir.Type // an op's operand dtype
	args []*hnode
	arr  int    // array leaf: its index in hostPlan.ptrs; -1 otherwise
	bits uint64 // scalar leaf: its value (interp.ElemBits)
	buf  int    // op: its chunk buffer; args converted to in use buf+1+i
	// fused, when set, computes the node in one loop from leaves
	// (hostfused.go) instead of a pass per op.
	fused func(lv []col, n int, out unsafe.Pointer) bool
}

// hostPlan is a flat plan ready for the host path.
type hostPlan struct {
	root  *hnode
	out   ir.Type
	nbufs int
	ptrs  []unsafe.Pointer // element 0 of dst (0) and of each array leaf (1..)
	sizes []int            // their element sizes
	types []ir.Type        // their dtypes
	// A rank-D plan (rows > 0): rows of row elements along the last
	// axis, each array's strides (elements, 0 where broadcast) by axis.
	shape   []int
	strides [][]int
	rows    int
}

// hostRun computes dst = e on the host when dst is a cpu array, every op
// of e has a host loop and the plan is flat or runs along rows (rowPlan);
// ok is false (nothing done) otherwise, and the caller launches the
// kernel. Gathers (take, a[idx]) always take the kernel: their bounds
// check and error slot are the kernel's.
func hostRun(th *interp.Thread, dst *mem.Array, p *plan) (ok bool, err error) {
	if !useHost || dst.Device().Type != mem.CPU || len(p.roots) != 1 || len(p.gathers) > 0 {
		return false, nil
	}
	h := &hostPlan{out: p.out}
	if h.root, ok = h.compile(p, p.roots[0]); !ok || !convertible(h.root.t, p.out) {
		return false, nil
	}
	arrays := append([]*mem.Array{dst}, p.arrays...)
	if !p.flat && !h.rowPlan(arrays) {
		return false, nil
	}
	names := make([]string, len(arrays))
	for i := range names {
		names[i] = "operand"
	}
	names[0] = "out"
	err = th.RunDeviceOp("array expression", dst.Device(), arrays, names, func(_ *backend.Env, ptrs []uintptr) error {
		for i, a := range arrays {
			h.ptrs = append(h.ptrs, mem.HostPointer(ptrs[i]))
			h.sizes = append(h.sizes, a.DType().Size())
			h.types = append(h.types, a.DType())
		}
		return h.run(th, dst.Size())
	})
	runtime.KeepAlive(arrays)
	return true, err
}

// rowMin is the shortest row a rank-D plan runs on the host: shorter
// rows cost more in per-row setup than the kernel's index arithmetic.
const rowMin = 256

// rowPlan sets h up for a rank-D plan: the output and every array leaf
// (broadcast to the output's shape) step by one element along the last
// axis, or a leaf by none (a value per row, read as a scalar), and rows
// are at least rowMin long. It reports whether the plan qualifies.
func (h *hostPlan) rowPlan(arrays []*mem.Array) bool {
	shape := arrays[0].Shape()
	nd := len(shape)
	if nd == 0 || shape[nd-1] < rowMin {
		return false
	}
	for i, a := range arrays {
		v, err := a.BroadcastTo(shape)
		if err != nil {
			return false
		}
		st := v.Strides()
		if last := st[nd-1]; last != 1 && (i == 0 || last != 0) {
			return false
		}
		h.strides = append(h.strides, st)
	}
	h.shape, h.rows = shape, arrays[0].Size()/shape[nd-1]
	return true
}

// compile builds e's host node, or ok false where an op has no loop here.
func (h *hostPlan) compile(p *plan, e *Expr) (nd *hnode, ok bool) {
	nd = &hnode{e: e, t: e.t, in: e.in, arr: -1}
	switch {
	case e.arr != nil:
		n, _ := p.slot(e)
		nd.arr = 1 + n
		return nd, hostType(e.t)
	case e.isLeaf():
		bits, err := interp.ElemBits(e.val, e.t)
		nd.bits = bits
		return nd, err == nil && (hostType(e.t) || e.t == ir.Bool)
	}
	if e.nanOr || !hostOp(e) {
		return nil, false
	}
	nd.buf = h.nbufs
	h.nbufs += 1 + len(e.args)
	for i, a := range e.args {
		c, ok := h.compile(p, a)
		if !ok {
			return nil, false
		}
		want := e.in
		if e.op == ir.OpSelect && i == 0 {
			want = ir.Bool
		}
		if c.t != want && !convertible(c.t, want) {
			return nil, false
		}
		if c.t != want && c.arr < 0 && c.args == nil {
			c = convertScalar(c, want) // once, not per chunk
		}
		nd.args = append(nd.args, c)
	}
	nd.fused = fuse2(nd)
	return nd, true
}

// convertScalar is scalar leaf c converted to t, as the kernel converts
// it per element.
func convertScalar(c *hnode, t ir.Type) *hnode {
	v := convertTo(col{s: c.bits, t: c.t}, t, nil, 1)
	return &hnode{e: c.e, t: t, arr: -1, bits: v.s}
}

// hostType reports whether t has host loops: the numeric dtypes.
func hostType(t ir.Type) bool {
	switch t {
	case ir.U8, ir.I32, ir.I64, ir.U32, ir.U64, ir.F32, ir.F64:
		return true
	}
	return false
}

// convertible reports whether a conversion from s to t is a plain Go
// conversion, as the executor's (runtime/cpu's mkConvert) is: numeric
// to numeric, but float to int, which has ir.Convert's own rules.
func convertible(s, t ir.Type) bool {
	return s == t || hostType(s) && hostType(t) && !(s.IsFloat() && !t.IsFloat())
}

// hostOp reports whether e's op has a host loop for its dtypes.
func hostOp(e *Expr) bool {
	switch e.op {
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpNeg, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpEq, ir.OpNe, ir.OpSelect:
		return hostType(e.in)
	case ir.OpDiv: // integer division checks for zero: the kernel reports it
		return e.in.IsFloat()
	case ir.OpConvert:
		return convertible(e.in, e.t)
	}
	return false
}

// run computes the n elements in chunks (of the flat index, or of each
// row), on all cores when n is large, polling th's cancellation before
// each chunk.
func (h *hostPlan) run(th *interp.Thread, n int) error {
	chunks, perRow := (n+hostChunk-1)/hostChunk, 0
	if h.rows > 0 {
		row := h.shape[len(h.shape)-1]
		perRow = (row + hostChunk - 1) / hostChunk
		chunks = h.rows * perRow
	}
	workers := 1
	if n >= hostMin {
		workers = min(runtime.GOMAXPROCS(0), chunks)
	}
	var next atomic.Int64
	var canceled atomic.Bool
	var wg sync.WaitGroup
	work := func() {
		buf := getBuf(max(1, h.nbufs) * hostChunk)
		defer bufPool.Put(buf)
		lv := make([]col, len(h.ptrs))
		for !canceled.Load() {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			if th.Canceled() {
				canceled.Store(true)
				return
			}
			k := 0
			if h.rows > 0 {
				k = h.rowChunk(lv, c/perRow, c%perRow)
			} else {
				k = h.flatChunk(lv, c, n)
			}
			h.chunk(*buf, lv, k)
		}
	}
	wg.Add(workers - 1)
	for range workers - 1 {
		go func() { defer wg.Done(); work() }()
	}
	work()
	wg.Wait()
	if canceled.Load() {
		return interp.ErrInterrupted
	}
	return nil
}

// flatChunk points lv at chunk c of a flat plan of n elements and
// returns its length.
func (h *hostPlan) flatChunk(lv []col, c, n int) int {
	lo := c * hostChunk
	for i, p := range h.ptrs {
		lv[i] = col{p: unsafe.Add(p, lo*h.sizes[i]), t: h.types[i]}
	}
	return min(hostChunk, n-lo)
}

// rowChunk points lv at chunk c of row r of a rank-D plan (a leaf that
// does not move along the row becomes its value there) and returns its
// length.
func (h *hostPlan) rowChunk(lv []col, r, c int) int {
	nd := len(h.shape)
	row := h.shape[nd-1]
	lo := c * hostChunk
	for i, p := range h.ptrs {
		off, q := 0, r
		for ax := nd - 2; ax >= 0; ax-- { // row r's index, last axis fastest
			off += q % h.shape[ax] * h.strides[i][ax]
			q /= h.shape[ax]
		}
		if h.strides[i][nd-1] == 0 {
			at := unsafe.Slice((*byte)(unsafe.Add(p, off*h.sizes[i])), h.sizes[i]) // off < 0 on a reversed axis
			lv[i] = col{s: mem.LoadBits(at, h.types[i], 0), t: h.types[i]}
			continue
		}
		lv[i] = col{p: unsafe.Add(p, (off+lo)*h.sizes[i]), t: h.types[i]}
	}
	return min(hostChunk, row-lo)
}

// bufPool keeps workers' chunk buffers between statements, so that a
// loop of expressions does not allocate (and collect) them every time.
var bufPool sync.Pool

// getBuf returns a buffer of n words from the pool, or a new one.
func getBuf(n int) *[]uint64 {
	if p, ok := bufPool.Get().(*[]uint64); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]uint64, n)
	return &b
}

// chunk computes the n elements lv describes into the output (lv[0]).
func (h *hostPlan) chunk(buf []uint64, lv []col, n int) {
	out := lv[0].p
	if h.root.t == h.out && h.root.arr < 0 && h.root.args != nil {
		h.eval(h.root, buf, lv, n, out)
		return
	}
	v := h.eval(h.root, buf, lv, n, nil)
	convertCol(v, h.out, out, n)
}

// col is a value over a chunk: n elements at p, or the scalar s (p nil).
type col struct {
	p unsafe.Pointer
	s uint64
	t ir.Type
}

// eval computes nd over the chunk lv describes into out (nil: its own
// buffer) and returns it; array leaves are read in place.
func (h *hostPlan) eval(nd *hnode, buf []uint64, lv []col, n int, out unsafe.Pointer) col {
	switch {
	case nd.arr >= 0:
		return lv[nd.arr]
	case nd.args == nil:
		return col{s: nd.bits, t: nd.t}
	}
	bufAt := func(k int) unsafe.Pointer { return unsafe.Pointer(&buf[k*hostChunk]) }
	if out == nil {
		out = bufAt(nd.buf)
	}
	if nd.fused != nil && nd.fused(lv, n, out) {
		return col{p: out, t: nd.t}
	}
	var a [3]col
	for i, x := range nd.args {
		a[i] = h.eval(x, buf, lv, n, nil)
		want := nd.in
		if nd.e.op == ir.OpSelect && i == 0 {
			want = ir.Bool
		}
		if a[i].t != want {
			a[i] = convertTo(a[i], want, bufAt(nd.buf+1+i), n)
		}
	}
	if nd.e.op == ir.OpConvert {
		convertCol(a[0], nd.t, out, n)
		return col{p: out, t: nd.t}
	}
	compute(nd.e.op, nd.in, out, a[:len(nd.args)], n)
	return col{p: out, t: nd.t}
}

// convertTo converts c to t: a scalar in place, a vector into dst.
func convertTo(c col, t ir.Type, dst unsafe.Pointer, n int) col {
	if c.p == nil {
		var s uint64
		convertCol(col{p: unsafe.Pointer(&c.s), t: c.t}, t, unsafe.Pointer(&s), 1)
		return col{s: s, t: t}
	}
	convertCol(c, t, dst, n)
	return col{p: dst, t: t}
}
