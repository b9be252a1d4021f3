package mem

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func newChecker(c Caps) (*LaunchChecker, *[]string) {
	var warnings []string
	st := NewAccessState()
	st.Caps = func(d Device) Caps {
		if d.IsCUDA() {
			return c
		}
		return Caps{}
	}
	return NewLaunchChecker(st, func(s string) { warnings = append(warnings, s) }), &warnings
}

func TestLaunchCheckModes(t *testing.T) {
	tr := NewTracker(nil)
	dev := fakeArray(t, tr, CUDADevice, cuda1)
	managed := fakeArray(t, tr, CUDAManaged, cuda1)
	unknown := fakeArray(t, tr, Unknown, cuda1)
	host := fakeArray(t, tr, Host, CPUDevice)
	limitedManaged := fakeArray(t, tr, CUDAManaged, cuda1)
	tests := []struct {
		mode LaunchMode
		caps Caps
		dev  Device
		a    *Array
		ok   bool
	}{
		{Checked, capsManagedOnly, cuda1, dev, true},
		{Strict, capsManagedOnly, cuda1, dev, true},
		{Checked, capsManagedOnly, cuda0, dev, false},
		{Relaxed, capsManagedOnly, cuda0, dev, true},
		{Strict, capsManagedOnly, cuda0, managed, false},
		{Checked, capsManagedOnly, cuda0, managed, true},
		{Checked, capsManagedOnly, CPUDevice, managed, true},
		{Checked, capsLimited, CPUDevice, limitedManaged, false},
		{Relaxed, capsLimited, CPUDevice, limitedManaged, false}, // cpu launches never get memory the CPU cannot touch
		{Relaxed, capsATS, CPUDevice, dev, false},
		{Relaxed, capsATS, CPUDevice, unknown, false},
		{Checked, capsManagedOnly, cuda0, unknown, true}, // UNKNOWN warns and proceeds
		{Checked, capsManagedOnly, cuda0, host, false},
		{Checked, capsHMM, cuda0, host, true},
		{Relaxed, capsManagedOnly, cuda0, host, true},
	}
	for i, tc := range tests {
		c, _ := newChecker(tc.caps)
		err := c.Check(tc.mode, "k", "x", "x", tc.dev, tc.a)
		if (err == nil) != tc.ok {
			t.Errorf("%d: %s launch on %s of %s on %s: %v, want ok=%v", i, tc.mode, tc.dev, tc.a.Kind(), tc.a.Device(), err, tc.ok)
		}
	}
}

func TestLaunchErrorText(t *testing.T) {
	tr := NewTracker(nil)
	c, _ := newChecker(capsManagedOnly)
	check := func(err error, parts ...string) {
		t.Helper()
		var le *LaunchError
		if !errors.As(err, &le) {
			t.Fatalf("want a *LaunchError, got %v", err)
		}
		for _, p := range parts {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q lacks %q", err, p)
			}
		}
	}
	dev := fakeArray(t, tr, CUDADevice, cuda1)
	check(c.Check(Checked, "saxpy", "y", "y", cuda0, dev),
		"kernel saxpy", "argument y", "array on cuda:1", "memory_kind=CUDA_DEVICE", "launch device cuda:0",
		"peer access from cuda:0 to cuda:1 is not enabled", `y.to("cuda:0")`, "enable peer or pool access",
		"use managed memory", `launch_access = "relaxed"`)
	pool := fakeArray(t, tr, CUDAMempool, cuda1)
	check(c.Check(Checked, "saxpy", "x", "x", cuda0, pool), "memory_kind=CUDA_MEMPOOL", "memory pool of cuda:1 does not grant access to cuda:0")
	check(c.Check(Relaxed, "fill", "a", "a", CPUDevice, dev), "launch device cpu", "CUDA_DEVICE memory of cuda:1 is not host-accessible", `a.to("cpu")`, "even in relaxed mode")
	err := c.Check(Relaxed, "fill", "a", "a", CPUDevice, dev)
	if strings.Contains(err.Error(), `set config.launch_access = "relaxed"`) {
		t.Errorf("a cpu launch error must not suggest relaxed mode: %v", err)
	}
	check(c.Check(Strict, "saxpy", "m", "m", cuda0, fakeArray(t, tr, CUDAManaged, cuda1)), "memory_kind=CUDA_MANAGED", `"strict"`, `m.to("cuda:0")`)
	// A parameter and a differently named variable: both are named, the
	// remedy uses the variable.
	check(c.Check(Checked, "copy", "src", "hh", cuda0, dev), "argument src (hh) is an array", `hh.to("cuda:0")`)
	a := fakeArray(t, tr, CUDADevice, cuda0)
	a.Free()
	if err := c.Check(Checked, "k", "a", "a", cuda0, a); !errors.Is(err, ErrFreed) {
		t.Errorf("freed array: %v", err)
	}
}

