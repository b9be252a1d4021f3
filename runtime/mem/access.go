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

// AccessResult is a decision with its grounds: the capability or access
// state that made it, in words ("cuda:1 has concurrent_managed_access=0");
// the MEMORY.md section 4 rule that decided; the facts it read, as
// "name=value"; and the one step that would make the memory accessible.
// explain_access shows all of it, launch errors the reason and the fix.
type AccessResult struct {
	Access Accessibility
	Reason string
	Rule   string
	Facts  []string
	Fix    Fix
}

// AccessFacts answers the access-state questions of the rules: whether
// peer access is enabled from accessor to owner, whether owner's pool
// grants access to accessor, and whether accessor could be given peer
// access to owner at all (for the remedy).
type AccessFacts interface {
	PeerEnabled(accessor, owner Device) bool
	PoolAccess(owner, accessor Device) bool
	PeerCapable(accessor, owner Device) bool
}

func flagText(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// fact is one "name=value" fact of a capability flag.
func fact(name string, b bool) string { return name + "=" + flagText(b) }

// Access is can_access(target, array) for an array of kind on owner,
// rules 1-4 of MEMORY.md section 4 in order. caps gives a device's
// capabilities (all false for the cpu). It is pure: no driver calls.
func Access(target, owner Device, kind Kind, caps func(Device) Caps, state AccessFacts) AccessResult {
	switch {
	case target == owner:
		return AccessResult{Access: Accessible, Reason: "the array lives on " + owner.String(),
			Rule: "target is the owner: always accessible", Facts: []string{}}
	case target.IsCUDA() && !owner.IsCUDA():
		return hostFromGPU(target, kind, caps(target))
	case !target.IsCUDA() && owner.IsCUDA():
		return gpuFromHost(owner, kind, caps(owner))
	}
	return crossGPU(target, owner, kind, caps, state)
}

// decided fills a result; fix applies only when it is not accessible.
func decided(acc Accessibility, reason, rule string, fix Fix, facts ...string) AccessResult {
	if acc == Accessible {
		fix = FixNone
	}
	if facts == nil {
		facts = []string{}
	}
	return AccessResult{Access: acc, Reason: reason, Rule: rule, Facts: facts, Fix: fix}
}

// hostFromGPU is rule 2 (and rule 4's PINNED case): host memory from a GPU.
func hostFromGPU(t Device, kind Kind, c Caps) AccessResult {
	pageable := fact("pageable_memory_access", c.PageableMemoryAccess)
	if kind == Pinned {
		rule := "CUDA target, PINNED owner: needs unified_addressing or pageable_memory_access"
		uva := fact("unified_addressing", c.UnifiedAddressing)
		switch {
		case c.UnifiedAddressing:
			return decided(Accessible, fmt.Sprintf("pinned host memory, and %s has unified_addressing=1", t), rule, FixNone, uva)
		case c.PageableMemoryAccess:
			return decided(Accessible, fmt.Sprintf("%s has pageable_memory_access=1", t), rule, FixNone, uva, pageable)
		}
		return decided(Inaccessible, fmt.Sprintf("%s has unified_addressing=0 and pageable_memory_access=0", t), rule, FixMove, uva, pageable)
	}
	rule := fmt.Sprintf("CUDA target, %s owner on the cpu: needs pageable_memory_access", kind)
	if c.PageableMemoryAccess {
		return decided(Accessible, fmt.Sprintf("%s has pageable_memory_access=1", t), rule, FixNone, pageable)
	}
	return decided(Inaccessible, fmt.Sprintf("%s has pageable_memory_access=0", t), rule, FixMove, pageable)
}

// gpuFromHost is rule 3: CUDA memory from the CPU.
func gpuFromHost(o Device, kind Kind, c Caps) AccessResult {
	switch kind {
	case CUDAManaged:
		rule := "cpu target, CUDA_MANAGED owner: needs concurrent_managed_access or direct_managed_mem_access_from_host"
		conc := fact("concurrent_managed_access", c.ConcurrentManagedAccess)
		if c.ConcurrentManagedAccess {
			return decided(Accessible, fmt.Sprintf("%s has concurrent_managed_access=1", o), rule, FixNone, conc)
		}
		direct := fact("direct_managed_mem_access_from_host", c.DirectManagedMemAccessFromHost)
		if c.DirectManagedMemAccessFromHost {
			return decided(Accessible, fmt.Sprintf("%s has direct_managed_mem_access_from_host=1", o), rule, FixNone, conc, direct)
		}
		return decided(Inaccessible, fmt.Sprintf("%s has concurrent_managed_access=0 and direct_managed_mem_access_from_host=0", o),
			rule, FixMove, conc, direct)
	case CUDADevice, CUDAMempool:
		// Managed memory would be host-accessible where the owner lets the
		// CPU touch managed memory; elsewhere only a copy is.
		fix := FixMove
		if hostAccessible(CUDAManaged, o, func(Device) Caps { return c }) {
			fix = FixManaged
		}
		return decided(Inaccessible, fmt.Sprintf("%s memory of %s is not host-accessible", kind, o),
			fmt.Sprintf("cpu target, %s owner: device memory is never host-accessible", kind), fix)
	case Pinned:
		return decided(Accessible, "pinned host memory is host-accessible", "cpu target, PINNED owner: pinned memory is host-accessible", FixNone)
	}
	return decided(AccessUnknown, fmt.Sprintf("memory_kind=%s on %s cannot be proven host-accessible", kind, o),
		fmt.Sprintf("cpu target, %s owner on a CUDA device: cannot be proven", kind), FixMove)
}

// crossGPU is rule 4: memory of one GPU from another.
func crossGPU(t, o Device, kind Kind, caps func(Device) Caps, state AccessFacts) AccessResult {
	switch kind {
	case CUDAManaged:
		ct, co := caps(t), caps(o)
		rule := "CUDA target, CUDA_MANAGED owner on another GPU: needs managed_memory on both"
		facts := []string{fact("managed_memory "+t.String(), ct.ManagedMemory), fact("managed_memory "+o.String(), co.ManagedMemory)}
		if ct.ManagedMemory && co.ManagedMemory {
			return decided(Accessible, fmt.Sprintf("%s and %s have managed_memory=1", t, o), rule, FixNone, facts...)
		}
		return decided(Inaccessible, fmt.Sprintf("managed_memory is %s on %s and %s on %s",
			flagText(ct.ManagedMemory), t, flagText(co.ManagedMemory), o), rule, FixMove, facts...)
	case CUDAMempool:
		return poolFromGPU(t, o, caps, state)
	case CUDADevice:
		return deviceFromGPU(t, o, caps, state)
	case Pinned:
		return hostFromGPU(t, kind, caps(t))
	}
	return decided(AccessUnknown, fmt.Sprintf("memory_kind=%s on %s: access from %s cannot be proven", kind, o, t),
		fmt.Sprintf("CUDA target, %s owner on another GPU: cannot be proven", kind), FixMove)
}

// poolFromGPU is rule 4 for pool memory.
func poolFromGPU(t, o Device, caps func(Device) Caps, state AccessFacts) AccessResult {
	rule := "CUDA target, CUDA_MEMPOOL owner on another GPU: needs access granted by the owner's pool"
	if state.PoolAccess(o, t) {
		return decided(Accessible, fmt.Sprintf("the memory pool of %s grants access to %s", o, t), rule, FixNone, "pool_access=granted")
	}
	fix, capable := crossFix(t, o, caps, state, FixPool)
	return decided(Inaccessible, fmt.Sprintf("the memory pool of %s does not grant access to %s", o, t), rule, fix,
		"pool_access=not granted", capable)
}

// deviceFromGPU is rule 4 for plain device memory.
func deviceFromGPU(t, o Device, caps func(Device) Caps, state AccessFacts) AccessResult {
	rule := "CUDA target, CUDA_DEVICE owner on another GPU: needs peer access from the target to the owner"
	peer := fmt.Sprintf("peer_access %s->%s=%t", t, o, state.PeerEnabled(t, o))
	if state.PeerEnabled(t, o) {
		return decided(Accessible, fmt.Sprintf("peer access from %s to %s is enabled", t, o), rule, FixNone, peer)
	}
	fix, capable := crossFix(t, o, caps, state, FixPeer)
	return decided(Inaccessible, fmt.Sprintf("peer access from %s to %s is not enabled", t, o), rule, fix, peer, capable)
}

// crossFix is the remedy for device or pool memory another GPU cannot
// reach: enabling access (want) where the pair can be peers, else managed
// memory where both GPUs have it, else a copy. It returns the peer
// capability fact it read.
func crossFix(t, o Device, caps func(Device) Caps, state AccessFacts, want Fix) (Fix, string) {
	capable := state.PeerCapable(t, o)
	f := fact(fmt.Sprintf("can_access_peer %s->%s", t, o), capable)
	switch {
	case capable:
		return want, f
	case caps(t).ManagedMemory && caps(o).ManagedMemory:
		return FixManaged, f
	}
	return FixMove, f
}

// Fix is the one step that would make an array accessible: the remedy of
// explain_access and of launch access errors.
type Fix uint8

const (
	FixNone    Fix = iota // accessible already
	FixMove               // copy it to the target with .to
	FixPeer               // enable peer access from the target to the owner
	FixPool               // grant the target access to the owner's memory pool
	FixManaged            // allocate it with the managed allocator
)

// Remedy words the fix for an array called name on owner, used on target.
func (f Fix) Remedy(target, owner Device, name string) string {
	switch f {
	case FixMove:
		return fmt.Sprintf("%s.to(%q)", name, target.String())
	case FixPeer:
		return fmt.Sprintf("enable peer access from %s to %s: enable_peer_access(%q, %q)", target, owner, owner.String(), target.String())
	case FixPool:
		return fmt.Sprintf("grant %s access to the memory pool of %s: enable_mempool_access(%q, %q)", target, owner, owner.String(), target.String())
	case FixManaged:
		return fmt.Sprintf("use the managed allocator (array %s: ... using managed)", name)
	}
	return ""
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

// PeerCapable implements AccessFacts: cuDeviceCanAccessPeer, false when
// it cannot be asked.
func (s *AccessState) PeerCapable(accessor, owner Device) bool {
	if !accessor.IsCUDA() || !owner.IsCUDA() {
		return false
	}
	d, err := getCUDADevice(accessor.Ordinal)
	if err != nil {
		return false
	}
	ok, err := d.Drv.DeviceCanAccessPeer(accessor.Ordinal, owner.Ordinal)
	return err == nil && ok
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
		r = decided(Inaccessible, "the memory was allocated inside a capture block (graph memory): the cpu cannot map it",
			"cpu target, graph memory: never host-accessible", FixMove)
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
