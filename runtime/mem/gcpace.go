package mem

import "time"

// Pacing the host collections. Dropped arrays go back to their allocator
// only when a Go collection finds them (array memory is off the Go heap),
// and the host block cache can hand a loop's next result warm pages only
// after that. A fresh block costs page faults and the kernel's zeroing
// instead: 0.05-0.1 ms a MiB on the 2-core machine, and 1.5 ms a MiB for
// memory that virtual machine had never touched, which its host faults in
// too. With a collection only every 256 MiB, a loop of `z = matmul(m, m)`
// over 1024^2 f32 made 64 fresh results before it reused one, and its
// best time of 15 was 9.2-10.4 ms in one process in two or three, against 6.6 ms into
// an existing array (NumPy frees the old result as it is replaced).
//
// So a collection also comes once MinGCThreshold bytes were allocated and
// twenty times the last collection's duration has passed since it ended:
// collections then take at most a twentieth of the time, however small
// the arrays, and a loop's garbage returns to the cache after some 16 MiB
// instead of 256. A collection of the interpreter's small heap takes
// 0.7-5 ms there (the longer while OpenBLAS's threads spin after a call).
// An explicit GCThreshold keeps its fixed count of bytes alone.

// MinGCThreshold is the host memory allocated before a collection that
// the time since the last one allows (collectDue).
const MinGCThreshold = 16 << 20

// gcTimeShare is the inverse of the share of time collections may take.
const gcTimeShare = 20

// hostCollectDue reports whether since host bytes allocated after the
// last collection call for one now.
func (t *Tracker) hostCollectDue(since int64) bool {
	if since > t.gcThreshold(DefaultGCThreshold) {
		return true
	}
	if t.GCThreshold > 0 || since < MinGCThreshold {
		return false
	}
	return time.Now().UnixNano()-t.collected.Load() >= gcTimeShare*t.gcTook.Load()
}

// timeCollection runs gc (a Go collection) and notes when it ended and
// how long it took.
func (t *Tracker) timeCollection(gc func()) {
	start := time.Now()
	gc()
	end := time.Now()
	t.gcTook.Store(int64(end.Sub(start)))
	t.collected.Store(end.UnixNano())
}
