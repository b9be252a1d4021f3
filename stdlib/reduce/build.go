package reduce

import (
	"slices"

	"github.com/gscript-lang/gscript/lang/ir"
)

// fb builds the body of one kernel func: registers are the func's, and
// statements go to the list being built (a loop or an if body while its
// closure runs). Registers assigned again with set serve as variables.
type fb struct {
	f    *ir.Func
	k    *ir.Kernel
	body *[]ir.Stmt
	ix   ir.Type  // the index type: i32, or i64 for wide kernels
	scal []ir.Reg // the reduction's own scalar parameters, read at entry
}

func newFunc(name string, params []ir.Param, ix ir.Type) *fb {
	f := &ir.Func{Name: name, Params: params}
	b := &fb{f: f, k: &ir.Kernel{Entry: f, Block: []int{blockThreads}}, ix: ix}
	b.body = &f.Body
	return b
}

func (b *fb) emit(s ir.Stmt) { *b.body = append(*b.body, s) }

func (b *fb) typeOf(r ir.Reg) ir.Type { return b.f.Regs[r] }

// imm is a register holding the constant v (int64, uint64, float64 or
// bool) as type t.
func (b *fb) imm(t ir.Type, v any) ir.Reg {
	r := b.f.NewReg(t)
	b.emit(&ir.Inst{Op: ir.OpConst, Dst: r, Imm: v})
	return r
}

// op emits an instruction with a new destination of type t.
func (b *fb) op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg {
	r := b.f.NewReg(t)
	b.emit(&ir.Inst{Op: op, Dst: r, Args: args})
	return r
}

// bin is a binary (or unary, or ternary) op whose result has the type of
// its first operand.
func (b *fb) bin(op ir.Op, x ir.Reg, more ...ir.Reg) ir.Reg {
	return b.op(op, b.typeOf(x), append([]ir.Reg{x}, more...)...)
}

// test is a comparison or predicate: a bool result.
func (b *fb) test(op ir.Op, args ...ir.Reg) ir.Reg { return b.op(op, ir.Bool, args...) }

// sel is cond ? x : y.
func (b *fb) sel(cond, x, y ir.Reg) ir.Reg { return b.op(ir.OpSelect, b.typeOf(x), cond, x, y) }

// conv converts r to t (r itself when it has that type).
func (b *fb) conv(t ir.Type, r ir.Reg) ir.Reg {
	if b.typeOf(r) == t {
		return r
	}
	return b.op(ir.OpConvert, t, r)
}

// set assigns src to the variable dst.
func (b *fb) set(dst, src ir.Reg) {
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{src}})
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
	start := len(*b.body)
	src := build()
	for c := range dst {
		if !retarget((*b.body)[start:], src[c], dst[c], b.f.Regs) {
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
	b.emit(&ir.Inst{Op: ir.OpAdd, Dst: i, Args: []ir.Reg{i, step}})
}

// vars makes a variable per value, initialised to it.
func (b *fb) vars(vals []ir.Reg) []ir.Reg {
	vs := make([]ir.Reg, len(vals))
	for i, v := range vals {
		vs[i] = b.f.NewReg(b.typeOf(v))
		b.set(vs[i], v)
	}
	return vs
}

func (b *fb) param(i int) ir.Reg {
	r := b.f.NewReg(b.f.Params[i].Elem)
	b.emit(&ir.Inst{Op: ir.OpParam, Dst: r, Param: i})
	return r
}

// index is a block kernel index op (thread_id, block_id, lane_id ...)
// of axis 0, as an i32.
func (b *fb) index(op ir.Op) ir.Reg {
	r := b.f.NewReg(ir.I32)
	in := &ir.Inst{Op: op, Dst: r}
	if info, _ := op.Info(); info.Axis != ir.AxisNone {
		in.Imm = 0
	}
	b.emit(in)
	return r
}

func (b *fb) load(sp ir.Space, p int, elem ir.Type, idx ...ir.Reg) ir.Reg {
	r := b.f.NewReg(elem)
	b.emit(&ir.Inst{Op: ir.OpLoad, Dst: r, Param: p, Space: sp, Args: idx})
	return r
}

func (b *fb) store(sp ir.Space, p int, v ir.Reg, idx ...ir.Reg) {
	b.emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: p, Space: sp, Args: append(idx, v)})
}

func (b *fb) sync() { b.emit(&ir.Inst{Op: ir.OpSync, Dst: ir.NoReg}) }

// nested runs build with statements going to a new list, and returns it.
func (b *fb) nested(build func()) []ir.Stmt {
	outer := b.body
	var list []ir.Stmt
	b.body = &list
	build()
	b.body = outer
	return list
}

// ifThen runs then where cond holds.
func (b *fb) ifThen(cond ir.Reg, then func()) {
	b.emit(&ir.If{Cond: cond, Then: b.nested(then)})
}

// while repeats body while cond (built anew before each iteration) holds.
func (b *fb) while(cond func() ir.Reg, body func()) {
	var c ir.Reg
	condStmts := b.nested(func() { c = cond() })
	b.emit(&ir.Loop{Cond: condStmts, CondReg: c, Body: b.nested(body)})
}
