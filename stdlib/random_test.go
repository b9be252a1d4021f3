package stdlib_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/rng"
)

// The kernel builtins and the host builtins on the cpu backend give the
// reference generator's values bit for bit (printed floats are the
// shortest that parse back to the same f32). randn's log, sqrt and cos
// are the cpu backend's, which the reference uses too.
func TestRandMatchesReference(t *testing.T) {
	const n = 64
	out := runOn(t, "cpu", `
kernel draws(f: array[f32], fr: array[f32], i: array[i32], ir: array[i32], u: array[u32], g: array[f32], seed: i32) {
    let k = tid()
    let rng = rand_init(seed, k)
    f[k] = randf(rng)
    fr[k] = randf(rng, -2.0, 3.0)
    i[k] = randi(rng)
    ir[k] = randi(rng, -7, 100)
    u[k] = randu(rng)
    g[k] = randn(rng)
}
let n = 64
array f: f32[n]
array fr: f32[n]
array i: i32[n]
array ir: i32[n]
array u: u32[n]
array g: f32[n]
launch draws[n](f, fr, i, ir, u, g, 12345)
print(list(f))
print(list(fr))
print(list(i))
print(list(ir))
print(list(u))
print(list(g))
print(list(rand(n, seed=12345)))
print(list(randn(n, seed=12345)))
print(list(randint(-7, 100, n, seed=12345)))
`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 9 {
		t.Fatalf("got %d lines:\n%s", len(lines), out)
	}
	want := make([][]string, 9)
	for k := range uint32(n) {
		s := rng.Init(12345, k)
		add := func(line int, v string) { want[line] = append(want[line], v) }
		add(0, f32(rng.Randf(&s)))
		add(1, f32(rng.RandfRange(&s, -2, 3)))
		add(2, strconv.Itoa(int(rng.Randi(&s))))
		add(3, strconv.Itoa(int(rng.RandiRange(&s, -7, 100))))
		add(4, strconv.FormatUint(uint64(rng.Randu(&s)), 10))
		add(5, f32(rng.Randn(&s)))
		h := rng.Init(12345, k)
		add(6, f32(rng.Randf(&h)))
		h = rng.Init(12345, k)
		add(7, f32(rng.Randn(&h)))
		h = rng.Init(12345, k)
		add(8, strconv.Itoa(int(rng.RandiRange(&h, -7, 100))))
	}
	for l, line := range lines {
		got := strings.Split(strings.Trim(line, "[]"), ", ")
		for k := range got {
			if k >= len(want[l]) || !sameValue(got[k], want[l][k]) {
				t.Fatalf("line %d element %d: got %s, want %s", l, k, got[k], want[l][k])
			}
		}
	}
}

func f32(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }

// sameValue compares a printed element with the reference's: equal ints,
// or floats that parse to the same f32.
func sameValue(got, want string) bool {
	if got == want {
		return true
	}
	g, err1 := strconv.ParseFloat(got, 32)
	w, err2 := strconv.ParseFloat(want, 32)
	return err1 == nil && err2 == nil && float32(g) == float32(w)
}
