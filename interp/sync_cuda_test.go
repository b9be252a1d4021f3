package interp_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestSynchronizeInterrupted: a synchronize() waiting for a kernel that
// runs for about a second ends soon after the run is cancelled, past the short
// polling phase of the wait (runtime/mem's spinWait) as well as within
// it; a short wait ends with its work.
func TestSynchronizeInterrupted(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cuda:0", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	setup := `
kernel spin(x: array[f32], n: i32) {
    let s: f32 = x[tid()]
    for k in range(n) {
        s = s * 0.999999 + 1e-7
    }
    x[tid()] = s
}
array x: f32[256]
launch spin[256](x, 10)
synchronize()
`
	if err := in.Exec(context.Background(), "setup.gs", []byte(setup)); err != nil {
		t.Fatal(err)
	}
	for _, after := range []time.Duration{200 * time.Microsecond, 20 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(after, cancel)
		t0 := time.Now()
		err := in.Exec(ctx, "wait.gs", []byte("launch spin[256](x, 300000000)\nsynchronize()"))
		took := time.Since(t0)
		cancel()
		// mem's "interrupted while waiting for the device", positioned
		if err == nil || !strings.Contains(err.Error(), "interrupted while waiting") || took > after+300*time.Millisecond {
			t.Errorf("cancelled after %v: err %v after %v", after, err, took)
		}
	}
	// the stream still drains: the long kernels run to their end
	if err := in.Exec(context.Background(), "drain.gs", []byte("synchronize()")); err != nil {
		t.Fatal(err)
	}
}
