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
print(out)
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
