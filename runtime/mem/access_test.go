package mem

import (
	"strings"
	"testing"
)

// Synthetic capability sets, one per paradigm of MEMORY.md section 3.
var (
	capsLimited     = Caps{UnifiedAddressing: true, ManagedMemory: true, MemoryPoolsSupported: true}
	capsManagedOnly = Caps{UnifiedAddressing: true, ManagedMemory: true, ConcurrentManagedAccess: true, MemoryPoolsSupported: true}
	capsHMM         = Caps{UnifiedAddressing: true, ManagedMemory: true, ConcurrentManagedAccess: true, PageableMemoryAccess: true}
	capsATS         = Caps{UnifiedAddressing: true, ManagedMemory: true, ConcurrentManagedAccess: true, PageableMemoryAccess: true,
		PageableMemoryAccessUsesHostPageTables: true, DirectManagedMemAccessFromHost: true}
	capsATSNoDirect = Caps{UnifiedAddressing: true, ManagedMemory: true, PageableMemoryAccess: true,
		PageableMemoryAccessUsesHostPageTables: true, DirectManagedMemAccessFromHost: true}
	capsNone = Caps{}
)

type facts struct{ peer, pool, capable map[[2]Device]bool }

func (f facts) PeerEnabled(a, o Device) bool { return f.peer[[2]Device{a, o}] }
func (f facts) PoolAccess(o, a Device) bool  { return f.pool[[2]Device{o, a}] }
func (f facts) PeerCapable(a, o Device) bool { return f.capable[[2]Device{a, o}] }

func TestAccessRules(t *testing.T) {
	cpu := CPUDevice
	one := func(c Caps) func(Device) Caps {
		return func(d Device) Caps {
			if d.IsCUDA() {
				return c
			}
			return Caps{}
		}
	}
	mixed := func(d Device) Caps { // cuda:0 managed-only, cuda:1 without managed memory, cuda:2 limited
		switch d {
		case cuda0:
			return capsManagedOnly
		case cuda1:
			return capsNone
		case cuda2:
			return capsLimited
		}
		return Caps{}
	}
	none := facts{}
	peer10 := facts{peer: map[[2]Device]bool{{cuda1, cuda0}: true}} // cuda:1 may access cuda:0
	pool01 := facts{pool: map[[2]Device]bool{{cuda0, cuda1}: true}} // cuda:0's pool grants cuda:1
	tests := []struct {
		name          string
		target, owner Device
		kind          Kind
		caps          func(Device) Caps
		st            AccessFacts
		want          Accessibility
		reason        string
	}{
		// rule 1
		{"same cuda", cuda0, cuda0, CUDADevice, one(capsNone), none, Accessible, "lives on cuda:0"},
		{"same cpu unknown", cpu, cpu, Unknown, one(capsNone), none, Accessible, "lives on cpu"},
		// rule 2: T cuda, O cpu
		{"pinned+UVA", cuda0, cpu, Pinned, one(capsManagedOnly), none, Accessible, "unified_addressing=1"},
		{"pinned no UVA", cuda0, cpu, Pinned, one(capsNone), none, Inaccessible, "unified_addressing=0 and pageable_memory_access=0"},
		{"host managed-only", cuda0, cpu, Host, one(capsManagedOnly), none, Inaccessible, "pageable_memory_access=0"},
		{"host limited", cuda0, cpu, Host, one(capsLimited), none, Inaccessible, "pageable_memory_access=0"},
		{"host HMM", cuda0, cpu, Host, one(capsHMM), none, Accessible, "pageable_memory_access=1"},
		{"host ATS", cuda0, cpu, Host, one(capsATS), none, Accessible, "pageable_memory_access=1"},
		{"unknown cpu ATS", cuda0, cpu, Unknown, one(capsATS), none, Accessible, "pageable_memory_access=1"},
		// rule 3: T cpu, O cuda
		{"managed limited", cpu, cuda0, CUDAManaged, one(capsLimited), none, Inaccessible, "concurrent_managed_access=0 and direct_managed_mem_access_from_host=0"},
		{"managed managed-only", cpu, cuda0, CUDAManaged, one(capsManagedOnly), none, Accessible, "concurrent_managed_access=1"},
		{"managed HMM", cpu, cuda0, CUDAManaged, one(capsHMM), none, Accessible, "concurrent_managed_access=1"},
		{"managed ATS", cpu, cuda0, CUDAManaged, one(capsATS), none, Accessible, "concurrent_managed_access=1"},
		{"managed direct only", cpu, cuda0, CUDAManaged, one(capsATSNoDirect), none, Accessible, "direct_managed_mem_access_from_host=1"},
		{"device from cpu ATS", cpu, cuda0, CUDADevice, one(capsATS), none, Inaccessible, "CUDA_DEVICE memory of cuda:0"},
		{"mempool from cpu", cpu, cuda0, CUDAMempool, one(capsATS), none, Inaccessible, "CUDA_MEMPOOL memory"},
		{"pinned wrapped on cuda", cpu, cuda0, Pinned, one(capsNone), none, Accessible, "pinned host memory"},
		{"unknown on cuda from cpu", cpu, cuda0, Unknown, one(capsATS), none, AccessUnknown, "memory_kind=UNKNOWN"},
		{"host wrapped on cuda from cpu", cpu, cuda0, Host, one(capsATS), none, AccessUnknown, "memory_kind=HOST"},
		// rule 4: two CUDA devices
		{"managed both", cuda1, cuda0, CUDAManaged, one(capsLimited), none, Accessible, "managed_memory=1"},
		{"managed target lacks", cuda1, cuda0, CUDAManaged, mixed, none, Inaccessible, "managed_memory is 0 on cuda:1 and 1 on cuda:0"},
		{"managed owner lacks", cuda0, cuda1, CUDAManaged, mixed, none, Inaccessible, "0 on cuda:1"},
		{"managed limited pair", cuda2, cuda0, CUDAManaged, mixed, none, Accessible, "managed_memory=1"},
		{"mempool no pool access", cuda1, cuda0, CUDAMempool, one(capsManagedOnly), peer10, Inaccessible, "does not grant access to cuda:1"},
		{"mempool pool access", cuda1, cuda0, CUDAMempool, one(capsManagedOnly), pool01, Accessible, "grants access to cuda:1"},
		{"mempool pool access other way", cuda0, cuda1, CUDAMempool, one(capsManagedOnly), pool01, Inaccessible, "does not grant"},
		{"device no peer", cuda1, cuda0, CUDADevice, one(capsManagedOnly), pool01, Inaccessible, "peer access from cuda:1 to cuda:0 is not enabled"},
		{"device peer", cuda1, cuda0, CUDADevice, one(capsManagedOnly), peer10, Accessible, "peer access from cuda:1 to cuda:0 is enabled"},
		{"device peer one way only", cuda0, cuda1, CUDADevice, one(capsManagedOnly), peer10, Inaccessible, "not enabled"},
		{"pinned cross", cuda1, cuda0, Pinned, one(capsManagedOnly), none, Accessible, "unified_addressing=1"},
		{"pinned cross no UVA", cuda1, cuda0, Pinned, one(capsNone), none, Inaccessible, "unified_addressing=0"},
		{"unknown cross", cuda1, cuda0, Unknown, one(capsATS), peer10, AccessUnknown, "cannot be proven"},
		{"host cross", cuda1, cuda0, Host, one(capsATS), peer10, AccessUnknown, "cannot be proven"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Access(tc.target, tc.owner, tc.kind, tc.caps, tc.st)
			if r.Access != tc.want || !strings.Contains(r.Reason, tc.reason) {
				t.Errorf("Access(%s, %s, %s) = %s %q, want %s with %q", tc.target, tc.owner, tc.kind, r.Access, r.Reason, tc.want, tc.reason)
			}
		})
	}
}

