package cpu

import (
	"math"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Affine indices: in a flat kernel, an i32 register whose one definition
// is tid(k), a constant, a scalar parameter or shape, or an add or
// subtract of such registers (at most one of them varying) holds
// tid(k) + off in every lane, off the same in every block (off's parts
// are hoisted into setup). An access whose every index is affine
// (jacobi's u[i - 1, j] with i = r + 1, j = c + 1) needs no index
// arithmetic per lane: its block splits into runs along the launch's
// last axis, in each of which every index is constant or steps by one,
// so the access is a bounds check of each run's ends and a copy (or a
// strided loop) per run. The registers themselves, when only such
// accesses (and the definitions of other such registers) read them, are
// not computed (lazytid.go): an access that takes another path fills
// them first, with the values their instructions would have left.
//
// Bits: i32 adds and subtracts wrap, so the chain's value is tid + off
// modulo 2^32; an index that passes the check (0 <= index < extent <=
// 2^31 - 1, computed exactly in int) is the wrapped one too.

// affine is tid(axis) + k + the hoisted i32 registers terms (negated
// where neg), or, with axis -1, the uniform part alone.
type affine struct {
	axis  int
	k     int64
	terms []affTerm
}

type affTerm struct {
	reg int // global register, hoisted into setup
	neg bool
}

// maxTerms bounds the uniform registers of one form: a form with more is
// left to the general path (none of the kernels seen has more than one).
const maxTerms = 4

// minRun is the shortest last launch axis that the run path takes: with
// shorter rows a block has many runs, each with its own check and copy,
// and the per-lane general path is as fast.
const minRun = 64

// affineForms returns the affine form of every register of the kernel's
// entry that has one.
func affineForms(ctx *fnCtx) map[ir.Reg]affine {
	forms := map[ir.Reg]affine{}
	bad := map[ir.Reg]bool{}
	var form func(r ir.Reg, depth int) (affine, bool)
	form = func(r ir.Reg, depth int) (affine, bool) {
		if r < 0 || int(r) >= len(ctx.defs) || ctx.defs[r] != 1 || ctx.f.Regs[r] != ir.I32 || depth > 32 || bad[r] {
			return affine{}, false
		}
		if f, ok := forms[r]; ok {
			return f, true
		}
		f, ok := defForm(ctx, ctx.def[r], form, depth)
		if !ok || len(f.terms) > maxTerms {
			bad[r] = true
			return affine{}, false
		}
		forms[r] = f
		return f, true
	}
	for r := range ctx.def {
		form(ir.Reg(r), 0)
	}
	return forms
}

// defForm is the form of the value in's one destination gets.
func defForm(ctx *fnCtx, in *ir.Inst, form func(ir.Reg, int) (affine, bool), depth int) (affine, bool) {
	arg := func(i int) (affine, bool) {
		if i >= len(in.Args) {
			return affine{}, false
		}
		return form(in.Args[i], depth+1)
	}
	switch in.Op { // the ops whose result stays affine: each combines forms its own way
	case ir.OpTid:
		ax, ok := immInt(in.Imm)
		return affine{axis: ax}, ok && ax >= 0 && ax < 4
	case ir.OpConst:
		bits, ok := ir.ImmBits(in.Imm, ir.I32)
		return affine{axis: -1, k: int64(int32(bits))}, ok
	case ir.OpParam, ir.OpShape: // hoisted: a single definition of a launch-wide value
		if in.Op == ir.OpParam && (in.Param < 0 || in.Param >= len(ctx.f.Params) || ctx.f.Params[in.Param].IsArray()) {
			return affine{}, false
		}
		return affine{axis: -1, terms: []affTerm{{reg: ctx.base + int(in.Dst)}}}, true
	case ir.OpMov:
		if len(in.Args) != 1 {
			return affine{}, false
		}
		return arg(0)
	case ir.OpAdd, ir.OpSub:
		a, ok1 := arg(0)
		b, ok2 := arg(1)
		if !ok1 || !ok2 || len(in.Args) != 2 || b.axis >= 0 && (a.axis >= 0 || in.Op == ir.OpSub) {
			return affine{}, false
		}
		neg := in.Op == ir.OpSub
		f := affine{axis: max(a.axis, b.axis), k: a.k, terms: append([]affTerm(nil), a.terms...)}
		if neg {
			f.k -= b.k
		} else {
			f.k += b.k
		}
		for _, t := range b.terms {
			f.terms = append(f.terms, affTerm{reg: t.reg, neg: t.neg != neg})
		}
		// keep k within i32's range modulo 2^32, as the wrapped chain does
		f.k = int64(int32(f.k))
		return f, true
	}
	return affine{}, false
}

// off is the form's uniform part in this launch.
func (f *affine) off(fr *frame) int {
	o := int(f.k)
	for _, t := range f.terms {
		v := int(*(*int32)(fr.regs[t.reg]))
		if t.neg {
			v = -v
		}
		o += v
	}
	return o
}

// run is one stretch of a block along the launch's last axis: lanes
// [lane, lane+n) at addresses at + i*step.
type run struct {
	lane, n int
	at      unsafe.Pointer
}

// maxRuns is the most runs a block has: rows of at least minRun lanes.
const maxRuns = lanes/minRun + 2

// affineRuns splits the block into runs of the launch's last axis and
// returns the address of each run's first element and the distance in
// bytes between lanes, which is the same in every run; ok is false when
// the run path does not apply (a partial mask, a short last axis) or an
// index leaves the array (the general path then reports it).
func (ac *access) affineRuns(fr *frame, m mask, arr *arrayInfo) ([]run, int, bool) {
	ln := fr.ln
	nd := ln.nd
	last := nd - 1
	if !m.all || ln.dims[last] < minRun || fr.base+fr.n-1 > maxThreads {
		return nil, 0, false
	}
	var off [4]int
	step := 0
	for a := range ac.aff {
		f := &ac.aff[a]
		if f.axis >= nd {
			return nil, 0, false
		}
		off[a] = f.off(fr)
		if f.axis == last {
			step += arr.strides[a]
		}
	}
	// the tids of lane 0 along each axis
	var t [4]int
	for k := range nd {
		t[k] = fr.base / ln.inner[k] % ln.dims[k]
	}
	runs := fr.runs[:0]
	for lane := 0; lane < fr.n; {
		n := min(fr.n-lane, ln.dims[last]-t[last])
		at := 0
		for a := range ac.aff {
			f := &ac.aff[a]
			lo, hi := off[a], off[a]
			if f.axis >= 0 {
				lo += t[f.axis]
				hi = lo
				if f.axis == last {
					hi += n - 1
				}
			}
			if lo < 0 || hi >= arr.shape[a] || hi > math.MaxInt32 {
				return nil, 0, false
			}
			at += lo * arr.strides[a]
		}
		runs = append(runs, run{lane: lane, n: n, at: unsafe.Add(arr.data, at*ac.size)})
		lane += n
		// the next row: carry into the axes before the last
		t[last] = 0
		for k := last - 1; k >= 0; k-- {
			if t[k]++; t[k] < ln.dims[k] {
				break
			}
			t[k] = 0
		}
	}
	return runs, step * ac.size, true
}

// kLoadRuns loads each run's lanes: a copy when contiguous.
func kLoadRuns[T any](fr *frame, d int, runs []run, step int) {
	D := vec[T](fr, d)
	for _, r := range runs {
		dst := D[r.lane : r.lane+r.n]
		if step == int(unsafe.Sizeof(D[0])) {
			copy(dst, unsafe.Slice((*T)(r.at), r.n))
			continue
		}
		for i := range dst {
			dst[i] = *(*T)(unsafe.Add(r.at, i*step))
		}
	}
}

// kStoreRuns stores each run's lanes; lanes are in order, so where two
// lanes store to one element (step 0) the highest wins, as on the
// general path.
func kStoreRuns[T any](fr *frame, v int, runs []run, step int) {
	V := vec[T](fr, v)
	for _, r := range runs {
		src := V[r.lane : r.lane+r.n]
		if step == int(unsafe.Sizeof(V[0])) {
			copy(unsafe.Slice((*T)(r.at), r.n), src)
			continue
		}
		for i, x := range src {
			*(*T)(unsafe.Add(r.at, i*step)) = x
		}
	}
}

func loadRunsFor(t ir.Type) func(*frame, int, []run, int) {
	switch t.Size() {
	case 1:
		return kLoadRuns[uint8]
	case 4:
		return kLoadRuns[uint32]
	}
	return kLoadRuns[uint64]
}

func storeRunsFor(t ir.Type) func(*frame, int, []run, int) {
	switch t.Size() {
	case 1:
		return kStoreRuns[uint8]
	case 4:
		return kStoreRuns[uint32]
	}
	return kStoreRuns[uint64]
}

// fillAffine writes a lazy register's values: tid along f's axis plus
// its uniform part, wrapped to i32 as its instructions would have.
func fillAffine(d int, f affine) instFn {
	tid := tidFn(d, f.axis)
	return func(fr *frame, m mask) error {
		_ = tid(fr, m) // tid cannot fail
		o := int32(f.off(fr))
		if o == 0 {
			return nil
		}
		D := vec[int32](fr, d)
		if m.all {
			for i := range D[:fr.n] {
				D[i] += o
			}
			return nil
		}
		for _, i := range m.idx {
			D[i] += o
		}
		return nil
	}
}
