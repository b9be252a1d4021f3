package mem

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda"
)

// capsIntegrated is a synthetic integrated GPU (a Jetson-like part): the
// CPU and the GPU share one memory.
var capsIntegrated = Caps{UnifiedAddressing: true, ManagedMemory: true, ConcurrentManagedAccess: true, Integrated: true,
	CanMapHostMemory: true}

// paradigms are the capability sets of MEMORY.md section 3, plus an
// integrated GPU: the H200 shows only managed-only.
var paradigms = []struct {
	name string
	caps Caps
}{
	{"limited", capsLimited}, {"managed-only", capsManagedOnly}, {"HMM", capsHMM}, {"ATS", capsATS},
	{"ATS without concurrent access", capsATSNoDirect}, {"integrated", capsIntegrated},
}

// TestAutoPrefetchParadigms: what the automatic policy prefetches in each
// paradigm, for a launch after host writes and for a host access after a
// launch, of 1 GiB of managed memory.
func TestAutoPrefetchParadigms(t *testing.T) {
	want := map[string]bool{"limited": false, "managed-only": true, "HMM": true, "ATS": true,
		"ATS without concurrent access": false, "integrated": false}
	for _, p := range paradigms {
		launch := autoFacts{Kind: CUDAManaged, Bytes: 1 << 30, Last: CPUDevice, Target: cuda0, Caps: p.caps}
		host := autoFacts{Kind: CUDAManaged, Bytes: 1 << 30, Last: cuda0, Target: CPUDevice, Caps: p.caps}
		for _, f := range []autoFacts{launch, host} {
			if got, why := autoPrefetch(f); got != want[p.name] {
				t.Errorf("%s, %s -> %s: prefetch %v (%s), want %v", p.name, f.Last, f.Target, got, why, want[p.name])
			}
		}
	}
}

// TestAutoPrefetchRules: each condition of the policy, in order, on the
// H200's paradigm.
func TestAutoPrefetchRules(t *testing.T) {
	base := autoFacts{Kind: CUDAManaged, Bytes: AutoPrefetchMin, Last: CPUDevice, Target: cuda0, Caps: capsManagedOnly}
	tests := []struct {
		name string
		edit func(*autoFacts)
		want bool
		why  string
	}{
		{"host to GPU", func(*autoFacts) {}, true, ""},
		{"GPU to GPU", func(f *autoFacts) { f.Last = cuda1 }, true, ""},
		{"GPU to host", func(f *autoFacts) { f.Last, f.Target = cuda0, CPUDevice }, true, ""},
		{"off", func(f *autoFacts) { f.Mode = PrefetchOff }, false, `"off"`},
		{"not managed", func(f *autoFacts) { f.Kind = CUDAMempool }, false, "not managed"},
		{"resident", func(f *autoFacts) { f.Last = cuda0 }, false, "already"},
		{"capturing", func(f *autoFacts) { f.Capturing = true }, false, "capture"},
		{"advised", func(f *autoFacts) { f.Advised = true }, false, "advice"},
		{"small", func(f *autoFacts) { f.Bytes = AutoPrefetchMin - 1 }, false, "2 MiB"},
		{"no concurrent access", func(f *autoFacts) { f.Caps = capsLimited }, false, "concurrent"},
		{"integrated", func(f *autoFacts) { f.Caps = capsIntegrated }, false, "integrated"},
	}
	for _, tc := range tests {
		f := base
		tc.edit(&f)
		if got, why := autoPrefetch(f); got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%s: %v %q, want %v %q", tc.name, got, why, tc.want, tc.why)
		}
	}
}

func TestParsePrefetchMode(t *testing.T) {
	for _, m := range []PrefetchMode{PrefetchAuto, PrefetchOff} {
		if got, err := ParsePrefetchMode(m.String()); err != nil || got != m {
			t.Errorf("%s: %v %v", m, got, err)
		}
	}
	if _, err := ParsePrefetchMode("on"); err == nil || !strings.Contains(err.Error(), `"auto" or "off"`) {
		t.Errorf("on: %v", err)
	}
	tr := NewTracker(nil)
	if tr.Prefetch() != PrefetchAuto {
		t.Error("auto is the default")
	}
	tr.SetPrefetch(PrefetchOff)
	if tr.Prefetch() != PrefetchOff {
		t.Error("SetPrefetch(off)")
	}
}

