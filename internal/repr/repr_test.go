package repr

import (
	"math"
	"strconv"
	"testing"
)

// Expected strings are Python 3's repr of the same values (for f32 cases,
// numpy's repr of np.float32 values, which uses the shortest f32 digits).
// tenth is a variable so that 0.1+0.2 is computed in float64, not exactly.
var tenth = 0.1

func TestFormatFloat64(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{-1, "-1.0"},
		{0.1, "0.1"},
		{0.5, "0.5"},
		{1.5, "1.5"},
		{100, "100.0"},
		{123456789, "123456789.0"},
		{1e-4, "0.0001"},
		{1.5e-4, "0.00015"},
		{1e-5, "1e-05"},
		{1e-7, "1e-07"},
		{1.25e-7, "1.25e-07"},
		{1e15, "1000000000000000.0"},
		{1234567890123456, "1234567890123456.0"},
		{1e16, "1e+16"},
		{1.5e16, "1.5e+16"},
		{12345678901234567, "1.2345678901234568e+16"},
		{1e100, "1e+100"},
		{1e-100, "1e-100"},
		{-2.5e-300, "-2.5e-300"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.SmallestNonzeroFloat64, "5e-324"},
		{tenth + 0.2, "0.30000000000000004"},
		{1.0 / 3, "0.3333333333333333"},
		{2.0 / 3, "0.6666666666666666"},
		{5242880, "5242880.0"},
		{3.14159, "3.14159"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
		{math.NaN(), "nan"},
		{math.Copysign(math.NaN(), -1), "nan"},
	}
	for _, c := range cases {
		if got := FormatFloat(c.f, 64); got != c.want {
			t.Errorf("FormatFloat(%v, 64) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestFormatFloat32(t *testing.T) {
	cases := []struct {
		f    float32
		want string
	}{
		{0.1, "0.1"},
		{1, "1.0"},
		{1.0 / 3, "0.33333334"},
		{16777216, "16777216.0"},
		{1e-7, "1e-07"},
		{3.4028235e38, "3.4028235e+38"},
		{1e-45, "1e-45"},
		{float32(math.Inf(1)), "inf"},
		{123456.79, "123456.79"},
		{1e16, "1e+16"},
		{-0.25, "-0.25"},
	}
	for _, c := range cases {
		if got := FormatFloat(float64(c.f), 32); got != c.want {
			t.Errorf("FormatFloat(%v, 32) = %q, want %q", c.f, got, c.want)
		}
	}
}

// TestRoundTrip checks, over many values across the exponent range, that the
// output parses back to the same value and picks notation by Python's rule.
func TestRoundTrip(t *testing.T) {
	for e := -320; e <= 308; e++ {
		for _, m := range []float64{1, 1.7, 3.3333333333333335, 9.999999999999998} {
			f := m * math.Pow(10, float64(e))
			for _, bits := range []int{32, 64} {
				v := f
				if bits == 32 {
					v = float64(float32(f))
				}
				s := FormatFloat(v, bits)
				got, err := strconv.ParseFloat(s, bits)
				if err != nil && !math.IsInf(v, 0) {
					t.Fatalf("FormatFloat(%g, %d) = %q does not parse: %v", v, bits, s, err)
				}
				if got != v && !math.IsInf(v, 0) {
					t.Fatalf("FormatFloat(%g, %d) = %q parses as %g", v, bits, s, got)
				}
			}
		}
	}
}
