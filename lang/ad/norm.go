package ad

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// The normalizer copies a kernel into one flat func with no calls and no
// jumps: funcs are inlined at each call site, and break, continue and
// return become bool flags that guard the statements after them (and a
// loop's condition and post), so that the reverse sweep only ever meets
// instructions, ifs and loops that run their body to its end.

type normalizer struct {
	k   *ir.Kernel
	f   *ir.Func // the flat func being built
	err *Error
}

// scope is how the statements of one func (the entry or an inlined
// callee) map into the flat func.
type scope struct {
	src       *ir.Func
	regBase   ir.Reg   // src register r is flat register r+regBase
	args      []ir.Reg // a callee's scalar params, as flat registers (nil for the entry)
	arrays    []int    // a callee's array params, as entry params (nil for the entry)
	localBase int      // src local i is flat local i+localBase
	results   []ir.Reg // where a callee's return puts its values
	ret       ir.Reg   // set by a return
	brk, cont ir.Reg   // the innermost loop's flags (NoReg outside loops)
	pos       pos.Pos  // the call site, for the statements the inliner adds
}

func (sc *scope) reg(r ir.Reg) ir.Reg {
	if r == ir.NoReg {
		return r
	}
	return r + sc.regBase
}

func (sc *scope) array(p int) int {
	if sc.arrays == nil {
		return p
	}
	return sc.arrays[p]
}

// normalize builds the flat func of k.
func normalize(k *ir.Kernel) (*ir.Func, *Error) {
	e := k.Entry
	f := &ir.Func{Name: e.Name + "_adj", Pos: e.Pos, Params: slices.Clone(e.Params),
		Regs: slices.Clone(e.Regs), Locals: slices.Clone(e.Locals)}
	n := &normalizer{k: k, f: f}
	sc := &scope{src: e, brk: ir.NoReg, cont: ir.NoReg}
	sc.ret = f.NewReg(ir.Bool)
	body := []ir.Stmt{konst(false, sc.ret)}
	rest, _ := n.list(e.Body, sc)
	f.Body = append(body, rest...)
	if n.err != nil {
		return nil, n.err
	}
	return f, nil
}

func (n *normalizer) fail(p pos.Pos, format string, args ...any) {
	if n.err == nil {
		n.err = &Error{Pos: p, Msg: fmt.Sprintf("kernel %s: ", n.k.Entry.Name) + fmt.Sprintf(format, args...)}
	}
}

// konst sets dst to the immediate v.
func konst(v any, dst ir.Reg) *ir.Inst {
	return &ir.Inst{Op: ir.OpConst, Dst: dst, Imm: v}
}

// zeroImm is the immediate 0 of type t.
func zeroImm(t ir.Type) any {
	switch {
	case t == ir.Bool:
		return false
	case t.IsFloat():
		return 0.0
	}
	return int64(0)
}

// list normalizes src; flags are the flag registers its statements may
// set (the current func's return flag, the innermost loop's break and
// continue flags). The statements after one that may set a flag run under
// an if that none is set; after one that always jumps, none is kept.
func (n *normalizer) list(src []ir.Stmt, sc *scope) (out []ir.Stmt, flags []ir.Reg) {
	for i, s := range src {
		stmts, fl, jumps := n.stmt(s, sc)
		out = append(out, stmts...)
		flags = union(flags, fl)
		if jumps {
			return out, flags
		}
		if len(fl) > 0 && i+1 < len(src) {
			rest, rfl := n.list(src[i+1:], sc)
			if len(rest) > 0 {
				ok := n.noneSet(fl, &out)
				out = append(out, &ir.If{Cond: ok, Then: rest})
			}
			return out, union(flags, rfl)
		}
	}
	return out, flags
}

func union(a, b []ir.Reg) []ir.Reg {
	for _, r := range b {
		if !slices.Contains(a, r) {
			a = append(a, r)
		}
	}
	return a
}

// noneSet appends to out the computation of "no flag of fl is set".
func (n *normalizer) noneSet(fl []ir.Reg, out *[]ir.Stmt) ir.Reg {
	anySet := fl[0]
	for _, r := range fl[1:] {
		d := n.f.NewReg(ir.Bool)
		*out = append(*out, &ir.Inst{Op: ir.OpOr, Dst: d, Args: []ir.Reg{anySet, r}})
		anySet = d
	}
	ok := n.f.NewReg(ir.Bool)
	*out = append(*out, &ir.Inst{Op: ir.OpNot, Dst: ok, Args: []ir.Reg{anySet}})
	return ok
}

