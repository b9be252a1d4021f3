package stdlib_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// TestScanTransposedView scans a view that scripts cannot make yet (axes
// permuted: no axis is contiguous) along each axis and flattened.
func TestScanTransposedView(t *testing.T) {
	var out bytes.Buffer
	in := newInterp(t, "cpu", &out)
	run(t, in, "let m = arange(24, dtype=i32).reshape([2, 3, 4])\nlet v = nil")
	m, _ := in.Global("m")
	view, err := m.(*interp.Array).A.Permute([]int{2, 0, 1}) // v[i, j, k] = m[j, k, i] = 12j + 4k + i
	if err != nil {
		t.Fatal(err)
	}
	if err := in.SetGlobal("v", &interp.Array{A: view}); err != nil {
		t.Fatal(err)
	}
	run(t, in, "print(cumsum(v, axis=0)[3], cumsum(v, axis=2)[1], cumsum(v)[:6], cumsum(v)[23])")
	// axis 0: sum over i' <= 3 of 12j + 4k + i' = 4(12j + 4k) + 6;
	// axis 2 of v[1]: running sums of 12j + 4k + 1 over k;
	// flattened: C order of v is (i, j, k): 0, 4, 8, 12, 16, 20, ...
	want := "[[6, 22, 38], [54, 70, 86]] [[1, 6, 15], [13, 30, 51]] [0, 4, 12, 24, 40, 60] 276\n"
	if out.String() != want {
		t.Errorf("got  %s want %s", out.String(), want)
	}
}

// BenchmarkCumsumCUDA is cumsum of 2^26 i32 on cuda:0 (an i64 result),
// a new array each time, with a synchronisation: SetBytes counts 8 bytes
// per element as ../shared/bench/workloads.py arraylib (cupy_cumsum_i32)
// does.
func BenchmarkCumsumCUDA(b *testing.B) {
	if mem.CUDADeviceCount() == 0 {
		b.Skip("no CUDA device")
	}
	n := 1 << 26
	in, _ := benchInterp(b, "cuda:0", fmt.Sprintf("let x = ones(%d, dtype=i32)\nlet s = cumsum(x)\nsynchronize()\n", n))
	loop := []byte(fmt.Sprintf("for i in range(%d) { s = cumsum(x) }\nsynchronize()", b.N))
	b.SetBytes(int64(8 * n))
	b.ResetTimer()
	if err := in.Exec(context.Background(), "loop.gs", loop); err != nil {
		b.Fatal(err)
	}
}
