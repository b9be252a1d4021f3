package ir

import (
	"fmt"
	"math"
	"testing"
)

// TestDiffColumn is the exhaustiveness test of the adjoint column: every
// op has a decision, and a rule exactly where the decision is DiffRule.
func TestDiffColumn(t *testing.T) {
	for _, op := range Ops() {
		info, _ := op.Info()
		switch {
		case info.Diff == DiffUnset:
			t.Errorf("%s: no differentiation decision (Diff is DiffUnset): give it a rule or DiffNone/DiffStructural/DiffRefused", op)
		case (info.Diff == DiffRule) != (info.Adjoint != nil):
			t.Errorf("%s: Diff %s with Adjoint set %v", op, info.Diff, info.Adjoint != nil)
		case info.Diff == DiffRule && (!info.IsValue() || info.Types&Floats != Floats):
			t.Errorf("%s: a rule on an op that is not a value op of both float types", op)
		case info.Block && info.Diff != DiffRefused:
			t.Errorf("%s: a block op that is not refused", op)
		case info.Result == ResultBool && !info.Block && info.Diff != DiffNone:
			t.Errorf("%s: a bool result with gradient kind %s", op, info.Diff)
		}
		if op.Diff() != info.Diff || (op.AdjointRule() == nil) != (info.Adjoint == nil) {
			t.Errorf("%s: Op.Diff/AdjointRule disagree with the row", op)
		}
	}
	if NumOps.Diff() != DiffUnset || NumOps.AdjointRule() != nil {
		t.Error("an op past the table has a differentiation kind")
	}
}

// evalDeriv is the Deriv of the tests: terms are raw bits of type t
// (comparisons give bool bits), evaluated at once by Eval, so each rule
// computes with the table's own scalar semantics.
type evalDeriv struct {
	t   Type
	err error
}

func (d *evalDeriv) Op(op Op, args ...Term) Term {
	bits := make([]uint64, len(args))
	for i, a := range args {
		bits[i] = a.(uint64)
	}
	r, err := Eval(op, d.t, bits...)
	if err != nil && d.err == nil {
		d.err = err
	}
	return r
}

func (d *evalDeriv) Const(v float64) Term { return FromFloat(v, d.t) }

