package kernel

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cpu"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// cOrder is an array argument of shape over data at addr, C order.
func cOrder(addr uintptr, shape []int) backend.Arg {
	a := backend.Array{Data: addr}
	st := 1
	for i := len(shape) - 1; i >= 0; i-- {
		a.Shape[i], a.Strides[i] = shape[i], st
		st *= shape[i]
	}
	return backend.Arg{Array: a}
}

// fieldOnCPU runs field case c on the cpu backend with input a and
// returns out.
func fieldOnCPU(t *testing.T, c irtest.Case, dims []int, a []byte) []byte {
	p, err := cpu.Compile(c.Kernel, backend.Options{})
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	out := make([]byte, len(a))
	args := []backend.Arg{cOrder(uintptr(unsafe.Pointer(&a[0])), c.Shape(0)), cOrder(uintptr(unsafe.Pointer(&out[0])), c.Shape(1))}
	err = p.Launch(dims, args, cpu.Options{})
	runtime.KeepAlive(a)
	if err != nil {
		t.Fatalf("%s on the cpu: %v", c, err)
	}
	return out
}

// TestGPUFieldCases runs every field case of lang/ir/irtest (each type at
// every offset of the layouts, through parameter, shared and local
// arrays) on the GPU, plain, with debug checks and as the unit-stride
// variant, and compares out with the cpu's bit for bit. Then the backend
// refuses, before building anything, a launch whose byte axis is too
// short or misaligned.
func TestGPUFieldCases(t *testing.T) {
	drv, ctx, info := gpu(t)
	rng := rand.New(rand.NewPCG(3, 4))
	b := NewBuilder(drv, nil)
	compared := 0
	err := ctx.Do(func() error {
		s, err := drv.StreamCreate(cuda.StreamNonBlocking)
		if err != nil {
			return err
		}
		defer drv.StreamDestroy(s)
		for _, op := range []ir.Op{ir.OpLoadField, ir.OpStoreField} {
			for _, c := range irtest.Cases(op) {
				dims := []int{64}
				if c.Kernel.IsBlock() {
					dims = []int{1}
				}
				a := make([]byte, prod(c.Shape(0)))
				for i := range a {
					a[i] = byte(rng.IntN(256))
				}
				want := fieldOnCPU(t, c, dims, a)
				for _, opts := range []Options{{}, {Debug: true}, {UnitStride: true}, {Index32: true, UnitStride: true}} {
					got, err := fieldOnGPU(drv, s, b, info, c, opts, dims, a)
					if err != nil {
						return err
					}
					for i := range want {
						if got[i] != want[i] {
							t.Errorf("%s %+v: byte %d is %#x on the GPU, %#x on the cpu", c, opts, i, got[i], want[i])
							break
						}
					}
					compared += len(want)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes of field copies compared bit for bit", compared)

	k, shapes := irtest.FieldCopy(ir.F64, 40, false, ir.SpaceParam)
	p, err := cudaBackend{}.Compile(k, mem.Device{Type: mem.CUDA}, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	short := cOrder(0x1000, []int{64, 36})
	misaligned := cOrder(0x1004, shapes[0])
	for _, bad := range []struct {
		arg  backend.Arg
		want string
	}{{short, "its fields need 40"}, {misaligned, "not a multiple of 8"}} {
		err := p.Launch(&backend.Env{}, []int{64}, []backend.Arg{bad.arg, cOrder(0x2000, shapes[1])})
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Launch = %v, want %q", err, bad.want)
		}
	}
}

// fieldOnGPU builds and runs field case c with opts and input a and
// returns out.
func fieldOnGPU(drv *cuda.Driver, s cuda.Stream, b *Builder, info *cuda.DeviceInfo, c irtest.Case, opts Options, dims []int, a []byte) ([]byte, error) {
	k, err := b.Build(c.Kernel, info, opts)
	if err != nil {
		return nil, err
	}
	defer k.Unload()
	ins, err := drv.MemAlloc(len(a))
	if err != nil {
		return nil, err
	}
	defer drv.MemFree(ins)
	outs, err := drv.MemAlloc(len(a))
	if err != nil {
		return nil, err
	}
	defer drv.MemFree(outs)
	if err := drv.MemcpyHtoD(ins, unsafe.Pointer(&a[0]), len(a)); err != nil {
		return nil, err
	}
	if err := drv.MemsetD8Async(outs, 0, len(a), s); err != nil {
		return nil, err
	}
	args := []backend.Arg{cOrder(uintptr(ins), c.Shape(0)), cOrder(uintptr(outs), c.Shape(1))}
	if err := k.Launch(s, dims, args); err != nil {
		return nil, err
	}
	if err := k.CheckDebug(s, args); err != nil {
		return nil, err
	}
	if err := drv.StreamSynchronize(s); err != nil {
		return nil, err
	}
	out := make([]byte, len(a))
	return out, drv.MemcpyDtoH(unsafe.Pointer(&out[0]), outs, len(out))
}
