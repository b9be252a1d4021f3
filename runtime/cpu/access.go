package cpu

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// access is a compiled array access (load, store, atomic or field).
type access struct {
	op ir.Op
	arrayRef
	elem    ir.Type
	size    int // element size in bytes
	fieldAt int // a field access's byte offset in the element
	span    int // the elements one access covers: 1, or a field's bytes
	idx     []int
	itypes  []ir.Type
	accum   []func(fr *frame, m mask, r, ext, stride int, first bool) int
	run     []func(fr *frame, r int) (int, bool)
	pos     pos.Pos
	race    bool  // a shared load, store or field access checked for races (race.go)
	raceAt  int32 // its index in Program.race.pos
	// consts are the indices known at compile time (registers with one
	// definition, an OpConst hoisted into setup); vary are the other
	// axes, in order, and all every axis. offsets checks the constants
	// once per block and reads only the vary registers per lane.
	consts []constIndex
	vary   []int
	all    []int
	// aff are the indices' affine forms when every index has one (a
	// plain load or store of a kernel argument, affine.go), else nil.
	aff []affine
}

// affineIndices sets ac.aff when every index of the access (registers
// idx of the kernel's entry) is affine and the run path applies: a
// kernel argument's elements, not bools (whose loads normalise bytes).
func (ac *access) affineIndices(c *compiler, idx []ir.Reg, ref arrayRef, prm ir.Param) {
	if c.aff == nil || ref.buf >= 0 || prm.Elem == ir.Bool || ac.race || len(idx) > 4 {
		return
	}
	forms := make([]affine, len(idx))
	for k, r := range idx {
		f, ok := c.aff[r]
		if !ok {
			return
		}
		forms[k] = f
	}
	ac.aff = forms
}

// seqInsts runs fs in order (nil when there are none).
func seqInsts(fs []instFn) instFn {
	if len(fs) == 0 {
		return nil
	}
	return func(fr *frame, m mask) error {
		for _, f := range fs {
			if err := f(fr, m); err != nil {
				return err
			}
		}
		return nil
	}
}

// constIndex is index axis of an access, always val.
type constIndex struct{ axis, val int }

// arrayRef is where an access finds its array: kernel argument kp, or
// the frame's shared or local array buf (>= 0). lane is the distance in
// bytes between the lanes' copies of a local array, 0 otherwise.
type arrayRef struct {
	kp, buf, lane int
}

func (ac *access) array(fr *frame) *arrayInfo {
	if ac.buf >= 0 {
		return &fr.bufs[ac.buf]
	}
	return &fr.ln.arrays[ac.kp]
}

// arrayOf resolves the array an access or shape names in its Space, and
// describes it as a parameter.
func (c *compiler) arrayOf(ctx *fnCtx, in *ir.Inst) (ir.Param, arrayRef, error) {
	p := in.Param
	var b ir.Buffer
	ref := arrayRef{buf: p}
	switch {
	case in.Space == ir.SpaceParam && p >= 0 && p < len(ctx.f.Params) && ctx.f.Params[p].IsArray():
		return ctx.f.Params[p], arrayRef{kp: ctx.arrays[p], buf: -1}, nil
	case in.Space == ir.SpaceShared && ctx.kernel && p >= 0 && p < len(c.k.Shared):
		b = c.k.Shared[p] // the first entries of Program.bufs
	case in.Space == ir.SpaceLocal && p >= 0 && p < len(ctx.locals):
		b = ctx.f.Locals[p]
		ref = arrayRef{buf: ctx.locals[p], lane: c.p.bufs[ctx.locals[p]].unit()}
	default:
		return ir.Param{}, ref, c.errf(ctx, in.Pos, "%s of %s array %d, which %s does not have", in.Op, in.Space, p, ctx.f.Name)
	}
	return ir.Param{Name: b.Name, Elem: b.Elem, NDim: len(b.Dims)}, ref, nil
}

