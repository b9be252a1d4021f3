package mem

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestAccessGrounds: the rule, facts and remedy of each decision, per
// paradigm (the H200 shows only managed-only). explain_access and launch
// errors show them.
func TestAccessGrounds(t *testing.T) {
	one := func(c Caps) func(Device) Caps {
		return func(d Device) Caps {
			if d.IsCUDA() {
				return c
			}
			return Caps{}
		}
	}
	none := facts{}
	peers := facts{capable: map[[2]Device]bool{{cuda1, cuda0}: true}}
	enabled := facts{peer: map[[2]Device]bool{{cuda1, cuda0}: true}, pool: map[[2]Device]bool{{cuda0, cuda1}: true}}
	tests := []struct {
		name          string
		target, owner Device
		kind          Kind
		caps          Caps
		st            facts
		rule          string
		facts         []string
		fix           Fix
	}{
		{"owner", cuda0, cuda0, CUDADevice, capsNone, none, "target is the owner", []string{}, FixNone},
		{"managed-only cpu", CPUDevice, cuda0, CUDAManaged, capsManagedOnly, none,
			"cpu target, CUDA_MANAGED owner: needs concurrent_managed_access or direct_managed_mem_access_from_host",
			[]string{"concurrent_managed_access=1"}, FixNone},
		{"limited cpu", CPUDevice, cuda0, CUDAManaged, capsLimited, none, "cpu target, CUDA_MANAGED owner",
			[]string{"concurrent_managed_access=0", "direct_managed_mem_access_from_host=0"}, FixMove},
		{"direct only cpu", CPUDevice, cuda0, CUDAManaged, capsATSNoDirect, none, "CUDA_MANAGED owner",
			[]string{"concurrent_managed_access=0", "direct_managed_mem_access_from_host=1"}, FixNone},
		{"integrated cpu", CPUDevice, cuda0, CUDAManaged, capsIntegrated, none, "CUDA_MANAGED owner",
			[]string{"concurrent_managed_access=1"}, FixNone},
		{"device memory, managed-only cpu", CPUDevice, cuda0, CUDADevice, capsManagedOnly, none,
			"cpu target, CUDA_DEVICE owner: device memory is never host-accessible", []string{}, FixManaged},
		{"pool memory, limited cpu", CPUDevice, cuda0, CUDAMempool, capsLimited, none, "CUDA_MEMPOOL owner", []string{}, FixMove},
		{"host memory, managed-only GPU", cuda0, CPUDevice, Host, capsManagedOnly, none,
			"CUDA target, HOST owner on the cpu: needs pageable_memory_access", []string{"pageable_memory_access=0"}, FixMove},
		{"host memory, HMM GPU", cuda0, CPUDevice, Host, capsHMM, none, "HOST owner", []string{"pageable_memory_access=1"}, FixNone},
		{"host memory, ATS GPU", cuda0, CPUDevice, Host, capsATS, none, "HOST owner", []string{"pageable_memory_access=1"}, FixNone},
		{"pinned, no UVA", cuda0, CPUDevice, Pinned, capsNone, none, "PINNED owner: needs unified_addressing or pageable_memory_access",
			[]string{"unified_addressing=0", "pageable_memory_access=0"}, FixMove},
		{"pinned", cuda0, CPUDevice, Pinned, capsManagedOnly, none, "PINNED owner", []string{"unified_addressing=1"}, FixNone},
		{"managed cross", cuda1, cuda0, CUDAManaged, capsLimited, none, "needs managed_memory on both",
			[]string{"managed_memory cuda:1=1", "managed_memory cuda:0=1"}, FixNone},
		{"device cross, peers", cuda1, cuda0, CUDADevice, capsManagedOnly, peers, "needs peer access from the target to the owner",
			[]string{"peer_access cuda:1->cuda:0=false", "can_access_peer cuda:1->cuda:0=1"}, FixPeer},
		{"device cross, no peers", cuda1, cuda0, CUDADevice, capsManagedOnly, none, "CUDA_DEVICE owner on another GPU",
			[]string{"peer_access cuda:1->cuda:0=false", "can_access_peer cuda:1->cuda:0=0"}, FixManaged},
		{"device cross, no peers nor managed", cuda1, cuda0, CUDADevice, capsNone, none, "CUDA_DEVICE",
			[]string{"peer_access cuda:1->cuda:0=false", "can_access_peer cuda:1->cuda:0=0"}, FixMove},
		{"device cross, enabled", cuda1, cuda0, CUDADevice, capsManagedOnly, enabled, "CUDA_DEVICE",
			[]string{"peer_access cuda:1->cuda:0=true"}, FixNone},
		{"pool cross, peers", cuda1, cuda0, CUDAMempool, capsManagedOnly, peers, "needs access granted by the owner's pool",
			[]string{"pool_access=not granted", "can_access_peer cuda:1->cuda:0=1"}, FixPool},
		{"pool cross, granted", cuda1, cuda0, CUDAMempool, capsManagedOnly, enabled, "CUDA_MEMPOOL", []string{"pool_access=granted"}, FixNone},
		{"unknown cross", cuda1, cuda0, Unknown, capsATS, enabled, "cannot be proven", []string{}, FixMove},
	}
	for _, tc := range tests {
		r := Access(tc.target, tc.owner, tc.kind, one(tc.caps), tc.st)
		if !strings.Contains(r.Rule, tc.rule) || !slices.Equal(r.Facts, tc.facts) || r.Fix != tc.fix {
			t.Errorf("%s: rule %q, facts %q, fix %d; want %q, %q, %d", tc.name, r.Rule, r.Facts, r.Fix, tc.rule, tc.facts, tc.fix)
		}
	}
}

