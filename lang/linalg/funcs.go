package linalg

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// Func is one builtin of Call, as the help table lists it.
type Func struct {
	Name    string
	Sig     string // "dot(a, b)"
	Summary string
	Arity   int // the number of arguments
}

var funcs = []Func{
	{"dot", "dot(a, b)", "the dot product of two vectors (or quaternions) of one type", 2},
	{"cross", "cross(a, b)", "the cross product of two vec3 of one type", 2},
	{"length", "length(v)", "the Euclidean length of a float vector or quaternion: sqrt(dot(v, v))", 1},
	{"length_sq", "length_sq(v)", "the squared length of a vector or quaternion: dot(v, v)", 1},
	{"normalize", "normalize(v)", "v / length(v) for a float vector or quaternion; a zero vector stays zero, a zero quaternion gives quat_identity()", 1},
	{"outer", "outer(a, b)", "the outer product of two float vectors of one type: m[i, j] = a[i] * b[j]", 2},
	{"transpose", "transpose(m)", "the transposed matrix", 1},
	{"determinant", "determinant(m)", "the determinant of a matrix (Warp's formulas; mat44 in f64 where Warp uses double)", 1},
	{"inverse", "inverse(m)", "the inverse of a matrix; zeros when the determinant is 0", 1},
	{"trace", "trace(m)", "the sum of a matrix's diagonal", 1},
	{"diag", "diag(v)", "the matrix with diagonal v and zeros elsewhere", 1},
	{"quat_rotate", "quat_rotate(q, v)", "the vec3 v rotated by the unit quaternion q", 2},
	{"quat_rotate_inv", "quat_rotate_inv(q, v)", "the vec3 v rotated by the inverse of the unit quaternion q", 2},
	{"quat_inverse", "quat_inverse(q)", "the conjugate (-x, -y, -z, w): the inverse of a unit quaternion", 1},
	{"quat_to_matrix", "quat_to_matrix(q)", "the mat33 rotating as the unit quaternion q", 1},
	{"quat_from_axis_angle", "quat_from_axis_angle(axis, angle)", "the rotation by angle (radians) about the vec3 axis (of unit length)", 2},
	{"quat_from_matrix", "quat_from_matrix(m)", "the unit quaternion of a rotation mat33 (or a mat44's upper 3x3)", 1},
	{"quat_identity", "quat_identity()", "quat(0.0, 0.0, 0.0, 1.0); quatd(quat_identity()) for f64", 0},
	{"identity22", "identity22()", "the 2x2 identity mat22; mat22d(identity22()) for f64", 0},
	{"identity33", "identity33()", "the 3x3 identity mat33; mat33d(identity33()) for f64", 0},
	{"identity44", "identity44()", "the 4x4 identity mat44; mat44d(identity44()) for f64", 0},
	{"min", "min(a, b)", "the lane by lane smaller of two values of one type (a NaN lane yields the other)", 2},
	{"max", "max(a, b)", "the lane by lane larger of two values of one type (a NaN lane yields the other)", 2},
	{"abs", "abs(v)", "the absolute value of every lane", 1},
	{"lerp", "lerp(a, b, t)", "a*(1-t) + b*t for float values a, b of one type and a scalar t of their lane type", 3},
	{"cw_mul", "cw_mul(a, b)", "the lane by lane product of two values of one type", 2},
	{"cw_div", "cw_div(a, b)", "the lane by lane quotient of two values of one type", 2},
}

var byName = func() map[string]Func {
	m := make(map[string]Func, len(funcs))
	for _, f := range funcs {
		m[f.Name] = f
	}
	return m
}()

// Names lists the builtins Call handles, in the order help shows them.
func Names() []Func { return append([]Func(nil), funcs...) }

// IsFunc reports whether name is a linear-algebra builtin Call handles.
func IsFunc(name string) bool {
	_, ok := byName[name]
	return ok
}

// call is one application of a builtin.
type call[R any] struct {
	o    ir.Machine[R]
	f    Func
	ts   []dtype.Type
	args [][]R
}