func (c *compiler) access(ctx *fnCtx, in *ir.Inst, o operands) (instFn, error) {
	prm, ref, err := c.arrayOf(ctx, in)
	if err != nil {
		return nil, err
	}
	info, _ := in.Op.Info()
	nidx := len(o.args) - info.Arity // the values follow the indices
	if nidx != prm.NDim {
		return nil, c.errf(ctx, in.Pos, "%s of %s with %d indices, array has %d dimensions", in.Op, prm.Name, nidx, prm.NDim)
	}
	ac, err := c.newAccess(ctx, in, prm, ref, o, nidx)
	if err != nil {
		return nil, err
	}
	for _, t := range o.types[nidx:] {
		if t != prm.Elem {
			return nil, c.errf(ctx, in.Pos, "%s of %s value into array of %s", in.Op, t, prm.Elem)
		}
	}
	if o.dst >= 0 && o.dt != prm.Elem {
		return nil, c.errf(ctx, in.Pos, "%s of %s array into %s register", in.Op, prm.Elem, o.dt)
	}
	// x[tid()] of a 1-D launch; also right in a 1-D block kernel, whose
	// tid() is the frame's base + lane while that fits in i32.
	// The same for x[tid(), c1, ...] with constant trailing indices: the
	// lane axes of a vec3 or mat33 array.
	fast := ref.buf < 0 && nidx >= 1 && c.k.TidDims == 1 && ctx.isTid(in.Args[0], 0) && prm.Elem != ir.Bool &&
		len(ac.vary) == 1 && ac.vary[0] == 0
	var fills []instFn // write the lazy indices before a path that reads them
	if ctx.kernel {
		for k, r := range in.Args[:nidx] {
			if c.lazy[r] {
				fills = append(fills, fillAffine(o.args[k], c.aff[r]))
			}
		}
		ac.affineIndices(c, in.Args[:nidx], ref, prm)
	}
	fill := seqInsts(fills)
	switch in.Op { // a load, a store and the atomics are different access loops
	case ir.OpLoad:
		if o.dst < 0 {
			return nil, c.errf(ctx, in.Pos, "load needs a destination")
		}
		return ac.load(o.dst, fast, c.zeroCopy[in], fill), nil
	case ir.OpStore:
		if o.dst >= 0 {
			return nil, c.errf(ctx, in.Pos, "store has a destination")
		}
		return ac.store(o.args[nidx], fast, fill), nil
	}
	if !atomicOps[in.Op] {
		return nil, c.errf(ctx, in.Pos, "unsupported op %s", in.Op)
	}
	if prm.Elem == ir.Bool || prm.Elem == ir.U8 {
		return nil, c.errf(ctx, in.Pos, "%s on an array of %s", in.Op, prm.Elem)
	}
	return ac.atomic(o.dst, o.args[nidx:]), nil
}

// newAccess compiles the indices (the first nidx operands) of an access
// to prm; plain loads and stores and field accesses of shared arrays are
// race-checked in a debug build.
func (c *compiler) newAccess(ctx *fnCtx, in *ir.Inst, prm ir.Param, ref arrayRef, o operands, nidx int) (*access, error) {
	ac := &access{op: in.Op, arrayRef: ref, elem: prm.Elem, size: prm.Elem.Size(), span: 1, pos: in.Pos,
		idx: o.args[:nidx], itypes: o.types[:nidx]}
	for k, t := range ac.itypes {
		f := accumFor(t)
		if f == nil {
			return nil, c.errf(ctx, in.Pos, "index %d of %s has type %s", k, prm.Name, t)
		}
		ac.accum = append(ac.accum, f)
		ac.run = append(ac.run, runFor(t))
	}
	if c.p.race != nil && in.Space == ir.SpaceShared && !atomicOps[in.Op] {
		ac.race, ac.raceAt = true, c.p.race.raceAt(in.Pos)
	}
	for k := range nidx {
		ac.all = append(ac.all, k)
		// A race-checked access keeps whole offsets in fr.off (checkRace).
		if v, ok := c.constIndex(ctx, in.Args[k], ac.idx[k]); ok && !ac.race {
			ac.consts = append(ac.consts, constIndex{k, v})
		} else {
			ac.vary = append(ac.vary, k)
		}
	}
	return ac, nil
}

