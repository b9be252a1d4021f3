package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
)

// precisionCase is one function of TestFastMathPrecision: a kernel
// expression over x[i] and z[i], its float64 reference, and the ranges the
// inputs are drawn from.
type precisionCase struct {
	name   string
	expr   string
	ref    func(x, z float64) float64
	x, z   func(r *rand.Rand) float32
	ranges string
	// exact: the strict kernel is correctly rounded, so it must equal the
	// reference rounded to f32 (the sanity check of the test).
	exact bool
}

// uniform draws from [lo, hi); logUniform a magnitude 2^e with e uniform
// in [lo, hi), with a random sign when signed.
func uniform(lo, hi float64) func(*rand.Rand) float32 {
	return func(r *rand.Rand) float32 { return float32(lo + (hi-lo)*r.Float64()) }
}

func logUniform(lo, hi float64, signed bool) func(*rand.Rand) float32 {
	return func(r *rand.Rand) float32 {
		v := float32(math.Exp2(lo + (hi-lo)*r.Float64()))
		if signed && r.IntN(2) == 0 {
			v = -v
		}
		return v
	}
}

func precisionCases() []precisionCase {
	unary := func(f func(float64) float64) func(x, z float64) float64 {
		return func(x, _ float64) float64 { return f(x) }
	}
	pos := logUniform(-100, 100, false)
	return []precisionCase{
		{name: "sqrt", expr: "sqrt(x[i])", ref: unary(math.Sqrt), x: pos, ranges: "x = 2^[-100,100]", exact: true},
		{name: "rsqrt", expr: "rsqrt(x[i])", ref: unary(func(x float64) float64 { return 1 / math.Sqrt(x) }), x: pos, ranges: "x = 2^[-100,100]"},
		{name: "div", expr: "x[i] / z[i]", ref: func(x, z float64) float64 { return x / z }, x: logUniform(-60, 60, true), z: logUniform(-60, 60, true),
			ranges: "x, z = ±2^[-60,60]", exact: true},
		{name: "sin", expr: "sin(x[i])", ref: unary(math.Sin), x: uniform(-math.Pi, math.Pi), ranges: "x in [-pi,pi]"},
		{name: "sin", expr: "sin(x[i])", ref: unary(math.Sin), x: uniform(-1000, 1000), ranges: "x in [-1000,1000]"},
		{name: "cos", expr: "cos(x[i])", ref: unary(math.Cos), x: uniform(-math.Pi, math.Pi), ranges: "x in [-pi,pi]"},
		{name: "cos", expr: "cos(x[i])", ref: unary(math.Cos), x: uniform(-1000, 1000), ranges: "x in [-1000,1000]"},
		{name: "tan", expr: "tan(x[i])", ref: unary(math.Tan), x: uniform(-1.5, 1.5), ranges: "x in [-1.5,1.5]"},
		{name: "exp", expr: "exp(x[i])", ref: unary(math.Exp), x: uniform(-80, 80), ranges: "x in [-80,80]"},
		{name: "exp2", expr: "exp2(x[i])", ref: unary(math.Exp2), x: uniform(-120, 120), ranges: "x in [-120,120]"},
		{name: "log", expr: "log(x[i])", ref: unary(math.Log), x: pos, ranges: "x = 2^[-100,100]"},
		{name: "log2", expr: "log2(x[i])", ref: unary(math.Log2), x: pos, ranges: "x = 2^[-100,100]"},
		{name: "log10", expr: "log10(x[i])", ref: unary(math.Log10), x: pos, ranges: "x = 2^[-100,100]"},
		{name: "pow", expr: "pow(x[i], z[i])", ref: math.Pow, x: logUniform(-6, 6, false), z: uniform(-10, 10), ranges: "x = 2^[-6,6], z in [-10,10]"},
		{name: "atan2", expr: "atan2(x[i], z[i])", ref: math.Atan2, x: uniform(-10, 10), z: uniform(-10, 10), ranges: "x, z in [-10,10]"},
		{name: "tanh", expr: "tanh(x[i])", ref: unary(math.Tanh), x: uniform(-10, 10), ranges: "x in [-10,10]"},
	}
}