func toFloat(bits uint64, t Type) float64 {
	if t == F32 {
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(bits)
}

// grads applies op's rule at x (float64 values, exact in t) with the
// seed g, returning the partials as float64 (NaN for nil ones).
func grads(op Op, t Type, g float64, x []float64) ([]float64, error) {
	d := &evalDeriv{t: t}
	bits := make([]uint64, len(x))
	terms := make([]Term, len(x))
	for i, v := range x {
		bits[i] = encode(op, i, v, t)
		terms[i] = bits[i]
	}
	r, err := Eval(op, t, bits...)
	if err != nil {
		return nil, err
	}
	out := op.AdjointRule()(d, d.Const(g), r, terms)
	if d.err != nil {
		return nil, d.err
	}
	if len(out) != len(x) {
		return nil, fmt.Errorf("%s's rule gives %d partials for %d operands", op, len(out), len(x))
	}
	res := make([]float64, len(out))
	for i, o := range out {
		res[i] = math.NaN()
		if o != nil {
			res[i] = toFloat(o.(uint64), t)
		}
	}
	return res, nil
}

// encode is operand i of op with value v as bits of type t, but select's
// condition as a bool (v != 0).
func encode(op Op, i int, v float64, t Type) uint64 {
	if op == OpSelect && i == 0 {
		return b2u(v != 0)
	}
	return FromFloat(v, t)
}

// forward evaluates op at x in type t.
func forward(op Op, t Type, x []float64) float64 {
	bits := make([]uint64, len(x))
	for i, v := range x {
		bits[i] = encode(op, i, v, t)
	}
	r, err := Eval(op, t, bits...)
	if err != nil {
		return math.NaN()
	}
	return toFloat(r, t)
}

// centralFD is d op / d x[i] by central differences in t with one
// Richardson step, at steps that are powers of two so that x±h is exact
// in t for the test's points (multiples of 1/1024 below 8).
func centralFD(op Op, t Type, x []float64, i int) float64 {
	h := 0x1p-10
	if t == F32 {
		h = 0x1p-7
	}
	at := func(v float64) float64 {
		y := append([]float64(nil), x...)
		y[i] = v
		return forward(op, t, y)
	}
	cd := func(h float64) float64 { return (at(x[i]+h) - at(x[i]-h)) / (2 * h) }
	return (4*cd(h/2) - cd(h)) / 3
}

// fdPoints are the operand values of TestAdjointRulesFD: multiples of
// 1/1024 (exact in f32 with the FD steps), none zero and all distinct, so
// that no tuple of distinct values lies on a kink of min, max, clamp or
// abs.
var fdPoints = []float64{-2.3, -1.1, -0.6, -0.35, 0.2, 0.45, 0.8, 1.3, 2.7}

func init() {
	for i, v := range fdPoints {
		fdPoints[i] = math.Round(v*1024) / 1024
	}
}

// fdTuples are the operand tuples of an op of arity n: distinct values
// of fdPoints, every one for n = 1, a fixed spread of them otherwise.
func fdTuples(n int) [][]float64 {
	var out [][]float64
	m := len(fdPoints)
	switch n {
	case 1:
		for _, v := range fdPoints {
			out = append(out, []float64{v})
		}
	case 2:
		for i := range m {
			for j := range m {
				if i != j {
					out = append(out, []float64{fdPoints[i], fdPoints[j]})
				}
			}
		}
	case 3:
		for i := range m {
			for k := 1; k < m; k += 2 {
				j, l := (i+k)%m, (i+2*k+1)%m
				if j != l && l != i {
					out = append(out, []float64{fdPoints[i], fdPoints[j], fdPoints[l]})
				}
			}
		}
	}
	return out
}

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// TestAdjointRulesFD checks every DiffRule rule, at both float types,
// against central finite differences of the op's own Eval at points
// generated for its arity (a new op with a rule is covered by adding its
// row). Points outside the op's domain (a non-finite result or partial)
// are skipped; each op and type must keep at least 4. The error is
// relative to max(1, |fd|).
func TestAdjointRulesFD(t *testing.T) {
	tol := map[Type]float64{F64: 1e-6, F32: 1e-2}
	const g = 1.5 // a seed other than 1, so that a rule that drops g fails
	for _, op := range Ops() {
		info, _ := op.Info()
		if info.Diff != DiffRule {
			continue
		}
		for _, ty := range []Type{F64, F32} {
			checked := 0
			for _, x := range selectTuples(op, info.Arity) {
				if !finite(forward(op, ty, x)) {
					continue
				}
				gs, err := grads(op, ty, g, x)
				if err != nil {
					t.Fatalf("%s %s at %v: %v", op, ty, x, err)
				}
				ok := true
				var fds []float64
				for i := range x {
					if info.Form == FormSelect && i == 0 {
						if !math.IsNaN(gs[0]) {
							t.Errorf("%s: the condition gets a gradient", op)
						}
						fds = append(fds, math.NaN())
						continue
					}
					fd := g * centralFD(op, ty, x, i)
					if !finite(fd, gs[i]) {
						ok = false
						break
					}
					fds = append(fds, fd)
				}
				if !ok {
					continue
				}
				checked++
				for i := range fds {
					if info.Form == FormSelect && i == 0 {
						continue
					}
					if e := math.Abs(gs[i]-fds[i]) / math.Max(1, math.Abs(fds[i])); e > tol[ty] {
						t.Errorf("%s %s at %v: d/dx%d = %v, finite differences %v (error %.2g)", op, ty, x, i, gs[i], fds[i], e)
					}
				}
			}
			if checked < 4 {
				t.Errorf("%s %s: only %d points in the domain were checked", op, ty, checked)
			}
		}
	}
}

// selectTuples are fdTuples, but select's condition (operand 0) takes
// both truth values.
func selectTuples(op Op, n int) [][]float64 {
	if op != OpSelect {
		return fdTuples(n)
	}
	var out [][]float64
	for i, x := range fdTuples(2) {
		out = append(out, []float64{float64(i % 2), x[0], x[1]})
	}
	return out
}

// TestAdjointRuleEdges pins the rules at the points the brief fixes after
// PyTorch, where finite differences do not apply (kinks, ties, limits).
func TestAdjointRuleEdges(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		op   Op
		x    []float64
		want []float64
	}{
		{OpMin, []float64{2, 2}, []float64{0.5, 0.5}},
		{OpMax, []float64{-1, -1}, []float64{0.5, 0.5}},
		{OpMin, []float64{1, 2}, []float64{1, 0}},
		{OpMax, []float64{1, 2}, []float64{0, 1}},
		{OpMin, []float64{math.NaN(), 2}, []float64{0, 1}}, // fmin yields the other operand, which gets it
		{OpAbs, []float64{0}, []float64{0}},
		{OpAbs, []float64{-3}, []float64{-1}},
		{OpSqrt, []float64{0}, []float64{inf}},
		{OpClamp, []float64{0.5, 0, 1}, []float64{1, 0, 0}},
		{OpClamp, []float64{0, 0, 1}, []float64{1, 0, 0}}, // on a bound: the operand
		{OpClamp, []float64{1, 0, 1}, []float64{1, 0, 0}},
		{OpClamp, []float64{-1, 0, 1}, []float64{0, 1, 0}},
		{OpClamp, []float64{2, 0, 1}, []float64{0, 0, 1}},
		{OpClamp, []float64{0.5, 2, 1}, []float64{0, 0, 1}}, // crossed bounds: hi wins
		{OpClamp, []float64{3, 2, 1}, []float64{0, 0, 1}},
		{OpPow, []float64{0, 2}, []float64{0, 0}},
		{OpPow, []float64{0, 0}, []float64{0, 0}},
		{OpPow, []float64{3, 0}, []float64{0, math.Log(3)}},
		{OpPow, []float64{2, 3}, []float64{12, 8 * math.Ln2}},
		{OpSelect, []float64{1, 4, 5}, []float64{math.NaN(), 1, 0}},
		{OpSelect, []float64{0, 4, 5}, []float64{math.NaN(), 0, 1}},
	}
	for _, c := range cases {
		for _, ty := range []Type{F64, F32} {
			got, err := grads(c.op, ty, 1, c.x)
			if err != nil {
				t.Fatalf("%s%v: %v", c.op, c.x, err)
			}
			for i := range got {
				w := c.want[i]
				if math.IsNaN(w) != math.IsNaN(got[i]) || !math.IsNaN(w) && math.Abs(got[i]-w) > 1e-6*math.Max(1, math.Abs(w)) {
					t.Errorf("%s %s%v: partials %v, want %v", c.op, ty, c.x, got, c.want)
					break
				}
			}
		}
	}
}