// constIndex reports the value of index register r (global g) when it
// is the same in every lane and block: its one definition is an OpConst,
// hoisted into setup. The value is the register's as kAccum reads it.
func (c *compiler) constIndex(ctx *fnCtx, r ir.Reg, g int) (int, bool) {
	if r < 0 || int(r) >= len(ctx.defs) || ctx.defs[r] != 1 || ctx.def[r].Op != ir.OpConst || !c.hoisted[g] {
		return 0, false
	}
	t := ctx.f.Regs[r]
	bits, ok := ir.ImmBits(ctx.def[r].Imm, t)
	if !ok {
		return 0, false
	}
	switch t {
	case ir.U8:
		return int(uint8(bits)), true
	case ir.I32:
		return int(int32(bits)), true
	case ir.U32:
		return int(uint32(bits)), true
	case ir.I64, ir.U64:
		return int(bits), true
	}
	return 0, false
}

// constOffset checks the constant indices against arr's extents and
// returns their byte offset; ok is false when one is out of bounds.
func (ac *access) constOffset(arr *arrayInfo) (off int, ok bool) {
	for _, ci := range ac.consts {
		if uint(ci.val) >= uint(arr.shape[ci.axis]) {
			return 0, false
		}
		off += ci.val * arr.strides[ci.axis]
	}
	return off * ac.size, true
}

// field compiles a field access: the element's offset from the indices of
// all axes but the byte axis, then a typed load or store at byte Imm of
// it. The launch check (backend.CheckFields) and ir.Verify for buffers
// keep every access inside its element and aligned.
func (c *compiler) field(ctx *fnCtx, in *ir.Inst, o operands) (instFn, error) {
	prm, ref, err := c.arrayOf(ctx, in)
	if err != nil {
		return nil, err
	}
	nidx := prm.NDim - 1
	t, values := o.dt, 0 // a load's type
	if in.Op == ir.OpStoreField {
		values = 1
	}
	if len(o.args) != nidx+values || (o.dst >= 0) == (values == 1) {
		return nil, c.errf(ctx, in.Pos, "%s of %s has %d operands (destination %v), want %d indices and %d values", in.Op, prm.Name, len(o.args), o.dst >= 0, nidx, values)
	}
	if values == 1 {
		t = o.types[nidx]
	}
	off, ok := ir.FieldOffset(in.Imm)
	if prm.Elem != ir.U8 || !ok || !ir.Scalars.Has(t) {
		return nil, c.errf(ctx, in.Pos, "%s of %s at byte %v of an array of %s", in.Op, t, in.Imm, prm.Elem)
	}
	ac, err := c.newAccess(ctx, in, prm, ref, o, nidx)
	if err != nil {
		return nil, err
	}
	ac.fieldAt, ac.span = off, t.Size()
	if in.Op == ir.OpLoadField {
		return ac.loadField(t, o.dst), nil
	}
	return ac.storeField(t, o.args[nidx]), nil
}

func (ac *access) loadField(t ir.Type, d int) instFn {
	gather := gatherFor(t)
	return func(fr *frame, m mask) error {
		data, err := ac.offsets(fr, m, ac.array(fr))
		if err != nil {
			return err
		}
		if ac.race {
			if err := ac.checkRace(fr, m, false); err != nil {
				return err
			}
		}
		gather(fr, m, d, unsafe.Add(data, ac.fieldAt))
		return nil
	}
}

