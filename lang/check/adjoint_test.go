package check

import "testing"

// TestAdjointsInfo checks that Info.Adjoints maps a kernel to the
// declaration of its adjoint, and only kernels that declare one.
func TestAdjointsInfo(t *testing.T) {
	f := parse(t, `kernel k(x: array[f32]) adjoint k_adj {}
kernel k_adj(x: array[f32], g: array[f32]) {}
kernel plain(x: array[f32]) {}
`)
	info, err := newTestChecker().Check(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Adjoints) != 1 {
		t.Fatalf("Adjoints has %d entries, want 1", len(info.Adjoints))
	}
	for k, adj := range info.Adjoints {
		if k.Name.Name != "k" || adj.Name.Name != "k_adj" || info.Kernels[adj] == nil {
			t.Errorf("Adjoints maps %s to %s (lowered: %v), want k to k_adj", k.Name.Name, adj.Name.Name, info.Kernels[adj] != nil)
		}
	}
}
