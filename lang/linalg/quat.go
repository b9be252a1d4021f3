package linalg

import "github.com/gscript-lang/gscript/lang/ir"

// rotate is Warp's quat_rotate (inv: quat_rotate_inv): with c = 2w² - 1
// and d = 2 (q.xyz · v), v*c + q.xyz*d ± cross(q.xyz, v)*w*2 per lane.
func rotate[R any](s lanes[R], q, v []R, inv bool) []R {
	two := s.c(2)
	c := s.sub(s.mul(s.mul(two, q[3]), q[3]), s.c(1))
	d := s.mul(two, s.sum(s.mul(q[0], v[0]), s.mul(q[1], v[1]), s.mul(q[2], v[2])))
	cr := cross(s, q[:3], v)
	out := make([]R, 3)
	for i := range out {
		r := s.mul(s.mul(cr[i], q[3]), two)
		base := s.add(s.mul(v[i], c), s.mul(q[i], d))
		if inv {
			out[i] = s.sub(base, r)
		} else {
			out[i] = s.add(base, r)
		}
	}
	return out
}

// quatToMatrix has the rotated unit vectors as its columns, as Warp.
func quatToMatrix[R any](s lanes[R], q []R) []R {
	out := make([]R, 9)
	for c := 0; c < 3; c++ {
		e := s.zeros(3)
		e[c] = s.c(1)
		col := rotate(s, q, e, false)
		for r := 0; r < 3; r++ {
			out[r*3+c] = col[r]
		}
	}
	return out
}

// fromAxisAngle is (axis * sin(angle/2), cos(angle/2)).
func fromAxisAngle[R any](s lanes[R], axis []R, angle R) []R {
	half := s.mul(angle, s.c(0.5))
	w := s.op(ir.OpCos, half)
	return append(s.withScalar(ir.OpMul, axis, s.op(ir.OpSin, half), false), w)
}

// fromMatrix is Warp's quat_from_matrix on the upper 3x3 of an n x n
// matrix: the trace branch or the branch of the largest diagonal element,
// chosen by selects over all four (every branch is computed), normalized.
func fromMatrix[R any](s lanes[R], n int, m []R) []R {
	at := func(i, j int) R { return m[i*n+j] }
	half := s.c(0.5)
	// branch is the quaternion whose lane k is 0.5*h with h = sqrt(e + 1):
	// the other lanes are sums or differences of off-diagonal pairs times
	// 0.5/h, in Warp's expressions.
	branch := func(k int, e R, others [3][2][2]int, diffs [3]bool) []R {
		h := s.op(ir.OpSqrt, s.add(e, s.c(1)))
		q := make([]R, 4)
		q[k] = s.mul(half, h)
		h = s.div(half, h)
		j := 0
		for l := range q {
			if l == k {
				continue
			}
			a, b := at(others[j][0][0], others[j][0][1]), at(others[j][1][0], others[j][1][1])
			if diffs[j] {
				q[l] = s.mul(s.sub(a, b), h)
			} else {
				q[l] = s.mul(s.add(a, b), h)
			}
			j++
		}
		return q
	}
	m00, m11, m22 := at(0, 0), at(1, 1), at(2, 2)
	tr := s.sum(m00, m11, m22)
	qt := branch(3, tr, [3][2][2]int{{{2, 1}, {1, 2}}, {{0, 2}, {2, 0}}, {{1, 0}, {0, 1}}}, [3]bool{true, true, true})
	q0 := branch(0, s.sub(m00, s.add(m11, m22)), [3][2][2]int{{{0, 1}, {1, 0}}, {{2, 0}, {0, 2}}, {{2, 1}, {1, 2}}}, [3]bool{false, false, true})
	q1 := branch(1, s.sub(m11, s.add(m22, m00)), [3][2][2]int{{{0, 1}, {1, 0}}, {{1, 2}, {2, 1}}, {{0, 2}, {2, 0}}}, [3]bool{false, false, true})
	q2 := branch(2, s.sub(m22, s.add(m00, m11)), [3][2][2]int{{{2, 0}, {0, 2}}, {{1, 2}, {2, 1}}, {{1, 0}, {0, 1}}}, [3]bool{false, false, true})
	one := s.op(ir.OpGt, m11, m00)
	two := s.op(ir.OpGt, m22, s.sel(one, m11, m00))
	q := s.selAll(two, q2, s.selAll(one, q1, q0))
	q = s.selAll(s.op(ir.OpGe, tr, s.c(0)), qt, q)
	return normalize(s, quatOf(s.t), q)
}
