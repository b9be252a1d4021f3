package linalg

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/lang/ir"
)

// determinant is Warp's: the 2x2 formula, dot(row0, cross(row1, row2))
// for 3x3, and the USD-derived cofactor expansion for 4x4.
func determinant[R any](s lanes[R], n int, m []R) R {
	switch n {
	case 2:
		return det2(s, m)
	case 3:
		return det3(s, m)
	}
	x := mat4[R]{s, m}
	return x.det(x.cofactors(false))
}

func det2[R any](s lanes[R], m []R) R { return s.sub(s.mul(m[0], m[3]), s.mul(m[2], m[1])) }

func det3[R any](s lanes[R], m []R) R {
	c := cross(s, m[3:6], m[6:9])
	return s.sum(s.mul(m[0], c[0]), s.mul(m[1], c[1]), s.mul(m[2], c[2]))
}

// inverse is Warp's: the adjugate times 1/det, zeros where Warp's test of
// the determinant fails (2x2 and 4x4: not > 0 or < 0, so NaN too; 3x3:
// == 0 only).
func inverse[R any](s lanes[R], n int, m []R) []R {
	switch n {
	case 2:
		return inverse2(s, m)
	case 3:
		return inverse3(s, m)
	}
	return mat4[R]{s, m}.inverse()
}

func inverse2[R any](s lanes[R], m []R) []R {
	det := det2(s, m)
	zero := s.c(0)
	ok := s.o.Op(ir.OpOr, ir.Bool, s.op(ir.OpGt, det, zero), s.op(ir.OpLt, det, s.op(ir.OpNeg, zero)))
	rcp := s.div(s.c(1), det)
	adj := []R{m[3], s.op(ir.OpNeg, m[1]), s.op(ir.OpNeg, m[2]), m[0]}
	return s.selAll(ok, s.withScalar(ir.OpMul, adj, rcp, false), s.zeros(4))
}

// adj3 lists the products of Warp's 3x3 adjugate: b[i] = m[p]*m[q] -
// m[r]*m[t] for {p, q, r, t} = adj3[i], b in row-major order.
var adj3 = [9][4]int{
	{4, 8, 5, 7}, {2, 7, 1, 8}, {1, 5, 2, 4},
	{5, 6, 3, 8}, {0, 8, 2, 6}, {2, 3, 0, 5},
	{3, 7, 4, 6}, {1, 6, 0, 7}, {0, 4, 1, 3},
}

func inverse3[R any](s lanes[R], m []R) []R {
	det := det3(s, m)
	ok := s.op(ir.OpNe, det, s.c(0))
	b := make([]R, 9)
	for i, p := range adj3 {
		b[i] = s.sub(s.mul(m[p[0]], m[p[1]]), s.mul(m[p[2]], m[p[3]]))
	}
	rcp := s.div(s.c(1), det)
	return s.selAll(ok, s.withScalar(ir.OpMul, b, rcp, false), s.zeros(9))
}

// mat4 is Warp's 4x4 determinant and inverse (from USD): 2x2
// determinants of column pairs in the lane type, widened to f64 (Warp's
// "double y01"), 3x3 cofactors in f64 of which some are narrowed back to
// the lane type as Warp declares them, the determinant summed in the lane
// type and the inverse scaled in f64.
type mat4[R any] struct {
	s lanes[R]
	m []R
}

func (x mat4[R]) at(i, j int) R { return x.m[i*4+j] }
func (x mat4[R]) widen(v R) R   { return convert(x.s.o, x.s.t, ir.F64, []R{v})[0] }
func (x mat4[R]) narrow(v R) R  { return convert(x.s.o, ir.F64, x.s.t, []R{v})[0] }

// pairs are the row pairs of the six 2x2 determinants y01 ... y23.
var pairs = [6][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}

// minors2 are the 2x2 determinants of columns a and b, in pairs' order:
// y_ij = x_ia*x_jb - x_ja*x_ib in the lane type, widened.
func (x mat4[R]) minors2(a, b int) [6]R {
	var y [6]R
	for k, p := range pairs {
		i, j := p[0], p[1]
		y[k] = x.widen(x.s.sub(x.s.mul(x.at(i, a), x.at(j, b)), x.s.mul(x.at(j, a), x.at(i, b))))
	}
	return y
}

// cofactor is one line of Warp's "z30 = x11 * y02 - x21 * y01 - x01 * y12".
type cofactor struct {
	a, b int       // z_ab
	x    [3][2]int // the x_rc of the three terms
	y    [3]int    // their minors (index into pairs)
	plus bool      // the last term is added
}

