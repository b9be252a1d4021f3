package cuda

import (
	"errors"
	"testing"
)

// TestMemPoolAttributeCalls runs the pool attribute calls against the libc
// stand-in (labs(pool): 0 is CUDA_SUCCESS, anything else that error code)
// and checks the C type each attribute is passed as.
func TestMemPoolAttributeCalls(t *testing.T) {
	for a := MemPoolReuseFollowEventDependencies; a <= MemPoolUsedMemHigh; a++ {
		if want := a <= MemPoolReuseAllowInternalDependencies; a.isInt() != want {
			t.Errorf("attribute %d: int %v, want %v", a, a.isInt(), want)
		}
	}
	d := fakeDriver(t)
	if err := d.MemPoolSetAttribute(0, MemPoolReleaseThreshold, ^uint64(0)); err != nil {
		t.Errorf("set: %v", err)
	}
	if err := d.MemPoolSetAttribute(0, MemPoolReuseAllowOpportunistic, 1); err != nil {
		t.Errorf("set int: %v", err)
	}
	if v, err := d.MemPoolGetAttribute(0, MemPoolReservedMemCurrent); err != nil || v != 0 {
		t.Errorf("get: %d %v", v, err)
	}
	var ce *Error
	if err := d.MemPoolSetAttribute(2, MemPoolReleaseThreshold, 0); !errors.As(err, &ce) || ce.Code != 2 || ce.Func != "cuMemPoolSetAttribute" {
		t.Errorf("failure: %v", err)
	}
	d.cuMemPoolGetAttribute.addr = 0
	var se *SymbolError
	if _, err := d.MemPoolGetAttribute(0, MemPoolUsedMemCurrent); !errors.As(err, &se) || se.Symbol != "cuMemPoolGetAttribute" {
		t.Errorf("no symbol: %v", err)
	}
}
