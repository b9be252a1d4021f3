package interp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// launchForm checks what only the source says: a block kernel runs over
// grid(...), a flat kernel over threads. Each message says how to launch
// the kernel instead.
func (th *Thread) launchForm(s *ast.LaunchStmt, k *Kernel) error {
	block := k.IR.Block
	switch {
	case len(block) > 0 && !s.Grid.IsValid():
		return th.errorAt(s.Dims[0].Start(), fmt.Errorf("kernel %s is a block kernel with %s: launch it over a grid of blocks, as in launch %s[%s](...)",
			k.Name, backend.BlockString(block), k.Name, gridHint(block)))
	case len(block) == 0 && s.Grid.IsValid():
		return th.errorAt(s.Grid, fmt.Errorf("kernel %s is not a block kernel: grid(...) counts the blocks of a kernel declared with block(...); launch %s[n](...) runs n threads", k.Name, k.Name))
	}
	return nil
}

// launchStmtError gives a failed launch its script position: a broken
// launch rule (a *backend.LaunchError) at the part of the statement it is
// about, any other failure as launchError does.
func (th *Thread) launchStmtError(s *ast.LaunchStmt, k *Kernel, err error) error {
	if err == nil {
		return nil // before errors.As, whose target would escape
	}
	var le *backend.LaunchError
	if !errors.As(err, &le) {
		return th.launchError(k.Name, s.Pos, err)
	}
	at := s.Pos
	switch {
	case le.Part == backend.PartDim && le.Index < len(s.Dims):
		at = s.Dims[le.Index].Start()
	case le.Part == backend.PartGrid && s.Grid.IsValid():
		at = s.Grid
	case le.Part == backend.PartArg:
		if i := k.sourceArg(le.Index); i >= 0 && i < len(s.Args) {
			at = s.Args[i].Start()
		}
	}
	return th.errorAt(at, err)
}

// sourceArg is the source argument that IR parameter i is (part of).
func (k *Kernel) sourceArg(i int) int {
	for a, p := range k.sourceParams() {
		if i -= p.IRParams(); i < 0 {
			return a
		}
	}
	return -1
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
// and pushes them, packed, onto the launcher's argument stack: each
// argument becomes the IR parameters its source parameter lowers to
// (dtype.FlattenParams). The count is the source signature's (a vector
// is one argument), in the message of backend.CheckLaunch's rule.
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

// packSource packs v for source parameter p, whose IR parameters are ps,
// onto the launcher's argument stack: an array of a compound type passes
// its memory (lane axes included) as the one array parameter, a vector by
// value its lanes as consecutive scalars. Types are checked as the source
// spells them.
func (th *Thread) packSource(kernel string, p dtype.Param, ps []ir.Param, v Value, name string, dev mem.Device) error {
	l := &th.launcher
	var arg backend.Arg
	var err error
	switch {
	case p.NDim > 0:
		var a *mem.Array
		if a, err = sourceArray(p, v); err == nil {
			arg, err = th.packArray(kernel, ps[0], a, name, dev)
		}
	case !p.Type.IsScalar():
		vec, ok := v.(*Vector)
		if !ok || vec.T != p.Type {
			return fmt.Errorf("want %s, got %s", p.Type, describe(v))
		}
		for k, bits := range vec.Lanes {
			l.argStack = append(l.argStack, backend.Arg{Bits: scalarArgBits(p.Type.LaneType(k), bits)})
		}
		return nil
	default:
		arg, err = th.packArg(kernel, ps[0], v, name, dev)
	}
	if err != nil {
		return err
	}
	l.argStack = append(l.argStack, arg)
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

// packArray packs a for array parameter p (launcher.packArray, under
// config.launch_access).
func (th *Thread) packArray(kernel string, p ir.Param, a *mem.Array, name string, dev mem.Device) (backend.Arg, error) {
	return th.launcher.packArray(th.Config.mode, kernel, p, a, name, dev)
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

// program returns k compiled for dev, with fast math when fast (or k's own
// FastMath) and config.debug's checks, compiling on first use.
func (th *Thread) program(k *ir.Kernel, dev mem.Device, fast bool) (backend.Program, error) {
	return th.launcher.program(k, dev, th.Config.Debug, fast)
}

// run1 launches prog on dev (launcher.run).
func (th *Thread) run1(prog backend.Program, dev mem.Device, dims []int, args []backend.Arg) error {
	return th.launcher.run(prog, dev, dims, args)
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
func (th *Thread) markUsed(dev mem.Device) { th.launcher.markUsed(dev) }

// syncUsed waits for every CUDA device the script launched on, so that an
// asynchronous kernel failure is reported by the Exec that caused it.
func (th *Thread) syncUsed() error { return th.launcher.syncUsed(&th.canceled) }