// cofactors4 are Warp's 16 cofactor lines, verbatim. Those over columns 2
// and 3 (z?2, z?3) use the minors of columns 0 and 1 and stay f64; the
// others use the minors of columns 2 and 3 and are narrowed.
var cofactors4 = parseCofactors(
	"z33 = x02 * y12 - x12 * y02 + x22 * y01", "z23 = x12 * y03 - x32 * y01 - x02 * y13",
	"z13 = x02 * y23 - x22 * y03 + x32 * y02", "z03 = x22 * y13 - x32 * y12 - x12 * y23",
	"z32 = x13 * y02 - x23 * y01 - x03 * y12", "z22 = x03 * y13 - x13 * y03 + x33 * y01",
	"z12 = x23 * y03 - x33 * y02 - x03 * y23", "z02 = x13 * y23 - x23 * y13 + x33 * y12",
	"z30 = x11 * y02 - x21 * y01 - x01 * y12", "z20 = x01 * y13 - x11 * y03 + x31 * y01",
	"z10 = x21 * y03 - x31 * y02 - x01 * y23", "z00 = x11 * y23 - x21 * y13 + x31 * y12",
	"z31 = x00 * y12 - x10 * y02 + x20 * y01", "z21 = x10 * y03 - x30 * y01 - x00 * y13",
	"z11 = x00 * y23 - x20 * y03 + x30 * y02", "z01 = x20 * y13 - x30 * y12 - x10 * y23",
)

func parseCofactors(lines ...string) []cofactor {
	out := make([]cofactor, len(lines))
	for i, l := range lines {
		c := &out[i]
		var y [3][2]int
		var op1, op2 rune
		_, err := fmt.Sscanf(l, "z%1d%1d = x%1d%1d * y%1d%1d %c x%1d%1d * y%1d%1d %c x%1d%1d * y%1d%1d",
			&c.a, &c.b, &c.x[0][0], &c.x[0][1], &y[0][0], &y[0][1], &op1,
			&c.x[1][0], &c.x[1][1], &y[1][0], &y[1][1], &op2, &c.x[2][0], &c.x[2][1], &y[2][0], &y[2][1])
		if err != nil || op1 != '-' {
			panic(fmt.Sprintf("linalg: bad cofactor %q: %v", l, err))
		}
		for k := range y {
			c.y[k] = slices.Index(pairs[:], y[k])
		}
		c.plus = op2 == '+'
	}
	return out
}

// cofactors computes the cofactors z (indexed [a*4+b]); only those over
// columns 0 and 1 when all is false (the determinant needs no others).
// Narrowed ones are returned widened again, as C promotes them.
func (x mat4[R]) cofactors(all bool) [16]R {
	w := on(x.s.o, ir.F64)
	lo, hi := x.minors2(0, 1), x.minors2(2, 3)
	var z [16]R
	for _, c := range cofactors4 {
		keep := c.x[0][1] >= 2
		if keep && !all {
			continue
		}
		y := hi
		if keep {
			y = lo
		}
		t := func(k int) R { return w.mul(x.widen(x.at(c.x[k][0], c.x[k][1])), y[c.y[k]]) }
		v := w.sub(t(0), t(1))
		if c.plus {
			v = w.add(v, t(2))
		} else {
			v = w.sub(v, t(2))
		}
		if !keep {
			v = x.widen(x.narrow(v))
		}
		z[c.a*4+c.b] = v
	}
	return z
}

// det is x30*z30 + x20*z20 + x10*z10 + x00*z00 in the lane type.
func (x mat4[R]) det(z [16]R) R {
	var ps []R
	for r := 3; r >= 0; r-- {
		ps = append(ps, x.s.mul(x.at(r, 0), x.narrow(z[r*4])))
	}
	return x.s.sum(ps...)
}

// inverse is z_ab * (1/det) in f64, narrowed, at [b][a]; zeros unless
// |det| > 0.
func (x mat4[R]) inverse() []R {
	w := on(x.s.o, ir.F64)
	z := x.cofactors(true)
	det := x.widen(x.det(z))
	ok := w.op(ir.OpGt, w.op(ir.OpAbs, det), w.c(0))
	rcp := w.div(w.c(1), det)
	out := make([]R, 16)
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			out[b*4+a] = x.narrow(w.mul(z[a*4+b], rcp))
		}
	}
	return x.s.selAll(ok, out, x.s.zeros(16))
}
