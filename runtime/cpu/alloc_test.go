package cpu

import (
	"math"
	"testing"
)

// TestLaunchAllocates holds a steady-state launch of a small kernel to no
// allocation, run by the caller alone and by several workers (the
// backend interface's promise): the launch state and the workers'
// closures are the Program's, reused.
func TestLaunchAllocates(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	p := saxpyKernel().compile(t)
	n := 8 * p.width // blocks for every worker
	x, y := make([]float32, n), make([]float32, n)
	args := []Arg{slice(x), slice(y), {Bits: uint64(math.Float32bits(3))}}
	for _, workers := range []int{1, 4} {
		launch := func() {
			if err := p.Launch([]int{n}, args, Options{Workers: workers}); err != nil {
				t.Fatal(err)
			}
		}
		// Warm the runtime's goroutine free lists up: a worker that ends
		// on another core leaves its goroutine there.
		for range 1000 {
			launch()
		}
		if allocs := testing.AllocsPerRun(1000, launch); allocs != 0 {
			t.Errorf("%d workers: a launch allocates %v times", workers, allocs)
		}
	}
}

// BenchmarkLaunch times the launch of a kernel of one thread: the
// executor's per-launch overhead.
func BenchmarkLaunch(b *testing.B) {
	p := saxpyKernel().compile(b)
	x, y := make([]float32, 1), make([]float32, 1)
	args := []Arg{slice(x), slice(y), {Bits: uint64(math.Float32bits(3))}}
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Launch([]int{1}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