func (ac *access) storeField(t ir.Type, v int) instFn {
	scatter := scatterFor(t)
	return func(fr *frame, m mask) error {
		data, err := ac.offsets(fr, m, ac.array(fr))
		if err != nil {
			return err
		}
		if ac.race {
			if err := ac.checkRace(fr, m, true); err != nil {
				return err
			}
		}
		scatter(fr, m, v, unsafe.Add(data, ac.fieldAt))
		return nil
	}
}

func accumFor(t ir.Type) func(*frame, mask, int, int, int, bool) int {
	switch t {
	case ir.U8:
		return kAccum[uint8]
	case ir.I32:
		return kAccum[int32]
	case ir.I64:
		return kAccum[int64]
	case ir.U32:
		return kAccum[uint32]
	case ir.U64:
		return kAccum[uint64]
	}
	return nil
}

func runFor(t ir.Type) func(*frame, int) (int, bool) {
	switch t {
	case ir.U8:
		return kRun[uint8]
	case ir.I32:
		return kRun[int32]
	case ir.I64:
		return kRun[int64]
	case ir.U32:
		return kRun[uint32]
	}
	return kRun[uint64]
}

// kRun reports whether index register r holds a run over the block's
// lanes (lane i's index is lane 0's plus i, as ints: a run that wraps is
// none), and lane 0's index. A gather's indices usually fail at lane 1.
func kRun[I integer](fr *frame, r int) (int, bool) {
	X := vec[I](fr, r)[:fr.n]
	x0 := int(X[0])
	for i, v := range X {
		if int(v) != x0+i {
			return 0, false
		}
	}
	return x0, true
}

// kAccum checks index register r against extent ext and adds index*stride
// (bytes) to the lanes' offsets (or sets them, for the first axis). It
// returns the first out-of-bounds lane, or -1. A negative index, seen as
// unsigned, is out of bounds too.
func kAccum[I integer](fr *frame, m mask, r, ext, stride int, first bool) int {
	X, off := vec[I](fr, r), fr.off
	if m.all {
		X = X[:fr.n]
		off = off[:len(X)]
		for i, v := range X {
			x := int(v)
			if uint(x) >= uint(ext) {
				return i
			}
			if first {
				off[i] = x * stride
			} else {
				off[i] += x * stride
			}
		}
		return -1
	}
	for _, i := range m.idx {
		x := int(X[i])
		if uint(x) >= uint(ext) {
			return int(i)
		}
		if first {
			off[i] = x * stride
		} else {
			off[i] += x * stride
		}
	}
	return -1
}

// offsets fills fr.off with the byte offsets of the active lanes' elements
// from the returned address (the array's data, plus the constant indices'
// offset), or returns the bounds error of the lowest faulting lane (at
// its lowest faulting axis). Constant indices are checked once; when one
// is out of bounds every axis is checked per lane, as without them, so
// that the error is the same.
func (ac *access) offsets(fr *frame, m mask, arr *arrayInfo) (unsafe.Pointer, error) {
	data, axes := arr.data, ac.vary
	if len(ac.consts) > 0 {
		if off, ok := ac.constOffset(arr); ok {
			data = unsafe.Add(data, off)
		} else {
			axes = ac.all
		}
	}
	if len(axes) == 0 {
		ac.zeroOffsets(fr, m) // one element: a 1-D byte array's field, or constant indices
	}
	bad, badAxis := -1, 0
	for j, k := range axes {
		lane := ac.accum[k](fr, m, ac.idx[k], arr.shape[k], arr.strides[k]*ac.size, j == 0)
		if lane >= 0 && (bad < 0 || lane < bad) {
			bad, badAxis = lane, k
		}
	}
	if bad < 0 {
		ac.addLanes(fr, m)
		return data, nil
	}
	return nil, ac.boundsErr(fr, arr, badAxis, indexString(fr, ac.idx[badAxis], ac.itypes[badAxis], bad))
}

