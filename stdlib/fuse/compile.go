package fuse

import (
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// plan is an expression ready to compile and launch: its distinct array
// leaves and scalar leaves in parameter order, and the cache key of its
// kernel.
type plan struct {
	root    *Expr
	arrays  []*mem.Array // parameters 1.. (0 is the output)
	scalars []*Expr      // parameters after the arrays
	slot    map[*Expr]int
	flat    bool // every array contiguous and of the output's shape: 1-D kernel over the flat index
	rank    int
	out     ir.Type
}

// newPlan numbers e's leaves (an array used twice is one parameter) and
// decides the kernel's form for output dst.
func newPlan(e *Expr, dst *mem.Array) *plan {
	p := &plan{root: e, slot: map[*Expr]int{}, rank: dst.NDim(), out: dst.DType()}
	p.flat = dst.IsContiguous()
	p.collect(e, dst)
	return p
}

func (p *plan) collect(e *Expr, dst *mem.Array) {
	if _, seen := p.slot[e]; seen {
		return
	}
	switch {
	case e.arr != nil:
		for i, a := range p.arrays {
			if a == e.arr {
				p.slot[e] = i
				return
			}
		}
		p.slot[e] = len(p.arrays)
		p.arrays = append(p.arrays, e.arr)
		if !e.arr.IsContiguous() || !sameShape(e.arr.Shape(), dst.Shape()) {
			p.flat = false
		}
	case e.isLeaf():
		p.slot[e] = len(p.scalars)
		p.scalars = append(p.scalars, e)
	default:
		for _, a := range e.args {
			p.collect(a, dst)
		}
	}
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// key names the kernel: the tree's shape with its leaves' parameter
// numbers and every dtype, the form (flat or the rank) and the output
// dtype. Contiguity beyond the form and the device are the backends'
// business (unit-stride variants; programs per device).
func (p *plan) key() string {
	var b strings.Builder
	b.WriteString("gscript_fused_")
	if p.flat {
		b.WriteString("flat")
	} else {
		b.WriteString("nd" + strconv.Itoa(p.rank))
	}
	b.WriteString("_" + p.out.String() + "=")
	p.writeKey(&b, p.root)
	return b.String()
}

func (p *plan) writeKey(b *strings.Builder, e *Expr) {
	switch {
	case e.arr != nil:
		b.WriteString("a" + strconv.Itoa(p.slot[e]))
	case e.isLeaf():
		b.WriteString("s" + strconv.Itoa(p.slot[e]))
	default:
		b.WriteString(strconv.Itoa(int(e.op)))
		if e.nanOr {
			b.WriteByte('n')
		}
		b.WriteString("(" + e.in.String())
		for _, a := range e.args {
			b.WriteByte(',')
			p.writeKey(b, a)
		}
		b.WriteByte(')')
	}
	b.WriteString(":" + e.t.String())
}

// kernel builds the IR: out[idx] = T(root) where idx is tid() (flat) or
// the rank-D thread index, each array leaf read at idx (broadcast leaves
// come as stride-0 views), each scalar leaf a parameter.
func (p *plan) kernel() *ir.Kernel {
	nd := 1
	if !p.flat {
		nd = p.rank
	}
	f := &ir.Func{Name: "gscript_fused", Params: []ir.Param{{Name: "out", Elem: p.out, NDim: nd}}}
	for i, a := range p.arrays {
		f.Params = append(f.Params, ir.Param{Name: "x" + strconv.Itoa(i), Elem: a.DType(), NDim: nd})
	}
	for i, s := range p.scalars {
		f.Params = append(f.Params, ir.Param{Name: "s" + strconv.Itoa(i), Elem: s.t})
	}
	g := &gen{f: f, p: p, loaded: map[int]ir.Reg{}}
	for k := range nd {
		g.idx = append(g.idx, g.emit(ir.OpTid, ir.I32, k))
	}
	v := g.conv(g.expr(p.root), p.out)
	f.Body = append(f.Body, &ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: 0, Args: append(append([]ir.Reg(nil), g.idx...), v)})
	return &ir.Kernel{Entry: f, TidDims: nd}
}

// gen emits one kernel's body.
type gen struct {
	f      *ir.Func
	p      *plan
	idx    []ir.Reg
	loaded map[int]ir.Reg // array parameter -> its element, loaded once
}

func (g *gen) emit(op ir.Op, t ir.Type, imm any, args ...ir.Reg) ir.Reg {
	r := g.f.NewReg(t)
	g.f.Body = append(g.f.Body, &ir.Inst{Op: op, Dst: r, Imm: imm, Args: args})
	return r
}

func (g *gen) conv(r ir.Reg, t ir.Type) ir.Reg {
	if g.f.Regs[r] == t {
		return r
	}
	return g.emit(ir.OpConvert, t, nil, r)
}

func (g *gen) expr(e *Expr) ir.Reg {
	switch {
	case e.arr != nil:
		param := 1 + g.p.slot[e]
		if r, ok := g.loaded[param]; ok {
			return r
		}
		r := g.f.NewReg(e.t)
		g.f.Body = append(g.f.Body, &ir.Inst{Op: ir.OpLoad, Dst: r, Param: param, Args: g.idx})
		g.loaded[param] = r
		return r
	case e.isLeaf():
		r := g.f.NewReg(e.t)
		g.f.Body = append(g.f.Body, &ir.Inst{Op: ir.OpParam, Dst: r, Param: 1 + len(g.p.arrays) + g.p.slot[e]})
		return r
	}
	args := make([]ir.Reg, len(e.args))
	for i, a := range e.args {
		args[i] = g.expr(a)
		if e.op != ir.OpSelect || i > 0 {
			args[i] = g.conv(args[i], e.in)
		}
	}
	if e.op == ir.OpConvert {
		return g.conv(args[0], e.t)
	}
	r := g.emit(e.op, e.t, nil, args...)
	if e.nanOr {
		// NumPy's minimum/maximum: a NaN operand wins.
		for _, a := range args {
			isNaN := g.emit(ir.OpNe, ir.Bool, nil, a, a)
			r = g.emit(ir.OpSelect, e.t, nil, isNaN, a, r)
		}
	}
	return r
}
