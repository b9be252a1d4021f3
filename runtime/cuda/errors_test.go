package cuda

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestErrorFormat(t *testing.T) {
	e := &Error{Code: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY", Msg: "out of memory", Func: "cuMemAlloc_v2"}
	if got, want := e.Error(), "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY: out of memory"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e.Msg = ""
	if got, want := e.Error(), "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY"; got != want {
		t.Errorf("Error() without Msg = %q, want %q", got, want)
	}
	wrapped := fmt.Errorf("device allocator: %w", e)
	if !IsCode(wrapped, CodeOutOfMemory) || IsCode(wrapped, CodeInvalidValue) || IsCode(errors.New("x"), 2) {
		t.Error("IsCode does not see through wrapping or matches the wrong code")
	}
}

func TestFallbackNames(t *testing.T) {
	for code, want := range map[int]string{
		0: "CUDA_SUCCESS", 2: "CUDA_ERROR_OUT_OF_MEMORY", 100: "CUDA_ERROR_NO_DEVICE",
		700: "CUDA_ERROR_ILLEGAL_ADDRESS", 900: "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
		999: "CUDA_ERROR_UNKNOWN", 12345: "CUresult(12345)",
	} {
		if got := fallbackName(code); got != want {
			t.Errorf("fallbackName(%d) = %q, want %q", code, got, want)
		}
	}
	// The named constants agree with the table taken from cuda.h.
	for code, name := range map[int]string{
		CodeInvalidValue: "CUDA_ERROR_INVALID_VALUE", CodeNotInitialized: "CUDA_ERROR_NOT_INITIALIZED",
		CodeInvalidContext: "CUDA_ERROR_INVALID_CONTEXT", CodeNotFound: "CUDA_ERROR_NOT_FOUND",
		CodeNotReady: "CUDA_ERROR_NOT_READY", CodePeerAccessAlreadyEnabled: "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED",
		CodePeerAccessNotEnabled: "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", CodeNotPermitted: "CUDA_ERROR_NOT_PERMITTED",
		CodeNotSupported: "CUDA_ERROR_NOT_SUPPORTED", CodeStreamCaptureInvalidated: "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
		CodeStreamCaptureWrongThread: "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD",
	} {
		if cuResultNames[code] != name {
			t.Errorf("code %d is %q in cuda.h, constant says %q", code, cuResultNames[code], name)
		}
	}
}

func TestLoadLibError(t *testing.T) {
	err := loadLibError("libcuda.so.1", "libcuda.so.1: cannot open shared object file: No such file or directory", "install the NVIDIA driver")
	if got, want := err.Error(), "CUDA is not available: libcuda.so.1 not found (install the NVIDIA driver)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !errors.Is(err, ErrNotAvailable) {
		t.Error("missing library error does not wrap ErrNotAvailable")
	}
	err = loadLibError("libcuda.so.1", "libcuda.so.1: wrong ELF class: ELFCLASS32", "install the NVIDIA driver")
	if got := err.Error(); !strings.Contains(got, "wrong ELF class") || !errors.Is(err, ErrNotAvailable) {
		t.Errorf("a broken library should keep the loader's words: %q", got)
	}
}

func TestLoadMissingLibrary(t *testing.T) {
	_, err := load("libgscript-no-such-driver.so.1")
	want := "CUDA is not available: libgscript-no-such-driver.so.1 not found (install the NVIDIA driver)"
	if err == nil || err.Error() != want {
		t.Fatalf("load of a missing library: %v, want %q", err, want)
	}
}

func TestLoadWithoutDriver(t *testing.T) {
	d, err := Load()
	if err == nil {
		t.Skipf("a driver is present (CUDA %d, %d devices)", d.Version(), d.DeviceCount())
	}
	if !errors.Is(err, ErrNotAvailable) && !errors.Is(err, ErrNoDevice) {
		t.Fatalf("Load error wraps neither ErrNotAvailable nor ErrNoDevice: %v", err)
	}
	t.Logf("Load: %v", err)
	if d2, err2 := Load(); d2 != nil || err2 != err {
		t.Error("Load is not done once: a second call gave another answer")
	}
}

func TestCallErrors(t *testing.T) {
	d := fakeDriver(t)
	// labs(700) = 700: the fake driver fails with CUDA_ERROR_ILLEGAL_ADDRESS.
	err := d.MemFree(700)
	if got, want := fmt.Sprint(err), "cuMemFree_v2: CUDA_ERROR_ILLEGAL_ADDRESS"; got != want {
		t.Errorf("MemFree error = %q, want %q", got, want)
	}
	if !IsCode(err, CodeIllegalAddress) {
		t.Errorf("error code lost: %#v", err)
	}
	// CUresult is 32 bits: labs(1<<40) leaves 0 in the low half and
	// garbage above it, which must read as success.
	if err := d.MemFree(DevicePtr(1 << 40)); err != nil {
		t.Errorf("upper half of the result register was read: %v", err)
	}
	if err := d.MemFree(0); err != nil {
		t.Errorf("MemFree(0) with result 0 failed: %v", err)
	}
	// A symbol the driver lacks gives a SymbolError, not a crash.
	d.cuMemAllocManaged.addr = 0
	_, err = d.MemAllocManaged(64, MemAttachGlobal)
	var se *SymbolError
	if !errors.As(err, &se) || se.Symbol != "cuMemAllocManaged" {
		t.Errorf("missing symbol: got %v", err)
	}
	// A launch failure carries the name of the function that failed.
	err = d.LaunchKernel(Function(701), [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, nil)
	if got, want := fmt.Sprint(err), "cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"; got != want {
		t.Errorf("launch error = %q, want %q", got, want)
	}
}