// TestTouchTracking: a launch touches the whole buffer, a host access its
// bytes (merged while the host stays the last toucher), and an explicit
// prefetch becomes the last touch only when it moved all of them.
func TestTouchTracking(t *testing.T) {
	a := fakeArray(t, NewTracker(nil), CUDAManaged, cuda0) // 64 bytes
	b := a.buf
	check := func(what string, dev Device, lo, hi int) {
		t.Helper()
		if d, l, h := b.lastTouch(); d != dev || l != lo || h != hi {
			t.Errorf("%s: last touch %s [%d, %d), want %s [%d, %d)", what, d, l, h, dev, lo, hi)
		}
	}
	check("as allocated", cuda0, 0, 64)
	if place(b.last.at.Load()) == placeOf(cuda0) {
		t.Error("the zero value is the owner, not yet cuda:0's own place")
	}
	b.touched(placeOf(cuda0), 0, 0)
	if place(b.last.at.Load()) != placeOf(cuda0) {
		t.Error("a launch on the owner gives the owner's own place (the one-comparison fast path)")
	}
	b.touched(placeHost, 8, 12)
	check("element store", CPUDevice, 8, 12)
	b.touched(placeHost, 40, 44)
	check("second store", CPUDevice, 8, 44)
	b.moved(placeOf(cuda1), 16, 64)
	check("a prefetch that misses bytes", CPUDevice, 8, 44)
	b.moved(placeOf(cuda1), 0, 48)
	check("a prefetch of them all", cuda1, 0, 64)
	b.moved(placeHost, 0, 64)
	check("a prefetch to the host", CPUDevice, 0, 64)
	b.touched(placeOf(cuda0), 0, 0)
	check("a launch", cuda0, 0, 64)
}

func TestLaunchPrefetchAdd(t *testing.T) {
	tr := NewTracker(nil)
	m := fakeArray(t, tr, CUDAManaged, cuda0)
	pool := fakeArray(t, tr, CUDAMempool, cuda0)
	var p LaunchPrefetch
	p.Start(cuda0)
	p.Add(pool)
	p.Add(m) // the owner's zero value: decided once by Issue
	if len(p.bufs) != 1 {
		t.Fatalf("%d buffers collected, want the managed one", len(p.bufs))
	}
	m.buf.touched(placeOf(cuda0), 0, 0)
	p.Start(cuda0)
	p.Add(m)
	p.Add(pool)
	if len(p.bufs) != 0 {
		t.Error("a resident managed buffer was collected")
	}
	p.Start(CPUDevice)
	p.Add(m)
	if len(p.bufs) != 0 {
		t.Error("a cpu launch collected a buffer: host launches prefetch through SyncForHost")
	}
	p.Start(cuda1)
	p.Add(m)
	if len(p.bufs) != 1 {
		t.Error("a buffer last touched by cuda:0 was not collected for cuda:1")
	}
	g := fakeArray(t, tr, CUDAManaged, cuda0)
	g.buf.graphMem = true
	p.Start(cuda1)
	p.Add(g)
	if len(p.bufs) != 0 {
		t.Error("graph memory was collected: it is mapped only while its graph runs")
	}
}

// TestLaunchPrefetchAllocs: the automatic prefetch adds no allocation to
// the launch path in steady state (non-managed arguments, and managed ones
// already resident).
func TestLaunchPrefetchAllocs(t *testing.T) {
	tr := NewTracker(nil)
	m := fakeArray(t, tr, CUDAManaged, cuda0)
	d := fakeArray(t, tr, CUDADevice, cuda0)
	m.buf.touched(placeOf(cuda0), 0, 0)
	var p LaunchPrefetch
	launch := func() {
		p.Start(cuda0)
		p.Add(m)
		p.Add(d)
		if err := p.Issue(); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(100, launch); n != 0 {
		t.Errorf("steady-state launch prefetch allocates %v times", n)
	}
}

// TestPages: prefetch ranges widen to whole pages, within the buffer.
func TestPages(t *testing.T) {
	a, err := NewTracker(nil).New(newFake(CUDAManaged), cuda0, ir.U8, []int{10000})
	if err != nil {
		t.Fatal(err)
	}
	base := cuda.DevicePtr(a.buf.a.ptr)
	for _, c := range []struct{ lo, hi, off, n int }{
		{5, 9, 0, 4096}, {4095, 4097, 0, 8192}, {4096, 8192, 4096, 4096}, {9000, 10000, 8192, 1808}, {0, 10000, 0, 10000},
	} {
		if p, n := a.buf.pages(c.lo, c.hi); p != base+cuda.DevicePtr(c.off) || n != c.n {
			t.Errorf("pages(%d, %d) = +%d, %d; want +%d, %d", c.lo, c.hi, p-base, n, c.off, c.n)
		}
	}
}
