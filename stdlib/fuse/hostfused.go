package fuse

import (
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Two-op patterns of the host path in one loop: a pass per op reads and
// writes a chunk buffer between the ops, one loop keeps the value in a
// register. Each loop writes the two ops' Go expressions as the passes
// would run them (the same operand order; T(...) rounds the inner result
// to the dtype, as storing it in the buffer does, and keeps a compiler
// from contracting a multiply-add), so the bits do not change.
//
//   - multiply-add: s*X + Y, X*s + Y, Y + s*X, Y + X*s and the same with
//     - (y += a * x, z = a * x + y);
//   - compare-select: where(X op s, X, t) and where(X op s, t, X) for op
//     one of < <= > >= (where(x > 0, x, 0)).

// fuse2 returns nd's one-loop form, or nil when nd is no such pattern.
func fuse2(nd *hnode) func(lv []col, n int, out unsafe.Pointer) bool {
	if nd.t != nd.in && nd.e.op != ir.OpSelect {
		return nil
	}
	switch nd.e.op {
	case ir.OpAdd, ir.OpSub:
		return fuseMulAdd(nd)
	case ir.OpSelect:
		return fuseWhere(nd)
	}
	return nil
}

// leafOf reports whether x is an array leaf or a scalar of dtype t.
func leafOf(x *hnode, t ir.Type) (isArray, ok bool) {
	return x.arr >= 0, x.args == nil && x.t == t
}

// fuseMulAdd matches nd = m op y or y op m with m a product of an array
// and a scalar (either order) and y an array, all of nd's dtype.
func fuseMulAdd(nd *hnode) func(lv []col, n int, out unsafe.Pointer) bool {
	t := nd.in
	for mi := range 2 {
		m, y := nd.args[mi], nd.args[1-mi]
		if m.args == nil || m.e.op != ir.OpMul || m.in != t || m.t != t || m.fused != nil {
			continue
		}
		if yArr, ok := leafOf(y, t); !ok || !yArr {
			continue
		}
		a0, ok0 := leafOf(m.args[0], t)
		a1, ok1 := leafOf(m.args[1], t)
		if !ok0 || !ok1 || a0 == a1 {
			continue
		}
		form := mulAddForm{sFirst: !a0, mFirst: mi == 0, sub: nd.e.op == ir.OpSub}
		x, s := m.args[0], m.args[1]
		if form.sFirst {
			x, s = s, x
		}
		return func(lv []col, n int, out unsafe.Pointer) bool {
			xp, yp := lv[x.arr].p, lv[y.arr].p
			if xp == nil || yp == nil { // a value per row: the passes
				return false
			}
			mulAdd(t, form, out, xp, s.bits, yp, n)
			return true
		}
	}
	return nil
}

// mulAddForm is the operand order of a multiply-add: the scalar before
// the array in the product, the product before y, a subtraction.
type mulAddForm struct{ sFirst, mFirst, sub bool }

func mulAdd(t ir.Type, f mulAddForm, d, x unsafe.Pointer, s uint64, y unsafe.Pointer, n int) {
	switch t {
	case ir.U8:
		mulAddT[uint8](f, d, x, s, y, n)
	case ir.I32:
		mulAddT[int32](f, d, x, s, y, n)
	case ir.I64:
		mulAddT[int64](f, d, x, s, y, n)
	case ir.U32:
		mulAddT[uint32](f, d, x, s, y, n)
	case ir.U64:
		mulAddT[uint64](f, d, x, s, y, n)
	case ir.F32:
		mulAddT[float32](f, d, x, s, y, n)
	case ir.F64:
		mulAddT[float64](f, d, x, s, y, n)
	}
}

func mulAddT[T hostNum](f mulAddForm, dp, xp unsafe.Pointer, sb uint64, yp unsafe.Pointer, n int) {
	d, x, y := unsafe.Slice((*T)(dp), n), unsafe.Slice((*T)(xp), n), unsafe.Slice((*T)(yp), n)
	s := *(*T)(unsafe.Pointer(&sb))
	x, y = x[:len(d)], y[:len(d)]
	switch {
	case f.sFirst && f.mFirst && !f.sub:
		for i := range d {
			d[i] = T(s*x[i]) + y[i]
		}
	case !f.sFirst && f.mFirst && !f.sub:
		for i := range d {
			d[i] = T(x[i]*s) + y[i]
		}
	case f.sFirst && !f.mFirst && !f.sub:
		for i := range d {
			d[i] = y[i] + T(s*x[i])
		}
	case !f.sFirst && !f.mFirst && !f.sub:
		for i := range d {
			d[i] = y[i] + T(x[i]*s)
		}
	case f.sFirst && f.mFirst:
		for i := range d {
			d[i] = T(s*x[i]) - y[i]
		}
	case !f.sFirst && f.mFirst:
		for i := range d {
			d[i] = T(x[i]*s) - y[i]
		}
	case f.sFirst:
		for i := range d {
			d[i] = y[i] - T(s*x[i])
		}
	default:
		for i := range d {
			d[i] = y[i] - T(x[i]*s)
		}
	}
}

// fuseWhere matches nd = where(c, p, q) with c = X op s (an array leaf
// and a scalar of the comparison's dtype, which is nd's, in that order)
// and of p and q one X and the other a scalar.
func fuseWhere(nd *hnode) func(lv []col, n int, out unsafe.Pointer) bool {
	c, p, q := nd.args[0], nd.args[1], nd.args[2]
	t := nd.in
	if c.args == nil || c.fused != nil || c.in != t || c.t != ir.Bool {
		return nil
	}
	switch c.e.op {
	case ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
	default:
		return nil
	}
	x, s := c.args[0], c.args[1]
	if xa, ok := leafOf(x, t); !ok || !xa {
		return nil
	}
	if sa, ok := leafOf(s, t); !ok || sa {
		return nil
	}
	xFirst := p.arr == x.arr && p.arr >= 0 && q.args == nil && q.arr < 0 && q.t == t
	if !xFirst && !(q.arr == x.arr && q.arr >= 0 && p.args == nil && p.arr < 0 && p.t == t) {
		return nil
	}
	other := q
	if !xFirst {
		other = p
	}
	op := c.e.op
	return func(lv []col, n int, out unsafe.Pointer) bool {
		xp := lv[x.arr].p
		if xp == nil { // a value per row: the passes
			return false
		}
		where(t, op, xFirst, out, xp, s.bits, other.bits, n)
		return true
	}
}

func where(t ir.Type, op ir.Op, xFirst bool, d, x unsafe.Pointer, s, o uint64, n int) {
	switch t {
	case ir.U8:
		whereT[uint8](op, xFirst, d, x, s, o, n)
	case ir.I32:
		whereT[int32](op, xFirst, d, x, s, o, n)
	case ir.I64:
		whereT[int64](op, xFirst, d, x, s, o, n)
	case ir.U32:
		whereT[uint32](op, xFirst, d, x, s, o, n)
	case ir.U64:
		whereT[uint64](op, xFirst, d, x, s, o, n)
	case ir.F32:
		whereT[float32](op, xFirst, d, x, s, o, n)
	case ir.F64:
		whereT[float64](op, xFirst, d, x, s, o, n)
	}
}

// whereT is d = where(x op s, x, o) (xFirst) or where(x op s, o, x),
// written as where(keep, x, o) with keep the comparison or its negation
// (NaN fails every comparison: !(x < s) keeps o for a NaN x when x is
// second, as the select of the passes does).
func whereT[T hostNum](op ir.Op, xFirst bool, dp, xp unsafe.Pointer, sb, ob uint64, n int) {
	d, x := unsafe.Slice((*T)(dp), n), unsafe.Slice((*T)(xp), n)
	x = x[:len(d)]
	s, o := *(*T)(unsafe.Pointer(&sb)), *(*T)(unsafe.Pointer(&ob))
	switch {
	case op == ir.OpGt && xFirst:
		for i, v := range x {
			if !(v > s) {
				v = o
			}
			d[i] = v
		}
	case op == ir.OpGe && xFirst:
		for i, v := range x {
			if !(v >= s) {
				v = o
			}
			d[i] = v
		}
	case op == ir.OpLt && xFirst:
		for i, v := range x {
			if !(v < s) {
				v = o
			}
			d[i] = v
		}
	case op == ir.OpLe && xFirst:
		for i, v := range x {
			if !(v <= s) {
				v = o
			}
			d[i] = v
		}
	case op == ir.OpGt:
		for i, v := range x {
			if v > s {
				v = o
			}
			d[i] = v
		}
	case op == ir.OpGe:
		for i, v := range x {
			if v >= s {
				v = o
			}
			d[i] = v
		}
	case op == ir.OpLt:
		for i, v := range x {
			if v < s {
				v = o
			}
			d[i] = v
		}
	default:
		for i, v := range x {
			if v <= s {
				v = o
			}
			d[i] = v
		}
	}
}
