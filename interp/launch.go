package interp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// maxThreads is the largest launch (LANGUAGE.md section 4).
const maxThreads = math.MaxInt32

func (th *Thread) execLaunch(s *ast.LaunchStmt, fr *frame) error {
	kv, err := th.launched(s, fr)
	if err != nil {
		return err
	}
	k, ok := kv.(*Kernel)
	if !ok {
		return th.errorAt(s.Kernel.Pos, fmt.Errorf("%s is %s, not a kernel", s.Kernel.Name, describe(kv)))
	}
	// Dimensions, argument values and packed arguments go on stacks
	// reused by every launch (a nested launch while evaluating them
	// pushes above and pops back), so that a launch allocates nothing.
	dimBase, base, argBase := len(th.dimStack), len(th.stack), len(th.argStack)
	defer func() {
		th.dimStack, th.stack, th.argStack = th.dimStack[:dimBase], th.stack[:base], th.argStack[:argBase]
	}()
	dims, err := th.launchDims(s, k, fr)
	if err != nil {
		return err
	}
	var dev Value
	if s.Device != nil {
		if dev, err = th.eval(s.Device, fr); err != nil {
			return err
		}
	}
	d, err := th.DeviceArg(dev)
	if err != nil {
		return th.errorAt(s.Device.Start(), err)
	}
	for _, a := range s.Args {
		v, err := th.eval(a, fr)
		if err != nil {
			return err
		}
		th.stack = append(th.stack, v)
	}
	prog, err := th.program(k.IR, d, th.Config.FastMath)
	if err != nil {
		return th.errorAt(s.Pos, err)
	}
	th.prefetch.Start(d)
	if err := th.packArgs(s, k, th.stack[base:], d); err != nil {
		return err
	}
	return th.launchError(k.Name, s.Pos, th.run1(prog, d, dims, th.argStack[argBase:]))
}

// launchDims evaluates the launch's dimensions onto th.dimStack: threads
// for a flat kernel, blocks of a block kernel's grid(...).
// launched is the value a launch names: a variable, or util.k of an import.
func (th *Thread) launched(s *ast.LaunchStmt, fr *frame) (Value, error) {
	if s.Module == nil {
		return th.load(s.Kernel, fr)
	}
	mv, err := th.load(s.Module, fr)
	if err != nil {
		return nil, err
	}
	m, ok := mv.(*Module)
	if !ok {
		return nil, th.errorAt(s.Module.Pos, fmt.Errorf("%s is %s, not an import", s.Module.Name, describe(mv)))
	}
	v, err := m.attr(th, s.Kernel.Name)
	return v, th.errorAt(s.Kernel.Pos, err)
}

func (th *Thread) launchDims(s *ast.LaunchStmt, k *Kernel, fr *frame) ([]int, error) {
	if err := th.launchShape(s, k); err != nil {
		return nil, err
	}
	counts := "threads"
	if k.IR.IsBlock() {
		counts = "blocks"
	}
	total := 1
	for _, e := range s.Dims {
		v, err := th.eval(e, fr)
		if err != nil {
			return nil, err
		}
		n, err := toInt(v)
		if err == nil && n < 0 {
			err = fmt.Errorf("negative launch dimension %d", n)
		}
		if err != nil {
			return nil, th.errorAt(e.Start(), err)
		}
		th.dimStack = append(th.dimStack, n)
		if n != 0 && total > maxThreads/n {
			return nil, th.errorAt(e.Start(), fmt.Errorf("launch of more than 2^31-1 %s", counts))
		}
		total *= n
	}
	dims := th.dimStack[len(th.dimStack)-len(s.Dims):]
	if err := backend.CheckGrid(k.IR, dims); err != nil {
		return nil, th.errorAt(s.Grid, err)
	}
	return dims, nil
}

