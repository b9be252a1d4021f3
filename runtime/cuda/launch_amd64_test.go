package cuda

import (
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

// libcFunc finds a C library function to stand in for cuLaunchKernel: the
// trampoline's argument passing and cost need no GPU.
func libcFunc(t testing.TB, name string) uintptr {
	lib, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Skip("no libc.so.6: ", err)
	}
	fn, err := purego.Dlsym(lib, name)
	if err != nil {
		t.Skip(err)
	}
	return fn
}

// The trampoline passes all 11 arguments in their System V places (6 in
// registers, 5 on the stack) and returns the result: snprintf prints the
// integer ones back, including the constant 0 of cuLaunchKernel's extra.
func TestLaunchTrampolineArguments(t *testing.T) {
	snprintf := libcFunc(t, "snprintf")
	buf := make([]byte, 64)
	format := []byte("%ld %ld %ld %ld %ld %ld %ld %ld|\x00")
	r := launch(snprintf, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(unsafe.Pointer(&format[0])),
		11, 22, 33, 44, 55, 66, 77)
	want := "11 22 33 44 55 66 77 0|"
	if got := string(buf[:len(want)]); got != want || int(r) != len(want) {
		t.Errorf("snprintf through the trampoline: %q (result %d), want %q (%d)", got, int(r), want, len(want))
	}
}

// BenchmarkCallOverhead: the cost of calling an 11-argument C function
// (labs, which ignores all but the first) through the launch trampoline and
// through purego.SyscallN as the other driver calls do.
func BenchmarkCallOverhead(b *testing.B) {
	labs := libcFunc(b, "labs")
	b.Run("trampoline", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if launch(labs, uintptr(i), 1, 2, 3, 4, 5, 6, 7, 8, 9) != uintptr(i) {
				b.Fatal("wrong result")
			}
		}
	})
	b.Run("purego", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if syscall(labs, uintptr(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 0) != uintptr(i) {
				b.Fatal("wrong result")
			}
		}
	})
}
