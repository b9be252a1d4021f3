package fuse_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
	"github.com/gscript-lang/gscript/stdlib/fuse"
)

// hostScript computes every global z* from arrays of n elements holding
// NaN, infinities, -0, negatives and large integers.
const hostScript = `kernel init(a: array[f32], b: array[f64], i: array[i32], l: array[i64], u: array[u8], zero: f32) {
    let k = tid()
    a[k] = f32(k % 13) * 0.37 - 2.0
    b[k] = f64(k % 7) * 1.5 - 4.0
    if k % 17 == 0 {
        a[k] = zero / zero
    }
    if k % 19 == 0 {
        b[k] = 1.0 / f64(zero)
    }
    if k % 23 == 0 {
        a[k] = -0.0
    }
    i[k] = k * 7919 - 1000000
    l[k] = i64(k) * 3037000493
    u[k] = u8(k % 256)
}
array a: f32[N]
array b: f64[N]
array i: i32[N]
array l: i64[N]
array u: u8[N]
launch init[N](a, b, i, l, u, 0.0)
let z0 = a * 0.5 + a
let z1 = a * 3 - b
let z2 = where(a > 0, a, 0)
let z3 = where(a < b, 1.5, b)
let z4 = -a / (b + 1.0)
let z5 = i * 3 + l
let z6 = (i - 7) * i
let z7 = u + 200
let z8 = a.astype(f64) * b
let z9 = i.astype(f32) / 3.0
let z10 = a == a
let z11 = where(a != a, 0.0, a)
let z12 = l.astype(u32) + 1
let z13 = b.astype(f32)
let z14 = 2.5 - a * a
let z15 = where(0 >= i, i, l)
let z19 = 7 >= u
let z20 = 7 > u
let z21 = where(7 <= u, u, 9)
let z22 = 7 < u
let z23 = 2.0 * a - a
let z24 = b - b * 1.5
let z25 = l * 3 + l
let z26 = a + 0.5 * a
let z27 = where(a <= 0.5, -1.0, a)
let z28 = where(b >= 1.0, b, 2.0)
let z29 = where(u < 9, u, 3)
let z30 = where(a <= 0.5, a, 7.0)
array z16: f32[N]
z16[:] = 2.5
z16 += a * 0.25
array z17: f64[N]
z17[:] = a
z17 -= b / 3.0
array z18: bool[N]
z18[:] = true
`

// TestHostMatchesKernels runs hostScript with the cpu's host path and
// with the kernels alone: every result has the same bytes, for sizes
// below one chunk, across chunks and workers.
func TestHostMatchesKernels(t *testing.T) {
	for _, n := range []int{5, 4097, 100003} {
		src := strings.ReplaceAll(hostScript, "N", fmt.Sprint(n))
		host := runGlobals(t, src)
		restore := fuse.KernelsOnly()
		kernels := runGlobals(t, src)
		restore()
		if len(host) < 31 {
			t.Fatalf("n=%d: %d results", n, len(host))
		}
		for name, want := range kernels {
			if !bytes.Equal(host[name], want) {
				t.Errorf("n=%d: %s differs between the host path and the kernels", n, name)
			}
		}
	}
}

// runGlobals runs src on the cpu and returns the bytes of its z* arrays.
func runGlobals(t *testing.T, src string) map[string][]byte {
	t.Helper()
	in, err := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := in.Exec(t.Context(), "host.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, g := range in.Globals() {
		a, ok := g.Value.(*interp.Array)
		if !ok || !strings.HasPrefix(g.Name, "z") {
			continue
		}
		b, err := a.A.ReadHost()
		if err != nil {
			t.Fatal(err)
		}
		out[g.Name] = bytes.Clone(b)
	}
	return out
}

// rowScript computes z* of R x C arrays through rank-D plans: row and
// column broadcasts, sliced and reversed views, a sliced target.
const rowScript = `kernel init(m: array[f32, 2], row: array[f32], col: array[f32, 2], zero: f32) {
    let i, j = tid()
    m[i, j] = f32((i * 7 + j * 13) % 17) * 0.3 - 2.0
    if (i + j) % 11 == 0 {
        m[i, j] = zero / zero
    }
    if i == 0 {
        row[j] = f32(j % 5) - 2.0
    }
    if j == 0 {
        col[i, 0] = f32(i % 3) * 1.5
    }
}
array m: f32[R, C]
array row: f32[C]
array colv: f32[R, 1]
launch init[R, C](m, row, colv, 0.0)
let z0 = m + row
let z1 = m * colv
let z2 = m.T + 1.0
array z3: f32[R, C]
z3[:, 1:] = m[:, 1:] * 2.0 + colv
let z4 = 0.5 * m[:, 1:] + m[:, :C - 1]
let z5 = 0.5 * colv + m
let z6 = m[::-1, :] * colv[::-1, :]
let z7 = where(m[:, 1:] > 0, m[:, 1:], 0)
let z8 = (m - row).astype(f64) / colv
`

// TestHostRowsMatchKernels: rank-D plans on the host path give the
// kernels' bytes, for rows of one chunk and of several.
func TestHostRowsMatchKernels(t *testing.T) {
	for _, c := range [][2]int{{37, 300}, {5, 5000}} {
		src := strings.NewReplacer("R", fmt.Sprint(c[0]), "C", fmt.Sprint(c[1])).Replace(rowScript)
		host := runGlobals(t, src)
		restore := fuse.KernelsOnly()
		kernels := runGlobals(t, src)
		restore()
		if len(host) != 9 {
			t.Fatalf("%v: %d results", c, len(host))
		}
		for name, want := range kernels {
			if !bytes.Equal(host[name], want) {
				t.Errorf("%v: %s differs between the host path and the kernels", c, name)
			}
		}
	}
}
