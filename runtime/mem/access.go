package mem

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// Accessibility is the tri-state answer of can_access (MEMORY.md 4).
type Accessibility uint8

const (
	AccessUnknown Accessibility = iota // not provable either way
	Accessible
	Inaccessible
)

func (x Accessibility) String() string {
	switch x {
	case Accessible:
		return "ACCESSIBLE"
	case Inaccessible:
		return "INACCESSIBLE"
	}
	return "UNKNOWN"
}

// AccessResult is a decision and the capability or access state that
// made it, in words ("cuda:1 has concurrent_managed_access=0").
type AccessResult struct {
	Access Accessibility
	Reason string
}

// AccessFacts answers the access-state questions of the rules: whether
// peer access is enabled from accessor to owner, and whether owner's pool
// grants access to accessor.
type AccessFacts interface {
	PeerEnabled(accessor, owner Device) bool
	PoolAccess(owner, accessor Device) bool
}

func flagText(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Access is can_access(target, array) for an array of kind on owner,
// rules 1-4 of MEMORY.md section 4 in order. caps gives a device's
// capabilities (all false for the cpu). It is pure: no driver calls.
func Access(target, owner Device, kind Kind, caps func(Device) Caps, state AccessFacts) AccessResult {
	switch {
	case target == owner:
		return AccessResult{Accessible, "the array lives on " + owner.String()}
	case target.IsCUDA() && !owner.IsCUDA():
		return hostFromGPU(target, kind, caps(target))
	case !target.IsCUDA() && owner.IsCUDA():
		return gpuFromHost(owner, kind, caps(owner))
	}
	return crossGPU(target, owner, kind, caps, state)
}

// hostFromGPU is rule 2 (and rule 4's PINNED case): host memory from a GPU.
func hostFromGPU(t Device, kind Kind, c Caps) AccessResult {
	if kind == Pinned && c.UnifiedAddressing {
		return AccessResult{Accessible, fmt.Sprintf("pinned host memory, and %s has unified_addressing=1", t)}
	}
	if c.PageableMemoryAccess {
		return AccessResult{Accessible, fmt.Sprintf("%s has pageable_memory_access=1", t)}
	}
	if kind == Pinned {
		return AccessResult{Inaccessible, fmt.Sprintf("%s has unified_addressing=0 and pageable_memory_access=0", t)}
	}
	return AccessResult{Inaccessible, fmt.Sprintf("%s has pageable_memory_access=0", t)}
}

// gpuFromHost is rule 3: CUDA memory from the CPU.
func gpuFromHost(o Device, kind Kind, c Caps) AccessResult {
	switch kind {
	case CUDAManaged:
		if c.ConcurrentManagedAccess {
			return AccessResult{Accessible, fmt.Sprintf("%s has concurrent_managed_access=1", o)}
		}
		if c.DirectManagedMemAccessFromHost {
			return AccessResult{Accessible, fmt.Sprintf("%s has direct_managed_mem_access_from_host=1", o)}
		}
		return AccessResult{Inaccessible, fmt.Sprintf("%s has concurrent_managed_access=0 and direct_managed_mem_access_from_host=0", o)}
	case CUDADevice, CUDAMempool:
		return AccessResult{Inaccessible, fmt.Sprintf("%s memory of %s is not host-accessible", kind, o)}
	case Pinned:
		return AccessResult{Accessible, "pinned host memory is host-accessible"}
	}
	return AccessResult{AccessUnknown, fmt.Sprintf("memory_kind=%s on %s cannot be proven host-accessible", kind, o)}
}

// crossGPU is rule 4: memory of one GPU from another.
func crossGPU(t, o Device, kind Kind, caps func(Device) Caps, state AccessFacts) AccessResult {
	switch kind {
	case CUDAManaged:
		ct, co := caps(t), caps(o)
		if ct.ManagedMemory && co.ManagedMemory {
			return AccessResult{Accessible, fmt.Sprintf("%s and %s have managed_memory=1", t, o)}
		}
		return AccessResult{Inaccessible, fmt.Sprintf("managed_memory is %s on %s and %s on %s",
			flagText(ct.ManagedMemory), t, flagText(co.ManagedMemory), o)}
	case CUDAMempool:
		if state.PoolAccess(o, t) {
			return AccessResult{Accessible, fmt.Sprintf("the memory pool of %s grants access to %s", o, t)}
		}
		return AccessResult{Inaccessible, fmt.Sprintf("the memory pool of %s does not grant access to %s", o, t)}
	case CUDADevice:
		if state.PeerEnabled(t, o) {
			return AccessResult{Accessible, fmt.Sprintf("peer access from %s to %s is enabled", t, o)}
		}
		return AccessResult{Inaccessible, fmt.Sprintf("peer access from %s to %s is not enabled", t, o)}
	case Pinned:
		return hostFromGPU(t, kind, caps(t))
	}
	return AccessResult{AccessUnknown, fmt.Sprintf("memory_kind=%s on %s: access from %s cannot be proven", kind, o, t)}
}

// accessGen counts access-state changes in the process; a cached decision
// is valid only for the generation it was made in.
var accessGen atomic.Uint64

// AccessState records the peer access and pool access gscript enabled.
// Both are process-wide CUDA state, so one AccessState normally serves a
// process; every change invalidates cached decisions.
type AccessState struct {
	// Caps overrides the capability lookup (tests, simulations); nil reads
	// the devices' own capabilities.
	Caps func(Device) Caps

	mu   sync.RWMutex
	peer map[[2]Device]bool // {accessor, owner}
	pool map[[2]Device]bool // {owner, accessor}
}

// NewAccessState returns a state with no peer or pool access enabled.
func NewAccessState() *AccessState {
	return &AccessState{peer: map[[2]Device]bool{}, pool: map[[2]Device]bool{}}
}

// PeerEnabled implements AccessFacts.
func (s *AccessState) PeerEnabled(accessor, owner Device) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.peer[[2]Device{accessor, owner}]
}

