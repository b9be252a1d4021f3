package mem

import "fmt"

// notYet is a built-in allocator whose backend has not landed yet: it is
// listed (so scripts get a precise error rather than "unknown allocator")
// and refuses every allocation.
type notYet struct {
	name string
	cuda bool // serves CUDA devices (else the cpu)
}

func (n notYet) Name() string { return n.name }
func (n notYet) Kind() Kind   { return Unknown }
func (n notYet) AppliesTo(dev Device) bool {
	return dev.IsCUDA() == n.cuda
}
func (n notYet) Alloc(dev Device, nbytes int) (uintptr, error) {
	return 0, &AllocError{Allocator: n.name, Device: dev, Bytes: nbytes,
		Err: fmt.Errorf("the %s allocator needs CUDA, which is not yet supported in this build", n.name)}
}
func (n notYet) Free(Device, uintptr, int) error {
	return fmt.Errorf("%s allocator: nothing to free", n.name)
}

var builtins = map[string]Allocator{
	"host":         HostAllocator{},
	"pinned":       notYet{name: "pinned"},
	"device":       DeviceAllocator{},
	"mempool":      notYet{name: "mempool", cuda: true},
	"managed":      notYet{name: "managed", cuda: true},
	"managed_pool": notYet{name: "managed_pool", cuda: true},
}

// BuiltinAllocators returns the built-in allocators by name. The map is
// shared: callers must not modify it.
func BuiltinAllocators() map[string]Allocator { return builtins }

// DefaultAllocator is the built-in default for dev: host on cpu, device on
// CUDA devices. MEMORY.md section 2 makes mempool the CUDA default where
// pools are supported; that switch comes with the mempool allocator.
func DefaultAllocator(dev Device) Allocator {
	if dev.IsCUDA() {
		return builtins["device"]
	}
	return builtins["host"]
}