// ulps is the distance of two f32 values in units in the last place: the
// number of floats between them (+0 and -0 are the same point; two NaNs
// are 0 apart, a NaN and a number the largest distance).
func ulps(a, b float32) int64 {
	na, nb := a != a, b != b
	switch {
	case na && nb:
		return 0
	case na || nb:
		return math.MaxInt64
	}
	ord := func(f float32) int64 {
		i := int64(int32(math.Float32bits(f)))
		if i < 0 {
			i = math.MinInt32 - i
		}
		return i
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return d
}

func TestUlps(t *testing.T) {
	one := float32(1)
	for _, c := range []struct {
		a, b float32
		want int64
	}{
		{1, 1, 0}, {0, float32(math.Copysign(0, -1)), 0}, {one, math.Nextafter32(one, 2), 1},
		{math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 2}, {-1, math.Nextafter32(-1, -2), 1},
		{float32(math.NaN()), float32(math.NaN()), 0}, {float32(math.NaN()), 1, math.MaxInt64},
	} {
		if got := ulps(c.a, c.b); got != c.want {
			t.Errorf("ulps(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// maxUlps is the largest distance between got and want, with the mean and
// the input where the largest occurs.
type maxUlps struct {
	max  int64
	sum  float64
	at   int
	n    int
	what string
}

func (m *maxUlps) add(i int, got, want float32) {
	d := ulps(got, want)
	if m.n++; d > m.max || m.n == 1 {
		m.max, m.at = d, i
	}
	m.sum += float64(d)
}

func (m *maxUlps) String() string {
	return fmt.Sprintf("%s max %d ulp (mean %.3f)", m.what, m.max, m.sum/float64(m.n))
}

// TestFastMathPrecision measures what fast math costs in accuracy on the
// GPU: for each f32 function it runs a few million inputs through the
// same kernel compiled strict and fast (--use_fast_math) and logs, one
// line per function, the largest ulp distance of fast from strict and of
// each from a float64 reference rounded to f32 (go test -v; the figures
// the docs quote). It asserts only that strict sqrt and division are
// correctly rounded; the fast figures are measurements, not limits.
func TestFastMathPrecision(t *testing.T) {
	const n = 1 << 22
	cases := precisionCases()
	var src strings.Builder
	for i, c := range cases {
		fmt.Fprintf(&src, "kernel f%d(x: array[f32], z: array[f32], y: array[f32]) {\n    let i = tid()\n    y[i] = %s\n}\n", i, c.expr)
	}
	ks := kernels(t, src.String()) // checked before the skip: no GPU needed
	drv, ctx, info := gpu(t)
	b := NewBuilder(drv, nil)
	start := time.Now()
	err := ctx.Do(func() error {
		s, err := drv.StreamCreate(cuda.StreamNonBlocking)
		if err != nil {
			return err
		}
		defer drv.StreamDestroy(s)
		g := &rig{t: t, drv: drv, s: s}
		defer g.free()
		r := rand.New(rand.NewPCG(1, 2))
		xs, zs := make([]uint64, n), make([]uint64, n)
		y := g.zeros(ir.F32, n)
		for i, c := range cases {
			one := func(*rand.Rand) float32 { return 1 }
			gx, gz := c.x, c.z
			if gz == nil {
				gz = one
			}
			for j := range xs {
				xs[j], zs[j] = uint64(math.Float32bits(gx(r))), uint64(math.Float32bits(gz(r)))
			}
			x, z := g.upload(ir.F32, xs), g.upload(ir.F32, zs)
			var out [2][]uint64
			for fast := range 2 {
				k, err := b.Build(ks[fmt.Sprintf("f%d", i)], info, Options{FastMath: fast == 1})
				if err != nil {
					return fmt.Errorf("%s: %w", c.name, err)
				}
				if err := k.Launch(s, []int{n}, []backend.Arg{x, z, y}); err != nil {
					return fmt.Errorf("%s: %w", c.name, err)
				}
				out[fast] = g.download(ir.F32, y, n)
				k.Unload()
			}
			fastStrict, strictRef, fastRef := maxUlps{what: "fast vs strict"}, maxUlps{what: "strict vs f64"}, maxUlps{what: "fast vs f64"}
			for j := range xs {
				xv, zv := math.Float32frombits(uint32(xs[j])), math.Float32frombits(uint32(zs[j]))
				ref := float32(c.ref(float64(xv), float64(zv)))
				strict, fast := math.Float32frombits(uint32(out[0][j])), math.Float32frombits(uint32(out[1][j]))
				fastStrict.add(j, fast, strict)
				strictRef.add(j, strict, ref)
				fastRef.add(j, fast, ref)
			}
			at := func(m maxUlps) string {
				xv, zv := math.Float32frombits(uint32(xs[m.at])), math.Float32frombits(uint32(zs[m.at]))
				if c.z == nil {
					return fmt.Sprintf("x=%g", xv)
				}
				return fmt.Sprintf("x=%g z=%g", xv, zv)
			}
			t.Logf("%-6s %-26s %s at %s; %s; %s", c.name, c.ranges, &fastStrict, at(fastStrict), &strictRef, &fastRef)
			if c.exact && strictRef.max != 0 {
				t.Errorf("strict %s is not correctly rounded: %s at %s", c.name, &strictRef, at(strictRef))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d functions x %d inputs on %s in %v", len(cases), n, info.Name, time.Since(start).Round(time.Millisecond))
}
