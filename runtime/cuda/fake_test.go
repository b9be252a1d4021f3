package cuda

import (
	"testing"

	"github.com/gscript-lang/gscript/runtime/internal/dl"
)

// fakeDriver is a Driver whose every symbol is a libc function, so that the
// call and launch paths run for real without a GPU: labs(x) returns 0 for
// x == 0 (CUDA_SUCCESS) and |x| otherwise (an error code), and strlen of a
// zeroed out-slot returns 0 without writing (cuCtxGetCurrent: "no context").
func fakeDriver(t testing.TB) *Driver {
	t.Helper()
	lib, err := dl.Open("libc.so.6", true)
	if err != nil {
		t.Skipf("no libc.so.6 to stand in for the driver: %v", err)
	}
	labs, strlen := dl.Sym(lib, "labs"), dl.Sym(lib, "strlen")
	if labs == 0 || strlen == 0 {
		t.Skip("libc lacks labs or strlen")
	}
	d := &Driver{lib: "fake-libcuda"}
	d.resolve(func(name string) uintptr {
		switch name {
		case "cuCtxGetCurrent":
			return strlen
		case "cuGetErrorName", "cuGetErrorString":
			return 0 // exercise the fallback names
		}
		return labs
	})
	d.handles = []int32{0}
	return d
}