func TestLaunchWarnOnce(t *testing.T) {
	tr := NewTracker(nil)
	c, warnings := newChecker(capsManagedOnly)
	u := fakeArray(t, tr, Unknown, cuda1)
	for i := 0; i < 3; i++ {
		if err := c.Check(Checked, "k", "x", "x", cuda0, u); err != nil {
			t.Fatal(err)
		}
	}
	c.Check(Checked, "k", "y", "y", cuda0, u)
	c.Check(Checked, "k2", "x", "x", cuda0, u)
	c.Check(Checked, "k", "x", "x", cuda2, u)
	c.Check(Relaxed, "k3", "x", "x", cuda0, u) // relaxed: no check, no warning
	if len(*warnings) != 4 {
		t.Fatalf("%d warnings, want 4: %q", len(*warnings), *warnings)
	}
	w := (*warnings)[0]
	for _, p := range []string{"kernel k", "argument x", "cuda:1", "memory_kind=UNKNOWN", "cuda:0", "cannot be proven"} {
		if !strings.Contains(w, p) {
			t.Errorf("warning %q lacks %q", w, p)
		}
	}
}

func TestLaunchWarnCacheBound(t *testing.T) {
	tr := NewTracker(nil)
	c, warnings := newChecker(capsManagedOnly)
	c.Limit = 3
	u := fakeArray(t, tr, Unknown, cuda1)
	for i := 0; i < 10; i++ {
		c.Check(Checked, fmt.Sprintf("k%d", i), "x", "x", cuda0, u)
	}
	if n := c.WarnCacheLen(); n != 3 {
		t.Errorf("cache holds %d keys, want the bound 3", n)
	}
	c.Check(Checked, "k9", "x", "x", cuda0, u) // still remembered
	if len(*warnings) != 10 {
		t.Errorf("%d warnings, want 10", len(*warnings))
	}
	c.Check(Checked, "k0", "x", "x", cuda0, u) // forgotten: warns again
	if len(*warnings) != 11 {
		t.Errorf("%d warnings after an evicted key, want 11", len(*warnings))
	}
}

func TestLaunchCheckAllocs(t *testing.T) {
	tr := NewTracker(nil)
	c, _ := newChecker(capsManagedOnly)
	m := fakeArray(t, tr, CUDAManaged, cuda1)
	u := fakeArray(t, tr, Unknown, cuda1)
	same := fakeArray(t, tr, CUDADevice, cuda0)
	for _, a := range []*Array{m, u, same} {
		c.Check(Checked, "k", "x", "x", cuda0, a)
		if n := testing.AllocsPerRun(100, func() { c.Check(Checked, "k", "x", "x", cuda0, a) }); n != 0 {
			t.Errorf("Check of %s allocates %v times per call", a.Kind(), n)
		}
	}
}

// BenchmarkLaunchCheck measures the checked-mode cost per array argument:
// the common same-device case and a cached cross-device decision.
func BenchmarkLaunchCheck(b *testing.B) {
	tr := NewTracker(nil)
	c, _ := newChecker(capsManagedOnly)
	for _, bc := range []struct {
		name string
		a    *Array
	}{
		{"same-device", fakeArray(b, tr, CUDADevice, cuda0)},
		{"cross-device-managed", fakeArray(b, tr, CUDAManaged, cuda1)},
		{"unknown-warned", fakeArray(b, tr, Unknown, cuda1)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.Check(Checked, "saxpy", "x", "x", cuda0, bc.a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
