package ir

import (
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/pos"
)

// Verify checks that k is well-formed IR: every op is in the table, every
// register exists, operand counts and types follow the op's row, parameter,
// axis and callee references are valid, control statements are well placed.
// Both backends call it before compiling, and the checker's lowering always
// produces IR that passes it. The error names the func and the instruction.
func Verify(k *Kernel) error {
	if k == nil || k.Entry == nil {
		return &pos.Error{Msg: "ir: no kernel"}
	}
	if k.TidDims < 0 || k.TidDims > 4 {
		return &pos.Error{Pos: k.Entry.Pos, Msg: fmt.Sprintf("ir: kernel %s: tid dimensions %d", k.Entry.Name, k.TidDims)}
	}
	for i, f := range k.Funcs {
		if f == nil {
			return &pos.Error{Pos: k.Entry.Pos, Msg: fmt.Sprintf("ir: kernel %s: func %d is nil", k.Entry.Name, i)}
		}
	}
	if err := verifyBlock(k); err != nil {
		return &pos.Error{Pos: k.Entry.Pos, Msg: fmt.Sprintf("ir: kernel %s: %v", k.Entry.Name, err)}
	}
	for _, f := range append([]*Func{k.Entry}, k.Funcs...) {
		v := &verifier{k: k, f: f, entry: f == k.Entry}
		if err := v.func_(); err != nil {
			return err
		}
	}
	return nil
}

type verifier struct {
	k     *Kernel
	f     *Func
	entry bool
	n     int // instructions seen, for error messages
	loops int // enclosing loops
}

func (v *verifier) errf(at pos.Pos, format string, args ...any) error {
	if !at.IsValid() {
		at = v.f.Pos
	}
	return &pos.Error{Pos: at, Msg: fmt.Sprintf("ir: func %s: ", v.f.Name) + fmt.Sprintf(format, args...)}
}

// blockLimits are CUDA's per-axis block limits, for x (the last axis),
// y and z.
var blockLimits = [3]int{1024, 1024, 64}

// verifyBlock checks a block kernel's shape and shared arrays.
func verifyBlock(k *Kernel) error {
	if !k.IsBlock() {
		if k.Block != nil || len(k.Shared) > 0 || k.MinBlocks != 0 {
			return fmt.Errorf("shared arrays, blocks a multiprocessor or an empty block shape in a flat kernel")
		}
		return nil
	}
	r := len(k.Block)
	if r > 3 {
		return fmt.Errorf("block shape %v has %d axes, at most 3", k.Block, r)
	}
	for i, d := range k.Block {
		if d < 1 || d > blockLimits[r-1-i] {
			return fmt.Errorf("block shape %v: axis %d is %d, want 1..%d", k.Block, i, d, blockLimits[r-1-i])
		}
	}
	if n := k.BlockThreads(); n > MaxBlockThreads {
		return fmt.Errorf("block shape %v has %d threads, at most %d", k.Block, n, MaxBlockThreads)
	}
	if k.MinBlocks < 0 || k.MinBlocks*k.BlockThreads() > maxSMThreads {
		return fmt.Errorf("%d blocks of %d threads a multiprocessor: want 0..%d threads", k.MinBlocks, k.BlockThreads(), maxSMThreads)
	}
	if k.TidDims != 0 && k.TidDims != r {
		return fmt.Errorf("tid dimensions %d in a kernel with a %d-D block", k.TidDims, r)
	}
	return verifyBuffers(k.Shared, "shared")
}

// maxSMThreads bounds the threads a multiprocessor holds at once (2048
// on every CUDA architecture gscript targets), which MinBlocks asks for.
const maxSMThreads = 2048

// maxBufferBytes bounds one shared or local array, far above any device's
// limit, so that sizes never overflow.
const maxBufferBytes = 1 << 30

func verifyBuffers(bs []Buffer, what string) error {
	for i, b := range bs {
		ok := Scalars.Has(b.Elem) && len(b.Dims) >= 1 && len(b.Dims) <= 4
		n := 1
		for _, d := range b.Dims {
			ok = ok && d >= 1 && d <= maxBufferBytes
			n = min(n*max(d, 1), maxBufferBytes+1)
		}
		if !ok || n*b.Elem.Size() > maxBufferBytes {
			return fmt.Errorf("%s array %d (%s) has type %s with extents %v", what, i, b.Name, b.Elem, b.Dims)
		}
	}
	return nil
}

