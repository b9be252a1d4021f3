package linalg_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg"
	"github.com/gscript-lang/gscript/lang/token"
)

// val is a test value: a type and its lanes as float64 (converted to the
// lane type's bits when used).
type val struct {
	t  dtype.Type
	vs []float64
}

func ty(name string) dtype.Type {
	t, ok := dtype.ByName(name)
	if !ok {
		panic("no type " + name)
	}
	return t
}

func v(name string, vs ...float64) val { return val{ty(name), vs} }

func bitsOf(e ir.Type, vs []float64) []uint64 {
	out := make([]uint64, len(vs))
	for i, x := range vs {
		out[i] = ir.FromFloat(x, e)
	}
	return out
}

func floatsOf(e ir.Type, bits []uint64) []float64 {
	out := make([]float64, len(bits))
	for i, b := range bits {
		switch e {
		case ir.F32:
			out[i] = float64(math.Float32frombits(uint32(b)))
		case ir.F64:
			out[i] = math.Float64frombits(b)
		case ir.I32:
			out[i] = float64(int32(b))
		default:
			out[i] = float64(b)
		}
	}
	return out
}

func split(args []val) ([]dtype.Type, [][]uint64) {
	ts := make([]dtype.Type, len(args))
	bs := make([][]uint64, len(args))
	for i, a := range args {
		ts[i], bs[i] = a.t, bitsOf(a.t.Elem, a.vs)
	}
	return ts, bs
}

// eval runs one expression on the host: a function name, an operator
// ("op+", "neg") or a constructor ("new vec3").
func eval(name string, args ...val) (val, error) {
	h := &ir.Host{}
	ts, bs := split(args)
	var t dtype.Type
	var out []uint64
	var err error
	switch {
	case strings.HasPrefix(name, "op"):
		t, out, err = linalg.Binary[uint64](h, token.Lookup(name[2:]), ts[0], ts[1], bs[0], bs[1])
	case name == "neg":
		t, out, err = linalg.Unary[uint64](h, token.Sub, ts[0], bs[0])
	case strings.HasPrefix(name, "new "):
		t = ty(name[4:])
		out, err = linalg.Construct[uint64](h, t, ts, bs)
	default:
		t, out, err = linalg.Call[uint64](h, name, ts, bs)
	}
	if err == nil {
		err = h.Err
	}
	return val{t, floatsOf(t.Elem, out)}, err
}

var (
	s45 = math.Sqrt2 / 2
	qz  = v("quat", 0, 0, s45, s45) // 90 degrees about z
)

