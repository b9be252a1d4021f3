package mem

import (
	"errors"
	"sync/atomic"
)

// DeviceProps describes a CUDA device as scripts see it (device_info).
type DeviceProps struct {
	Name            string
	Paradigm        string // the memory paradigm (MEMORY.md section 3), e.g. "hmm"
	Caps            Caps
	TotalMem        uint64 // bytes
	Major, Minor    int    // compute capability
	Multiprocessors int
}

// Props reads dev's properties (read once per process; the cpu has none).
func Props(dev Device) (DeviceProps, error) {
	if !dev.IsCUDA() {
		return DeviceProps{}, errors.New("the cpu has no CUDA device properties")
	}
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return DeviceProps{}, err
	}
	info := d.Info
	return DeviceProps{Name: info.Name, Paradigm: info.Paradigm.String(), Caps: d.caps(), TotalMem: info.TotalMem,
		Major: info.Major, Minor: info.Minor, Multiprocessors: info.MultiprocessorCount}, nil
}

// DeviceMemory is the free and total memory of CUDA device dev
// (cuMemGetInfo).
func DeviceMemory(dev Device) (free, total int64, err error) {
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return 0, 0, err
	}
	err = d.Ctx.Do(func() error {
		f, t, err := d.Drv.MemGetInfo()
		free, total = int64(f), int64(t)
		return err
	})
	return free, total, err
}

// SyncDevice waits for the work gscript queued on dev (nothing to wait for
// on the cpu). With stop non-nil, setting it ends the wait within 10 ms
// with ErrInterrupted; the device keeps running the queued work.
func SyncDevice(dev Device, stop *atomic.Bool) error {
	if !dev.IsCUDA() {
		return nil
	}
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return err
	}
	return d.SyncInterruptible(stop)
}
