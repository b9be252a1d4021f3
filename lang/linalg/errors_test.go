package linalg_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg"
	"github.com/gscript-lang/gscript/lang/token"
)

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []val
		want string
	}{
		{"op+", []val{v("vec3", 1, 2, 3), v("vec3d", 1, 2, 3)}, "mismatched types vec3 and vec3d in +; convert with vec3d(...)"},
		{"op*", []val{v("vec3", 1, 2, 3), v("f64", 2)}, "mismatched types vec3 and f64 in *; convert with f32(...)"},
		{"op+", []val{v("vec3", 1, 2, 3), v("vec2", 1, 2)}, "mismatched types vec3 and vec2 in +"},
		{"op*", []val{v("mat33", make([]float64, 9)...), v("vec4", 1, 2, 3, 4)}, "mat33 * vec4: sizes differ"},
		{"op*", []val{v("vec2", 1, 2), v("mat33", make([]float64, 9)...)}, "vec2 * mat33: sizes differ"},
		{"op*", []val{v("mat22", 1, 2, 3, 4), v("mat33", make([]float64, 9)...)}, "mat22 * mat33: sizes differ"},
		{"op*", []val{v("quat", 0, 0, 0, 1), v("vec3", 1, 2, 3)}, "mismatched types quat and vec3 in *"},
		{"op/", []val{v("mat22", 1, 2, 3, 4), v("mat22", 1, 2, 3, 4)}, "operator / not defined on mat22 and mat22"},
		{"op+", []val{v("vec3", 1, 2, 3), v("f32", 1)}, "operator + not defined on vec3 and f32"},
		{"op%", []val{v("vec3", 1, 2, 3), v("vec3", 1, 2, 3)}, "operator % not defined"},
		{"op==", []val{v("vec3", 1, 2, 3), v("f32", 1)}, "mismatched types vec3 and f32 in =="},
		{"neg", []val{v("bool", 1)}, "operator - not defined on bool"},
		{"new vec3", []val{v("f32", 1), v("f32", 2)}, "vec3(f32, f32): needs 3 scalars, one scalar or none"},
		{"new mat22", []val{v("vec3", 1, 2, 3), v("vec2", 1, 2)}, "mat22(vec3, vec2): needs 2 row vectors of 2 lanes"},
		{"new quat", []val{v("f32", 1)}, "quat(f32): needs x, y, z, w"},
		{"new vec2", []val{v("bool", 1), v("f32", 1)}, "vec2: argument 1 is bool, not a number"},
		{"new f32", nil, "f32 is not a vector, matrix or quaternion type"},
		{"normalize", []val{v("vec3i", 1, 2, 3)}, "normalize(v): argument 1 is vec3i, needs a float vector or quaternion"},
		{"length", []val{v("vec2i", 1, 2)}, "length(v): argument 1 is vec2i, needs a float vector"},
		{"dot", []val{v("vec3", 1, 2, 3), v("vec3d", 1, 2, 3)}, "dot(a, b): argument 2 is vec3d, needs vec3 as argument 1 is vec3; convert with vec3(...)"},
		{"dot", []val{v("vec3", 1, 2, 3)}, "dot takes 2 arguments, not 1: dot(a, b)"},
		{"cross", []val{v("vec2", 1, 2), v("vec2", 1, 2)}, "cross(a, b): argument 1 is vec2, needs a vec3"},
		{"outer", []val{v("vec2i", 1, 2), v("vec2i", 1, 2)}, "needs a float vector"},
		{"determinant", []val{v("vec3", 1, 2, 3)}, "determinant(m): argument 1 is vec3, needs a matrix"},
		{"quat_rotate", []val{v("quat", 0, 0, 0, 1), v("vec3d", 1, 2, 3)}, "quat_rotate(q, v): argument 2 is vec3d, needs vec3 as argument 1 is quat"},
		{"quat_from_axis_angle", []val{v("vec3", 1, 0, 0), v("f64", 1)}, "argument 2 is f64, needs f32"},
		{"quat_from_matrix", []val{v("mat22", 1, 0, 0, 1)}, "needs a mat33 or mat44"},
		{"lerp", []val{v("vec2", 1, 2), v("vec2", 1, 2), v("f64", 1)}, "argument 3 is f64, needs f32"},
		{"lerp", []val{v("vec2i", 1, 2), v("vec2i", 1, 2), v("i32", 1)}, "needs a float value"},
		{"min", []val{v("vec2", 1, 2), v("vec3", 1, 2, 3)}, "argument 2 is vec3, needs vec2"},
		{"nope", nil, "unknown function nope"},
	} {
		_, err := eval(c.name, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s%v: error %v, want %q", c.name, c.args, err, c.want)
		}
	}
}

// The API reports malformed input (wrong lane counts, unknown or invalid
// types, any arity) as errors and never panics.
func TestNeverPanics(t *testing.T) {
	pool := append(dtype.Compounds(), dtype.Of(ir.F32), dtype.Of(ir.F64), dtype.Of(ir.I32), dtype.Of(ir.I64),
		dtype.Of(ir.Bool), dtype.Of(ir.U8), dtype.Type{}, dtype.Type{Kind: dtype.Vec, Elem: ir.F32, N: 7},
		dtype.Type{Kind: dtype.Mat, Elem: ir.I32, N: 2, M: 2}, dtype.Type{Kind: dtype.Quat, Elem: ir.I32, N: 4})
	names := []string{"op+", "op-", "op*", "op/", "op==", "op!=", "op<", "neg"}
	for _, f := range linalg.Names() {
		names = append(names, f.Name)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		n := r.IntN(4)
		ts := make([]dtype.Type, n)
		args := make([][]uint64, n)
		for k := range ts {
			ts[k] = pool[r.IntN(len(pool))]
			lanes := ts[k].Lanes()
			if r.IntN(20) == 0 {
				lanes = r.IntN(17)
			}
			args[k] = make([]uint64, lanes)
			for l := range args[k] {
				args[k][l] = r.Uint64()
			}
		}
		if r.IntN(10) == 0 {
			args = args[:r.IntN(n+1)]
		}
		name := names[r.IntN(len(names))]
		target := pool[r.IntN(len(pool))]
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("%s %v (construct %v): panic %v", name, ts, target, p)
				}
			}()
			apply(&ir.Host{}, name, target, ts, args)
		}()
	}
}

// apply runs name (an operator, a constructor of target or a builtin)
// on any input.
func apply(h *ir.Host, name string, target dtype.Type, ts []dtype.Type, args [][]uint64) {
	at := func(k int) (dtype.Type, []uint64) {
		if k < len(ts) && k < len(args) {
			return ts[k], args[k]
		}
		return dtype.Type{}, nil
	}
	t0, a0 := at(0)
	t1, a1 := at(1)
	switch {
	case name == "neg":
		linalg.Unary[uint64](h, token.Sub, t0, a0)
	case strings.HasPrefix(name, "op"):
		linalg.Binary[uint64](h, token.Lookup(name[2:]), t0, t1, a0, a1)
	default:
		linalg.Call[uint64](h, name, ts, args)
	}
	linalg.Construct[uint64](h, target, ts, args)
}
