package interp_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// GPU tests of the automatic prefetch (MEMORY.md section 8). They skip
// without a CUDA device with concurrent managed access, and print figures
// with t.Logf; nothing is asserted about time.

func managedInterp(t *testing.T, needBytes int64) (*interp.Interp, *strings.Builder) {
	t.Helper()
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	cuda0 := mem.Device{Type: mem.CUDA}
	p, err := mem.Props(cuda0)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Caps.ConcurrentManagedAccess {
		t.Skip("no concurrent managed access: nothing is prefetched there")
	}
	mem.TrimCaches(cuda0) // what the pool keeps from earlier tests
	if free, _, err := mem.DeviceMemory(cuda0); err != nil || free < 2*needBytes {
		t.Skipf("%d bytes free on cuda:0 (%v): the test takes %d of managed memory and leaves as much free", free, err, needBytes)
	}
	out := &strings.Builder{}
	in, err := interp.New(interp.Options{Stdout: out, Device: "cuda:0", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in, out
}

func execTimed(t *testing.T, in *interp.Interp, src string) time.Duration {
	t.Helper()
	t0 := time.Now()
	if err := in.Exec(context.Background(), "<test>", []byte(src)); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return time.Since(t0)
}

const firstUseN = 1 << 27 // f32 elements: x and y take 512 MiB each, 1 GiB in all

// TestGPUManagedFirstUse times the first GPU saxpy over 1 GiB of managed
// memory that a cpu launch wrote: with config.prefetch = "off" (page
// faults), "auto" (the launch prefetches), and an explicit prefetch of
// both arrays before the launch (timed with it, as CuPy's
// ManagedMemory.prefetch in ../shared/bench/workloads.py managed). The
// second launch, with everything resident, is the ceiling. Three
// interleaved rounds; medians.
func TestGPUManagedFirstUse(t *testing.T) {
	in, _ := managedInterp(t, 8*firstUseN)
	execTimed(t, in, fmt.Sprintf(`
kernel init(x: array[f32], y: array[f32]) { let i = tid(); x[i] = 1.0; y[i] = 2.0 }
kernel saxpy(x: array[f32], y: array[f32], a: f32) { let i = tid(); y[i] = a * x[i] + y[i] }
let n = %d
array x: f32[n] on "cuda:0" using managed
array y: f32[n] on "cuda:0" using managed
array wx: f32[256] on "cuda:0"
array wy: f32[256] on "cuda:0"
launch saxpy[256](wx, wy, 2.0) on "cuda:0"
launch init[256](wx.to("cpu"), wy.to("cpu")) on "cpu"
synchronize()`, firstUseN))
	modes := []struct{ name, config, before string }{
		{"off", "off", ""},
		{"auto", "auto", ""},
		{"explicit", "off", `prefetch(x, "cuda:0")` + "\n" + `prefetch(y, "cuda:0")` + "\n"},
	}
	first, second, write := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	gbs := func(bytes float64, d time.Duration) float64 { return bytes / d.Seconds() / 1e9 }
	for round := range 3 {
		for _, m := range modes {
			execTimed(t, in, fmt.Sprintf("config.prefetch = %q\nsynchronize()", m.config))
			dw := execTimed(t, in, `launch init[n](x, y) on "cpu"`)
			d1 := execTimed(t, in, m.before+`launch saxpy[n](x, y, 2.0) on "cuda:0"`+"\nsynchronize()")
			d2 := execTimed(t, in, `launch saxpy[n](x, y, 2.0) on "cuda:0"`+"\nsynchronize()")
			execTimed(t, in, `assert y[0] == 6.0 && y[n - 1] == 6.0, "saxpy result"`)
			write[m.name] = append(write[m.name], gbs(8*firstUseN, dw))
			first[m.name] = append(first[m.name], gbs(12*firstUseN, d1))
			second[m.name] = append(second[m.name], gbs(12*firstUseN, d2))
			t.Logf("round %d, %-8s: cpu write %6.1f GB/s, first saxpy %7.1f GB/s, second %7.1f GB/s",
				round, m.name, write[m.name][round], first[m.name][round], second[m.name][round])
		}
	}
	med := func(xs []float64) float64 { s := slices.Clone(xs); slices.Sort(s); return s[len(s)/2] }
	for _, m := range modes {
		t.Logf("median %-8s: cpu write %6.1f GB/s, first saxpy %7.1f GB/s, second %7.1f GB/s",
			m.name, med(write[m.name]), med(first[m.name]), med(second[m.name]))
	}
	t.Logf("first saxpy, auto / explicit = %.2f (goal: >= 0.91, i.e. within 1.1x), auto / off = %.2f (goal: >= 1)",
		med(first["auto"])/med(first["explicit"]), med(first["auto"])/med(first["off"]))
	execTimed(t, in, "free(x)\nfree(y)")
}

// TestGPUManagedCaptureReplay: a capture of launches on managed arrays
// that the host wrote, replayed 100 times, twice, with the host writing
// between: no capture is invalidated and the results are exact. Prefetch
// and advice inside the block are refused, and the next capture works.
func TestGPUManagedCaptureReplay(t *testing.T) {
	in, out := managedInterp(t, 32<<20)
	execTimed(t, in, `
config.prefetch = "auto"
kernel step(x: array[f32], y: array[f32]) { let i = tid(); y[i] = y[i] + x[i]; x[i] = x[i] + 1.0 }
let n = 1 << 22
array x: f32[n] = 1.0 on "cuda:0" using managed
array y: f32[n] on "cuda:0" using managed
capture g on "cuda:0" {
    launch step[n](x, y)
}`)
	d := execTimed(t, in, "replay(g, 100)\nsynchronize()")
	execTimed(t, in, `print(x[0], x[n - 1], y[0], y[n - 1])
y[0] = 0.0
replay(g, 100)
print(x[0], y[0], y[1], y[n - 1])`)
	want := "101.0 101.0 5050.0 5050.0\n201.0 15050.0 20100.0 20100.0\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
	t.Logf("100 replays of a 1-kernel graph over 2 x 16 MiB of managed memory: %.1f us per replay", d.Seconds()*1e6/100)
	for _, src := range []string{`capture g2 on "cuda:0" { prefetch(x, "cuda:0") }`, `capture g2 on "cuda:0" { advise(x, "read_mostly") }`} {
		err := in.Exec(context.Background(), "<test>", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "not allowed while a capture block records") {
			t.Errorf("%s: %v", src, err)
		}
	}
	out.Reset()
	execTimed(t, in, "capture g3 on \"cuda:0\" { launch step[n](x, y) }\nreplay(g3)\nprint(x[0])")
	if out.String() != "202.0\n" {
		t.Errorf("after the refusals: %q", out.String())
	}
}

// TestGPUManagedLaunchLoopAllocates: a launch loop over resident managed
// arrays allocates nothing per launch: the automatic prefetch costs one
// comparison per managed argument.
func TestGPUManagedLaunchLoopAllocates(t *testing.T) {
	in, _ := managedInterp(t, 1<<20)
	execTimed(t, in, `
kernel k3(a: array[f32], b: array[f32], c: array[f32]) { if len(a) < 0 { a[0] = b[0] + c[0] } }
array a: f32[1 << 20] on "cuda:0" using managed
array b: f32[1] on "cuda:0" using managed
array c: f32[1] on "cuda:0"
for i in range(100) { launch k3[1](a, b, c) }
synchronize()`)
	checkLoopAllocates(t, "for i in range(%d) { launch k3[1](a, b, c) }\nsynchronize()", func(src string) { execTimed(t, in, src) })

}
