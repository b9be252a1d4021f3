package stdlib_test

import (
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// largeSorts are the sorts TestGPUSortLarge checks: 2^28 keys (the
// benchmark's size, 37450 onesweep tiles, so the look-back chains across
// many resident blocks), many rows of several tiles, and 64-bit keys.
var largeSorts = []struct{ name, make string }{
	{"f32 2^28", "let x = rand(1 << 28, seed=1)\nx[5] = nan\nx[7] = -0.0\nx[9] = 0.0\nx[11] = -inf"},
	{"u32 2^28", "let x = (rand(1 << 28, seed=2, dtype=f64) * 4294967296.0).astype(u32)"},
	{"i32 rows", "let x = randint(-3000, 3000, [3000, 20011], seed=3)"},
	{"f64 2^25", "let x = floor(randn(1 << 25, seed=4, dtype=f64) * 1000.0)"},
}

// TestGPUSortLarge sorts and argsorts on cuda:0 and checks on the host
// that each row of argsort is a permutation, that sort's elements are
// the input's at argsort's indices, in order (NaN last), and that
// argsort is stable: a complete check of both, in a few seconds a case.
func TestGPUSortLarge(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	for _, c := range largeSorts {
		t.Run(c.name, func(t *testing.T) {
			in := newInterp(t, "cuda:0", nil)
			sortAndCheck(t, in, c.make)
		})
	}
}

// TestSortRowsKernels is TestGPUSortLarge's check of the cpu's radix
// kernels on rows of several tiles, many rows, and a row of tiles of 8-
// and 1-byte keys.
func TestSortRowsKernels(t *testing.T) {
	defer stdlib.SetSortOnHost(false)()
	for _, make := range []string{
		"let x = randint(-300, 300, [37, 9001], seed=3)",
		"let x = floor(rand(70000, seed=1) * 1000.0)\nx[5] = nan\nx[7] = -0.0\nx[9] = 0.0",
		"let x = randint(0, 50, [3, 20000], seed=5).astype(u64) * u64(1 << 40)",
		"let x = randint(0, 200, [2, 30000], seed=6).astype(u8)",
	} {
		sortAndCheck(t, newInterp(t, "cpu", nil), make)
	}
}

// sortAndCheck runs make (which defines x), sorts and argsorts x along
// its last axis and checks the results (checkRows).
func sortAndCheck(t *testing.T, in *interp.Interp, make string) {
	t.Helper()
	run(t, in, make+"\nlet s = sort(x)\nlet a = argsort(x)\n")
	v, _ := in.Global("x")
	shape := v.(*interp.Array).A.Shape()
	checkRows(t, hostArray(t, in, "x"), hostArray(t, in, "s"), hostArray(t, in, "a"), shape[len(shape)-1])
}

// checkRows checks sort s and argsort a of x's rows of k elements
// without sorting on the host.
func checkRows(t *testing.T, x, s, a keyed, k int) {
	t.Helper()
	if k <= 0 || len(x.bits)%k != 0 || len(s.bits) != len(x.bits) || len(a.bits) != len(x.bits) {
		t.Fatalf("sizes: x %d s %d a %d rows of %d", len(x.bits), len(s.bits), len(a.bits), k)
	}
	seen := make([]bool, k)
	for r := 0; r < len(x.bits); r += k {
		clear(seen)
		for i := r; i < r+k; i++ {
			j := int(a.bits[i])
			if j < 0 || j >= k || seen[j] {
				t.Fatalf("argsort: element %d is %d: not a permutation of the row", i, j)
			}
			seen[j] = true
			if !same(x.t, s.bits[i], x.bits[r+j]) {
				t.Fatalf("sort: element %d is %#x, argsort's element of x %#x", i, s.bits[i], x.bits[r+j])
			}
			if i == r {
				continue
			}
			p := int(a.bits[i-1])
			if less(x.t, s.bits[i], s.bits[i-1]) || less(x.t, x.bits[r+j], x.bits[r+p]) {
				t.Fatalf("element %d is out of order", i)
			}
			if same(x.t, x.bits[r+j], x.bits[r+p]) && j < p {
				t.Fatalf("argsort: element %d: index %d after %d of an equal key (not stable)", i, j, p)
			}
		}
	}
}
