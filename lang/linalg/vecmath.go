package linalg

import (
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// dot is Warp's dot: vec2, vec3 and quat sum their products left to
// right; the general template (vec4) adds them to a zero.
func dot[R any](s lanes[R], t dtype.Type, a, b []R) R {
	ps := s.zip(ir.OpMul, a, b)
	if t.Kind == dtype.Vec && t.N > 3 {
		ps = append([]R{s.c(0)}, ps...)
	}
	return s.sum(ps...)
}

func cross[R any](s lanes[R], a, b []R) []R {
	return []R{
		s.sub(s.mul(a[1], b[2]), s.mul(a[2], b[1])),
		s.sub(s.mul(a[2], b[0]), s.mul(a[0], b[2])),
		s.sub(s.mul(a[0], b[1]), s.mul(a[1], b[0])),
	}
}

func length[R any](s lanes[R], t dtype.Type, a []R) R { return s.op(ir.OpSqrt, dot(s, t, a, a)) }

// normalize is Warp's: a vector divides by its length when that is > 0
// and is zero otherwise; a quaternion multiplies by 1/length and gives the
// identity otherwise.
func normalize[R any](s lanes[R], t dtype.Type, a []R) []R {
	l := length(s, t, a)
	ok := s.op(ir.OpGt, l, s.c(0))
	if t.Kind == dtype.Quat {
		inv := s.div(s.c(1), l)
		return s.selAll(ok, s.withScalar(ir.OpMul, a, inv, false), s.consts(0, 0, 0, 1))
	}
	return s.selAll(ok, s.withScalar(ir.OpDiv, a, l, false), s.zeros(len(a)))
}

func outer[R any](s lanes[R], a, b []R) []R {
	out := make([]R, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, s.mul(x, y))
		}
	}
	return out
}

func diag[R any](s lanes[R], v []R) []R {
	n := len(v)
	out := s.zeros(n * n)
	for i, x := range v {
		out[i*n+i] = x
	}
	return out
}

func transpose[R any](n int, m []R) []R {
	out := make([]R, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			out[i*n+j] = m[j*n+i]
		}
	}
	return out
}

func trace[R any](s lanes[R], n int, m []R) R {
	d := make([]R, n)
	for i := range d {
		d[i] = m[i*n+i]
	}
	return s.sum(d...)
}

// lerp is a*(1-t) + b*t lane by lane.
func lerp[R any](s lanes[R], a, b []R, t R) []R {
	u := s.sub(s.c(1), t)
	return s.zip(ir.OpAdd, s.withScalar(ir.OpMul, a, u, false), s.withScalar(ir.OpMul, b, t, false))
}
