package mem

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// Caps are a device's memory capabilities (MEMORY.md section 3); the cpu
// has none.
type Caps = cuda.Capabilities

// CUDADev is one CUDA device as the runtime uses it: its primary context,
// capabilities read once, and the stream all of gscript's work on it goes
// to (so host reads need only wait for that stream).
type CUDADev struct {
	Device Device
	Drv    *cuda.Driver
	Ctx    *cuda.Context
	Info   *cuda.DeviceInfo
	Stream cuda.Stream
	mpool  managedPoolState
	dpool  struct {
		once sync.Once
		pool cuda.MemPool
		err  error
	}
	// capturing is set while a graph capture records the stream: waiting
	// for it then would invalidate the capture.
	capturing atomic.Bool
}

// SetCapturing marks the device's stream as being captured into a graph.
func (d *CUDADev) SetCapturing(on bool) { d.capturing.Store(on) }

// errCapturing explains why device data cannot be waited for or read.
func (d *CUDADev) errCapturing() error {
	return fmt.Errorf("cannot wait for %s or read its data inside a capture block: the block records GPU work "+
		"without running it; read the data after replay", d.Device)
}

var cudaDevs struct {
	mu   sync.Mutex
	devs map[int]*CUDADev
}

// CUDADriver loads the CUDA driver once per process.
func CUDADriver() (*cuda.Driver, error) { return cuda.Load() }

// CUDADeviceCount is the number of CUDA devices (0 without a driver).
func CUDADeviceCount() int {
	drv, err := cuda.Load()
	if err != nil {
		return 0
	}
	return drv.DeviceCount()
}

// GetCUDADevice returns the state of cuda:ordinal, setting it up on first
// use. The error says what is missing: the driver, or the device.
func GetCUDADevice(ordinal int) (*CUDADev, error) {
	cudaDevs.mu.Lock()
	defer cudaDevs.mu.Unlock()
	if d := cudaDevs.devs[ordinal]; d != nil {
		return d, nil
	}
	drv, err := cuda.Load()
	if err != nil {
		return nil, fmt.Errorf("device cuda:%d is not available: %w", ordinal, err)
	}
	if ordinal < 0 || ordinal >= drv.DeviceCount() {
		return nil, fmt.Errorf("device cuda:%d is not available: this machine has %d CUDA device(s)", ordinal, drv.DeviceCount())
	}
	d := &CUDADev{Device: Device{Type: CUDA, Ordinal: ordinal}, Drv: drv}
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
	if cudaDevs.devs == nil {
		cudaDevs.devs = map[int]*CUDADev{}
	}
	cudaDevs.devs[ordinal] = d
	return d, nil
}

// deviceCaps is the capability lookup of the access rules for real
// devices: the cpu, and devices that cannot be set up, have none.
func deviceCaps(dev Device) Caps {
	if !dev.IsCUDA() {
		return Caps{}
	}
	d, err := GetCUDADevice(dev.Ordinal)
	if err != nil {
		return Caps{}
	}
	return d.Info.Caps
}

// Sync waits for all work queued on the device's stream.
func (d *CUDADev) Sync() error {
	if d.capturing.Load() {
		return d.errCapturing()
	}
	return d.Ctx.Do(func() error { return d.Drv.StreamSynchronize(d.Stream) })
}

// ErrInterrupted is returned by SyncInterruptible when stop was set.
var ErrInterrupted = errors.New("interrupted while waiting for the device")

// SyncInterruptible waits like Sync, but setting stop (a REPL's Ctrl-C, a
// cancelled context) ends the wait within 10 ms; the device keeps running
// the queued work. The blocking wait runs on its own goroutine so that the
// caller wakes the moment the work completes (polling would add up to its
// interval to every wait, and to every timing taken around one).
func (d *CUDADev) SyncInterruptible(stop *atomic.Bool) error {
	if d.capturing.Load() {
		return d.errCapturing()
	}
	if stop == nil {
		return d.Sync()
	}
	done := make(chan error, 1)
	go func() { done <- d.Sync() }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			if stop.Load() {
				return ErrInterrupted
			}
		}
	}
}

// DefaultPool is the device's default memory pool (the one the mempool
// allocator draws from), read once.
func (d *CUDADev) DefaultPool() (cuda.MemPool, error) {
	d.dpool.once.Do(func() { d.dpool.pool, d.dpool.err = d.Drv.DeviceGetDefaultMemPool(d.Device.Ordinal) })
	return d.dpool.pool, d.dpool.err
}