// cases are expressions with hand-computed results; tol 0 means exact.
var cases = []struct {
	name string
	args []val
	want val
	tol  float64
}{
	{"op+", []val{v("vec3", 1, 2, 3), v("vec3", 10, 20, 30)}, v("vec3", 11, 22, 33), 0},
	{"op-", []val{v("vec3d", 1, 2, 3), v("vec3d", 10, 20, 30)}, v("vec3d", -9, -18, -27), 0},
	{"op*", []val{v("vec3", 1, 2, 3), v("f32", 2)}, v("vec3", 2, 4, 6), 0},
	{"op*", []val{v("f32", 2), v("vec2", 1, 2)}, v("vec2", 2, 4), 0},
	{"op/", []val{v("vec4", 2, 4, 6, 8), v("f32", 2)}, v("vec4", 1, 2, 3, 4), 0},
	{"op/", []val{v("f32", 12), v("vec3", 1, 2, 3)}, v("vec3", 12, 6, 4), 0},
	{"op*", []val{v("vec3", 1, 2, 3), v("vec3", 4, 5, 6)}, v("vec3", 4, 10, 18), 0},
	{"op/", []val{v("vec3", 4, 10, 18), v("vec3", 4, 5, 6)}, v("vec3", 1, 2, 3), 0},
	{"op*", []val{v("mat22", 1, 2, 3, 4), v("vec2", 5, 6)}, v("vec2", 17, 39), 0},
	{"op*", []val{v("vec2", 5, 6), v("mat22", 1, 2, 3, 4)}, v("vec2", 23, 34), 0},
	{"op*", []val{v("mat22", 1, 2, 3, 4), v("mat22", 5, 6, 7, 8)}, v("mat22", 19, 22, 43, 50), 0},
	{"op*", []val{v("mat33d", 2, 0, 0, 0, 2, 0, 0, 0, 2), v("f64", 0.5)}, v("mat33d", 1, 0, 0, 0, 1, 0, 0, 0, 1), 0},
	{"op+", []val{v("mat22", 1, 2, 3, 4), v("mat22", 1, 1, 1, 1)}, v("mat22", 2, 3, 4, 5), 0},
	{"op*", []val{v("quat", 1, 0, 0, 0), v("quat", 0, 1, 0, 0)}, v("quat", 0, 0, 1, 0), 0},  // i j = k
	{"op*", []val{v("quat", 0, 1, 0, 0), v("quat", 1, 0, 0, 0)}, v("quat", 0, 0, -1, 0), 0}, // j i = -k
	{"op*", []val{v("quatd", 1, 2, 3, 4), v("quatd", 0, 0, 0, 1)}, v("quatd", 1, 2, 3, 4), 0},
	{"op+", []val{v("vec3i", 1, 2, 3), v("vec3i", -1, 5, 7)}, v("vec3i", 0, 7, 10), 0},
	{"op/", []val{v("vec3i", 7, -7, 9), v("vec3i", 2, 2, 3)}, v("vec3i", 3, -3, 3), 0},
	{"op*", []val{v("vec2i", 7, -7), v("i32", 3)}, v("vec2i", 21, -21), 0},
	{"op==", []val{v("vec3", 1, 2, 3), v("vec3", 1, 2, 3)}, v("bool", 1), 0},
	{"op==", []val{v("vec3", 1, 2, 3), v("vec3", 1, 2, 4)}, v("bool", 0), 0},
	{"op!=", []val{v("vec3", 1, 2, 3), v("vec3", 1, 2, 4)}, v("bool", 1), 0},
	{"op==", []val{v("mat22", 1, 2, 3, 4), v("mat22", 1, 2, 3, 4)}, v("bool", 1), 0},
	{"op!=", []val{v("quat", 0, 0, 0, 1), v("quat", 0, 0, 0, 1)}, v("bool", 0), 0},
	{"op==", []val{v("vec2", math.NaN(), 1), v("vec2", math.NaN(), 1)}, v("bool", 0), 0},
	{"neg", []val{v("vec3", 1, -2, 0)}, v("vec3", -1, 2, math.Copysign(0, -1)), 0},
	{"neg", []val{v("mat22d", 1, 2, 3, 4)}, v("mat22d", -1, -2, -3, -4), 0},
	{"neg", []val{v("vec2i", 1, -2)}, v("vec2i", -1, 2), 0},
	{"neg", []val{v("quat", 1, 2, 3, 4)}, v("quat", -1, -2, -3, -4), 0},

	{"new vec3", []val{v("f32", 1), v("f32", 2), v("f32", 3)}, v("vec3", 1, 2, 3), 0},
	{"new vec3", []val{v("i32", 1), v("f64", 2.5), v("i64", 3)}, v("vec3", 1, 2.5, 3), 0},
	{"new vec4", []val{v("f32", 7)}, v("vec4", 7, 7, 7, 7), 0},
	{"new vec2d", nil, v("vec2d", 0, 0), 0},
	{"new vec3d", []val{v("vec3", 0.1, 2, 3)}, v("vec3d", float64(float32(0.1)), 2, 3), 0},
	{"new vec3i", []val{v("vec3", 1.9, -1.9, 3)}, v("vec3i", 1, -1, 3), 0},
	{"new mat22", []val{v("vec2", 1, 2), v("vec2", 3, 4)}, v("mat22", 1, 2, 3, 4), 0},
	{"new mat22", []val{v("f32", 1), v("f32", 2), v("f32", 3), v("f32", 4)}, v("mat22", 1, 2, 3, 4), 0},
	{"new mat22", []val{v("f32", 5)}, v("mat22", 5, 5, 5, 5), 0},
	{"new mat33", nil, v("mat33", 0, 0, 0, 0, 0, 0, 0, 0, 0), 0},
	{"new mat22d", []val{v("mat22", 1, 2, 3, 4)}, v("mat22d", 1, 2, 3, 4), 0},
	{"new quat", nil, v("quat", 0, 0, 0, 0), 0},
	{"new quat", []val{v("f32", 1), v("f32", 2), v("f32", 3), v("f32", 4)}, v("quat", 1, 2, 3, 4), 0},
	{"new quatd", []val{v("vec3d", 1, 2, 3), v("f64", 4)}, v("quatd", 1, 2, 3, 4), 0},

	{"dot", []val{v("vec3", 1, 2, 3), v("vec3", 4, 5, 6)}, v("f32", 32), 0},
	{"dot", []val{v("vec4d", 1, 2, 3, 4), v("vec4d", 1, 1, 1, 1)}, v("f64", 10), 0},
	{"dot", []val{v("vec2i", 3, 4), v("vec2i", 3, 4)}, v("i32", 25), 0},
	{"dot", []val{v("quat", 1, 2, 3, 4), v("quat", 1, 1, 1, 1)}, v("f32", 10), 0},
	{"cross", []val{v("vec3", 1, 0, 0), v("vec3", 0, 1, 0)}, v("vec3", 0, 0, 1), 0},
	{"cross", []val{v("vec3d", 0, 1, 0), v("vec3d", 1, 0, 0)}, v("vec3d", 0, 0, -1), 0},
	{"cross", []val{v("vec3i", 1, 2, 3), v("vec3i", 4, 5, 6)}, v("vec3i", -3, 6, -3), 0},
	{"length", []val{v("vec2", 3, 4)}, v("f32", 5), 0},
	{"length", []val{v("vec4d", 1, 1, 1, 1)}, v("f64", 2), 0},
	{"length", []val{v("quat", 0, 0, 3, 4)}, v("f32", 5), 0},
	{"length_sq", []val{v("vec3", 1, 2, 3)}, v("f32", 14), 0},
	{"length_sq", []val{v("vec2i", 3, 4)}, v("i32", 25), 0},
	{"normalize", []val{v("vec2", 3, 4)}, v("vec2", 0.6, 0.8), 1e-7},
	{"normalize", []val{v("vec3", 0, 0, 0)}, v("vec3", 0, 0, 0), 0},
	{"normalize", []val{v("vec3d", 0, 0, 2)}, v("vec3d", 0, 0, 1), 0},
	{"normalize", []val{v("quat", 0, 0, 0, 0)}, v("quat", 0, 0, 0, 1), 0},
	{"normalize", []val{v("quatd", 0, 0, 0, -2)}, v("quatd", 0, 0, 0, -1), 0},
	{"outer", []val{v("vec2", 1, 2), v("vec2", 3, 4)}, v("mat22", 3, 4, 6, 8), 0},
	{"transpose", []val{v("mat33", 1, 2, 3, 4, 5, 6, 7, 8, 9)}, v("mat33", 1, 4, 7, 2, 5, 8, 3, 6, 9), 0},
	{"determinant", []val{v("mat22", 1, 2, 3, 4)}, v("f32", -2), 0},
	{"determinant", []val{v("mat33", 2, 0, 0, 0, 3, 0, 0, 0, 4)}, v("f32", 24), 0},
	{"determinant", []val{v("mat33d", 1, 2, 3, 0, 1, 4, 5, 6, 0)}, v("f64", 1), 0},
	{"determinant", []val{v("mat44", 1, 0, 2, 0, 0, 3, 0, 0, 4, 0, 5, 0, 0, 0, 0, 6)}, v("f32", -54), 0},
	{"determinant", []val{v("mat44d", 1, 2, 3, 4, 5, 6, 7, 8, 2, 6, 4, 8, 3, 1, 1, 2)}, v("f64", 72), 1e-12},
	{"inverse", []val{v("mat22", 4, 7, 2, 6)}, v("mat22", 0.6, -0.7, -0.2, 0.4), 1e-6},
	{"inverse", []val{v("mat22", 1, 2, 2, 4)}, v("mat22", 0, 0, 0, 0), 0},
	{"inverse", []val{v("mat33d", 1, 2, 3, 0, 1, 4, 5, 6, 0)}, v("mat33d", -24, 18, 5, 20, -15, -4, -5, 4, 1), 1e-12},
	{"inverse", []val{v("mat33", 1, 2, 3, 4, 5, 6, 7, 8, 9)}, v("mat33", 0, 0, 0, 0, 0, 0, 0, 0, 0), 0},
	{"inverse", []val{v("mat44", 2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0.5)}, v("mat44", 0.5, 0, 0, 0, 0, 0.25, 0, 0, 0, 0, 0.125, 0, 0, 0, 0, 2), 0},
	{"inverse", []val{v("mat44d", 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1)}, v("mat44d", 1, -1, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1, 0, 0, 0, 1), 0},
	{"inverse", []val{v("mat44", 1, 2, 3, 4, 2, 4, 6, 8, 0, 0, 1, 0, 0, 0, 0, 1)}, v("mat44", make([]float64, 16)...), 0},
	{"trace", []val{v("mat33", 1, 2, 3, 4, 5, 6, 7, 8, 9)}, v("f32", 15), 0},
	{"diag", []val{v("vec3d", 1, 2, 3)}, v("mat33d", 1, 0, 0, 0, 2, 0, 0, 0, 3), 0},
	{"quat_rotate", []val{qz, v("vec3", 1, 0, 0)}, v("vec3", 0, 1, 0), 1e-6},
	{"quat_rotate_inv", []val{qz, v("vec3", 1, 0, 0)}, v("vec3", 0, -1, 0), 1e-6},
	{"quat_rotate", []val{v("quatd", 0, 0, 0, 1), v("vec3d", 1, 2, 3)}, v("vec3d", 1, 2, 3), 0},
	{"quat_inverse", []val{v("quat", 1, 2, 3, 4)}, v("quat", -1, -2, -3, 4), 0},
	{"quat_to_matrix", []val{qz}, v("mat33", 0, -1, 0, 1, 0, 0, 0, 0, 1), 1e-6},
	{"quat_from_axis_angle", []val{v("vec3", 0, 0, 1), v("f32", math.Pi/2)}, qz, 1e-7},
	{"quat_from_axis_angle", []val{v("vec3d", 1, 0, 0), v("f64", math.Pi)}, v("quatd", 1, 0, 0, math.Cos(math.Pi/2)), 0},
	{"quat_from_matrix", []val{v("mat33", 0, -1, 0, 1, 0, 0, 0, 0, 1)}, qz, 1e-7},
	{"quat_from_matrix", []val{v("mat33d", 1, 0, 0, 0, -1, 0, 0, 0, -1)}, v("quatd", 1, 0, 0, 0), 0},
	{"quat_from_matrix", []val{v("mat33d", -1, 0, 0, 0, 1, 0, 0, 0, -1)}, v("quatd", 0, 1, 0, 0), 0},
	{"quat_from_matrix", []val{v("mat33d", -1, 0, 0, 0, -1, 0, 0, 0, 1)}, v("quatd", 0, 0, 1, 0), 0},
	{"quat_from_matrix", []val{v("mat44", 0, -1, 0, 9, 1, 0, 0, 9, 0, 0, 1, 9, 9, 9, 9, 9)}, qz, 1e-7},
	{"quat_identity", nil, v("quat", 0, 0, 0, 1), 0},
	{"identity22", nil, v("mat22", 1, 0, 0, 1), 0},
	{"identity33", nil, v("mat33", 1, 0, 0, 0, 1, 0, 0, 0, 1), 0},
	{"identity44", nil, v("mat44", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1), 0},
	{"min", []val{v("vec3", 1, 5, math.NaN()), v("vec3", 2, 3, 4)}, v("vec3", 1, 3, 4), 0},
	{"max", []val{v("vec2i", 1, 5), v("vec2i", 2, 3)}, v("vec2i", 2, 5), 0},
	{"max", []val{v("mat22", 1, 5, -1, 0), v("mat22", 2, 3, -2, 0)}, v("mat22", 2, 5, -1, 0), 0},
	{"abs", []val{v("vec3", -1, 2, -3)}, v("vec3", 1, 2, 3), 0},
	{"abs", []val{v("vec2i", -4, 4)}, v("vec2i", 4, 4), 0},
	{"abs", []val{v("mat22d", -1, 2, -3, 4)}, v("mat22d", 1, 2, 3, 4), 0},
	{"lerp", []val{v("vec2", 0, 10), v("vec2", 10, 20), v("f32", 0.25)}, v("vec2", 2.5, 12.5), 0},
	{"lerp", []val{v("f64", 1), v("f64", 3), v("f64", 0.5)}, v("f64", 2), 0},
	{"lerp", []val{v("quat", 0, 0, 0, 1), v("quat", 0, 0, 2, 1), v("f32", 0.5)}, v("quat", 0, 0, 1, 1), 0},
	{"cw_mul", []val{v("mat22", 1, 2, 3, 4), v("mat22", 2, 2, 2, 2)}, v("mat22", 2, 4, 6, 8), 0},
	{"cw_div", []val{v("vec2", 1, 2), v("vec2", 2, 2)}, v("vec2", 0.5, 1), 0},
}

