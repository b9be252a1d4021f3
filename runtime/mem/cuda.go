package mem

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/internal/cudadev"
)

// Caps are a device's memory capabilities (MEMORY.md section 3); the cpu
// has none. The fields are the driver's (cuda.Capabilities) so the two
// convert into each other, but runtime/mem's API names its own type.
type Caps struct {
	UnifiedAddressing                      bool
	ManagedMemory                          bool
	ConcurrentManagedAccess                bool
	PageableMemoryAccess                   bool
	PageableMemoryAccessUsesHostPageTables bool
	DirectManagedMemAccessFromHost         bool
	HostNativeAtomicSupported              bool
	MemoryPoolsSupported                   bool
	Integrated                             bool
	CanMapHostMemory                       bool
}

// cudaDev is one CUDA device as memory policy uses it: the process-wide
// state shared with the CUDA backend (context, properties, the stream all
// of gscript's work on it goes to, so host reads need only wait for that
// stream) and the memory pools gscript made there.
type cudaDev struct {
	*cudadev.Dev
	Device Device
	mpool  managedPoolState
	dpool  struct {
		once sync.Once
		pool cuda.MemPool
		err  error
	}
	poolKeep sync.Once               // the default pool's release threshold raised (keepPool)
	staging  stagingPool             // page-locked buffers of streaming copies
	capture  atomic.Pointer[Capture] // the capture recording the stream, if any
}

// caps are the device's memory capabilities.
func (d *cudaDev) caps() Caps { return Caps(d.Info.Caps) }

// errCapturing explains why device data cannot be waited for or read.
func (d *cudaDev) errCapturing() error {
	return fmt.Errorf("cannot wait for %s or read its data inside a capture block: the block records GPU work "+
		"without running it; read the data after replay", d.Device)
}

var cudaDevs struct {
	mu   sync.Mutex
	devs map[int]*cudaDev
}

// CUDAAvailable reports why CUDA cannot be used in this process (the
// driver library is missing or fails to initialise), or nil.
func CUDAAvailable() error {
	_, err := cuda.Load()
	return err
}

// CUDADeviceCount is the number of CUDA devices (0 without a driver).
func CUDADeviceCount() int { return cudadev.Count() }

// CheckDevice sets dev up if it is a CUDA device not used before; the
// error says what is missing: the driver, or the device.
func CheckDevice(dev Device) error {
	if !dev.IsCUDA() {
		return nil
	}
	_, err := getCUDADevice(dev.Ordinal)
	return err
}

// getCUDADevice returns the state of cuda:ordinal, setting it up on first
// use.
func getCUDADevice(ordinal int) (*cudaDev, error) {
	cudaDevs.mu.Lock()
	defer cudaDevs.mu.Unlock()
	if d := cudaDevs.devs[ordinal]; d != nil {
		return d, nil
	}
	shared, err := cudadev.Get(ordinal)
	if err != nil {
		return nil, err
	}
	d := &cudaDev{Dev: shared, Device: Device{Type: CUDA, Ordinal: ordinal}}
	shared.SetReclaim(func() error { return d.Ctx.Do(d.trimPools) })
	if cudaDevs.devs == nil {
		cudaDevs.devs = map[int]*cudaDev{}
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
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return Caps{}
	}
	return d.caps()
}

// Sync waits for all work queued on the device's stream.
func (d *cudaDev) Sync() error {
	if d.Capturing() {
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
func (d *cudaDev) SyncInterruptible(stop *atomic.Bool) error {
	if d.Capturing() {
		return d.errCapturing()
	}
	if stop == nil {
		return d.Sync()
	}
	if drained, err := d.spin(stop); drained || err != nil {
		return err
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

// spinWait is how long SyncInterruptible polls the stream on the calling
// goroutine before it hands the wait to a goroutine of its own. Waits as
// short as a reduction's (a few hundred microseconds) then end when the
// work does, without waking one goroutine from another; longer ones cost
// at most this much of a core.
const spinWait = time.Millisecond

// spin polls the stream until it drains (true), stop is set
// (ErrInterrupted) or spinWait passes (false).
func (d *cudaDev) spin(stop *atomic.Bool) (bool, error) {
	drained := false
	err := d.Ctx.Do(func() error {
		for end := time.Now().Add(spinWait); time.Now().Before(end); {
			if stop.Load() {
				return ErrInterrupted
			}
			ok, err := d.Drv.StreamQuery(d.Stream)
			if ok || err != nil {
				drained = ok
				return err
			}
		}
		return nil
	})
	return drained, err
}

// DefaultPool is the device's default memory pool (the one the mempool
// allocator draws from), read once.
func (d *cudaDev) DefaultPool() (cuda.MemPool, error) {
	d.dpool.once.Do(func() { d.dpool.pool, d.dpool.err = d.Drv.DeviceGetDefaultMemPool(d.Device.Ordinal) })
	return d.dpool.pool, d.dpool.err
}