// Call applies builtin name to args of types ts.
func Call[R any](o ir.Machine[R], name string, ts []dtype.Type, args [][]R) (dtype.Type, []R, error) {
	f, ok := byName[name]
	if !ok {
		return dtype.Type{}, nil, fmt.Errorf("unknown function %s", name)
	}
	if len(ts) != len(args) {
		return dtype.Type{}, nil, fmt.Errorf("%s: %d types for %d arguments", name, len(ts), len(args))
	}
	if len(ts) != f.Arity {
		return dtype.Type{}, nil, fmt.Errorf("%s takes %d arguments, not %d: %s", name, f.Arity, len(ts), f.Sig)
	}
	for i := range ts {
		if err := value(ts[i], args[i]); err != nil {
			return dtype.Type{}, nil, fmt.Errorf("%s: argument %d: %v", name, i+1, err)
		}
	}
	c := &call[R]{o, f, ts, args}
	if c.f.Arity == 0 {
		return c.constant()
	}
	return c.run()
}

// kind is a class of argument types a builtin takes.
type kind struct {
	what string
	ok   func(dtype.Type) bool
}

var (
	floatVec = kind{"a float vector", func(t dtype.Type) bool { return t.Kind == dtype.Vec && t.Elem.IsFloat() }}
	vec3     = kind{"a vec3", func(t dtype.Type) bool { return t.Kind == dtype.Vec && t.N == 3 }}
	vecQuat  = kind{"a vector or quaternion", func(t dtype.Type) bool { return t.Kind == dtype.Vec || t.Kind == dtype.Quat }}
	floatVQ  = kind{"a float vector or quaternion", func(t dtype.Type) bool {
		return (t.Kind == dtype.Vec || t.Kind == dtype.Quat) && t.Elem.IsFloat()
	}}
	matrix   = kind{"a matrix", func(t dtype.Type) bool { return t.Kind == dtype.Mat }}
	rotation = kind{"a mat33 or mat44", func(t dtype.Type) bool { return t.Kind == dtype.Mat && t.N >= 3 }}
	quatK    = kind{"a quaternion", func(t dtype.Type) bool { return t.Kind == dtype.Quat }}
	numeric  = kind{"a number, vector, matrix or quaternion", func(t dtype.Type) bool { return t.Elem.IsNumeric() }}
	float    = kind{"a float value", func(t dtype.Type) bool { return t.Elem.IsFloat() }}
	scalarK  = kind{"a scalar", func(t dtype.Type) bool { return t.IsScalar() }}
)

// need checks that argument i is of kind k.
func (c *call[R]) need(i int, k kind) error {
	if !k.ok(c.ts[i]) {
		return fmt.Errorf("%s: argument %d is %s, needs %s", c.f.Sig, i+1, c.ts[i], k.what)
	}
	return nil
}

// sameAs checks that argument i has the type of argument 0 (sameType) or
// its lane type.
func (c *call[R]) sameAs(i int, sameType bool) error {
	a, b := c.ts[0], c.ts[i]
	want := a
	if !sameType {
		want = dtype.Of(a.Elem)
	}
	if b == want {
		return nil
	}
	msg := fmt.Sprintf("%s: argument %d is %s, needs %s as argument 1 is %s", c.f.Sig, i+1, b, want, a)
	if u, ok := b.WithElem(want.Elem); ok && u == want {
		msg += fmt.Sprintf("; convert with %s(...)", want)
	}
	return fmt.Errorf("%s", msg)
}

// check runs the checks in order, returning the first failure.
func check(errs ...func() error) error {
	for _, e := range errs {
		if err := e(); err != nil {
			return err
		}
	}
	return nil
}

func (c *call[R]) kinds(ks ...kind) func() error {
	return func() error {
		for i, k := range ks {
			if err := c.need(i, k); err != nil {
				return err
			}
		}
		return nil
	}
}

func (c *call[R]) same(i int) func() error { return func() error { return c.sameAs(i, true) } }
func (c *call[R]) lane(i int) func() error { return func() error { return c.sameAs(i, false) } }

// constant evaluates the builtins without arguments.
func (c *call[R]) constant() (dtype.Type, []R, error) {
	s := on(c.o, ir.F32)
	if c.f.Name == "quat_identity" {
		return quatOf(ir.F32), s.consts(0, 0, 0, 1), nil
	}
	n := int(c.f.Name[len("identity")] - '0')
	return matOf(ir.F32, n), identity(s, n), nil
}

// identity is the n x n identity matrix.
func identity[R any](s lanes[R], n int) []R {
	vs := make([]float64, n*n)
	for i := 0; i < n; i++ {
		vs[i*n+i] = 1
	}
	return s.consts(vs...)
}