func TestHostAccessibleRule(t *testing.T) {
	caps := func(c Caps) func(Device) Caps { return func(Device) Caps { return c } }
	tests := []struct {
		kind  Kind
		owner Device
		caps  Caps
		want  bool
	}{
		{Host, CPUDevice, capsNone, true},
		{Pinned, CPUDevice, capsNone, true},
		{Pinned, cuda0, capsNone, true},
		{Unknown, CPUDevice, capsNone, true},
		{Unknown, cuda0, capsATS, false},
		{CUDAManaged, cuda0, capsLimited, false},
		{CUDAManaged, cuda0, capsManagedOnly, true},
		{CUDAManaged, cuda0, capsATSNoDirect, true},
		{CUDADevice, cuda0, capsATS, false},
		{CUDAMempool, cuda0, capsATS, false},
	}
	for _, tc := range tests {
		if got := hostAccessible(tc.kind, tc.owner, caps(tc.caps)); got != tc.want {
			t.Errorf("hostAccessible(%s on %s, %+v) = %v, want %v", tc.kind, tc.owner, tc.caps, got, tc.want)
		}
	}
}

func TestCanAccessCache(t *testing.T) {
	calls := 0
	st := NewAccessState()
	st.Caps = func(Device) Caps { calls++; return capsManagedOnly }
	tr := NewTracker(nil)
	a := fakeArray(t, tr, CUDADevice, cuda0)
	if r := st.CanAccess(cuda1, a); r.Access != Inaccessible {
		t.Fatalf("before peer access: %v", r)
	}
	n := calls
	for i := 0; i < 10; i++ {
		st.CanAccess(cuda1, a)
	}
	if calls != n {
		t.Errorf("cached decisions asked for capabilities %d more times", calls-n)
	}
	view, _ := a.Slice(2, 4)
	if r := st.CanAccess(cuda1, view); r.Access != Inaccessible || calls != n {
		t.Errorf("a view shares its owner's cached decision: %v, %d calls", r, calls-n)
	}
	gen := Generation()
	st.markPeer(cuda1, cuda0)
	if Generation() == gen {
		t.Fatal("enabling peer access did not bump the generation")
	}
	if r := st.CanAccess(cuda1, a); r.Access != Accessible {
		t.Errorf("after peer access: %v", r)
	}
	other := NewAccessState()
	other.Caps = st.Caps
	if r := other.CanAccess(cuda1, a); r.Access != Inaccessible {
		t.Errorf("a second state must not see the first one's decision: %v", r)
	}
	m := fakeArray(t, tr, CUDAMempool, cuda0)
	if r := st.CanAccess(cuda1, m); r.Access != Inaccessible {
		t.Errorf("pool without access: %v", r)
	}
	st.markPool(cuda0, cuda1)
	if r := st.CanAccess(cuda1, m); r.Access != Accessible {
		t.Errorf("pool after access: %v", r)
	}
}

func TestCanAccessCacheAllocs(t *testing.T) {
	st := NewAccessState()
	st.Caps = func(Device) Caps { return capsManagedOnly }
	a := fakeArray(t, NewTracker(nil), CUDAManaged, cuda0)
	st.CanAccess(cuda1, a)
	if n := testing.AllocsPerRun(100, func() { st.CanAccess(cuda1, a) }); n != 0 {
		t.Errorf("cached CanAccess allocates %v times", n)
	}
}
