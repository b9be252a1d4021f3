package reduce

import (
	"slices"

	"github.com/gscript-lang/gscript/lang/ir"
)

// fb builds the body of one kernel func: registers are the func's, and
// statements go to the list being built (a loop or an if body while its
// closure runs). Registers assigned again with set serve as variables.
type fb struct {
	*ir.Builder
	k    *ir.Kernel
	ix   ir.Type  // the index type: i32, or i64 for wide kernels
	scal []ir.Reg // the reduction's own scalar parameters, read at entry
}

func newFunc(name string, params []ir.Param, ix ir.Type) *fb {
	f := &ir.Func{Name: name, Params: params}
	return &fb{Builder: ir.NewBuilder(f), k: &ir.Kernel{Entry: f, Block: []int{blockThreads}}, ix: ix}
}

func (b *fb) typeOf(r ir.Reg) ir.Type { return b.F.Regs[r] }

// bin is a binary (or unary, or ternary) op whose result has the type of
// its first operand.
func (b *fb) bin(op ir.Op, x ir.Reg, more ...ir.Reg) ir.Reg {
	return b.Op(op, b.typeOf(x), append([]ir.Reg{x}, more...)...)
}

// test is a comparison or predicate: a bool result.
func (b *fb) test(op ir.Op, args ...ir.Reg) ir.Reg { return b.Op(op, ir.Bool, args...) }

// sel is cond ? x : y.
func (b *fb) sel(cond, x, y ir.Reg) ir.Reg { return b.Op(ir.OpSelect, b.typeOf(x), cond, x, y) }

// set assigns src to the variable dst.
func (b *fb) set(dst, src ir.Reg) {
	b.Emit(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{src}})
}

// setAll assigns each src to its dst.
func (b *fb) setAll(dst, src []ir.Reg) {
	for i := range dst {
		b.set(dst[i], src[i])
	}
}

// assign sets the variables dst to the values that build computes. Where
// the instruction computing a value may write its variable directly (no
// later instruction of build reads the value or the variable) it does,
// instead of a mov after it: the cpu executes every instruction over the
// whole block, movs included, and a loop's accumulators are assigned once
// per element.
func (b *fb) assign(dst []ir.Reg, build func() []ir.Reg) {
	start := len(*b.Body)
	src := build()
	for c := range dst {
		if !retarget((*b.Body)[start:], src[c], dst[c], b.F.Regs) {
			b.set(dst[c], src[c])
		}
	}
}

// retarget makes the instruction of body that computes src write dst
// instead, when that changes nothing else, and reports whether it did.
func retarget(body []ir.Stmt, src, dst ir.Reg, regs []ir.Type) bool {
	if regs[src] != regs[dst] {
		return false
	}
	for i := len(body) - 1; i >= 0; i-- {
		in, ok := body[i].(*ir.Inst)
		if !ok {
			return false
		}
		if in.Dst != src {
			continue
		}
		for _, later := range body[i+1:] {
			if slices.Contains(later.(*ir.Inst).Args, src) || slices.Contains(later.(*ir.Inst).Args, dst) {
				return false
			}
		}
		in.Dst = dst
		return true
	}
	return false
}

// advance adds step to the variable i, in place.
func (b *fb) advance(i, step ir.Reg) {
	b.Emit(&ir.Inst{Op: ir.OpAdd, Dst: i, Args: []ir.Reg{i, step}})
}

// vars makes a variable per value, initialised to it.
func (b *fb) vars(vals []ir.Reg) []ir.Reg {
	vs := make([]ir.Reg, len(vals))
	for i, v := range vals {
		vs[i] = b.F.NewReg(b.typeOf(v))
		b.set(vs[i], v)
	}
	return vs
}

// index is a block kernel index op (thread_id, block_id, lane_id ...)
// of axis 0, as an i32.
func (b *fb) index(op ir.Op) ir.Reg {
	r := b.F.NewReg(ir.I32)
	in := &ir.Inst{Op: op, Dst: r}
	if info, _ := op.Info(); info.Axis != ir.AxisNone {
		in.Imm = 0
	}
	b.Emit(in)
	return r
}

func (b *fb) load(sp ir.Space, p int, elem ir.Type, idx ...ir.Reg) ir.Reg {
	r := b.F.NewReg(elem)
	b.Emit(&ir.Inst{Op: ir.OpLoad, Dst: r, Param: p, Space: sp, Args: idx})
	return r
}

func (b *fb) store(sp ir.Space, p int, v ir.Reg, idx ...ir.Reg) {
	b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: p, Space: sp, Args: append(idx, v)})
}

func (b *fb) sync() { b.Emit(&ir.Inst{Op: ir.OpSync, Dst: ir.NoReg}) }