// PoolAccess implements AccessFacts.
func (s *AccessState) PoolAccess(owner, accessor Device) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.pool[[2]Device{owner, accessor}]
}

// Generation identifies the current access state of the process.
func Generation() uint64 { return accessGen.Load() }

func (s *AccessState) markPeer(accessor, owner Device) {
	s.mu.Lock()
	s.peer[[2]Device{accessor, owner}] = true
	s.mu.Unlock()
	accessGen.Add(1)
}

func (s *AccessState) markPool(owner, accessor Device) {
	s.mu.Lock()
	s.pool[[2]Device{owner, accessor}] = true
	s.mu.Unlock()
	accessGen.Add(1)
}

func cudaPair(owner, accessor Device) (*cudaDev, *cudaDev, error) {
	if !owner.IsCUDA() || !accessor.IsCUDA() || owner == accessor {
		return nil, nil, fmt.Errorf("peer and pool access are between two different CUDA devices, not %s and %s", accessor, owner)
	}
	o, err := getCUDADevice(owner.Ordinal)
	if err != nil {
		return nil, nil, err
	}
	a, err := getCUDADevice(accessor.Ordinal)
	return o, a, err
}

// EnablePeerAccess lets accessor's kernels read and write owner's device
// memory (cuCtxEnablePeerAccess in accessor's context). Idempotent.
func (s *AccessState) EnablePeerAccess(owner, accessor Device) error {
	o, a, err := cudaPair(owner, accessor)
	if err != nil {
		return err
	}
	if ok, err := a.Drv.DeviceCanAccessPeer(accessor.Ordinal, owner.Ordinal); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("%s cannot access the memory of %s (cuDeviceCanAccessPeer is 0)", accessor, owner)
	}
	err = a.Ctx.Do(func() error { return a.Drv.CtxEnablePeerAccess(o.Ctx, 0) })
	if err != nil && !cuda.IsCode(err, cuda.CodePeerAccessAlreadyEnabled) {
		return fmt.Errorf("enabling peer access from %s to %s: %w", accessor, owner, err)
	}
	s.markPeer(accessor, owner)
	return nil
}

// EnableMempoolAccess grants accessor read-write access to the default
// memory pool of owner (cuMemPoolSetAccess). Idempotent.
func (s *AccessState) EnableMempoolAccess(owner, accessor Device) error {
	o, _, err := cudaPair(owner, accessor)
	if err != nil {
		return err
	}
	err = o.Ctx.Do(func() error {
		pool, err := o.DefaultPool()
		if err != nil {
			return err
		}
		return o.Drv.MemPoolSetAccess(pool, []cuda.MemAccessDesc{{
			Location: cuda.DeviceLocation(accessor.Ordinal), Flags: cuda.MemAccessReadWrite}})
	})
	if err != nil {
		return fmt.Errorf("granting %s access to the memory pool of %s: %w", accessor, owner, err)
	}
	s.markPool(owner, accessor)
	return nil
}

func (s *AccessState) caps() func(Device) Caps {
	if s.Caps != nil {
		return s.Caps
	}
	return deviceCaps
}

// wrappedPool answers pool access for a wrapped pool pointer from the
// pointer's own pool handle (beyond: Warp cannot prove these).
type wrappedPool struct {
	*AccessState
	pool cuda.MemPool
}

func (w wrappedPool) PoolAccess(owner, accessor Device) bool {
	d, err := getCUDADevice(owner.Ordinal)
	if err != nil {
		return false
	}
	var f cuda.MemAccessFlags
	err = d.Ctx.Do(func() error {
		var err error
		f, err = d.Drv.MemPoolGetAccess(w.pool, cuda.DeviceLocation(accessor.Ordinal))
		return err
	})
	return err == nil && f == cuda.MemAccessReadWrite
}

// CanAccess is can_access(target, a) with its reason. Decisions are cached
// per (buffer, target) and dropped when the access state changes; gscript's
// own arrays are decided from their recorded kind, without the driver.
func (s *AccessState) CanAccess(target Device, a *Array) AccessResult {
	b := a.buf
	gen := accessGen.Load()
	if r, ok := b.acc.get(s, target, gen); ok {
		return r
	}
	var facts AccessFacts = s
	if b.pool != 0 && b.origin != fromAllocator {
		facts = wrappedPool{s, b.pool}
	}
	r := Access(target, b.a.dev, b.kind, s.caps(), facts)
	if b.graphMem && !target.IsCUDA() {
		r = AccessResult{Inaccessible, "the memory was allocated inside a capture block (graph memory): the cpu cannot map it"}
	}
	b.acc.put(s, target, gen, r)
	return r
}

// accessCache holds a buffer's last few decisions. Few arrays are launched
// on more than a couple of devices, so four slots replaced in turn do.
type accessCache struct {
	mu   sync.Mutex
	e    [4]accessEntry
	next uint8
}

type accessEntry struct {
	state  *AccessState
	target Device
	gen    uint64
	res    AccessResult
}

func (c *accessCache) get(s *AccessState, t Device, gen uint64) (AccessResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.e {
		if e := &c.e[i]; e.state == s && e.target == t && e.gen == gen {
			return e.res, true
		}
	}
	return AccessResult{}, false
}

func (c *accessCache) put(s *AccessState, t Device, gen uint64, r AccessResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.e[c.next%uint8(len(c.e))] = accessEntry{state: s, target: t, gen: gen, res: r}
	c.next++
}