// launchShape checks the form of a launch against its kernel: a block
// kernel runs over grid(...) with one extent per block axis, a flat
// kernel over threads, as many dimensions as tid() has names.
func (th *Thread) launchShape(s *ast.LaunchStmt, k *Kernel) error {
	block := k.IR.Block
	switch {
	case len(block) > 0 && !s.Grid.IsValid():
		return th.errorAt(s.Dims[0].Start(), fmt.Errorf("kernel %s is a block kernel with %s: launch it over a grid of blocks, as in launch %s[%s](...)",
			k.Name, blockString(block), k.Name, gridHint(block)))
	case len(block) == 0 && s.Grid.IsValid():
		return th.errorAt(s.Grid, fmt.Errorf("kernel %s is not a block kernel: grid(...) counts the blocks of a kernel declared with block(...); launch %s[n](...) runs n threads", k.Name, k.Name))
	case len(block) > 0 && len(s.Dims) != len(block):
		return th.errorAt(s.Grid, fmt.Errorf("kernel %s has a %d-D block (%s) and is launched over a %d-D grid", k.Name, len(block), blockString(block), len(s.Dims)))
	case len(s.Dims) < 1 || len(s.Dims) > 4:
		return th.errorAt(s.Pos, fmt.Errorf("a launch has 1 to 4 dimensions, got %d", len(s.Dims)))
	case k.IR.TidDims > 0 && k.IR.TidDims != len(s.Dims):
		return th.errorAt(s.Dims[0].Start(), fmt.Errorf("kernel %s unpacks tid() into %d names but is launched with %d dimensions", k.Name, k.IR.TidDims, len(s.Dims)))
	}
	return nil
}

// blockString writes a block shape as a kernel declares it.
func blockString(block []int) string {
	parts := make([]string, len(block))
	for i, d := range block {
		parts[i] = strconv.Itoa(d)
	}
	return "block(" + strings.Join(parts, ", ") + ")"
}

// gridHint is the grid that covers n threads per axis with block: one
// cdiv per axis, the extents named as axes are (x last).
func gridHint(block []int) string {
	names := [][]string{{"n"}, {"ny", "nx"}, {"nz", "ny", "nx"}}[len(block)-1]
	parts := make([]string, len(block))
	for i, d := range block {
		parts[i] = fmt.Sprintf("cdiv(%s, %d)", names[i], d)
	}
	return "grid(" + strings.Join(parts, ", ") + ")"
}

// packArgs checks the arguments against the kernel's source signature
// and pushes them, packed, onto th.argStack: each argument becomes the IR
// parameters its source parameter lowers to (dtype.FlattenParams).
func (th *Thread) packArgs(s *ast.LaunchStmt, k *Kernel, vals []Value, dev mem.Device) error {
	params := k.sourceParams()
	if len(vals) != len(params) {
		return th.errorAt(s.Pos, fmt.Errorf("kernel %s takes %d arguments, got %d", k.Name, len(params), len(vals)))
	}
	irParams := k.IR.Entry.Params
	for i, p := range params {
		name := p.Name
		if id, ok := s.Args[i].(*ast.Ident); ok {
			name = id.Name
		}
		n := p.IRParams()
		err := th.packSource(k.Name, p, irParams[:n], vals[i], name, dev)
		irParams = irParams[n:]
		if err != nil {
			var le *mem.LaunchError
			if !errors.As(err, &le) {
				err = fmt.Errorf("argument %d (%s) of kernel %s: %w", i+1, p.Name, k.Name, err)
			}
			return th.errorAt(s.Args[i].Start(), err)
		}
	}
	return nil
}

// sourceParams is k's source signature: Params, or for a kernel without
// one (built in Go) one scalar-typed parameter per IR parameter.
func (k *Kernel) sourceParams() []dtype.Param {
	if k.Params != nil {
		return k.Params
	}
	out := make([]dtype.Param, len(k.IR.Entry.Params))
	for i, p := range k.IR.Entry.Params {
		out[i] = dtype.Param{Name: p.Name, Type: dtype.Of(p.Elem), NDim: p.NDim}
	}
	return out
}

