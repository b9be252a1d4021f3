package cuda

import (
	"bytes"
	"unsafe"
)

// Module is a CUmodule; Function is a CUfunction in it.
type (
	Module   uintptr
	Function uintptr
)

// ModuleLoadData loads a cubin, fatbin or PTX image into the current
// context. PTX must be NUL-terminated for the driver; a copy with the NUL
// is made when image lacks it.
func (d *Driver) ModuleLoadData(image []byte) (Module, error) {
	img := terminated(image)
	var m Module
	err := d.call2(&d.cuModuleLoadData, uintptr(unsafe.Pointer(&m)), uintptr(unsafe.Pointer(unsafe.SliceData(img))))
	return m, err
}

// terminated returns image as the driver wants it: binary images (ELF
// cubin, fatbin) as they are, text (PTX) ending in a NUL byte.
func terminated(image []byte) []byte {
	binary := bytes.HasPrefix(image, []byte("\x7fELF")) || bytes.HasPrefix(image, []byte{0x50, 0xed, 0x55, 0xba})
	if binary || (len(image) > 0 && image[len(image)-1] == 0) {
		return image
	}
	return append(append(make([]byte, 0, len(image)+1), image...), 0)
}

// ModuleGetFunction finds a kernel by its (extern "C" or mangled) name.
func (d *Driver) ModuleGetFunction(m Module, name string) (Function, error) {
	var f Function
	cname := cString(name)
	err := d.call3(&d.cuModuleGetFunction, uintptr(unsafe.Pointer(&f)), uintptr(m), uintptr(unsafe.Pointer(&cname[0])))
	return f, err
}

// ModuleGetGlobal finds a __device__ variable of m by name: its address and
// size in bytes.
func (d *Driver) ModuleGetGlobal(m Module, name string) (DevicePtr, int, error) {
	var p DevicePtr
	var n uintptr
	cname := cString(name)
	err := d.call4(&d.cuModuleGetGlobal, uintptr(unsafe.Pointer(&p)), uintptr(unsafe.Pointer(&n)), uintptr(m), uintptr(unsafe.Pointer(&cname[0])))
	return p, int(n), err
}

// FuncAttribute is a CUfunction_attribute value.
type FuncAttribute int32

// FuncAttrMaxDynamicSharedSizeBytes is the most dynamic shared memory a
// launch of the function may ask for; above the device's default (48 KiB)
// a kernel must raise it first, up to MaxSharedMemoryPerBlockOptin.
const FuncAttrMaxDynamicSharedSizeBytes FuncAttribute = 8

// FuncSetAttribute sets an attribute of a function.
func (d *Driver) FuncSetAttribute(f Function, a FuncAttribute, v int) error {
	return d.call3(&d.cuFuncSetAttribute, uintptr(f), uintptr(a), uintptr(v))
}

// ModuleUnload unloads a module and its functions.
func (d *Driver) ModuleUnload(m Module) error { return d.call1(&d.cuModuleUnload, uintptr(m)) }

// LaunchKernel queues f on stream (asynchronous: errors of the kernel
// itself surface at a later synchronization). params holds one pointer per
// kernel parameter, each to the parameter's value; Args builds them without
// allocating. The driver copies the values before returning, so params may
// be reused at once.
//
// It calls purego.SyscallN directly with fixed arguments: this is the
// launch hot path, and it allocates nothing when params is heap memory
// (Args' buffers are).
func (d *Driver) LaunchKernel(f Function, grid, block [3]uint32, sharedMem uint32, stream Stream, params []unsafe.Pointer) error {
	p := &d.cuLaunchKernel
	r := launch(p.addr, uintptr(f), uintptr(grid[0]), uintptr(grid[1]), uintptr(grid[2]),
		uintptr(block[0]), uintptr(block[1]), uintptr(block[2]),
		uintptr(sharedMem), uintptr(stream), uintptr(unsafe.Pointer(unsafe.SliceData(params))))
	if code := uint32(r); code != 0 {
		return d.newError(p.name(), int(int32(code)))
	}
	return nil
}