func TestCases(t *testing.T) {
	for _, c := range cases {
		got, err := eval(c.name, c.args...)
		if err != nil {
			t.Errorf("%s%v: %v", c.name, c.args, err)
			continue
		}
		if !close(got, c.want, c.tol) {
			t.Errorf("%s%v = %v, want %v", c.name, c.args, got, c.want)
		}
	}
}

// close compares types, lanes within tol and, exactly, signs of zeros.
func close(a, b val, tol float64) bool {
	if a.t != b.t || len(a.vs) != len(b.vs) {
		return false
	}
	for i := range a.vs {
		x, y := a.vs[i], b.vs[i]
		switch {
		case math.IsNaN(x) || math.IsNaN(y):
			if math.IsNaN(x) != math.IsNaN(y) {
				return false
			}
		case tol == 0 && (x != y || math.Signbit(x) != math.Signbit(y)):
			return false
		case math.Abs(x-y) > tol:
			return false
		}
	}
	return true
}

// quat_from_matrix(quat_to_matrix(q)) is q (or -q) for unit quaternions
// reaching every branch of Warp's quat_from_matrix.
func TestQuatMatrixRoundTrip(t *testing.T) {
	for _, q := range [][]float64{
		{0, 0, 0, 1}, {0.5, 0.5, 0.5, 0.5}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0},
		{0.9, 0.3, 0.1, 0.2}, {0.2, 0.9, 0.1, 0.3}, {0.1, 0.3, 0.9, 0.2}, {-0.3, 0.4, -0.5, 0.6},
	} {
		for _, name := range []string{"quat", "quatd"} {
			n, err := eval("normalize", v(name, q...))
			if err != nil {
				t.Fatal(err)
			}
			m, _ := eval("quat_to_matrix", n)
			back, _ := eval("quat_from_matrix", m)
			neg := val{back.t, []float64{-back.vs[0], -back.vs[1], -back.vs[2], -back.vs[3]}}
			if !close(back, n, 1e-6) && !close(neg, n, 1e-6) {
				t.Errorf("%s%v: matrix %v gives %v", name, n.vs, m.vs, back.vs)
			}
		}
	}
}

// inverse(m) * m is the identity for well-conditioned matrices.
func TestInverseTimesMatrix(t *testing.T) {
	for _, m := range []val{
		v("mat22", 3, 1, -2, 5),
		v("mat33", 2, -1, 0, -1, 2, -1, 0, -1, 2),
		v("mat44", 4, 1, 0, 2, 1, 5, 1, 0, 0, 1, 6, 1, 2, 0, 1, 7),
		v("mat44d", 4, 1, 0, 2, 1, 5, 1, 0, 0, 1, 6, 1, 2, 0, 1, 7),
	} {
		inv, err := eval("inverse", m)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := eval("op*", inv, m)
		id, _ := eval("identity" + m.t.String()[3:5])
		id.t = p.t
		if !close(p, id, 1e-5) {
			t.Errorf("inverse(%v) * m = %v", m.vs, p.vs)
		}
	}
}

// Integer division by zero is an error in ir.Host.Err, not a panic.
func TestHostDivisionByZero(t *testing.T) {
	_, err := eval("op/", v("vec2i", 1, 2), v("vec2i", 1, 0))
	if err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Fatalf("got %v", err)
	}
}
