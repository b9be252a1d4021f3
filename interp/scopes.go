package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// dtypes are the array element types, in the order scripts list them.
var dtypes = []ir.Type{ir.Bool, ir.U8, ir.I32, ir.I64, ir.U32, ir.U64, ir.F32, ir.F64}

// parseDevice resolves a device name: "cpu", "cuda:N", or "cuda" (the
// current CUDA device, else cuda:0), and checks that the device exists.
func (th *Thread) parseDevice(s string) (mem.Device, error) {
	if s == "cuda" {
		s = "cuda:0"
		if cur := th.CurrentDevice(); cur.IsCUDA() {
			return cur, nil
		}
	}
	d, err := mem.ParseDevice(s)
	if err != nil {
		return d, err
	}
	return d, mem.CheckDevice(d)
}

// DeviceArg turns a device argument (a string; nil for the current device)
// into a device.
func (th *Thread) DeviceArg(v Value) (mem.Device, error) {
	if v == nil {
		return th.CurrentDevice(), nil
	}
	s, ok := v.(String)
	if !ok {
		return mem.Device{}, fmt.Errorf("a device is a string such as \"cpu\" or \"cuda:0\", not %s", describe(v))
	}
	return th.parseDevice(string(s))
}

// allocator looks an allocator up by name.
func (th *Thread) allocator(name string) (mem.Allocator, error) {
	return th.Allocs.Lookup(name)
}

// AllocatorArg turns an allocator argument (a name string; nil for none)
// into an allocator.
func (th *Thread) AllocatorArg(v Value) (mem.Allocator, error) {
	if v == nil {
		return nil, nil
	}
	s, ok := v.(String)
	if !ok {
		return nil, fmt.Errorf("an allocator is named by a string such as \"managed\", not %s", describe(v))
	}
	return th.allocator(string(s))
}

// chooseAllocator asks the registry for the allocator of an array on dev
// (mem.Registry.Choose has the order): explicit is the `using` clause or
// `allocator=` argument, nil for none.
func (th *Thread) chooseAllocator(explicit mem.Allocator, dev mem.Device) (mem.Allocator, error) {
	return th.Allocs.Choose(explicit, th.allocs, dev)
}

// NewArray makes a zero-filled array. dev and alloc are the device and
// allocator arguments as given (nil: current device, scoped allocator).
func (th *Thread) NewArray(dt ir.Type, shape []int, dev, alloc Value) (*mem.Array, error) {
	return th.newArray(dt, shape, dev, alloc, true)
}

// NewArrayUninit is NewArray for an array that the caller writes in full
// before anything reads it (a constructor that fills it, load): its memory
// is not zero-filled where the allocator can skip that
// (mem.Tracker.NewUninit).
func (th *Thread) NewArrayUninit(dt ir.Type, shape []int, dev, alloc Value) (*mem.Array, error) {
	return th.newArray(dt, shape, dev, alloc, false)
}

func (th *Thread) newArray(dt ir.Type, shape []int, dev, alloc Value, zero bool) (*mem.Array, error) {
	d, err := th.DeviceArg(dev)
	if err != nil {
		return nil, err
	}
	explicit, err := th.AllocatorArg(alloc)
	if err != nil {
		return nil, err
	}
	a, err := th.chooseAllocator(explicit, d)
	if err != nil {
		return nil, err
	}
	return th.allocate(a, d, dt, shape, zero)
}

// allocate makes an array through alloc with the current configuration,
// zero-filled unless zero is false (see NewArrayUninit).
func (th *Thread) allocate(alloc mem.Allocator, dev mem.Device, dt ir.Type, shape []int, zero bool) (*mem.Array, error) {
	th.Allocs.SetAllowOversubscription(th.Config.AllowOversubscription)
	if !zero {
		return th.Tracker.NewUninit(alloc, dev, dt, shape)
	}
	return th.Tracker.New(alloc, dev, dt, shape)
}

