package mem

import (
	"errors"
	"strings"
	"testing"
)

func TestParseAdvice(t *testing.T) {
	for v := AdviseReadMostly; v <= AdviseUnsetAccessedBy; v++ {
		if got, err := ParseAdvice(v.String()); err != nil || got != v {
			t.Errorf("%s: %v %v", v, got, err)
		}
	}
	if _, err := ParseAdvice("write_mostly"); err == nil || !strings.Contains(err.Error(), `"read_mostly"`) {
		t.Errorf("write_mostly: %v", err)
	}
	uses := map[Advice]bool{AdvisePreferredLocation: true, AdviseAccessedBy: true, AdviseUnsetAccessedBy: true}
	for v := AdviseReadMostly; v <= AdviseUnsetAccessedBy; v++ {
		if v.UsesDevice() != uses[v] {
			t.Errorf("%s.UsesDevice() = %v", v, v.UsesDevice())
		}
	}
}

// TestManagedOpParadigms: what prefetch and advise refuse in each paradigm
// and for each kind, before any CUDA call.
func TestManagedOpParadigms(t *testing.T) {
	for _, p := range paradigms {
		caps := func(d Device) Caps {
			if d.IsCUDA() {
				return p.caps
			}
			return Caps{}
		}
		for _, target := range []Device{cuda0, cuda1, CPUDevice} {
			err := managedOpRefusal("prefetch", CUDAManaged, cuda0, target, caps, false)
			if refused := err != nil; refused != !p.caps.ConcurrentManagedAccess {
				t.Errorf("%s, to %s: %v", p.name, target, err)
			}
			if err != nil && !strings.Contains(err.Error(), "concurrent_managed_access=0") {
				t.Errorf("%s: %v does not name the capability", p.name, err)
			}
		}
	}
	none := func(Device) Caps { return Caps{} }
	managed := func(Device) Caps { return capsManagedOnly }
	tests := []struct {
		name    string
		kind    Kind
		owner   Device
		target  Device
		caps    func(Device) Caps
		capture bool
		want    string
	}{
		{"host array", Host, CPUDevice, CPUDevice, managed, false, "needs managed memory: the array is HOST memory on cpu"},
		{"pool array", CUDAMempool, cuda0, cuda0, managed, false, "CUDA_MEMPOOL memory on cuda:0 (make it with `using managed`)"},
		{"device array", CUDADevice, cuda0, cuda1, managed, false, "needs managed memory"},
		{"capture first", Host, CPUDevice, CPUDevice, managed, true, "not allowed while a capture block records"},
		{"capture managed", CUDAManaged, cuda0, cuda0, managed, true, "error 900"},
		{"no managed memory", CUDAManaged, cuda0, cuda1, none, false, "cuda:1 does not support managed memory"},
		{"to the cpu: the owner decides", CUDAManaged, cuda0, CPUDevice, func(d Device) Caps {
			if d == cuda0 {
				return capsLimited
			}
			return capsManagedOnly
		}, false, "cuda:0 has concurrent_managed_access=0"},
		{"to another GPU: the target decides", CUDAManaged, cuda0, cuda1, func(d Device) Caps {
			if d == cuda1 {
				return capsLimited
			}
			return capsManagedOnly
		}, false, "cuda:1 has concurrent_managed_access=0"},
	}
	for _, tc := range tests {
		err := managedOpRefusal("prefetch", tc.kind, tc.owner, tc.target, tc.caps, tc.capture)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestPrefetchAdviseRefused: the script-visible refusals without a GPU:
// host memory, a freed array, and anything while a capture records.
func TestPrefetchAdviseRefused(t *testing.T) {
	tr := NewTracker(nil)
	h := fakeArray(t, tr, Host, CPUDevice)
	if err := h.Prefetch(CPUDevice); err == nil || !strings.Contains(err.Error(), "prefetch needs managed memory") {
		t.Errorf("prefetch of host memory: %v", err)
	}
	if err := h.Advise(AdviseReadMostly, CPUDevice); err == nil || !strings.Contains(err.Error(), "advise needs managed memory") {
		t.Errorf("advise of host memory: %v", err)
	}
	if err := h.Advise(0, CPUDevice); err == nil {
		t.Error("advice 0 accepted")
	}
	m := fakeArray(t, tr, CUDAManaged, cuda0)
	captures.Add(1) // as if a capture recorded somewhere in the process
	err := m.Prefetch(cuda0)
	captures.Add(-1)
	if err == nil || !strings.Contains(err.Error(), "capture block") {
		t.Errorf("prefetch during a capture: %v", err)
	}
	h.Free()
	if err := h.Prefetch(CPUDevice); !errors.Is(err, ErrFreed) {
		t.Errorf("prefetch of a freed array: %v", err)
	}
}

func TestNoteAdvice(t *testing.T) {
	b := fakeArray(t, NewTracker(nil), CUDAManaged, cuda0).buf
	steps := []struct {
		adv  Advice
		want bool
	}{
		{AdviseAccessedBy, false}, {AdvisePreferredLocation, true}, {AdviseReadMostly, true},
		{AdviseUnsetPreferredLocation, true}, {AdviseUnsetReadMostly, false}, {AdviseUnsetAccessedBy, false},
	}
	for _, s := range steps {
		b.noteAdvice(s.adv)
		if b.advised() != s.want {
			t.Errorf("after %s: advised %v, want %v", s.adv, b.advised(), s.want)
		}
	}
}
