package linalg

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// Construct builds a value of compound type t from arguments of types ts:
//
//	vec3(x, y, z)   lanes; scalars of any numeric type convert to t's lane type
//	vec3(s)         every lane s (also mat33(s))
//	vec3()          zeros (also mat33() and quat(), as Warp)
//	vec3d(v)        a value of t's shape with other lanes, converted
//	mat33(r0, r1, r2)  row vectors
//	mat33(9 scalars)   row by row
//	quat(x, y, z, w), quat(v3, w)
func Construct[R any](o ir.Machine[R], t dtype.Type, ts []dtype.Type, args [][]R) ([]R, error) {
	if t.IsScalar() || !known(t) {
		return nil, fmt.Errorf("%s is not a vector, matrix or quaternion type", t)
	}
	if len(ts) != len(args) {
		return nil, fmt.Errorf("%s: %d types for %d arguments", t, len(ts), len(args))
	}
	for i := range ts {
		if err := value(ts[i], args[i]); err != nil {
			return nil, fmt.Errorf("%s: argument %d: %v", t, i+1, err)
		}
		if !ts[i].Elem.IsNumeric() {
			return nil, fmt.Errorf("%s: argument %d is %s, not a number", t, i+1, ts[i])
		}
	}
	switch {
	case len(ts) == 0:
		return on(o, t.Elem).zeros(t.Lanes()), nil
	case len(ts) == 1 && ts[0].IsScalar() && t.Kind != dtype.Quat:
		return splat(o, t, ts[0], args[0][0]), nil
	case len(ts) == 1 && sameShape(t, ts[0]):
		return convert(o, ts[0].Elem, t.Elem, args[0]), nil
	}
	var out []R
	for i := range ts {
		out = append(out, convert(o, ts[i].Elem, t.Elem, args[i])...)
	}
	if len(out) != t.Lanes() || !fits(t, ts) {
		return nil, fmt.Errorf("%s(%s): %s", t, typeList(ts), want(t))
	}
	return out, nil
}

// splat is every lane of t set to x (of scalar type ts).
func splat[R any](o ir.Machine[R], t, ts dtype.Type, x R) []R {
	v := convert(o, ts.Elem, t.Elem, []R{x})[0]
	out := make([]R, t.Lanes())
	for i := range out {
		out[i] = v
	}
	return out
}

// sameShape reports whether a and b differ at most in their lane type.
func sameShape(a, b dtype.Type) bool { return a.Kind == b.Kind && a.N == b.N && a.M == b.M }

// fits reports whether the kinds of ts can make a t lane by lane: all
// scalars, a matrix's rows, or a quaternion's vec3 and w.
func fits(t dtype.Type, ts []dtype.Type) bool {
	allScalar := true
	for _, a := range ts {
		allScalar = allScalar && a.IsScalar()
	}
	switch {
	case allScalar:
		return true
	case t.Kind == dtype.Mat && len(ts) == t.N:
		for _, a := range ts {
			if a.Kind != dtype.Vec || a.N != t.M {
				return false
			}
		}
		return true
	case t.Kind == dtype.Quat && len(ts) == 2 && ts[0].Kind == dtype.Vec && ts[0].N == 3 && ts[1].IsScalar():
		return true
	}
	return false
}

// want says which arguments t takes.
func want(t dtype.Type) string {
	switch t.Kind {
	case dtype.Mat:
		return fmt.Sprintf("needs %d row vectors of %d lanes, %d scalars, one scalar or none", t.N, t.M, t.Lanes())
	case dtype.Quat:
		return "needs x, y, z, w, a vec3 and w, or none"
	}
	return fmt.Sprintf("needs %d scalars, one scalar or none", t.N)
}

// typeList is the types as an argument list prints them.
func typeList(ts []dtype.Type) string {
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += ", "
		}
		s += t.String()
	}
	return s
}

// convert converts lanes x from type from to type to.
func convert[R any](o ir.Machine[R], from, to ir.Type, x []R) []R {
	if from == to {
		return x
	}
	out := make([]R, len(x))
	for i := range x {
		out[i] = o.Convert(x[i], from, to)
	}
	return out
}
