// Package cudadev holds the process-wide state of each CUDA device that
// gscript uses: the driver, the device's primary context, its properties
// (read once) and the one stream all of gscript's work on it goes to.
//
// Memory policy (runtime/mem) and the CUDA backend (runtime/cuda/kernel)
// must agree on these exactly: host reads wait for this stream, launches
// queue on it, a capture records it. The package is internal to runtime so
// that neither runtime/mem's nor the backend interface's API carries driver
// types: the interpreter and the standard library never see them.
package cudadev

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// Dev is one CUDA device as the runtime uses it.
type Dev struct {
	Ordinal int
	Drv     *cuda.Driver
	Ctx     *cuda.Context
	Info    *cuda.DeviceInfo
	Stream  cuda.Stream
	// capturing is set while a graph capture records Stream: waiting for
	// the stream, or loading a module in the default capture mode, would
	// invalidate the capture.
	capturing atomic.Bool
	// reclaim returns the memory caches keep on the device (SetReclaim).
	reclaim atomic.Pointer[func() error]
}

var devs struct {
	mu sync.Mutex
	m  map[int]*Dev
}

// Count is the number of CUDA devices (0 without a driver).
func Count() int {
	drv, err := cuda.Load()
	if err != nil {
		return 0
	}
	return drv.DeviceCount()
}

// Get returns the state of cuda:ordinal, setting it up on first use. The
// error says what is missing: the driver, or the device.
func Get(ordinal int) (*Dev, error) {
	devs.mu.Lock()
	defer devs.mu.Unlock()
	if d := devs.m[ordinal]; d != nil {
		return d, nil
	}
	drv, err := cuda.Load()
	if err != nil {
		return nil, fmt.Errorf("device cuda:%d is not available: %w", ordinal, err)
	}
	if ordinal < 0 || ordinal >= drv.DeviceCount() {
		return nil, fmt.Errorf("device cuda:%d is not available: this machine has %d CUDA device(s)", ordinal, drv.DeviceCount())
	}
	d := &Dev{Ordinal: ordinal, Drv: drv}
	if d.Info, err = drv.Device(ordinal); err != nil {
		return nil, err
	}
	if d.Ctx, err = drv.PrimaryContext(ordinal); err != nil {
		return nil, err
	}
	err = d.Ctx.Do(func() error {
		var err error
		d.Stream, err = drv.StreamCreate(cuda.StreamNonBlocking)
		return err
	})
	if err != nil {
		return nil, err
	}
	if devs.m == nil {
		devs.m = map[int]*Dev{}
	}
	devs.m[ordinal] = d
	return d, nil
}

// SetCapturing marks the device's stream as being captured into a graph.
func (d *Dev) SetCapturing(on bool) { d.capturing.Store(on) }

// Capturing reports whether a capture records the device's stream.
func (d *Dev) Capturing() bool { return d.capturing.Load() }

// SetReclaim installs fn as the way to return memory that caches keep on
// the device (runtime/mem's pool cache installs its trim). The backend
// calls it through RetryOOM when one of its own driver allocations fails.
func (d *Dev) SetReclaim(fn func() error) { d.reclaim.Store(&fn) }

// RetryOOM runs fn; if fn fails with CUDA_ERROR_OUT_OF_MEMORY and a
// reclaim function is installed, it returns the cached memory and runs fn
// once more: memory a pool keeps for reuse never makes the backend's own
// allocations (a module load, the cuBLAS workspace) fail.
func (d *Dev) RetryOOM(fn func() error) error {
	err := fn()
	if err == nil || !cuda.IsCode(err, cuda.CodeOutOfMemory) {
		return err
	}
	r := d.reclaim.Load()
	if r == nil || (*r)() != nil {
		return err
	}
	return fn()
}
