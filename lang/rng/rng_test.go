package rng

import "testing"

// The first values of a few streams, from rand.h's algorithm (transcribed
// independently in Python from warp/native/rand.h, not from a run of Warp):
// rand_init(seed, offset), then three randu, three randf, two randn and
// three randi(state, -5, 5), each series from the initial state.
var streams = []struct {
	seed, offset uint32
	init         uint32
	u            [3]uint32
	f            [3]float32
	n            [2]float32
	r            [3]int32
}{
	{0, 0, 0x30be035e, [3]uint32{2145236065, 2368882721, 920646579}, [3]float32{0.49947667, 0.5515485, 0.2143547},
		[2]float32{-1.1170332, 0.68045783}, [3]int32{0, -4, 4}},
	{42, 0, 0x79ae07a9, [3]uint32{3719334988, 798497746, 3133687854}, [3]float32{0.86597514, 0.1859147, 0.72961855},
		[2]float32{0.21022405, 0.7695994}, [3]int32{3, 1, -1}},
	{42, 7, 0xb9b2775d, [3]uint32{2122909397, 1413447399, 3024873594}, [3]float32{0.4942783, 0.3290938, 0.70428324},
		[2]float32{-0.5659789, -0.8180839}, [3]int32{2, 4, -1}},
	{12345, 1000, 0x279dce7a, [3]uint32{3883734317, 916568290, 3836811774}, [3]float32{0.90425235, 0.21340513, 0.8933273},
		[2]float32{0.10225422, -0.16081168}, [3]int32{2, -5, -1}},
}

func TestStreams(t *testing.T) {
	if PCG(0) != 129708002 || PCG(1) != 2831084092 || Init1(42) != 1223963391 {
		t.Errorf("rand_pcg: got %d %d %d", PCG(0), PCG(1), Init1(42))
	}
	for _, st := range streams {
		s0 := Init(st.seed, st.offset)
		if s0 != st.init {
			t.Errorf("rand_init(%d, %d) = %#x, want %#x", st.seed, st.offset, s0, st.init)
		}
		s := s0
		for i, want := range st.u {
			if got := Randu(&s); got != want {
				t.Errorf("stream (%d, %d): randu %d = %d, want %d", st.seed, st.offset, i, got, want)
			}
		}
		s = s0
		for i, want := range st.f {
			if got := Randf(&s); got != want {
				t.Errorf("stream (%d, %d): randf %d = %v, want %v", st.seed, st.offset, i, got, want)
			}
		}
		s = s0
		for i, want := range st.n {
			if got := Randn(&s); got != want {
				t.Errorf("stream (%d, %d): randn %d = %v, want %v", st.seed, st.offset, i, got, want)
			}
		}
		s = s0
		for i, want := range st.r {
			if got := RandiRange(&s, -5, 5); got != want {
				t.Errorf("stream (%d, %d): randi(-5, 5) %d = %d, want %d", st.seed, st.offset, i, got, want)
			}
		}
	}
}

// randf is the top 24 bits over 2^24, and randf(lo, hi) scales it: the
// extremes of the draw give 0 and 1 - 2^-24.
func TestRandfRange(t *testing.T) {
	if got := float32(uint32(0xffffffff)>>8) * fScale; got != 1-1.0/16777216 {
		t.Errorf("largest randf = %v", got)
	}
	s := Init(3, 4)
	u := s
	if got, want := RandfRange(&s, 2, 6), 4*Randf(&u)+2; got != want {
		t.Errorf("randf(2, 6) = %v, want %v", got, want)
	}
}