func (ac *access) zeroOffsets(fr *frame, m mask) {
	if m.all {
		clear(fr.off[:fr.n])
		return
	}
	for _, i := range m.idx {
		fr.off[i] = 0
	}
}

// addLanes moves the offsets of a local array to each lane's copy.
func (ac *access) addLanes(fr *frame, m mask) {
	if ac.lane == 0 {
		return
	}
	if m.all {
		for i := range fr.off[:fr.n] {
			fr.off[i] += i * ac.lane
		}
		return
	}
	for _, i := range m.idx {
		fr.off[i] += int(i) * ac.lane
	}
}

func indexString(fr *frame, r int, t ir.Type, lane int) string {
	switch t {
	case ir.U8:
		return strconv.FormatUint(uint64(vec[uint8](fr, r)[lane]), 10)
	case ir.I32:
		return strconv.FormatInt(int64(vec[int32](fr, r)[lane]), 10)
	case ir.I64:
		return strconv.FormatInt(vec[int64](fr, r)[lane], 10)
	case ir.U32:
		return strconv.FormatUint(uint64(vec[uint32](fr, r)[lane]), 10)
	}
	return strconv.FormatUint(vec[uint64](fr, r)[lane], 10)
}

func (ac *access) boundsErr(fr *frame, arr *arrayInfo, axis int, index string) error {
	dims := make([]string, arr.ndim)
	for i := range dims {
		dims[i] = strconv.Itoa(arr.shape[i])
	}
	return &KernelError{Pos: ac.pos, Kernel: fr.ln.p.k.Entry.Name,
		Msg: fmt.Sprintf("index %s out of bounds for axis %d of array %s with shape [%s]",
			index, axis, arr.name, strings.Join(dims, ", "))}
}

// tidAt returns the address of lane 0's element and the distance
// between lanes for an access on the fast path (x[tid()] or x[tid(), c,
// ...]), with ok false when the block's range or a constant index is out
// of bounds (the general path then reports it).
func (ac *access) tidAt(fr *frame, m mask, arr *arrayInfo) (unsafe.Pointer, int, bool) {
	if fr.base+fr.n-1 > maxThreads || fr.base+m.last(fr.n) >= arr.shape[0] {
		return nil, 0, false
	}
	off, ok := ac.constOffset(arr)
	step := arr.strides[0] * ac.size
	return unsafe.Add(arr.data, fr.base*step+off), step, ok
}

// runAt is tidAt for an access whose one varying index is a run over
// all the block's lanes (a grid-stride loop's x[i] with i = base + lane):
// the address of lane 0's element and the distance between lanes, with ok
// false when the indices are no run or leave the array (the general path
// then reports it). Shared arrays qualify; local ones (a copy per lane)
// and race-checked accesses do not.
func (ac *access) runAt(fr *frame, m mask, arr *arrayInfo) (unsafe.Pointer, int, bool) {
	if !m.all || len(ac.vary) != 1 || ac.race || ac.lane != 0 {
		return nil, 0, false
	}
	k := ac.vary[0]
	first, ok := ac.run[k](fr, ac.idx[k])
	if !ok || first < 0 || first+fr.n > arr.shape[k] {
		return nil, 0, false
	}
	off, ok := ac.constOffset(arr)
	step := arr.strides[k] * ac.size
	return unsafe.Add(arr.data, off+first*step), step, ok
}

