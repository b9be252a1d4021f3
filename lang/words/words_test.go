package words

import (
	"slices"
	"testing"
)

func TestKernel(t *testing.T) {
	w := Kernel()
	for _, want := range []string{"tid", "sqrt", "atomic_add", "vec3", "f32", "let", "inf", "shared"} {
		if !slices.Contains(w, want) {
			t.Errorf("Kernel() lacks %q", want)
		}
	}
	if !slices.IsSorted(w) || len(slices.Compact(slices.Clone(w))) != len(w) {
		t.Error("Kernel() is not sorted and unique")
	}
	if got := Components(3); !slices.Equal(got, []string{"x", "y", "z"}) {
		t.Errorf("Components(3) = %v", got)
	}
}