// packSource packs v for source parameter p, whose IR parameters are ps:
// an array of a compound type passes its memory (lane axes included) as
// the one array parameter, a vector by value its lanes as consecutive
// scalars. Types are checked as the source spells them.
func (th *Thread) packSource(kernel string, p dtype.Param, ps []ir.Param, v Value, name string, dev mem.Device) error {
	var args []backend.Arg
	switch {
	case p.NDim > 0:
		a, err := sourceArray(p, v)
		if err != nil {
			return err
		}
		arg, err := th.packArray(kernel, ps[0], a, name, dev)
		if err != nil {
			return err
		}
		args = []backend.Arg{arg}
	case !p.Type.IsScalar():
		vec, ok := v.(*Vector)
		if !ok || vec.T != p.Type {
			return fmt.Errorf("want %s, got %s", p.Type, describe(v))
		}
		for k, bits := range vec.Lanes {
			args = append(args, backend.Arg{Bits: scalarArgBits(p.Type.LaneType(k), bits)})
		}
	default:
		arg, err := th.packArg(kernel, ps[0], v, name, dev)
		if err != nil {
			return err
		}
		args = []backend.Arg{arg}
	}
	th.argStack = append(th.argStack, args...)
	return nil
}

// sourceArray checks v against the array parameter p and returns its
// memory.
func sourceArray(p dtype.Param, v Value) (*mem.Array, error) {
	av, ok := v.(*Array)
	if !ok {
		return nil, fmt.Errorf("want %s, got %s", paramString(p), describe(v))
	}
	if av.ElemType() != p.Type || av.NDim() != p.NDim {
		msg := fmt.Sprintf("want %s, got %s", paramString(p), av.TypeString())
		if w, err := ViewAs(av, p.Type); err == nil && w.NDim() == p.NDim {
			msg += fmt.Sprintf(" (use .view(%s))", p.Type)
		}
		return nil, errors.New(msg)
	}
	if av.Compound() && !lanesContiguous(av.A, av.Elem) {
		return nil, fmt.Errorf("an array of %s passes to a kernel with its lanes contiguous; this view's are not (copy it first)", av.Elem)
	}
	return av.A, nil
}

// packArg converts v for parameter p of a launch on dev (packArray for
// an array).
func (th *Thread) packArg(kernel string, p ir.Param, v Value, name string, dev mem.Device) (backend.Arg, error) {
	av, isArr := v.(*Array)
	if !p.IsArray() {
		if isArr {
			return backend.Arg{}, fmt.Errorf("want %s, got array", p.Elem)
		}
		bits, err := ElemBits(v, p.Elem)
		if err != nil {
			return backend.Arg{}, err
		}
		return backend.Arg{Bits: scalarArgBits(p.Elem, bits)}, nil
	}
	if !isArr {
		return backend.Arg{}, fmt.Errorf("want %s, got %s", paramTypeString(p), describe(v))
	}
	if a := av.A; av.Compound() || a.DType() != p.Elem || a.NDim() != p.NDim {
		return backend.Arg{}, fmt.Errorf("want %s, got %s", paramTypeString(p), av.TypeString())
	}
	return th.packArray(kernel, p, av.A, name, dev)
}

// packArray packs a for array parameter p. An array passes the launch
// access check, is ordered after other devices' work on it and joins the
// launch's automatic prefetch (runtime/mem's rules); name is the
// argument's name in messages.
func (th *Thread) packArray(kernel string, p ir.Param, a *mem.Array, name string, dev mem.Device) (backend.Arg, error) {
	ptr, err := a.Ptr()
	if err != nil {
		return backend.Arg{}, err
	}
	if err := th.launches.Check(th.Config.mode, kernel, p.Name, name, dev, a); err != nil {
		return backend.Arg{}, err
	}
	if err := a.OrderLaunch(dev); err != nil {
		return backend.Arg{}, err
	}
	th.prefetch.Add(a)
	return backend.ArrayArg(a, ptr, name), nil
}

// scalarArgBits is a scalar argument's bits as the backends take them:
// signed ints sign-extended.
func scalarArgBits(t ir.Type, bits uint64) uint64 {
	if t == ir.I32 || t == ir.I64 {
		return uint64(signExtend(t, bits))
	}
	return bits
}

func signExtend(t ir.Type, bits uint64) int64 {
	if t == ir.I32 {
		return int64(int32(bits))
	}
	return int64(bits)
}

