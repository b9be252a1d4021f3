package interp

import (
	"fmt"

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