func (th *Thread) execDeviceBlock(s *ast.DeviceBlock, fr *frame) (ctrl, error) {
	v, err := th.eval(s.Device, fr)
	if err != nil {
		return ctrlNone, err
	}
	d, err := th.DeviceArg(v)
	if err != nil {
		return ctrlNone, th.errorAt(s.Device.Start(), err)
	}
	th.devices = append(th.devices, d)
	defer func() { th.devices = th.devices[:len(th.devices)-1] }()
	return th.execBlock(s.Body.Stmts, fr)
}

// allocatorName evaluates an allocator operand: a bare identifier names the
// allocator itself; any other expression must give a string.
func (th *Thread) allocatorName(e ast.Expr, fr *frame) (mem.Allocator, error) {
	if id, ok := e.(*ast.Ident); ok {
		a, err := th.allocator(id.Name)
		return a, th.errorAt(id.Pos, err)
	}
	v, err := th.eval(e, fr)
	if err != nil {
		return nil, err
	}
	a, err := th.AllocatorArg(v)
	return a, th.errorAt(e.Start(), err)
}

func (th *Thread) execAllocatorBlock(s *ast.AllocatorBlock, fr *frame) (ctrl, error) {
	a, err := th.allocatorName(s.Name, fr)
	if err != nil {
		return ctrlNone, err
	}
	scope := mem.AllocScope{Alloc: a}
	if s.Device != nil {
		v, err := th.eval(s.Device, fr)
		if err != nil {
			return ctrlNone, err
		}
		d, err := th.DeviceArg(v)
		if err != nil {
			return ctrlNone, th.errorAt(s.Device.Start(), err)
		}
		if err := mem.CheckApplies(a, d); err != nil {
			return ctrlNone, th.errorAt(s.Device.Start(), err)
		}
		scope.Device = &d
	}
	th.allocs = append(th.allocs, scope)
	defer func() { th.allocs = th.allocs[:len(th.allocs)-1] }()
	return th.execBlock(s.Body.Stmts, fr)
}

func (th *Thread) execArrayDecl(s *ast.ArrayDecl, fr *frame) error {
	t, ok := dtype.ByName(s.DType.Name)
	if s.DType.Scope != ast.ScopeUnresolved { // a struct name (the checker resolved it)
		v, err := th.eval(s.DType, fr)
		if err != nil {
			return err
		}
		t, ok = TypeValue(v)
	}
	if !ok {
		return th.errorAt(s.DType.Pos, fmt.Errorf("unknown dtype %s", s.DType.Name))
	}
	shape := make([]int, len(s.Dims))
	for i, d := range s.Dims {
		v, err := th.eval(d, fr)
		if err != nil {
			return err
		}
		n, err := toInt(v)
		if err == nil && n < 0 {
			err = fmt.Errorf("negative dimension %d", n)
		}
		if err != nil {
			return th.errorAt(d.Start(), err)
		}
		shape[i] = n
	}
	shape, err := MemShape(t, shape)
	if err != nil {
		return th.errorAt(s.DType.Pos, err)
	}
	var dev Value
	if s.Device != nil {
		var err error
		if dev, err = th.eval(s.Device, fr); err != nil {
			return err
		}
	}
	var explicit mem.Allocator
	if s.Allocator != nil {
		var err error
		if explicit, err = th.allocatorName(s.Allocator, fr); err != nil {
			return err
		}
	}
	var init Value
	if s.Init != nil {
		var err error
		if init, err = th.eval(s.Init, fr); err != nil {
			return err
		}
	}
	d, err := th.DeviceArg(dev)
	if err != nil {
		return th.errorAt(s.Device.Start(), err)
	}
	alloc, err := th.chooseAllocator(explicit, d)
	if err != nil {
		return th.errorAt(s.Pos, err)
	}
	a, err := th.allocate(alloc, d, t.Elem, shape, init == nil) // an initialiser writes every element
	if err != nil {
		return th.errorAt(s.Pos, err)
	}
	x := typedArray(a, t)
	if init != nil {
		if err := th.initArray(x, init); err != nil {
			a.Free()
			return th.errorAt(s.Init.Start(), err)
		}
	}
	th.store(s.Name, x, fr)
	return nil
}
