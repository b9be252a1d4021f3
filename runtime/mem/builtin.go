package mem

import (
	"fmt"
	"sort"
	"sync"
)

// builtinNames lists the built-in allocators in the order scripts list them.
var builtinNames = []string{"host", "pinned", "device", "mempool", "managed", "managed_pool"}

// newBuiltins makes the built-in allocators; the managed ones read opts.
func newBuiltins(opts *Options) map[string]Allocator {
	return map[string]Allocator{
		"host":         cachingHost{},
		"pinned":       PinnedAllocator{},
		"device":       DeviceAllocator{},
		"mempool":      MempoolAllocator{},
		"managed":      ManagedAllocator{Opts: opts},
		"managed_pool": ManagedPoolAllocator{Opts: opts},
	}
}

// IsBuiltin reports whether alloc is one of the built-in allocators (IPC
// export and the access rules trust only those).
func IsBuiltin(alloc Allocator) bool {
	switch alloc.(type) {
	case HostAllocator, cachingHost, PinnedAllocator, DeviceAllocator, MempoolAllocator, ManagedAllocator, ManagedPoolAllocator:
		return true
	}
	return false
}

// defaultIn is the built-in default for dev (MEMORY.md section 2) among
// m's allocators, given dev's capabilities c: host on cpu; mempool on CUDA
// devices with memory_pools_supported, else device.
func defaultIn(m map[string]Allocator, dev Device, c Caps) Allocator {
	switch {
	case !dev.IsCUDA():
		return m["host"]
	case c.MemoryPoolsSupported:
		return m["mempool"]
	}
	return m["device"]
}

// Registry is one interpreter's allocators: the built-ins (bound to its
// Options), custom allocators registered by the embedding program, and
// per-device defaults. It owns the selection order (Choose); the
// interpreter passes it the scopes in force. Safe for concurrent use.
type Registry struct {
	Options
	// Caps overrides the capability lookup of the built-in defaults
	// (tests, simulations); nil reads the devices' own capabilities.
	Caps func(Device) Caps

	mu       sync.Mutex
	allocs   map[string]Allocator
	defaults map[Device]Allocator
}

// NewRegistry returns a registry holding the built-in allocators.
func NewRegistry() *Registry {
	r := &Registry{defaults: map[Device]Allocator{}}
	r.allocs = newBuiltins(&r.Options)
	return r
}

// RegisterAllocator adds a custom allocator under name. Built-in names
// cannot be replaced; registering a name again replaces the custom one
// (arrays made by the old one still free through it).
func (r *Registry) RegisterAllocator(name string, a Allocator) error {
	if name == "" || a == nil {
		return fmt.Errorf("RegisterAllocator: need a name and an allocator")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.allocs[name]; ok && IsBuiltin(old) {
		return fmt.Errorf("RegisterAllocator: %q is a built-in allocator and cannot be replaced", name)
	}
	r.allocs[name] = a
	return nil
}

// Lookup returns the allocator called name.
func (r *Registry) Lookup(name string) (Allocator, error) {
	r.mu.Lock()
	a, ok := r.allocs[name]
	r.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown allocator %q (allocators: %s)", name, joinNames(r.Names()))
	}
	return a, nil
}

// Names lists the allocators: built-ins first in their usual order, then
// custom ones sorted.
func (r *Registry) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]string(nil), builtinNames...)
	var custom []string
	for n, a := range r.allocs {
		if !IsBuiltin(a) {
			custom = append(custom, n)
		}
	}
	sort.Strings(custom)
	return append(out, custom...)
}

// SetDefault makes a the default allocator for dev (the embedding
// program's per-device default); nil removes it.
func (r *Registry) SetDefault(dev Device, a Allocator) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a == nil {
		delete(r.defaults, dev)
		return nil
	}
	if err := CheckApplies(a, dev); err != nil {
		return err
	}
	r.defaults[dev] = a
	return nil
}

// Default is the default allocator for dev: the per-device default set by
// the embedding program, else the built-in default.
func (r *Registry) Default(dev Device) Allocator {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a := r.defaults[dev]; a != nil {
		return a
	}
	caps := r.Caps
	if caps == nil {
		caps = deviceCaps
	}
	return defaultIn(r.allocs, dev, caps(dev))
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}
