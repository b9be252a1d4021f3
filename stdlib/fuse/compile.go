package fuse

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// plan is an expression ready to compile and launch: its distinct array
// leaves and scalar leaves in parameter order, and the cache key of its
// kernel.
type plan struct {
	roots   []*Expr
	arrays  []*mem.Array // parameters 1.. (0 is the output)
	scalars []*Expr      // parameters after the arrays
	gathers []*Expr      // index-array leaves: parameters after the scalars (gather.go)
	slots   []leafSlot   // each leaf's parameter number among arrays or scalars
	flat    bool         // every array contiguous and of the output's shape: 1-D kernel over the flat index
	rank    int
	out     ir.Type
	// Inline storage of the slices above for small trees: a fill, a copy
	// or a short expression builds its plan on every statement, in one
	// allocation.
	rootBuf   [1]*Expr
	arrayBuf  [4]*mem.Array
	scalarBuf [4]*Expr
	slotBuf   [8]leafSlot
}

// leafSlot numbers one leaf of a plan's trees.
type leafSlot struct {
	e *Expr
	n int
}

// slot is leaf e's parameter number among the arrays or the scalars.
// Trees are small: a linear search beats a map's allocation and hashing.
func (p *plan) slot(e *Expr) (int, bool) {
	for _, s := range p.slots {
		if s.e == e {
			return s.n, true
		}
	}
	return 0, false
}

func (p *plan) setSlot(e *Expr, n int) { p.slots = append(p.slots, leafSlot{e, n}) }

// newPlanOf starts a plan of roots, with its slices on its inline buffers.
func newPlanOf(roots ...*Expr) *plan {
	p := &plan{}
	p.roots = append(p.rootBuf[:0], roots...)
	p.arrays, p.scalars, p.slots = p.arrayBuf[:0], p.scalarBuf[:0], p.slotBuf[:0]
	return p
}

// newPlan numbers e's leaves (an array used twice is one parameter) and
// decides the kernel's form for output dst.
func newPlan(e *Expr, dst *mem.Array) *plan {
	p := newPlanOf(e)
	p.rank, p.out = dst.NDim(), dst.DType()
	p.flat = dst.IsContiguous()
	p.collect(e, dst.Shape())
	return p
}

// collect numbers e's leaves; an array leaf that is strided or not of
// the output's shape makes the kernel rank-D.
func (p *plan) collect(e *Expr, shape []int) {
	if _, seen := p.slot(e); seen {
		return
	}
	switch {
	case e.arr != nil:
		for i, a := range p.arrays {
			if a == e.arr {
				p.setSlot(e, i)
				return
			}
		}
		p.setSlot(e, len(p.arrays))
		p.arrays = append(p.arrays, e.arr)
		if !e.arr.IsContiguous() || !slices.Equal(e.arr.Shape(), shape) {
			p.flat = false
		}
	case e.gat != nil:
		p.setSlot(e, len(p.gathers))
		p.gathers = append(p.gathers, e)
		p.flat = false
	case e.isLeaf():
		p.setSlot(e, len(p.scalars))
		p.scalars = append(p.scalars, e)
	default:
		for _, a := range e.args {
			p.collect(a, shape)
		}
	}
}

// key names the kernel: the tree's shape with its leaves' parameter
// numbers and every dtype, the form (flat or the rank) and the output
// dtype. Contiguity beyond the form and the device are the backends'
// business (unit-stride variants; programs per device).
func (p *plan) key() string {
	// Written piece by piece into one buffer: a fill or a copy builds its
	// key on every statement.
	var b strings.Builder
	b.Grow(64)
	b.WriteString("gscript_fused_")
	if p.flat {
		b.WriteString("flat")
	} else {
		b.WriteString("nd")
		b.WriteString(strconv.Itoa(p.rank))
	}
	b.WriteByte('_')
	b.WriteString(p.out.String())
	b.WriteByte('=')
	p.writeKey(&b, p.roots[0])
	return b.String()
}

