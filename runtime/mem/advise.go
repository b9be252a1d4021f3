package mem

import (
	"fmt"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// Explicit prefetch and advice (MEMORY.md section 8): prefetch(a, dev) and
// advise(a, advice, dev) on managed arrays and their views, each on the
// view's byte range. Both are refused before any CUDA call where they
// cannot work: inside a capture (CUDA fails them with error 900 and
// invalidates the capture), for memory that is not managed, and where the
// device that matters lacks concurrent managed access.

// Advice is an advise() argument; the values are CUmem_advise's.
type Advice uint8

const (
	AdviseReadMostly Advice = iota + 1
	AdviseUnsetReadMostly
	AdvisePreferredLocation
	AdviseUnsetPreferredLocation
	AdviseAccessedBy
	AdviseUnsetAccessedBy
)

var adviceNames = [...]string{"", "read_mostly", "unset_read_mostly", "preferred_location", "unset_preferred_location",
	"accessed_by", "unset_accessed_by"}

func (v Advice) String() string {
	if v > 0 && int(v) < len(adviceNames) {
		return adviceNames[v]
	}
	return fmt.Sprintf("Advice(%d)", int(v))
}

// ParseAdvice parses an advice name.
func ParseAdvice(s string) (Advice, error) {
	for i, n := range adviceNames[1:] {
		if s == n {
			return Advice(i + 1), nil
		}
	}
	return 0, fmt.Errorf("invalid advice %q: want \"read_mostly\", \"preferred_location\" or \"accessed_by\", or one of them prefixed with \"unset_\"", s)
}

// UsesDevice reports whether the advice names a device; the others
// (read_mostly, unset_read_mostly, unset_preferred_location) ignore it.
func (v Advice) UsesDevice() bool {
	return v == AdvisePreferredLocation || v == AdviseAccessedBy || v == AdviseUnsetAccessedBy
}

// managedOpRefusal says why op (prefetch or advise) of kind memory owned
// by owner, for target, may not run, or nil. It is pure. The device that
// must have concurrent managed access is target when that is a GPU, else
// the owner (the host side of the same migrations).
func managedOpRefusal(op string, kind Kind, owner, target Device, caps func(Device) Caps, capturing bool) error {
	if capturing {
		return fmt.Errorf("%s is not allowed while a capture block records (CUDA fails it with error 900 and invalidates the capture): "+
			"%s before the block; the managed arrays a capture block uses are prefetched to its device before it replays", op, op)
	}
	if kind != CUDAManaged {
		return fmt.Errorf("%s needs managed memory: the array is %s memory on %s (make it with `using managed`)", op, kind, owner)
	}
	decider := owner
	if target.IsCUDA() {
		decider = target
	}
	c := caps(decider)
	if !c.ManagedMemory {
		return fmt.Errorf("%s: %s does not support managed memory (managed_memory=0)", op, decider)
	}
	if !c.ConcurrentManagedAccess {
		return fmt.Errorf("%s needs concurrent managed access: %s has concurrent_managed_access=0 (the driver moves managed memory as a whole around its kernels there)", op, decider)
	}
	return nil
}

// location is dev as a CUmemLocation.
func location(dev Device) cuda.MemLocation {
	if dev.IsCUDA() {
		return cuda.DeviceLocation(dev.Ordinal)
	}
	return cuda.HostLocation
}

// managedRange checks op for a and target and returns a's owner device
// and its bytes widened to whole pages (a count of 0: nothing to do).
func (a *Array) managedRange(op string, target Device) (*cudaDev, cuda.DevicePtr, int, error) {
	if a.Freed() {
		return nil, 0, 0, ErrFreed
	}
	capturing := captures.Load() != 0
	if !capturing { // setting a device up makes CUDA calls
		if err := CheckDevice(target); err != nil {
			return nil, 0, 0, err
		}
	}
	if err := managedOpRefusal(op, a.Kind(), a.Device(), target, deviceCaps, capturing); err != nil {
		return nil, 0, 0, err
	}
	d, err := getCUDADevice(a.Device().Ordinal)
	if err != nil {
		return nil, 0, 0, err
	}
	lo, hi := a.span()
	if hi == lo {
		return d, 0, 0, nil
	}
	p, n := a.buf.pages(a.off+lo, a.off+hi)
	return d, p, n, nil
}

// Prefetch migrates a's bytes (a view's byte range) to dev, a CUDA device
// or the cpu: asynchronously, on the stream of a's device after the work
// other devices queued on a (cuMemPrefetchAsync_v2). When it moves every
// byte that a's last toucher touched, dev becomes the last touch of the
// automatic policy.
func (a *Array) Prefetch(dev Device) error {
	d, p, n, err := a.managedRange("prefetch", dev)
	if err != nil || n == 0 {
		return err
	}
	if err := a.WaitForUsers(a.Device()); err != nil {
		return err
	}
	err = d.Ctx.Do(func() error { return d.Drv.MemPrefetchAsync(p, n, location(dev), 0, d.Stream) })
	if err != nil {
		return fmt.Errorf("prefetch to %s: %w", dev, err)
	}
	lo, hi := a.span()
	a.buf.moved(placeOf(dev), a.off+lo, a.off+hi)
	return nil
}

// Advise gives the driver advice about a's bytes (a view's byte range)
// for dev (cuMemAdvise_v2). dev matters only to the advice that names a
// device (UsesDevice); the others are checked against a's own device.
// While preferred_location or read_mostly is set anywhere in a's buffer,
// the automatic prefetch leaves the whole buffer to the driver.
func (a *Array) Advise(adv Advice, dev Device) error {
	if adv < AdviseReadMostly || adv > AdviseUnsetAccessedBy {
		return fmt.Errorf("advise: invalid advice %d", int(adv))
	}
	if !adv.UsesDevice() {
		dev = a.Device()
	}
	d, p, n, err := a.managedRange("advise", dev)
	if err != nil || n == 0 {
		return err
	}
	err = d.Ctx.Do(func() error { return d.Drv.MemAdvise(p, n, cuda.MemAdvise(adv), location(dev)) })
	if err != nil {
		return fmt.Errorf("advise %s for %s: %w", adv, dev, err)
	}
	a.buf.noteAdvice(adv)
	return nil
}

// noteAdvice keeps the advice the automatic policy yields to.
func (b *Buffer) noteAdvice(adv Advice) {
	bits := &b.last.advice
	switch adv {
	case AdvisePreferredLocation:
		bits.Or(advisedPreferred)
	case AdviseUnsetPreferredLocation:
		bits.And(^uint32(advisedPreferred))
	case AdviseReadMostly:
		bits.Or(advisedReadMostly)
	case AdviseUnsetReadMostly:
		bits.And(^uint32(advisedReadMostly))
	}
}