func (ac *access) load(d int, fast, zeroCopy bool, fill instFn) instFn {
	gather, tid, loadRuns := gatherFor(ac.elem), loadTidFor(ac.elem), loadRunsFor(ac.elem)
	bools := ac.elem == ir.Bool // bytes other than 0/1 must become proper bools: kGatherBool
	zeroCopy = zeroCopy && !bools
	return func(fr *frame, m mask) error {
		arr := ac.array(fr)
		if zeroCopy {
			fr.own(d)
		}
		src, step, ok := unsafe.Pointer(nil), 0, false
		if fast {
			src, step, ok = ac.tidAt(fr, m, arr)
		}
		if !ok && ac.aff != nil {
			if runs, step, ok := ac.affineRuns(fr, m, arr); ok {
				if zeroCopy && len(runs) == 1 && fr.n == lanes && step == ac.size {
					fr.regs[d] = runs[0].at
					return nil
				}
				loadRuns(fr, d, runs, step)
				return nil
			}
		}
		if !ok && fill != nil {
			_ = fill(fr, m) // tid cannot fail
		}
		if !ok && !bools {
			src, step, ok = ac.runAt(fr, m, arr)
		}
		if ok {
			if zeroCopy && m.all && fr.n == lanes && step == ac.size {
				fr.regs[d] = src
				return nil
			}
			tid(fr, m, d, src, step)
			return nil
		}
		data, err := ac.offsets(fr, m, arr)
		if err != nil {
			return err
		}
		if ac.race {
			if err := ac.checkRace(fr, m, false); err != nil {
				return err
			}
		}
		gather(fr, m, d, data)
		return nil
	}
}

func (ac *access) store(v int, fast bool, fill instFn) instFn {
	scatter, tid, storeRuns := scatterFor(ac.elem), storeTidFor(ac.elem), storeRunsFor(ac.elem)
	bools := ac.elem == ir.Bool // as the tid() path: bool arrays keep the general one
	return func(fr *frame, m mask) error {
		arr := ac.array(fr)
		if fast {
			if dst, step, ok := ac.tidAt(fr, m, arr); ok {
				tid(fr, m, v, dst, step)
				return nil
			}
		}
		if ac.aff != nil {
			if runs, step, ok := ac.affineRuns(fr, m, arr); ok {
				storeRuns(fr, v, runs, step)
				return nil
			}
		}
		if fill != nil {
			_ = fill(fr, m) // tid cannot fail
		}
		if !bools {
			if dst, step, ok := ac.runAt(fr, m, arr); ok {
				tid(fr, m, v, dst, step)
				return nil
			}
		}
		data, err := ac.offsets(fr, m, arr)
		if err != nil {
			return err
		}
		if ac.race {
			if err := ac.checkRace(fr, m, true); err != nil {
				return err
			}
		}
		scatter(fr, m, v, data)
		return nil
	}
}

func kGather[T any](fr *frame, m mask, d int, data unsafe.Pointer) {
	D, off := vec[T](fr, d), fr.off
	if m.all {
		for i := range D[:fr.n] {
			D[i] = *(*T)(unsafe.Add(data, off[i]))
		}
		return
	}
	for _, i := range m.idx {
		D[i] = *(*T)(unsafe.Add(data, off[i]))
	}
}

// kGatherBool reads bytes so that a stored value other than 0/1 still
// becomes a proper Go bool.
func kGatherBool(fr *frame, m mask, d int, data unsafe.Pointer) {
	D, off := vec[bool](fr, d), fr.off
	if m.all {
		for i := range D[:fr.n] {
			D[i] = *(*uint8)(unsafe.Add(data, off[i])) != 0
		}
		return
	}
	for _, i := range m.idx {
		D[i] = *(*uint8)(unsafe.Add(data, off[i])) != 0
	}
}

func kScatter[T any](fr *frame, m mask, v int, data unsafe.Pointer) {
	V, off := vec[T](fr, v), fr.off
	if m.all {
		for i := range V[:fr.n] {
			*(*T)(unsafe.Add(data, off[i])) = V[i]
		}
		return
	}
	for _, i := range m.idx {
		*(*T)(unsafe.Add(data, off[i])) = V[i]
	}
}