// stmt normalizes one statement; jumps reports that it always leaves
// the list (a break, continue or return).
func (n *normalizer) stmt(s ir.Stmt, sc *scope) (out []ir.Stmt, flags []ir.Reg, jumps bool) {
	switch s := s.(type) {
	case *ir.Inst:
		if s.Op == ir.OpCall {
			return n.call(s, sc), nil, false
		}
		return []ir.Stmt{n.inst(s, sc)}, nil, false
	case *ir.If:
		then, ft := n.list(s.Then, sc)
		els, fe := n.list(s.Else, sc)
		return []ir.Stmt{&ir.If{Cond: sc.reg(s.Cond), Then: then, Else: els}}, union(ft, fe), false
	case *ir.Loop:
		return n.loop(s, sc)
	case *ir.Break:
		return []ir.Stmt{konst(true, sc.brk)}, []ir.Reg{sc.brk}, true
	case *ir.Continue:
		return []ir.Stmt{konst(true, sc.cont)}, []ir.Reg{sc.cont}, true
	case *ir.Return:
		for i, v := range s.Values {
			out = append(out, &ir.Inst{Op: ir.OpMov, Dst: sc.results[i], Args: []ir.Reg{sc.reg(v)}})
		}
		return append(out, konst(true, sc.ret)), []ir.Reg{sc.ret}, true
	}
	n.fail(sc.pos, "unknown statement %T", s)
	return nil, nil, false
}

// inst copies in into the flat func: registers, array parameters and
// locals renumbered, a callee's parameter reads turned into moves. It
// refuses the ops the adjoint cannot handle.
func (n *normalizer) inst(in *ir.Inst, sc *scope) *ir.Inst {
	info, _ := in.Op.Info()
	switch {
	case info.Diff == ir.DiffRefused:
		n.fail(in.Pos, "%s is not differentiable yet", in.Op)
	case in.Op == ir.OpAtomicMin || in.Op == ir.OpAtomicMax || in.Op == ir.OpAtomicCAS:
		n.fail(in.Pos, "%s is not differentiable yet (its gradient depends on which thread wins)", in.Op)
	case info.Atomic && in.Dst != ir.NoReg:
		n.fail(in.Pos, "the old value %s returns is not differentiable yet (the adjoint replays the kernel without its atomics)", in.Op)
	case info.Atomic && in.Space != ir.SpaceParam:
		n.fail(in.Pos, "%s on a local array is not differentiable yet", in.Op)
	}
	if in.Op == ir.OpParam && sc.args != nil {
		return &ir.Inst{Op: ir.OpMov, Dst: sc.reg(in.Dst), Args: []ir.Reg{sc.args[in.Param]}, Pos: in.Pos}
	}
	c := *in
	c.Dst = sc.reg(in.Dst)
	c.Args = make([]ir.Reg, len(in.Args))
	for i, a := range in.Args {
		c.Args[i] = sc.reg(a)
	}
	switch info.Form {
	case ir.FormAccess, ir.FormField:
		c.Param = n.space(in, sc)
	case ir.FormLeaf:
		if in.Op == ir.OpShape {
			c.Param = n.space(in, sc)
		}
	}
	return &c
}

func (n *normalizer) space(in *ir.Inst, sc *scope) int {
	switch in.Space {
	case ir.SpaceParam:
		return sc.array(in.Param)
	case ir.SpaceLocal:
		return in.Param + sc.localBase
	}
	n.fail(in.Pos, "shared arrays are not differentiable yet")
	return in.Param
}

