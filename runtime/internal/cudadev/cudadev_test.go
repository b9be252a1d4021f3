package cudadev

import (
	"errors"
	"testing"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// TestRetryOOM: only CUDA_ERROR_OUT_OF_MEMORY is retried, once, after the
// installed reclaim succeeds.
func TestRetryOOM(t *testing.T) {
	oom := &cuda.Error{Code: cuda.CodeOutOfMemory, Func: "cuMemAlloc_v2"}
	d := &Dev{}
	calls := 0
	failFirst := func() error {
		calls++
		if calls == 1 {
			return oom
		}
		return nil
	}
	if err := d.RetryOOM(failFirst); !errors.Is(err, oom) || calls != 1 {
		t.Errorf("no reclaim installed: %v after %d calls", err, calls)
	}
	reclaims := 0
	d.SetReclaim(func() error { reclaims++; return nil })
	calls = 0
	if err := d.RetryOOM(failFirst); err != nil || calls != 2 || reclaims != 1 {
		t.Errorf("retry: %v, %d calls, %d reclaims", err, calls, reclaims)
	}
	other := &cuda.Error{Code: 1}
	calls = 0
	if err := d.RetryOOM(func() error { calls++; return other }); !errors.Is(err, other) || calls != 1 || reclaims != 1 {
		t.Errorf("another error retried: %v, %d calls", err, calls)
	}
	calls = 0
	if err := d.RetryOOM(func() error { calls++; return oom }); !errors.Is(err, oom) || calls != 2 || reclaims != 2 {
		t.Errorf("a real out-of-memory: %v, %d calls", err, calls)
	}
	d.SetReclaim(func() error { return errors.New("cannot trim") })
	calls = 0
	if err := d.RetryOOM(failFirst); !errors.Is(err, oom) || calls != 1 {
		t.Errorf("failed reclaim: %v, %d calls", err, calls)
	}
}