// kLoadTid loads the lanes' elements at src + lane*step (bytes): a
// copy when contiguous.
func kLoadTid[T any](fr *frame, m mask, d int, src unsafe.Pointer, step int) {
	D := vec[T](fr, d)
	if step == int(unsafe.Sizeof(D[0])) && m.all {
		copy(D[:fr.n], unsafe.Slice((*T)(src), fr.n))
		return
	}
	// Lanes one by one: with a partial mask the block may run past the
	// array, so no slice over the whole block is made.
	if m.all {
		for i := range D[:fr.n] {
			D[i] = *(*T)(unsafe.Add(src, i*step))
		}
		return
	}
	for _, i := range m.idx {
		D[i] = *(*T)(unsafe.Add(src, int(i)*step))
	}
}

func kStoreTid[T any](fr *frame, m mask, v int, dst unsafe.Pointer, step int) {
	V := vec[T](fr, v)
	if step == int(unsafe.Sizeof(V[0])) && m.all {
		copy(unsafe.Slice((*T)(dst), fr.n), V[:fr.n])
		return
	}
	if m.all {
		for i := range V[:fr.n] {
			*(*T)(unsafe.Add(dst, i*step)) = V[i]
		}
		return
	}
	for _, i := range m.idx {
		*(*T)(unsafe.Add(dst, int(i)*step)) = V[i]
	}
}

// Loads and stores only depend on the element size (bool loads excepted).
func gatherFor(t ir.Type) func(*frame, mask, int, unsafe.Pointer) {
	switch t.Size() {
	case 1:
		if t == ir.Bool {
			return kGatherBool
		}
		return kGather[uint8]
	case 4:
		return kGather[uint32]
	}
	return kGather[uint64]
}

func scatterFor(t ir.Type) func(*frame, mask, int, unsafe.Pointer) {
	switch t.Size() {
	case 1:
		return kScatter[uint8]
	case 4:
		return kScatter[uint32]
	}
	return kScatter[uint64]
}

func loadTidFor(t ir.Type) func(*frame, mask, int, unsafe.Pointer, int) {
	switch t.Size() {
	case 1:
		return kLoadTid[uint8]
	case 4:
		return kLoadTid[uint32]
	}
	return kLoadTid[uint64]
}

func storeTidFor(t ir.Type) func(*frame, mask, int, unsafe.Pointer, int) {
	switch t.Size() {
	case 1:
		return kStoreTid[uint8]
	case 4:
		return kStoreTid[uint32]
	}
	return kStoreTid[uint64]
}

// atomicOps are the atomics update implements; access refuses any other
// op, so an atomic added to the op table fails to compile until update
// has its case.
var atomicOps = map[ir.Op]bool{
	ir.OpAtomicAdd: true, ir.OpAtomicSub: true, ir.OpAtomicMin: true, ir.OpAtomicMax: true, ir.OpAtomicCAS: true,
}

// atomic compiles atomic_add/sub/min/max/cas; vals is (value) or (compare,
// value). Lanes apply their updates one after the other with sync/atomic,
// so concurrent workers see a consistent memory order.
func (ac *access) atomic(d int, vals []int) instFn {
	v, c := vals[len(vals)-1], -1
	if len(vals) == 2 {
		c = vals[0]
	}
	var k func(*frame, mask, ir.Op, int, int, int, unsafe.Pointer)
	switch ac.elem {
	case ir.I32:
		k = kAtomic32[int32]
	case ir.U32:
		k = kAtomic32[uint32]
	case ir.F32:
		k = kAtomic32[float32]
	case ir.I64:
		k = kAtomic64[int64]
	case ir.U64:
		k = kAtomic64[uint64]
	default:
		k = kAtomic64[float64]
	}
	return func(fr *frame, m mask) error {
		data, err := ac.offsets(fr, m, ac.array(fr))
		if err != nil {
			return err
		}
		k(fr, m, ac.op, d, v, c, data)
		return nil
	}
}

// lanesDo calls f for each active lane in order.
func lanesDo(fr *frame, m mask, f func(i int)) {
	if m.all {
		for i := range fr.n {
			f(i)
		}
		return
	}
	for _, i := range m.idx {
		f(int(i))
	}
}

