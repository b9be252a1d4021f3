package stdlib_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// newInterp makes an interpreter with the standard library on dev,
// printing to out; the test closes it.
func newInterp(t testing.TB, dev string, out io.Writer) *interp.Interp {
	t.Helper()
	in, err := interp.New(interp.Options{Stdout: out, Device: dev, Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// run executes src in in and fails the test on an error.
func run(t testing.TB, in *interp.Interp, src string) {
	t.Helper()
	if err := in.Exec(context.Background(), "t.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
}

// runOn runs src in a fresh interpreter on dev and returns its output.
func runOn(t testing.TB, dev, src string) string {
	t.Helper()
	var out strings.Builder
	run(t, newInterp(t, dev, &out), src)
	return out.String()
}

// Arrays of more than 2^31-1 elements are filled in several launches, each
// knowing where its part starts: the elements on both sides of the seam
// and the last one (linspace's stop) come out right. 20 GiB of GPU memory.
func TestGPURangesInChunks(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	if out := runOn(t, "cuda:0", `print(mem_info("cuda:0").free + mem_info("cuda:0").cached >= 20 << 30)`); out != "true\n" {
		t.Skip("less than 20 GiB free on cuda:0")
	}
	out := runOn(t, "cuda:0", `
let n = (1 << 31) + 5
let x = arange(n, dtype=i64)
print(x[0], x[(1 << 31) - 2], x[(1 << 31) - 1], x[n - 1])
free(x)
let y = linspace(0, 1, n, dtype=u8)
print(y[(1 << 31) - 1], y[n - 2], y[n - 1])
free(y)
let o = full(n, 3, dtype=u8)
print(o[0], o[n - 1])
`)
	want := "0 2147483646 2147483647 2147483652\n0 0 1\n3 3\n"
	if out != want {
		t.Errorf("got\n%swant\n%s", out, want)
	}
}
