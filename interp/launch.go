package interp

import (
	"errors"
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cpu"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// maxThreads is the largest launch (LANGUAGE.md section 4).
const maxThreads = math.MaxInt32

func (th *Thread) execLaunch(s *ast.LaunchStmt, fr *frame) error {
	kv, err := th.load(s.Kernel, fr)
	if err != nil {
		return err
	}
	k, ok := kv.(*Kernel)
	if !ok {
		return th.errorAt(s.Kernel.Pos, fmt.Errorf("%s is %s, not a kernel", s.Kernel.Name, describe(kv)))
	}
	// Dimensions and arguments go on stacks reused by every launch (a
	// nested launch while evaluating them pushes above and pops back), so
	// that a launch allocates nothing.
	dimBase, base := len(th.dimStack), len(th.stack)
	defer func() { th.dimStack, th.stack = th.dimStack[:dimBase], th.stack[:base] }()
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
	var cd *mem.CUDADev
	if d.IsCUDA() {
		if cd, err = th.cudaDevice(d.Ordinal); err != nil {
			return th.errorAt(s.Pos, err)
		}
	}
	if err := th.packArgs(s, k, th.stack[base:], d); err != nil {
		return err
	}
	if cd != nil {
		return th.launchCUDA(s, k, cd, dims)
	}
	return th.runKernel(s, k, dims)
}

// launchDims evaluates the launch's dimensions onto th.dimStack.
func (th *Thread) launchDims(s *ast.LaunchStmt, k *Kernel, fr *frame) ([]int, error) {
	if len(s.Dims) < 1 || len(s.Dims) > 4 {
		return nil, th.errorAt(s.Pos, fmt.Errorf("a launch has 1 to 4 dimensions, got %d", len(s.Dims)))
	}
	if k.IR.TidDims > 0 && k.IR.TidDims != len(s.Dims) {
		return nil, th.errorAt(s.Dims[0].Start(), fmt.Errorf("kernel %s unpacks tid() into %d names but is launched with %d dimensions", k.Name, k.IR.TidDims, len(s.Dims)))
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
			return nil, th.errorAt(e.Start(), fmt.Errorf("launch of more than 2^31-1 threads"))
		}
		total *= n
	}
	return th.dimStack[len(th.dimStack)-len(s.Dims):], nil
}

// packArgs checks the arguments against the kernel signature and fills the
// kernel's reusable argument slice.
func (th *Thread) packArgs(s *ast.LaunchStmt, k *Kernel, vals []Value, dev mem.Device) error {
	params := k.IR.Entry.Params
	if len(vals) != len(params) {
		return th.errorAt(s.Pos, fmt.Errorf("kernel %s takes %d arguments, got %d", k.Name, len(params), len(vals)))
	}
	if len(k.args) != len(params) {
		k.args = make([]cpu.Arg, len(params))
	}
	k.cuda.unit = true
	for i, p := range params {
		if err := th.packArg(k, i, p, vals[i], s.Args[i], dev); err != nil {
			var le *mem.LaunchError
			if !errors.As(err, &le) {
				err = fmt.Errorf("argument %d (%s) of kernel %s: %w", i+1, p.Name, k.Name, err)
			}
			return th.errorAt(s.Args[i].Start(), err)
		}
	}
	return nil
}

func (th *Thread) packArg(k *Kernel, i int, p ir.Param, v Value, e ast.Expr, dev mem.Device) error {
	if !p.IsArray() {
		if _, isArr := v.(*Array); isArr {
			return fmt.Errorf("want %s, got array", p.Elem)
		}
		bits, err := ElemBits(v, p.Elem)
		if err != nil {
			return err
		}
		if p.Elem == ir.I32 || p.Elem == ir.I64 {
			bits = uint64(signExtend(p.Elem, bits))
		}
		if dev.IsCUDA() {
			k.packCUDAArg(i, p, bits, nil, 0, "")
			return nil
		}
		k.args[i] = cpu.Arg{Bits: bits}
		return nil
	}
	av, ok := v.(*Array)
	if !ok {
		return fmt.Errorf("want %s, got %s", paramTypeString(p), describe(v))
	}
	a := av.A
	if a.DType() != p.Elem || a.NDim() != p.NDim {
		return fmt.Errorf("want %s, got %s", paramTypeString(p), arrayTypeString(a))
	}
	ptr, err := a.Ptr()
	if err != nil {
		return err
	}
	name := p.Name
	if id, ok := e.(*ast.Ident); ok {
		name = id.Name
	}
	if err := th.checkAccess(k, p, a, dev, name); err != nil {
		return err
	}
	if err := th.orderLaunch(a, dev); err != nil {
		return err
	}
	if dev.IsCUDA() {
		k.packCUDAArg(i, p, 0, a, ptr, name)
		return nil
	}
	arg := cpu.ArrayArg{Data: mem.HostPointer(ptr), Name: name}
	copy(arg.Shape[:], a.Shape())
	copy(arg.Strides[:], a.Strides())
	k.args[i] = cpu.Arg{Array: arg}
	return nil
}

func signExtend(t ir.Type, bits uint64) int64 {
	if t == ir.I32 {
		return int64(int32(bits))
	}
	return int64(bits)
}

// checkAccess applies the launch access mode (MEMORY.md section 4): the
// decision is runtime/mem's, cached per (array, device).
func (th *Thread) checkAccess(k *Kernel, p ir.Param, a *mem.Array, dev mem.Device, argName string) error {
	return th.launches.Check(th.Config.mode, k.Name, argName, dev, a)
}

// orderLaunch orders a launch on dev after queued work on other devices'
// streams that may touch a: a cpu launch waits like a host access; a CUDA
// launch waits for the other devices and records dev as a user of a. The
// common case, an array used on its own device only, costs an atomic load.
func (th *Thread) orderLaunch(a *mem.Array, dev mem.Device) error {
	if !dev.IsCUDA() {
		return a.SyncForHost()
	}
	// Waiting is not allowed while a stream captures (global mode): the
	// capture block waited for every device before it began.
	if th.capturing == nil {
		if err := a.WaitForUsers(dev); err != nil {
			return err
		}
	}
	a.NoteDeviceUse(dev)
	return nil
}

func paramTypeString(p ir.Param) string {
	if p.NDim == 1 {
		return "array[" + p.Elem.String() + "]"
	}
	return fmt.Sprintf("array[%s, %d]", p.Elem, p.NDim)
}

func arrayTypeString(a *mem.Array) string {
	return paramTypeString(ir.Param{Elem: a.DType(), NDim: a.NDim()})
}

func (th *Thread) runKernel(s *ast.LaunchStmt, k *Kernel, dims []int) error {
	if k.cpu == nil {
		p, err := cpu.Compile(k.IR)
		if err != nil {
			return th.errorAt(s.Pos, err)
		}
		k.cpu = p
	}
	err := k.cpu.Launch(dims, k.args, cpu.Options{Out: th.Stdout, Cancel: &th.canceled})
	if err == nil {
		return nil
	}
	if errors.Is(err, cpu.ErrCanceled) {
		return th.errorAt(s.Pos, errCanceled)
	}
	var ke *cpu.KernelError
	if errors.As(err, &ke) {
		bt := append([]CallFrame{{Name: k.Name, Pos: s.Pos}}, th.backtrace()...)
		return &EvalError{Pos: ke.Pos, Msg: "kernel " + k.Name + ": " + ke.Msg, Backtrace: bt, Cause: err}
	}
	return th.errorAt(s.Pos, err)
}
