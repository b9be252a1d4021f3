package rng

import (
	"math"
	"testing"
)

// Two samples of each sampler from rand_init(seed, offset), as f32 bits,
// and the state after them, from rand.h's formulas (transcribed
// independently in Python from warp/native/rand.h, each op rounded to f32
// and the math functions f64 rounded to f32, not from a run of Warp).
var samples = []struct {
	name         string
	seed, offset uint32
	bits         []uint32
	state        uint32
}{
	{"sample_triangle", 0, 0, []uint32{0x3e96269e, 0x3ec793cd, 0x3f0979d8, 0x3db0f6c0}, 801582109},
	{"sample_triangle", 42, 7, []uint32{0x3e9809ec, 0x3e6cec0b, 0x3e24a498, 0x3ec8247f}, 2000578823},
	{"sample_unit_ring", 0, 0, []uint32{0xbf7fffa5, 0x3b577e6f, 0xbf72b074, 0xbea2f267}, 2368882721},
	{"sample_unit_ring", 42, 7, []uint32{0xbf7fd5a8, 0x3d13388a, 0xbef4196a, 0x3f610878}, 1413447399},
	{"sample_unit_disk", 0, 0, []uint32{0xbf2b8474, 0xbe665231, 0x3e37cffe, 0x3eda81a3}, 801582109},
	{"sample_unit_disk", 42, 7, []uint32{0xbeab9d24, 0x3f1e3598, 0xbf51e5a3, 0x3e37440c}, 2000578823},
	{"sample_unit_sphere_surface", 0, 0, []uint32{0xbf72b06b, 0xbea2f261, 0x3a892e87, 0x3ea2ecd9, 0x3f41ad3d, 0x3f12401a}, 801582109},
	{"sample_unit_sphere_surface", 42, 7, []uint32{0xbef41552, 0x3f6104b2, 0x3c3b7cc5, 0xbf64488a, 0x3e4751bf, 0xbed12f9e}, 2000578823},
	{"sample_unit_sphere", 0, 0, []uint32{0xbf113e29, 0xbe4309d5, 0x3a2432f5, 0xbebb9472, 0xbec7a21d, 0x3edc52e5}, 1390221496},
	{"sample_unit_sphere", 42, 7, []uint32{0xbed929e6, 0x3f48338c, 0x3c26cf45, 0xbf5121db, 0x3d97d571, 0x3d666193}, 2387272170},
	{"sample_unit_hemisphere_surface", 0, 0, []uint32{0xbf521a09, 0xbe8d111f, 0x3f00224c, 0x3e75a000, 0x3f11fe2f, 0x3f49200d}, 801582109},
	{"sample_unit_hemisphere_surface", 42, 7, []uint32{0xbed29569, 0x3f4222a3, 0x3f0176fa, 0xbf6eecc2, 0x3e509c53, 0x3e976831}, 2000578823},
	{"sample_unit_hemisphere", 0, 0, []uint32{0xbefb7af1, 0xbe28d96e, 0x3e995e8e, 0xbe8c0a8a, 0xbe950a33, 0x3f0ef774}, 1390221496},
	{"sample_unit_hemisphere", 42, 7, []uint32{0xbebb5bd0, 0x3f2cb970, 0x3ee65f5d, 0xbf3134cc, 0x3d80a7a8, 0x3ee0e232}, 2387272170},
	{"sample_unit_square", 0, 0, []uint32{0xba093000, 0x3d532480, 0xbe92401a, 0xbea071a8}, 801582109},
	{"sample_unit_square", 42, 7, []uint32{0xbbbb7d00, 0xbe2f0208, 0x3e512fa0, 0xbd0c1970}, 2000578823},
	{"sample_unit_cube", 0, 0, []uint32{0xba093000, 0x3d532480, 0xbe92401a, 0xbea071a8, 0x3e051250, 0xbe348ba0}, 1390221496},
	{"sample_unit_cube", 42, 7, []uint32{0xbbbb7d00, 0xbe2f0208, 0x3e512fa0, 0xbd0c1970, 0xbc6bffc0, 0x3d64ae10}, 2387272170},
	{"sample_unit_hypercube", 0, 0, []uint32{0xba093000, 0x3d532480, 0xbe92401a, 0xbea071a8, 0x3e051250, 0xbe348ba0, 0x3ec0e34a, 0xbd5c7760}, 1916308171},
	{"sample_unit_hypercube", 42, 7, []uint32{0xbbbb7d00, 0xbe2f0208, 0x3e512fa0, 0xbd0c1970, 0xbc6bffc0, 0x3d64ae10, 0xbec55318, 0xbe833b56}, 1046631786},
}

func TestSamplers(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range samples {
		sp, ok := SamplerByName(c.name)
		if !ok {
			t.Fatalf("no sampler %s", c.name)
		}
		seen[c.name] = true
		s := Init(c.seed, c.offset)
		got := append(sp.Sample(&s), sp.Sample(&s)...)
		if len(got) != 2*sp.Lanes {
			t.Fatalf("%s: %d lanes, want %d", c.name, len(got)/2, sp.Lanes)
		}
		for i, want := range c.bits {
			if math.Float32bits(got[i]) != want {
				t.Errorf("%s (%d, %d) lane %d: got %v, want %v", c.name, c.seed, c.offset, i, got[i], math.Float32frombits(want))
			}
		}
		if s != c.state {
			t.Errorf("%s (%d, %d): state %d after two samples, want %d", c.name, c.seed, c.offset, s, c.state)
		}
	}
	if len(seen) != len(Samplers) {
		t.Errorf("pinned %d of %d samplers", len(seen), len(Samplers))
	}
}

// The samples lie where they should: on (or in) the unit circle and
// sphere, hemisphere samples have z >= 0, triangle coordinates sum to at
// most 1, and cube lanes lie in [-0.5, 0.5).
func TestSamplerRanges(t *testing.T) {
	for _, sp := range Samplers {
		s := Init(9, 0)
		for range 10000 {
			v := sp.Sample(&s)
			n := 0.0
			for _, x := range v {
				n += float64(x) * float64(x)
			}
			n = math.Sqrt(n)
			var bad bool
			switch sp.Name {
			case "sample_unit_ring", "sample_unit_sphere_surface", "sample_unit_hemisphere_surface":
				bad = math.Abs(n-1) > 1e-5
			case "sample_unit_disk", "sample_unit_sphere", "sample_unit_hemisphere":
				bad = n > 1+1e-5
			case "sample_triangle":
				bad = v[0] < 0 || v[1] < 0 || v[0]+v[1] > 1
			default:
				for _, x := range v {
					bad = bad || x < -0.5 || x >= 0.5
				}
			}
			if (sp.Name == "sample_unit_hemisphere_surface" || sp.Name == "sample_unit_hemisphere") && v[2] < 0 {
				bad = true
			}
			if bad {
				t.Fatalf("%s: sample %v out of range", sp.Name, v)
			}
		}
	}
}