func paramTypeString(p ir.Param) string {
	if p.NDim == 1 {
		return "array[" + p.Elem.String() + "]"
	}
	return fmt.Sprintf("array[%s, %d]", p.Elem, p.NDim)
}

// paramString spells a source parameter's type: f32, vec3, array[vec3],
// array[f32, 2].
func paramString(p dtype.Param) string {
	switch p.NDim {
	case 0:
		return p.Type.String()
	case 1:
		return "array[" + p.Type.String() + "]"
	}
	return fmt.Sprintf("array[%s, %d]", p.Type, p.NDim)
}

// progKey names a compiled program: a kernel for one device, with or
// without debug checks, strict or with fast math forced on.
type progKey struct {
	k     *ir.Kernel
	dev   mem.Device
	debug bool
	fast  bool
}

// program returns k compiled for dev, with fast math when fast (or k's own
// FastMath), compiling on first use. A loop launching one kernel finds it
// without a map lookup.
func (th *Thread) program(k *ir.Kernel, dev mem.Device, fast bool) (backend.Program, error) {
	key := progKey{k, dev, th.Config.Debug, fast}
	if th.lastProg != nil && th.lastKey == key {
		return th.lastProg, nil
	}
	p := th.progs[key]
	if p == nil {
		var err error
		if p, err = backend.Compile(k, dev, backend.Options{Debug: key.debug, FastMath: key.fast}); err != nil {
			return nil, err
		}
		if th.progs == nil {
			th.progs = map[progKey]backend.Program{}
		}
		th.progs[key] = p
	}
	th.lastKey, th.lastProg = key, p
	return p, nil
}

// run1 launches prog on dev, after the automatic prefetch of its managed
// arguments, and notes the device's queued work.
func (th *Thread) run1(prog backend.Program, dev mem.Device, dims []int, args []backend.Arg) error {
	if dev.IsCUDA() {
		th.markUsed(dev)
		if err := th.prefetch.Issue(); err != nil {
			return err
		}
	}
	return prog.Launch(&th.env, dims, args)
}

// launchError gives a failed launch of kernel at pos its script position:
// a failed check inside the kernel is reported where it failed, with the
// launch in the backtrace.
func (th *Thread) launchError(kernel string, at ast.Pos, err error) error {
	if err == nil {
		return nil
	}
	var ke *backend.KernelError
	var ce *backend.CompileError
	switch {
	case errors.Is(err, backend.ErrCanceled):
		return th.errorAt(at, ErrInterrupted)
	case errors.As(err, &ke):
		bt := append([]CallFrame{{Name: kernel, Pos: at}}, th.backtrace()...)
		return &EvalError{Pos: ke.Pos, Msg: "kernel " + kernel + ": " + ke.Msg, Backtrace: bt, Cause: err}
	case errors.As(err, &ce):
		return &EvalError{Pos: ce.Pos, Msg: ce.Error(), Backtrace: th.backtrace(), Cause: err}
	}
	return th.errorAt(at, err)
}

// markUsed records that work was queued on CUDA device dev since the last
// wait.
func (th *Thread) markUsed(dev mem.Device) {
	ord := dev.Ordinal
	if ord < len(th.used) && th.used[ord] {
		return
	}
	for len(th.used) <= ord {
		th.used = append(th.used, false)
	}
	th.used[ord] = true
}

// syncUsed waits for every CUDA device the script launched on, so that an
// asynchronous kernel failure is reported by the Exec that caused it.
func (th *Thread) syncUsed() error {
	var errs []error
	for ord, used := range th.used {
		if !used {
			continue
		}
		th.used[ord] = false
		err := mem.SyncDevice(mem.Device{Type: mem.CUDA, Ordinal: ord}, &th.canceled)
		if errors.Is(err, mem.ErrInterrupted) {
			errs = append(errs, err)
		} else if err != nil {
			errs = append(errs, fmt.Errorf("cuda:%d: a kernel failed after its launch: %w", ord, err))
		}
	}
	return errors.Join(errs...)
}