func kAtomic32[T int32 | uint32 | float32](fr *frame, m mask, op ir.Op, d, v, c int, data unsafe.Pointer) {
	V, C, D := vec[T](fr, v), vec[T](fr, max(c, 0)), vec[T](fr, max(d, 0))
	lanesDo(fr, m, func(i int) {
		old := rmw32((*uint32)(unsafe.Add(data, fr.off[i])), op, V[i], C[i])
		if d >= 0 {
			D[i] = old
		}
	})
}

func kAtomic64[T int64 | uint64 | float64](fr *frame, m mask, op ir.Op, d, v, c int, data unsafe.Pointer) {
	V, C, D := vec[T](fr, v), vec[T](fr, max(c, 0)), vec[T](fr, max(d, 0))
	lanesDo(fr, m, func(i int) {
		old := rmw64((*uint64)(unsafe.Add(data, fr.off[i])), op, V[i], C[i])
		if d >= 0 {
			D[i] = old
		}
	})
}

// update is the new value of an atomic read-modify-write; ok is false
// when a CAS does not store (old != compare, compared bitwise like CUDA's
// atomicCAS). Min and max follow fminf/fmaxf for floats.
func update[T number](op ir.Op, old, v, cmp T, oldBits, cmpBits uint64) (T, bool) {
	switch op { // each atomic's own rule, per lane: a table of funcs would cost a call
	case ir.OpAtomicAdd:
		return old + v, true
	case ir.OpAtomicSub:
		return old - v, true
	case ir.OpAtomicMin:
		if v != v || old < v { // old is kept when v is NaN (fminf yields the other)
			return old, true
		}
		if old != old {
			return v, true
		}
		return min(old, v), true
	case ir.OpAtomicMax:
		if v != v || old > v {
			return old, true
		}
		if old != old {
			return v, true
		}
		return max(old, v), true
	case ir.OpAtomicCAS:
		return v, oldBits == cmpBits
	}
	return old, false // not reached: access rejects other ops at compile time
}

func rmw32[T int32 | uint32 | float32](p *uint32, op ir.Op, v, cmp T) T {
	vb := *(*uint32)(unsafe.Pointer(&v))
	var z T
	if _, isFloat := any(z).(float32); !isFloat && (op == ir.OpAtomicAdd || op == ir.OpAtomicSub) {
		if op == ir.OpAtomicSub {
			vb = -vb
		}
		nb := atomic.AddUint32(p, vb) - vb
		return *(*T)(unsafe.Pointer(&nb))
	}
	cb := *(*uint32)(unsafe.Pointer(&cmp))
	for {
		ob := atomic.LoadUint32(p)
		old := *(*T)(unsafe.Pointer(&ob))
		nw, ok := update(op, old, v, cmp, uint64(ob), uint64(cb))
		if !ok || atomic.CompareAndSwapUint32(p, ob, *(*uint32)(unsafe.Pointer(&nw))) {
			return old
		}
	}
}

func rmw64[T int64 | uint64 | float64](p *uint64, op ir.Op, v, cmp T) T {
	vb := *(*uint64)(unsafe.Pointer(&v))
	var z T
	if _, isFloat := any(z).(float64); !isFloat && (op == ir.OpAtomicAdd || op == ir.OpAtomicSub) {
		if op == ir.OpAtomicSub {
			vb = -vb
		}
		nb := atomic.AddUint64(p, vb) - vb
		return *(*T)(unsafe.Pointer(&nb))
	}
	cb := *(*uint64)(unsafe.Pointer(&cmp))
	for {
		ob := atomic.LoadUint64(p)
		old := *(*T)(unsafe.Pointer(&ob))
		nw, ok := update(op, old, v, cmp, ob, cb)
		if !ok || atomic.CompareAndSwapUint64(p, ob, *(*uint64)(unsafe.Pointer(&nw))) {
			return old
		}
	}
}