func TestRemedyText(t *testing.T) {
	tests := []struct {
		fix  Fix
		want string
	}{
		{FixNone, ""},
		{FixMove, `x.to("cuda:1")`},
		{FixPeer, `enable peer access from cuda:1 to cuda:0: enable_peer_access("cuda:0", "cuda:1")`},
		{FixPool, `grant cuda:1 access to the memory pool of cuda:0: enable_mempool_access("cuda:0", "cuda:1")`},
		{FixManaged, "use the managed allocator (array x: ... using managed)"},
	}
	for _, tc := range tests {
		if got := tc.fix.Remedy(cuda1, cuda0, "x"); got != tc.want {
			t.Errorf("fix %d: %q, want %q", tc.fix, got, tc.want)
		}
	}
}

// TestExplainText: explain_access's words, per paradigm, for the cases the
// H200 cannot show.
func TestExplainText(t *testing.T) {
	caps := func(c Caps) func(Device) Caps { return func(Device) Caps { return c } }
	tests := []struct {
		name          string
		target, owner Device
		kind          Kind
		caps          Caps
		accessible    bool
		text          string
	}{
		{"managed-only", CPUDevice, cuda0, CUDAManaged, capsManagedOnly, true,
			"cpu can access x, a CUDA_MANAGED array on cuda:0. Rule: cpu target, CUDA_MANAGED owner: needs concurrent_managed_access " +
				"or direct_managed_mem_access_from_host; here cuda:0 has concurrent_managed_access=1."},
		{"limited", CPUDevice, cuda0, CUDAManaged, capsLimited, false,
			"cpu cannot access x, a CUDA_MANAGED array on cuda:0. Rule: cpu target, CUDA_MANAGED owner: needs concurrent_managed_access " +
				"or direct_managed_mem_access_from_host; here cuda:0 has concurrent_managed_access=0 and " +
				`direct_managed_mem_access_from_host=0. Remedy: x.to("cpu").`},
		{"HMM", cuda0, CPUDevice, Host, capsHMM, true,
			"cuda:0 can access x, a HOST array on cpu. Rule: CUDA target, HOST owner on the cpu: needs pageable_memory_access; " +
				"here cuda:0 has pageable_memory_access=1."},
		{"unknown", CPUDevice, cuda0, Unknown, capsATS, false, "cpu is not proven to access x, a UNKNOWN array on cuda:0."},
	}
	for _, tc := range tests {
		r := Access(tc.target, tc.owner, tc.kind, caps(tc.caps), facts{})
		e := explain(tc.target, tc.owner, tc.kind, r, "x")
		if e.Accessible != tc.accessible || !strings.HasPrefix(e.Text, tc.text) || e.Kind != tc.kind || e.Owner != tc.owner || e.Target != tc.target {
			t.Errorf("%s: %+v\nwant text %q", tc.name, e, tc.text)
		}
		if (e.Remedy == "") != tc.accessible {
			t.Errorf("%s: remedy %q", tc.name, e.Remedy)
		}
	}
}

func TestExplainArray(t *testing.T) {
	st := NewAccessState()
	st.Caps = func(Device) Caps { return capsManagedOnly }
	tr := NewTracker(nil)
	h := fakeArray(t, tr, Host, CPUDevice)
	e, err := st.Explain(CPUDevice, h, "")
	if err != nil || !e.Accessible || e.Rule != "target is the owner: always accessible" || e.Remedy != "" || len(e.Facts) != 0 ||
		e.Text != "cpu can access a, a HOST array on cpu. Rule: target is the owner: always accessible; here the array lives on cpu." {
		t.Errorf("%+v, %v", e, err)
	}
	// The decision is CanAccess's: the same cache, and facts the caller may keep.
	e.Facts = append(e.Facts, "mine")
	if r := st.CanAccess(CPUDevice, h); len(r.Facts) != 0 {
		t.Errorf("Explain handed out the cached facts: %q", r.Facts)
	}
	h.Free()
	if _, err := st.Explain(CPUDevice, h, "h"); !errors.Is(err, ErrFreed) {
		t.Errorf("freed: %v", err)
	}
}

// TestLaunchErrorRemedy: a launch access error ends with explain_access's
// remedy, worded with the call site's variable.
func TestLaunchErrorRemedy(t *testing.T) {
	st := NewAccessState()
	st.Caps = func(Device) Caps { return capsManagedOnly }
	c := NewLaunchChecker(st, nil)
	a := fakeArray(t, NewTracker(nil), CUDAMempool, cuda0)
	err := c.Check(Checked, "k", "x", "d", CPUDevice, a)
	want := "; remedy: use the managed allocator (array d: ... using managed)"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("%v\nwant it to end with %q", err, want)
	}
	e, _ := st.Explain(CPUDevice, a, "d")
	if !strings.HasSuffix(err.Error(), "remedy: "+e.Remedy) {
		t.Errorf("launch error and explain_access disagree: %q vs %q", err, e.Remedy)
	}
}
