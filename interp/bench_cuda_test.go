package interp_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// BenchmarkScriptLaunch times the script statement `launch k3[1](a, b, c)`
// in a for loop (3 array arguments, 1 thread) on cuda:0, including the
// final synchronization: the script-level launch overhead of GPU.md.
func BenchmarkScriptLaunch(b *testing.B) {
	if mem.CUDADeviceCount() == 0 {
		b.Skip("no CUDA device")
	}
	for _, mode := range []string{"checked", "relaxed"} {
		b.Run(mode, func(b *testing.B) {
			in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cuda:0", LaunchAccess: mode, Predeclared: stdlib.Universe()})
			if err != nil {
				b.Fatal(err)
			}
			defer in.Close()
			setup := `
kernel k3(a: array[f32], b: array[f32], c: array[f32]) {
    if len(a) < 0 { a[0] = b[0] + c[0] }
}
array a: f32[1]
array b: f32[1]
array c: f32[1]
for i in range(1000) { launch k3[1](a, b, c) }
synchronize()
`
			ctx := context.Background()
			if err := in.Exec(ctx, "setup.gs", []byte(setup)); err != nil {
				b.Fatal(err)
			}
			loop := []byte(fmt.Sprintf("for i in range(%d) { launch k3[1](a, b, c) }\nsynchronize()", b.N))
			b.ResetTimer()
			if err := in.Exec(ctx, "loop.gs", loop); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// TestGPULaunchLoopAllocates checks that a launch statement in a loop
// allocates nothing per iteration on CUDA: the Mallocs of a 20000-launch
// loop exceed those of a 10000-launch loop by far less than one per launch.
// (A float literal argument would allocate: evaluating it boxes a value.)
func TestGPULaunchLoopAllocates(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	in := newLaunchLoop(t, "cuda:0")
	ctx := context.Background()
	checkLoopAllocates(t, "for i in range(%d) { launch k3[1](a, b, c, s) }\nsynchronize()", func(src string) {
		if err := in.Exec(ctx, "loop.gs", []byte(src)); err != nil {
			t.Fatal(err)
		}
	})
}
