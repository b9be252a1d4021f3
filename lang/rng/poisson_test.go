package rng

import (
	"math"
	"testing"
)

// Six poisson(state, lam) draws from rand_init(seed, offset), and the
// state after them, from rand.h's algorithm (transcribed independently
// in Python, each op rounded to f32, as the samplers' values are): lam 0,
// the multiplication method below 10, PTRS from 10 on.
var poissons = []struct {
	seed, offset uint32
	lam          float32
	want         [6]uint32
	state        uint32
}{
	{0, 0, 0.0, [6]uint32{0, 0, 0, 0, 0, 0}, 817759070},
	{1, 2, 0.5, [6]uint32{0, 0, 1, 0, 0, 0}, 1333013471},
	{42, 7, 3.5, [6]uint32{4, 2, 5, 2, 2, 0}, 88953754},
	{42, 7, 9.99, [6]uint32{9, 7, 7, 12, 13, 8}, 2391381994},
	{12345, 1000, 10.0, [6]uint32{15, 15, 8, 13, 9, 5}, 1318397284},
	{5, 6, 37.25, [6]uint32{39, 53, 41, 45, 32, 34}, 2900230957},
	{9, 9, 1000.0, [6]uint32{949, 1003, 1072, 1024, 1005, 969}, 594944578},
}

func TestPoisson(t *testing.T) {
	for _, c := range poissons {
		s := Init(c.seed, c.offset)
		for i, want := range c.want {
			if got := Poisson(&s, c.lam); got != want {
				t.Errorf("poisson(%d, %d; %v) %d = %d, want %d", c.seed, c.offset, c.lam, i, got, want)
			}
		}
		if s != c.state {
			t.Errorf("poisson(%d, %d; %v): state %d, want %d", c.seed, c.offset, c.lam, s, c.state)
		}
	}
}

// random_loggam, whose x < 7 branch PTRS reaches only for small counts:
// 0 at 1 and 2, log((x-1)!) at the integers (to f32 rounding).
func TestLoggam(t *testing.T) {
	xs := []float32{1, 2, 3, 4, 5, 6, 6.5, 7, 8, 11, 100, 1e6}
	want := []uint32{0x00000000, 0x00000000, 0x3f317208, 0x3fe55858, 0x404b6538, 0x40993320, 0x40b533b6,
		0x40d28938, 0x41086710, 0x4171abac, 0x43b3912e, 0x4b438c91}
	for i, x := range xs {
		if got := loggam(x); math.Float32bits(got) != want[i] {
			t.Errorf("loggam(%v) = %v, want %v", x, got, math.Float32frombits(want[i]))
		}
	}
}

// Means and variances of many draws are near lam.
func TestPoissonMoments(t *testing.T) {
	for _, lam := range []float32{0.3, 4, 9.5, 10, 60} {
		s := Init(11, 0)
		const n = 200000
		var sum, sq float64
		for range n {
			k := float64(Poisson(&s, lam))
			sum += k
			sq += k * k
		}
		mean := sum / n
		v := sq/n - mean*mean
		if l := float64(lam); math.Abs(mean-l) > 0.02*l+0.01 || math.Abs(v-l) > 0.05*l+0.01 {
			t.Errorf("poisson(%v): mean %v, variance %v", lam, mean, v)
		}
	}
}