// loop normalizes a loop: its break flag ends it at the next condition,
// which is not evaluated then, and keeps its post from running; its
// continue flag, cleared at each iteration, skips the rest of the body.
func (n *normalizer) loop(l *ir.Loop, sc *scope) ([]ir.Stmt, []ir.Reg, bool) {
	inner := *sc
	inner.brk, inner.cont = n.f.NewReg(ir.Bool), n.f.NewReg(ir.Bool)
	cond, _ := n.list(l.Cond, &inner)
	body, bfl := n.list(l.Body, &inner)
	post, _ := n.list(l.Post, &inner)
	var stop []ir.Reg // the flags that end the loop
	for _, r := range bfl {
		if r != inner.cont {
			stop = append(stop, r)
		}
	}
	out := []ir.Stmt{konst(false, inner.brk)}
	c := sc.reg(l.CondReg)
	if len(stop) > 0 {
		// c2 = !stop && cond, cond evaluated only when no flag is set.
		c2 := n.f.NewReg(ir.Bool)
		guarded := []ir.Stmt{konst(false, c2)}
		ok := n.noneSet(stop, &guarded)
		if c == ir.NoReg {
			cond = append(cond, konst(true, c2))
		} else {
			cond = append(cond, &ir.Inst{Op: ir.OpMov, Dst: c2, Args: []ir.Reg{c}})
		}
		cond = append(guarded, &ir.If{Cond: ok, Then: cond})
		c = c2
		if len(post) > 0 {
			var p []ir.Stmt
			ok := n.noneSet(stop, &p)
			post = append(p, &ir.If{Cond: ok, Then: post})
		}
	}
	if slices.Contains(bfl, inner.cont) {
		body = append([]ir.Stmt{konst(false, inner.cont)}, body...)
	}
	out = append(out, &ir.Loop{Cond: cond, CondReg: c, Body: body, Post: post})
	var flags []ir.Reg
	if slices.Contains(bfl, sc.ret) {
		flags = []ir.Reg{sc.ret}
	}
	return out, flags, false
}

// call inlines a call: the callee's registers and locals get fresh
// copies, its locals are zeroed (as a call does), its returns set the
// result registers, which the call's destinations then read.
func (n *normalizer) call(in *ir.Inst, sc *scope) []ir.Stmt {
	callee := n.k.Funcs[in.Callee]
	sub := &scope{src: callee, regBase: ir.Reg(len(n.f.Regs)), localBase: len(n.f.Locals),
		brk: ir.NoReg, cont: ir.NoReg, pos: in.Pos}
	n.f.Regs = append(n.f.Regs, callee.Regs...)
	for _, b := range callee.Locals {
		b.Name = callee.Name + "." + b.Name
		n.f.Locals = append(n.f.Locals, b)
	}
	sub.args = make([]ir.Reg, len(callee.Params))
	sub.arrays = make([]int, len(callee.Params))
	for i, p := range callee.Params {
		if p.IsArray() {
			sub.arrays[i] = sc.array(in.ArrayArgs[i])
		} else {
			sub.args[i] = sc.reg(in.Args[i])
		}
	}
	for _, t := range callee.Results {
		sub.results = append(sub.results, n.f.NewReg(t))
	}
	sub.ret = n.f.NewReg(ir.Bool)
	out := []ir.Stmt{konst(false, sub.ret)}
	for i := range callee.Locals {
		out = append(out, n.zero(sub.localBase+i, in.Pos)...)
	}
	body, _ := n.list(callee.Body, sub)
	out = append(out, body...)
	for i, d := range in.Dsts {
		if d != ir.NoReg {
			out = append(out, &ir.Inst{Op: ir.OpMov, Dst: sc.reg(d), Args: []ir.Reg{sub.results[i]}})
		}
	}
	return out
}

// zero is a loop that stores 0 to every element of local li.
func (n *normalizer) zero(li int, p pos.Pos) []ir.Stmt {
	b := n.f.Locals[li]
	f := n.f
	l := f.NewReg(ir.I32)
	one, size := f.NewReg(ir.I32), f.NewReg(ir.I32)
	c := f.NewReg(ir.Bool)
	var body []ir.Stmt
	idx := make([]ir.Reg, len(b.Dims))
	rest := l
	for ax := len(b.Dims) - 1; ax >= 0; ax-- {
		d := f.NewReg(ir.I32)
		body = append(body, konst(int64(b.Dims[ax]), d))
		idx[ax] = f.NewReg(ir.I32)
		body = append(body, &ir.Inst{Op: ir.OpRem, Dst: idx[ax], Args: []ir.Reg{rest, d}})
		q := f.NewReg(ir.I32)
		body = append(body, &ir.Inst{Op: ir.OpDiv, Dst: q, Args: []ir.Reg{rest, d}})
		rest = q
	}
	z := f.NewReg(b.Elem)
	body = append(body, konst(zeroImm(b.Elem), z),
		&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Space: ir.SpaceLocal, Param: li, Args: append(idx, z), Pos: p})
	return []ir.Stmt{konst(int64(0), l), konst(int64(1), one), konst(int64(b.Len()), size),
		&ir.Loop{Cond: []ir.Stmt{&ir.Inst{Op: ir.OpLt, Dst: c, Args: []ir.Reg{l, size}}}, CondReg: c, Body: body,
			Post: []ir.Stmt{&ir.Inst{Op: ir.OpAdd, Dst: l, Args: []ir.Reg{l, one}}}}}
}
