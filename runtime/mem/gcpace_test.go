package mem

import (
	"testing"
	"time"

	"github.com/gscript-lang/gscript/lang/ir"
)

// TestHostCollectDue: past MinGCThreshold a collection waits for twenty
// times the last one's duration; DefaultGCThreshold collects whatever the
// time; an explicit GCThreshold alone decides where set.
func TestHostCollectDue(t *testing.T) {
	tr := NewTracker(nil)
	if tr.hostCollectDue(MinGCThreshold - 1) {
		t.Error("due below MinGCThreshold")
	}
	if !tr.hostCollectDue(MinGCThreshold) {
		t.Error("the first collection is not due at MinGCThreshold")
	}
	tr.timeCollection(func() { time.Sleep(20 * time.Millisecond) })
	if tr.hostCollectDue(MinGCThreshold) {
		t.Error("due at once after a collection of 20 ms")
	}
	if !tr.hostCollectDue(DefaultGCThreshold + 1) {
		t.Error("not due past DefaultGCThreshold")
	}
	tr.collected.Store(time.Now().Add(-gcTimeShare * time.Second).UnixNano())
	if !tr.hostCollectDue(MinGCThreshold) {
		t.Error("not due twenty collections' time later")
	}
	tr.GCThreshold = 64 * mib
	if tr.hostCollectDue(32*mib) || !tr.hostCollectDue(64*mib+1) {
		t.Error("an explicit GCThreshold does not decide alone")
	}
}

// TestLoopResultsReuseBlocks: a loop that drops a 4 MiB result each
// iteration gets cached blocks back after some MinGCThreshold bytes
// rather than mapping 256 MiB of fresh pages first (gcpace.go): of 40
// results, few are fresh mappings.
func TestLoopResultsReuseBlocks(t *testing.T) {
	tr := NewTracker(nil)
	alloc := cachingHost{}
	seen := map[uintptr]bool{}
	for range 40 {
		tr.collected.Store(0) // the time allows each collection
		a, err := tr.NewUninit(alloc, CPUDevice, ir.F32, []int{mib})
		if err != nil {
			t.Fatal(err)
		}
		seen[a.buf.a.ptr] = true
	}
	if len(seen) > 12 {
		t.Errorf("40 results in %d distinct blocks, want at most 12", len(seen))
	}
	tr.FreeAll()
}
