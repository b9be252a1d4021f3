package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// optional compiles an optional operand: nil gives a nil Value.
func (c *compiler) optional(e ast.Expr) func(th *Thread, fr *frame) (Value, error) {
	if e == nil {
		return func(*Thread, *frame) (Value, error) { return nil, nil }
	}
	f := c.value(e)
	return func(th *Thread, fr *frame) (Value, error) {
		v, err := f(th, fr)
		return v.box(), err
	}
}

// deviceOf compiles an optional device operand into the device it names
// (the current device when absent).
func (c *compiler) deviceOf(e ast.Expr) func(th *Thread, fr *frame) (mem.Device, error) {
	f := c.optional(e)
	return func(th *Thread, fr *frame) (mem.Device, error) {
		v, err := f(th, fr)
		if err != nil {
			return mem.Device{}, err
		}
		d, err := th.DeviceArg(v)
		if err != nil {
			return d, th.errorAt(e.Start(), err)
		}
		return d, nil
	}
}

func (c *compiler) deviceBlock(s *ast.DeviceBlock) execFn {
	dev := c.deviceOf(s.Device)
	body := c.block(s.Body.Stmts)
	return func(th *Thread, fr *frame) (ctrl, error) {
		d, err := dev(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		th.devices = append(th.devices, d)
		defer func() { th.devices = th.devices[:len(th.devices)-1] }()
		return body(th, fr)
	}
}

// allocatorName compiles an allocator operand: a bare identifier names the
// allocator itself; any other expression must give a string.
func (c *compiler) allocatorName(e ast.Expr) func(th *Thread, fr *frame) (mem.Allocator, error) {
	if id, ok := e.(*ast.Ident); ok {
		return func(th *Thread, _ *frame) (mem.Allocator, error) {
			a, err := th.allocator(id.Name)
			return a, th.errorAt(id.Pos, err)
		}
	}
	f := c.optional(e)
	return func(th *Thread, fr *frame) (mem.Allocator, error) {
		v, err := f(th, fr)
		if err != nil {
			return nil, err
		}
		a, err := th.AllocatorArg(v)
		return a, th.errorAt(e.Start(), err)
	}
}

func (c *compiler) allocatorBlock(s *ast.AllocatorBlock) execFn {
	name := c.allocatorName(s.Name)
	dev := c.deviceOf(s.Device)
	body := c.block(s.Body.Stmts)
	return func(th *Thread, fr *frame) (ctrl, error) {
		a, err := name(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		scope := mem.AllocScope{Alloc: a}
		if s.Device != nil {
			d, err := dev(th, fr)
			if err != nil {
				return ctrlNone, err
			}
			if err := mem.CheckApplies(a, d); err != nil {
				return ctrlNone, th.errorAt(s.Device.Start(), err)
			}
			scope.Device = &d
		}
		th.allocs = append(th.allocs, scope)
		defer func() { th.allocs = th.allocs[:len(th.allocs)-1] }()
		return body(th, fr)
	}
}

// arrayDecl compiles `array NAME: DTYPE[D0, ...] [= Init] [on Device]
// [using Allocator]`.
func (c *compiler) arrayDecl(s *ast.ArrayDecl) execFn {
	var structType evalFn
	if s.DType.Scope != ast.ScopeUnresolved { // a struct name (the checker resolved it)
		structType = c.value(s.DType)
	}
	dims := c.values(s.Dims)
	dev := c.optional(s.Device)
	var alloc func(*Thread, *frame) (mem.Allocator, error)
	if s.Allocator != nil {
		alloc = c.allocatorName(s.Allocator)
	}
	init := c.optional(s.Init)
	set := c.storer(s.Name)
	return func(th *Thread, fr *frame) (ctrl, error) {
		t, err := declType(th, fr, s, structType)
		if err != nil {
			return ctrlNone, err
		}
		shape, err := declShape(th, fr, s, dims)
		if err != nil {
			return ctrlNone, err
		}
		if shape, err = MemShape(t, shape); err != nil {
			return ctrlNone, th.errorAt(s.DType.Pos, err)
		}
		devArg, err := dev(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		var explicit mem.Allocator
		if alloc != nil {
			if explicit, err = alloc(th, fr); err != nil {
				return ctrlNone, err
			}
		}
		iv, err := init(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		x, err := th.declArray(s, t, shape, devArg, explicit, iv)
		if err != nil {
			return ctrlNone, err
		}
		set(th, fr, cell{v: x})
		return ctrlNone, nil
	}
}

func declType(th *Thread, fr *frame, s *ast.ArrayDecl, structType evalFn) (dtype.Type, error) {
	t, ok := dtype.ByName(s.DType.Name)
	if structType != nil {
		v, err := structType(th, fr)
		if err != nil {
			return t, err
		}
		t, ok = TypeValue(v.box())
	}
	if !ok {
		return t, th.errorAt(s.DType.Pos, fmt.Errorf("unknown dtype %s", s.DType.Name))
	}
	return t, nil
}

func declShape(th *Thread, fr *frame, s *ast.ArrayDecl, dims []evalFn) ([]int, error) {
	shape := make([]int, len(dims))
	for i, d := range dims {
		v, err := d(th, fr)
		if err != nil {
			return nil, err
		}
		n, err := toInt(v.box())
		if err == nil && n < 0 {
			err = fmt.Errorf("negative dimension %d", n)
		}
		if err != nil {
			return nil, th.errorAt(s.Dims[i].Start(), err)
		}
		shape[i] = n
	}
	return shape, nil
}

// declArray allocates a declared array on its device and fills it from
// its initialiser, if any.
func (th *Thread) declArray(s *ast.ArrayDecl, t dtype.Type, shape []int, devArg Value, explicit mem.Allocator, init Value) (*Array, error) {
	d, err := th.DeviceArg(devArg)
	if err != nil {
		return nil, th.errorAt(s.Device.Start(), err)
	}
	alloc, err := th.chooseAllocator(explicit, d)
	if err != nil {
		return nil, th.errorAt(s.Pos, err)
	}
	a, err := th.allocate(alloc, d, t.Elem, shape, init == nil) // an initialiser writes every element
	if err != nil {
		return nil, th.errorAt(s.Pos, err)
	}
	x := typedArray(a, t)
	if init != nil {
		if err := th.initArray(x, init); err != nil {
			a.Free()
			return nil, th.errorAt(s.Init.Start(), err)
		}
	}
	if s.Grad {
		if err := th.RequireGrad(a); err != nil {
			a.Free()
			return nil, th.errorAt(s.Pos, err)
		}
	}
	return x, nil
}

// capture compiles `capture NAME [on DEV] { body }` (LANGUAGE.md section
// 7, MEMORY.md section 6): the body's host code runs once while its
// launches, copies and fills are recorded into a graph on the device's
// stream in global mode. Allocations that are not capture-safe are refused
// by runtime/mem before any CUDA call, frees are queued until the capture
// ends, and any error ends the capture cleanly, discarding the graph.
func (c *compiler) capture(s *ast.CaptureBlock) execFn {
	devArg := c.optional(s.Device)
	body := c.block(s.Body.Stmts)
	set := c.storer(s.Name)
	pos := s.Pos
	if s.Device != nil {
		pos = s.Device.Start()
	}
	return func(th *Thread, fr *frame) (ctrl, error) {
		v, err := devArg(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		dev, err := th.DeviceArg(v)
		if err != nil {
			return ctrlNone, th.errorAt(pos, err)
		}
		if err := th.beginCapture(s, dev, pos); err != nil {
			return ctrlNone, err
		}
		th.devices = append(th.devices, dev)
		r, bodyErr := body(th, fr)
		th.devices = th.devices[:len(th.devices)-1]
		g, endErr := th.capture.End(bodyErr == nil)
		th.capture = nil
		if bodyErr != nil {
			return r, bodyErr
		}
		if endErr != nil {
			return ctrlNone, th.errorAt(s.Pos, endErr)
		}
		set(th, fr, cell{v: &Graph{Name: s.Name.Name, g: g}})
		return r, nil
	}
}

// tape compiles `tape NAME { body }` (docs/autodiff.md): runTape runs the
// body while the thread's tape records, and NAME is bound to the tape
// after the body, as capture binds its graph.
func (c *compiler) tape(s *ast.TapeBlock) execFn {
	body := c.block(s.Body.Stmts)
	set := c.storer(s.Name)
	return func(th *Thread, fr *frame) (ctrl, error) {
		t, r, err := th.runTape(s, func() (ctrl, error) { return body(th, fr) })
		if err != nil {
			return r, err
		}
		set(th, fr, cell{v: t})
		return r, nil
	}
}

func (th *Thread) beginCapture(s *ast.CaptureBlock, dev mem.Device, pos ast.Pos) error {
	if !dev.IsCUDA() {
		return th.errorAt(pos, fmt.Errorf("cannot capture on %s: capture records CUDA graphs; capture on a CUDA device", dev))
	}
	if th.capture != nil {
		return th.errorAt(s.Pos, fmt.Errorf("capture blocks do not nest (already capturing on %s)", th.capture.Device()))
	}
	// Work queued before the block, on any device, finishes first: waits
	// are not allowed once the stream captures.
	err := th.syncUsed()
	if err == nil {
		th.capture, err = mem.BeginCapture(dev, th.Tracker)
	}
	return th.errorAt(s.Pos, err)
}

// launch compiles a launch statement. The launch rules are the backend's
// (backend.CheckLaunch, called by every Program.Launch); here are only the
// checks of the source's form and signature, and the backend's error is
// pointed at the part of the statement it is about (launchStmtError).
func (c *compiler) launch(s *ast.LaunchStmt) execFn {
	kernel := c.launched(s)
	dims := c.values(s.Dims)
	dev := c.optional(s.Device)
	args := c.values(s.Args)
	return func(th *Thread, fr *frame) (ctrl, error) {
		th.lastPos = &s.Pos
		kv, err := kernel(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		k, ok := kv.(*Kernel)
		if !ok {
			return ctrlNone, th.errorAt(s.Kernel.Pos, fmt.Errorf("%s is %s, not a kernel", s.Kernel.Name, describe(kv)))
		}
		if err := th.launchForm(s, k); err != nil {
			return ctrlNone, err
		}
		return ctrlNone, th.launchWith(s, k, fr, dims, dev, args)
	}
}

func (th *Thread) launchWith(s *ast.LaunchStmt, k *Kernel, fr *frame, dims []evalFn, devf func(*Thread, *frame) (Value, error), args []evalFn) error {
	l := &th.launcher
	defer l.popTo(l.mark())
	for i, e := range dims {
		v, err := e(th, fr)
		if err != nil {
			return err
		}
		n, err := toInt(v.box())
		if err != nil {
			return th.errorAt(s.Dims[i].Start(), err)
		}
		l.dimStack = append(l.dimStack, n)
	}
	ds := l.dimStack[len(l.dimStack)-len(dims):]
	dev, err := devf(th, fr)
	if err != nil {
		return err
	}
	d, err := th.DeviceArg(dev)
	if err != nil {
		return th.errorAt(s.Device.Start(), err)
	}
	base := len(l.stack)
	for _, a := range args {
		v, err := a(th, fr)
		if err != nil {
			return err
		}
		l.stack = append(l.stack, v.box())
	}
	prog, err := th.program(k.IR, d, th.Config.FastMath)
	if err != nil {
		return th.errorAt(s.Pos, err)
	}
	l.prefetch.Start(d)
	argBase := len(l.argStack)
	if err := th.packArgs(s, k, l.stack[base:], d); err != nil {
		return err
	}
	if th.tape != nil {
		if err := th.tapeWritesLaunch(k, l.stack[base:]); err != nil {
			return th.errorAt(s.Pos, err)
		}
	}
	if err := th.run1(prog, d, ds, l.argStack[argBase:]); err != nil {
		return th.launchStmtError(s, k, err)
	}
	return th.errorAt(s.Pos, th.touchWritten(k, d, ds, l.stack[base:], l.argStack[argBase:]))
}

// launched compiles the value a launch names: a variable, or util.k of an
// import.
func (c *compiler) launched(s *ast.LaunchStmt) func(th *Thread, fr *frame) (Value, error) {
	if s.Module == nil {
		get := c.loader(s.Kernel)
		return func(th *Thread, fr *frame) (Value, error) {
			v, err := get(th, fr)
			return v.box(), err
		}
	}
	get := c.loader(s.Module)
	return func(th *Thread, fr *frame) (Value, error) {
		mv, err := get(th, fr)
		if err != nil {
			return nil, err
		}
		m, ok := mv.v.(*Module)
		if !ok {
			return nil, th.errorAt(s.Module.Pos, fmt.Errorf("%s is %s, not an import", s.Module.Name, describe(mv.box())))
		}
		v, err := m.attr(th, s.Kernel.Name)
		return v, th.errorAt(s.Kernel.Pos, err)
	}
}