func (v *verifier) func_() error {
	if err := verifyBuffers(v.f.Locals, "local"); err != nil {
		return v.errf(pos.Pos{}, "%v", err)
	}
	for i, p := range v.f.Params {
		if !Scalars.Has(p.Elem) || p.NDim < 0 || p.NDim > 4 {
			return v.errf(pos.Pos{}, "parameter %d (%s) has type %s with %d dimensions", i, p.Name, p.Elem, p.NDim)
		}
	}
	for r, t := range v.f.Regs {
		if !Scalars.Has(t) {
			return v.errf(pos.Pos{}, "register %d has type %s", r, t)
		}
	}
	if v.entry && len(v.f.Results) > 0 {
		return v.errf(pos.Pos{}, "kernel has results %v", v.f.Results)
	}
	for i, t := range v.f.Results {
		if !Scalars.Has(t) {
			return v.errf(pos.Pos{}, "result %d has type %s", i, t)
		}
	}
	return v.stmts(v.f.Body)
}

func (v *verifier) stmts(list []Stmt) error {
	for _, s := range list {
		if err := v.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

func (v *verifier) stmt(s Stmt) error {
	if isNil(s) {
		return v.errf(pos.Pos{}, "nil statement %T", s)
	}
	switch s := s.(type) {
	case *Inst:
		v.n++
		if err := v.inst(s); err != nil {
			return v.errf(s.Pos, "instruction %d (%s): %v", v.n-1, s.Op, err)
		}
		return nil
	case *If:
		if err := v.cond(s.Cond, "if condition"); err != nil {
			return err
		}
		if err := v.stmts(s.Then); err != nil {
			return err
		}
		return v.stmts(s.Else)
	case *Loop:
		return v.loop(s)
	case *Break, *Continue:
		if v.loops == 0 {
			return v.errf(pos.Pos{}, "%T outside a loop", s)
		}
		return nil
	case *Return:
		return v.ret(s)
	}
	return v.errf(pos.Pos{}, "unknown statement %T", s)
}

func (v *verifier) cond(r Reg, what string) error {
	t, err := v.reg(r)
	if err == nil && t != Bool {
		err = fmt.Errorf("has type %s, want bool", t)
	}
	if err != nil {
		return v.errf(pos.Pos{}, "%s: %v", what, err)
	}
	return nil
}

func (v *verifier) loop(s *Loop) error {
	if err := v.stmts(s.Cond); err != nil {
		return err
	}
	if s.CondReg != NoReg {
		if err := v.cond(s.CondReg, "loop condition"); err != nil {
			return err
		}
	}
	v.loops++
	err := v.stmts(s.Body)
	v.loops--
	if err != nil {
		return err
	}
	return v.stmts(s.Post)
}

func (v *verifier) ret(s *Return) error {
	if len(s.Values) != len(v.f.Results) {
		return v.errf(pos.Pos{}, "return of %d values from %s, which has %d results", len(s.Values), v.f.Name, len(v.f.Results))
	}
	for i, r := range s.Values {
		t, err := v.reg(r)
		if err == nil && t != v.f.Results[i] {
			err = fmt.Errorf("value %d has type %s, result %d is %s", i, t, i, v.f.Results[i])
		}
		if err != nil {
			return v.errf(pos.Pos{}, "return: %v", err)
		}
	}
	return nil
}

// reg returns the type of register r.
func (v *verifier) reg(r Reg) (Type, error) {
	if r < 0 || int(r) >= len(v.f.Regs) {
		return Invalid, fmt.Errorf("register %d out of range (%d registers)", r, len(v.f.Regs))
	}
	return v.f.Regs[r], nil
}

// regs returns the types of in.Args; NoReg operands (call array
// positions) have type Invalid.
func (v *verifier) regs(in *Inst) ([]Type, error) {
	ts := make([]Type, len(in.Args))
	for i, r := range in.Args {
		if r == NoReg && in.Op == OpCall {
			continue
		}
		t, err := v.reg(r)
		if err != nil {
			return nil, fmt.Errorf("operand %d: %v", i, err)
		}
		ts[i] = t
	}
	return ts, nil
}

// dst returns the type of in.Dst, or Invalid for NoReg.
func (v *verifier) dst(in *Inst) (Type, error) {
	if in.Dst == NoReg {
		return Invalid, nil
	}
	t, err := v.reg(in.Dst)
	if err != nil {
		return Invalid, fmt.Errorf("destination: %v", err)
	}
	return t, nil
}

func (v *verifier) inst(in *Inst) error {
	info, ok := in.Op.Info()
	if !ok {
		return fmt.Errorf("unknown op")
	}
	ts, err := v.regs(in)
	if err != nil {
		return err
	}
	dt, err := v.dst(in)
	if err != nil {
		return err
	}
	if info.Arity >= 0 && info.Form != FormAccess && info.Form != FormField && len(ts) != info.Arity {
		return fmt.Errorf("has %d operands, want %d", len(ts), info.Arity)
	}
	if err := v.place(info); err != nil {
		return err
	}
	if in.Space != SpaceParam && info.Form != FormAccess && info.Form != FormField && in.Op != OpShape {
		return fmt.Errorf("space %s on an op without an array", in.Space)
	}
	if len(in.Dsts) > 0 && in.Op != OpCall {
		return fmt.Errorf("destinations %v on an op other than call", in.Dsts)
	}
	t, err := v.operands(in, info, ts)
	if err != nil {
		return err
	}
	return v.result(in, info, t, dt)
}

// place checks that a block op is in the entry func of a block kernel
// whose thread count suits it.
func (v *verifier) place(info OpInfo) error {
	switch {
	case !info.Block:
		return nil
	case !v.k.IsBlock():
		return fmt.Errorf("%s outside a block kernel", info.Name)
	case !v.entry:
		return fmt.Errorf("%s in device func %s", info.Name, v.f.Name)
	case info.Warp && v.k.BlockThreads()%WarpSize != 0:
		return fmt.Errorf("%s in a block of %d threads, not a multiple of %d", info.Name, v.k.BlockThreads(), WarpSize)
	}
	return nil
}

// operands checks the operand types against the op's Form and returns the
// type T that the result rule refers to.
func (v *verifier) operands(in *Inst, info OpInfo, ts []Type) (Type, error) {
	switch info.Form {
	case FormLeaf:
		return Invalid, nil
	case FormSame:
		return sameType(info, ts...)
	case FormConvert:
		return sameType(info, ts[0])
	case FormShift:
		if !Ints.Has(ts[1]) {
			return Invalid, fmt.Errorf("shift count has type %s, want an integer", ts[1])
		}
		return sameType(info, ts[0])
	case FormSelect:
		if ts[0] != Bool {
			return Invalid, fmt.Errorf("condition has type %s, want bool", ts[0])
		}
		return sameType(info, ts[1:]...)
	case FormAccess:
		return v.access(in, info, ts)
	case FormField:
		dt, _ := v.dst(in)
		return v.field(in, info, ts, dt)
	case FormCall:
		return Invalid, v.call(in, ts)
	case FormLane:
		if ts[1] != I32 {
			return Invalid, fmt.Errorf("lane operand has type %s, want i32", ts[1])
		}
		return sameType(info, ts[0])
	case FormPrint:
		if n := strings.Count(in.Format, "{}"); n != len(ts) {
			return Invalid, fmt.Errorf("format has %d {} for %d operands", n, len(ts))
		}
		return Invalid, nil
	}
	return Invalid, fmt.Errorf("op has unknown form %d", info.Form)
}

// sameType requires operands of one type in info.Types.
func sameType(info OpInfo, ts ...Type) (Type, error) {
	for i, t := range ts {
		if t != ts[0] {
			return Invalid, fmt.Errorf("operand %d has type %s, operand 0 has %s", i, t, ts[0])
		}
	}
	if !info.Types.Has(ts[0]) {
		return Invalid, fmt.Errorf("does not apply to %s", ts[0])
	}
	return ts[0], nil
}

// access checks an array access: indices, then Arity values.
func (v *verifier) access(in *Inst, info OpInfo, ts []Type) (Type, error) {
	p, err := v.array(in)
	if err != nil {
		return Invalid, err
	}
	if len(ts) != p.NDim+info.Arity {
		return Invalid, fmt.Errorf("has %d operands, want %d indices and %d values", len(ts), p.NDim, info.Arity)
	}
	for i, t := range ts[:p.NDim] {
		if !Ints.Has(t) {
			return Invalid, fmt.Errorf("index %d has type %s", i, t)
		}
	}
	for i, t := range ts[p.NDim:] {
		if t != p.Elem {
			return Invalid, fmt.Errorf("value %d has type %s, array %s holds %s", i, t, p.Name, p.Elem)
		}
	}
	if !info.Types.Has(p.Elem) {
		return Invalid, fmt.Errorf("does not apply to an array of %s", p.Elem)
	}
	return p.Elem, nil
}

// field checks a field access: an array of u8, an index per axis but the
// last, then Arity values; the accessed type T is the value's (a store) or
// the destination's (a load). The byte offset must be aligned to T's size
// and, in a buffer (static extents), lie inside the element, whose size
// must be a multiple of T's so that every element's field is aligned too.
// An array parameter's byte axis is only known at launch, where the
// backends check it (FieldNeeds).
func (v *verifier) field(in *Inst, info OpInfo, ts []Type, dt Type) (Type, error) {
	p, err := v.array(in)
	if err != nil {
		return Invalid, err
	}
	if p.Elem != U8 {
		return Invalid, fmt.Errorf("field access to %s, an array of %s, not u8", p.Name, p.Elem)
	}
	nidx := p.NDim - 1
	if len(ts) != nidx+info.Arity {
		return Invalid, fmt.Errorf("has %d operands, want %d indices and %d values", len(ts), nidx, info.Arity)
	}
	for i, t := range ts[:nidx] {
		if !Ints.Has(t) {
			return Invalid, fmt.Errorf("index %d has type %s", i, t)
		}
	}
	t := dt
	if info.Arity > 0 {
		t = ts[nidx]
	}
	if !info.Types.Has(t) {
		return Invalid, fmt.Errorf("does not apply to %s", t)
	}
	off, ok := FieldOffset(in.Imm)
	if !ok || off%t.Size() != 0 {
		return Invalid, fmt.Errorf("byte offset %v (%T) is not a non-negative multiple of %d, the size of %s", in.Imm, in.Imm, t.Size(), t)
	}
	if in.Space != SpaceParam {
		b := v.buffers(in.Space)[in.Param]
		e := b.Dims[len(b.Dims)-1]
		if off+t.Size() > e || e%t.Size() != 0 {
			return Invalid, fmt.Errorf("%s at byte %d of %s, whose elements have %d bytes (want a multiple of %d holding the field)", t, off, b.Name, e, t.Size())
		}
	}
	return t, nil
}

// FieldOffset is the byte offset of a field access's Imm: an int (or an
// int64) from 0 to 2^31-1.
func FieldOffset(imm any) (int, bool) {
	off, ok := immAxis(imm)
	return off, ok && off >= 0 && off < 1<<31
}

// buffers are the shared or local arrays of sp in the current func.
func (v *verifier) buffers(sp Space) []Buffer {
	if sp == SpaceShared {
		return v.k.Shared
	}
	return v.f.Locals
}

// array describes the array an access or OpShape names in its Space, as
// a Param.
func (v *verifier) array(in *Inst) (Param, error) {
	var bs []Buffer
	switch in.Space {
	case SpaceParam:
		return v.arrayParam(in.Param)
	case SpaceShared:
		if !v.entry {
			return Param{}, fmt.Errorf("shared array in device func %s", v.f.Name)
		}
		bs = v.k.Shared
	case SpaceLocal:
		bs = v.f.Locals
	default:
		return Param{}, fmt.Errorf("unknown space %d", in.Space)
	}
	if in.Param < 0 || in.Param >= len(bs) {
		return Param{}, fmt.Errorf("%s array %d out of range (%d)", in.Space, in.Param, len(bs))
	}
	b := bs[in.Param]
	return Param{Name: b.Name, Elem: b.Elem, NDim: len(b.Dims)}, nil
}

func (v *verifier) arrayParam(i int) (Param, error) {
	if i < 0 || i >= len(v.f.Params) || !v.f.Params[i].IsArray() {
		return Param{}, fmt.Errorf("parameter %d is not an array parameter", i)
	}
	return v.f.Params[i], nil
}

// call checks the arguments against the callee's parameters and the
// destinations against its results.
func (v *verifier) call(in *Inst, ts []Type) error {
	if in.Callee < 0 || in.Callee >= len(v.k.Funcs) {
		return fmt.Errorf("callee %d out of range", in.Callee)
	}
	callee := v.k.Funcs[in.Callee]
	if len(ts) != len(callee.Params) || len(in.ArrayArgs) != len(callee.Params) {
		return fmt.Errorf("%s takes %d arguments, has %d (%d array slots)", callee.Name, len(callee.Params), len(ts), len(in.ArrayArgs))
	}
	for i, p := range callee.Params {
		if !p.IsArray() {
			if in.ArrayArgs[i] != -1 || ts[i] != p.Elem {
				return fmt.Errorf("argument %d (%s) has type %s, want %s", i, p.Name, ts[i], p.Elem)
			}
			continue
		}
		a, err := v.arrayParam(in.ArrayArgs[i])
		if err != nil || in.Args[i] != NoReg || a.Elem != p.Elem || a.NDim != p.NDim {
			return fmt.Errorf("argument %d (%s) is not an array of %s with %d dimensions", i, p.Name, p.Elem, p.NDim)
		}
	}
	if len(in.Dsts) > 0 && len(in.Dsts) != len(callee.Results) {
		return fmt.Errorf("%d destinations for the %d results of %s", len(in.Dsts), len(callee.Results), callee.Name)
	}
	for i, d := range in.Dsts {
		if d == NoReg {
			continue
		}
		t, err := v.reg(d)
		if err == nil && t != callee.Results[i] {
			err = fmt.Errorf("has type %s, result %d of %s is %s", t, i, callee.Name, callee.Results[i])
		}
		if err != nil {
			return fmt.Errorf("destination %d: %v", i, err)
		}
	}
	return nil
}

// result checks Dst's type dt against the op's result rule (t is the
// operand type T).
func (v *verifier) result(in *Inst, info OpInfo, t, dt Type) error {
	want := Invalid
	switch info.Result {
	case ResultNone:
	case ResultSame:
		want = t
	case ResultBool:
		want = Bool
	case ResultI32:
		want = I32
		if err := v.axis(in, info); err != nil {
			return err
		}
	case ResultU32:
		want = U32
	case ResultImm:
		if _, ok := ImmBits(in.Imm, dt); !ok || !info.Types.Has(dt) {
			return fmt.Errorf("immediate %v (%T) into a %s register", in.Imm, in.Imm, dt)
		}
		return nil
	case ResultParam:
		if in.Param < 0 || in.Param >= len(v.f.Params) || v.f.Params[in.Param].IsArray() {
			return fmt.Errorf("parameter %d is not a scalar parameter", in.Param)
		}
		want = v.f.Params[in.Param].Elem
	case ResultAny:
		if !info.Types.Has(dt) {
			return fmt.Errorf("does not convert to %s", dt)
		}
		return nil
	case ResultElem:
		want = t
	case ResultOldElem:
		if in.Dst == NoReg {
			return nil
		}
		want = t
	case ResultCallee:
		if in.Dst != NoReg {
			return fmt.Errorf("destination r%d: a call writes Dsts, not Dst", in.Dst)
		}
		return nil
	}
	if dt != want {
		return fmt.Errorf("destination has type %s, want %s", dt, want)
	}
	return nil
}

// axis checks the immediate axis of the ops that have one.
func (v *verifier) axis(in *Inst, info OpInfo) error {
	if info.Axis == AxisNone {
		return nil
	}
	ax, ok := immAxis(in.Imm)
	switch {
	case !ok:
		return fmt.Errorf("axis %v (%T) is not an integer", in.Imm, in.Imm)
	case info.Axis == AxisLaunch && !v.entry:
		return fmt.Errorf("tid in device func %s", v.f.Name)
	case info.Axis == AxisLaunch && (ax < 0 || ax >= max(v.k.TidDims, 1)):
		return fmt.Errorf("axis %d of a %d-D launch", ax, v.k.TidDims)
	case info.Axis == AxisBlock && (ax < 0 || ax >= len(v.k.Block)):
		return fmt.Errorf("axis %d of a %d-D block", ax, len(v.k.Block))
	case info.Axis == AxisArray:
		p, err := v.array(in)
		if err != nil {
			return err
		}
		if ax < 0 || ax >= p.NDim {
			return fmt.Errorf("axis %d of %s, which has %d dimensions", ax, p.Name, p.NDim)
		}
	}
	return nil
}

func immAxis(imm any) (int, bool) {
	switch v := imm.(type) {
	case int:
		return v, true
	case int64:
		return int(v), v >= -1<<31 && v < 1<<31
	}
	return 0, false
}

// isNil reports a nil statement, typed (a nil *Inst) or not.
func isNil(s Stmt) bool {
	switch s := s.(type) {
	case *Inst:
		return s == nil
	case *If:
		return s == nil
	case *Loop:
		return s == nil
	case *Return:
		return s == nil
	}
	return s == nil
}
