package stdlib_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/rng"
)

// The samplers' IR run on the cpu backend gives the reference's bits:
// each thread draws every sampler in turn from rand_init(seed, k) and
// writes its lanes out, row k.
func TestSamplersMatchReference(t *testing.T) {
	// n rows of every sampler's lanes print whole: fewer than the 1000
	// elements above which print summarises.
	const n, seed = 32, 2024
	width := 0
	var body strings.Builder
	for _, sp := range rng.Samplers {
		fmt.Fprintf(&body, "    let %s = %s(rng)\n", sp.Name, sp.Name)
		for j := range sp.Lanes {
			fmt.Fprintf(&body, "    out[k * w + %d] = %s[%d]\n", width+j, sp.Name, j)
		}
		width += sp.Lanes
	}
	out := runOn(t, "cpu", fmt.Sprintf(`
kernel draws(out: array[f32], w: i32, seed: i32) {
    let k = tid()
    let rng = rand_init(seed, k)
%s}
array out: f32[%d]
launch draws[%d](out, %d, %d)
print(list(out))
`, body.String(), n*width, n, width, seed))
	got := strings.Split(strings.Trim(strings.TrimSpace(out), "[]"), ", ")
	if len(got) != n*width {
		t.Fatalf("got %d values, want %d:\n%s", len(got), n*width, out)
	}
	i := 0
	for k := range uint32(n) {
		s := rng.Init(seed, k)
		for _, sp := range rng.Samplers {
			for j, want := range sp.Sample(&s) {
				g, err := strconv.ParseFloat(got[i], 32)
				if err != nil || math.Float32bits(float32(g)) != math.Float32bits(want) {
					t.Fatalf("thread %d %s lane %d: got %s, want %v", k, sp.Name, j, got[i], want)
				}
				i++
			}
		}
	}
}

// poisson's IR (its loops and the unrolled log-gamma) on the cpu backend
// gives the reference's counts and leaves the state where it does: each
// thread draws poisson 8 times at each lam, including lam 10, whose small
// counts reach the log-gamma's x < 7 branch.
func TestPoissonMatchesReference(t *testing.T) {
	const n, draws, seed = 64, 8, 77
	lams := []float32{0, 0.25, 3, 9.75, 10, 42.5, 1e4}
	out := runOn(t, "cpu", fmt.Sprintf(`
kernel draws(out: array[u32], lam: f32, seed: i32) {
    let k = tid()
    let rng = rand_init(seed, k)
    for j in range(%d) {
        out[k * %d + j] = poisson(rng, lam)
    }
    out[k * %d + %d] = rng
}
array out: u32[%d]
for lam in %s {
    launch draws[%d](out, lam, %d)
    print(list(out))
}
`, draws, draws+1, draws+1, draws, n*(draws+1), strings.Join(strings.Fields(fmt.Sprint(lams)), ", "), n, seed))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(lams) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(lams), out)
	}
	for l, lam := range lams {
		got := strings.Split(strings.Trim(lines[l], "[]"), ", ")
		i := 0
		for k := range uint32(n) {
			s := rng.Init(seed, k)
			want := make([]uint32, 0, draws+1)
			for range draws {
				want = append(want, rng.Poisson(&s, lam))
			}
			for j, w := range append(want, s) {
				if got[i] != strconv.FormatUint(uint64(w), 10) {
					t.Fatalf("lam %v thread %d value %d: got %s, want %d", lam, k, j, got[i], w)
				}
				i++
			}
		}
	}
}
