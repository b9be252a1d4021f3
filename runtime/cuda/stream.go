package cuda

import "unsafe"

// Flags of cuStreamCreate.
const (
	StreamDefault     = 0
	StreamNonBlocking = 1 // CU_STREAM_NON_BLOCKING: no implicit sync with stream 0
)

// Event is a CUevent.
type Event uintptr

// Flags of cuEventCreate.
const (
	EventDefault       = 0
	EventBlockingSync  = 1 // CU_EVENT_BLOCKING_SYNC
	EventDisableTiming = 2 // CU_EVENT_DISABLE_TIMING
)

// StreamCreate makes a stream in the current context.
func (d *Driver) StreamCreate(flags uint32) (Stream, error) {
	var s Stream
	err := d.call2(&d.cuStreamCreate, uintptr(unsafe.Pointer(&s)), uintptr(flags))
	return s, err
}

// StreamSynchronize waits for the work queued on s.
func (d *Driver) StreamSynchronize(s Stream) error {
	return d.call1(&d.cuStreamSynchronize, uintptr(s))
}

// StreamQuery reports whether all work queued on s has completed (false
// while it runs; CUDA_ERROR_NOT_READY is not an error here).
func (d *Driver) StreamQuery(s Stream) (bool, error) {
	err := d.call1(&d.cuStreamQuery, uintptr(s))
	if IsCode(err, CodeNotReady) {
		return false, nil
	}
	return err == nil, err
}

// StreamDestroy destroys s once its queued work is done.
func (d *Driver) StreamDestroy(s Stream) error { return d.call1(&d.cuStreamDestroy, uintptr(s)) }

// EventCreate makes an event in the current context.
func (d *Driver) EventCreate(flags uint32) (Event, error) {
	var e Event
	err := d.call2(&d.cuEventCreate, uintptr(unsafe.Pointer(&e)), uintptr(flags))
	return e, err
}

// EventRecord records e at the current end of s.
func (d *Driver) EventRecord(e Event, s Stream) error {
	return d.call2(&d.cuEventRecord, uintptr(e), uintptr(s))
}

// EventSynchronize waits until e has happened.
func (d *Driver) EventSynchronize(e Event) error { return d.call1(&d.cuEventSynchronize, uintptr(e)) }

// EventElapsedTime is the time between two recorded events, in ms.
func (d *Driver) EventElapsedTime(start, end Event) (float32, error) {
	var ms float32
	err := d.call3(&d.cuEventElapsedTime, uintptr(unsafe.Pointer(&ms)), uintptr(start), uintptr(end))
	return ms, err
}

// EventDestroy destroys e.
func (d *Driver) EventDestroy(e Event) error { return d.call1(&d.cuEventDestroy, uintptr(e)) }