func (p *plan) writeKey(b *strings.Builder, e *Expr) {
	switch {
	case e.arr != nil:
		b.WriteByte('a')
		n, _ := p.slot(e)
		b.WriteString(strconv.Itoa(n))
	case e.gat != nil:
		n, _ := p.slot(e)
		e.gat.writeKey(b, n, e.shape)
	case e.isLeaf():
		b.WriteByte('s')
		n, _ := p.slot(e)
		b.WriteString(strconv.Itoa(n))
	default:
		b.WriteString(strconv.Itoa(int(e.op)))
		if e.nanOr {
			b.WriteByte('n')
		}
		b.WriteByte('(')
		b.WriteString(e.in.String())
		for _, a := range e.args {
			b.WriteByte(',')
			p.writeKey(b, a)
		}
		b.WriteByte(')')
	}
	b.WriteByte(':')
	b.WriteString(e.t.String())
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
	return p.build(f, nd, func(g *gen, idx []ir.Reg, v ir.Reg) {
		g.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: 0, Args: append(append([]ir.Reg(nil), idx...), v)})
	})
}

// build completes f, whose parameters so far are the outputs, with the
// leaves' parameters and a body over nd thread axes that computes the
// root, converted to p.out, and hands it to store with the thread index.
func (p *plan) build(f *ir.Func, nd int, store func(g *gen, idx []ir.Reg, v ir.Reg)) *ir.Kernel {
	base := len(f.Params)
	for i, a := range p.arrays {
		f.Params = append(f.Params, ir.Param{Name: "x" + strconv.Itoa(i), Elem: a.DType(), NDim: nd})
	}
	for i, s := range p.scalars {
		f.Params = append(f.Params, ir.Param{Name: "s" + strconv.Itoa(i), Elem: s.t})
	}
	gathers := p.gatherParams(f)
	g := &gen{Builder: ir.NewBuilder(f), p: p}
	var idx []ir.Reg
	for k := range nd {
		r := f.NewReg(ir.I32)
		g.Emit(&ir.Inst{Op: ir.OpTid, Dst: r, Imm: k})
		idx = append(idx, r)
	}
	loaded := map[int]ir.Reg{} // array leaf -> its element, loaded once
	g.array = func(slot int) ir.Reg {
		if r, ok := loaded[slot]; ok {
			return r
		}
		r := f.NewReg(p.arrays[slot].DType())
		g.Emit(&ir.Inst{Op: ir.OpLoad, Dst: r, Param: base + slot, Args: idx})
		loaded[slot] = r
		return r
	}
	g.scalar = func(slot int) ir.Reg {
		return g.Param(base + len(p.arrays) + slot)
	}
	gloaded := map[int]ir.Reg{}
	g.gather = func(slot int) ir.Reg {
		if r, ok := gloaded[slot]; ok {
			return r
		}
		r := p.emitGather(g, slot, gathers, idx)
		gloaded[slot] = r
		return r
	}
	store(g, idx, g.Conv(p.out, g.expr(p.roots[0])))
	return &ir.Kernel{Entry: f, TidDims: nd, UsesAtomics: len(p.gathers) > 0}
}

// gen emits a tree's instructions into body; array and scalar give the
// register holding a leaf's value, by its parameter number (an elementwise
// kernel loads it, a fused reduction passes what it loaded).
type gen struct {
	*ir.Builder
	p      *plan
	array  func(slot int) ir.Reg
	scalar func(slot int) ir.Reg
	gather func(slot int) ir.Reg // nil where the consumer takes no index-array leaves
}

func (g *gen) expr(e *Expr) ir.Reg {
	switch {
	case e.arr != nil:
		n, _ := g.p.slot(e)
		return g.array(n)
	case e.gat != nil:
		n, _ := g.p.slot(e)
		return g.gather(n)
	case e.isLeaf():
		n, _ := g.p.slot(e)
		return g.scalar(n)
	}
	args := make([]ir.Reg, len(e.args))
	for i, a := range e.args {
		args[i] = g.expr(a)
		if e.op != ir.OpSelect || i > 0 {
			args[i] = g.Conv(e.in, args[i])
		}
	}
	if e.op == ir.OpConvert {
		return g.Conv(e.t, args[0])
	}
	if e.op == ir.OpPow && !e.t.IsFloat() {
		return g.intPow(args[0], args[1])
	}
	r := g.Op(e.op, e.t, args...)
	if e.nanOr {
		// NumPy's minimum/maximum: a NaN operand wins.
		for _, a := range args {
			isNaN := g.Op(ir.OpNe, ir.Bool, a, a)
			r = g.Op(ir.OpSelect, e.t, isNaN, a, r)
		}
	}
	return r
}
