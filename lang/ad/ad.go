package ad

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// Adjoint is the reverse-mode derivative of a kernel.
type Adjoint struct {
	Kernel *ir.Kernel // entry params: the forward entry's params, then one gradient array per Grads entry
	Grads  []int      // Grads[j]: index in the forward entry's Params of the array whose gradient is param len(fwd.Params)+j
}

// Error is a kernel the pass refuses, at the position of what it refuses.
type Error struct {
	Pos pos.Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// GradParams lists the forward entry's params that get a gradient array:
// arrays of f32 or f64, in order.
func GradParams(f *ir.Func) []int {
	var out []int
	for i, p := range f.Params {
		if p.IsArray() && p.Elem.IsFloat() {
			out = append(out, i)
		}
	}
	return out
}

// gradParam is the gradient array of param p: the same element type and
// rank, named after it.
func gradParam(p ir.Param) ir.Param {
	return ir.Param{Name: p.Name + "_grad", Elem: p.Elem, NDim: p.NDim}
}

// Kernel builds the adjoint of k. It refuses, with *Error naming the
// kernel, the op and its position: block kernels, shared arrays, warp and
// block collectives ("not differentiable yet"), and a kernel that both
// loads and stores (non-atomically) one array param ("overwrites its
// input x; its adjoint would replay with the new values: write to a new
// array"). The adjoint is launched with the forward's geometry and reads
// the forward's inputs again (it recomputes the forward, as Warp does),
// reads the gradients of the arrays the kernel writes, and accumulates
// into the gradients of the arrays it reads.
func Kernel(k *ir.Kernel) (adj *Adjoint, err error) {
	defer func() {
		// A bug here must not crash an interpreter: report it as an error.
		if p := recover(); p != nil {
			adj, err = nil, &Error{Pos: k.Entry.Pos, Msg: fmt.Sprintf("kernel %s: internal error building its adjoint: %v", k.Entry.Name, p)}
		}
	}()
	name := k.Entry.Name
	switch {
	case k.IsBlock():
		return nil, &Error{Pos: k.Entry.Pos, Msg: fmt.Sprintf("kernel %s: block kernels are not differentiable yet", name)}
	case len(k.Shared) > 0:
		return nil, &Error{Pos: k.Entry.Pos, Msg: fmt.Sprintf("kernel %s: shared arrays are not differentiable yet", name)}
	}
	f, nerr := normalize(k)
	if nerr != nil {
		return nil, nerr
	}
	acc := scan(f)
	if err := acc.check(f, name); err != nil {
		return nil, err
	}
	if err := checkLocals(f, name); err != nil {
		return nil, err
	}
	grads := GradParams(k.Entry)
	gradOf := map[int]int{}
	for _, p := range grads {
		gradOf[p] = len(f.Params)
		f.Params = append(f.Params, gradParam(k.Entry.Params[p]))
	}
	own := acc.ownElements(f, k.TidDims)
	tree := rename(f)
	if err := checkConds(tree, f, name); err != nil {
		return nil, err
	}
	e := &emitter{f: f, gradOf: gradOf, own: own, adj: map[ir.Reg]ir.Reg{}, adjLocal: map[int]int{}, pos: k.Entry.Pos}
	fwd := e.nested(func() { e.forward(tree) })
	rev := e.nested(func() { e.reverse(tree) })
	var inits []ir.Stmt
	for _, r := range e.adjOrder {
		inits = append(inits, konst(zeroImm(f.Regs[r]), r))
	}
	for _, r := range e.flags {
		inits = append(inits, konst(false, r))
	}
	f.Body = append(append(fwd, inits...), rev...)
	ak := &ir.Kernel{Entry: f, TidDims: k.TidDims, UsesAtomics: e.atomics, FastMath: k.FastMath}
	if err := ir.Verify(ak); err != nil {
		return nil, &Error{Pos: k.Entry.Pos, Msg: fmt.Sprintf("kernel %s: internal error: its adjoint is not valid IR: %v", name, err)}
	}
	return &Adjoint{Kernel: ak, Grads: grads}, nil
}

// CheckCustom checks a user-declared adjoint kernel (`kernel k(...)
// adjoint k_adj`): its params must be k's params then one gradient array
// per GradParams(k.Entry), same element type and rank.
func CheckCustom(fwd, adj *ir.Kernel) error {
	want := append([]ir.Param(nil), fwd.Entry.Params...)
	for _, p := range GradParams(fwd.Entry) {
		want = append(want, gradParam(fwd.Entry.Params[p]))
	}
	got := adj.Entry.Params
	fail := func(format string, args ...any) error {
		return &Error{Pos: adj.Entry.Pos, Msg: fmt.Sprintf("kernel %s, the adjoint of %s: ", adj.Entry.Name, fwd.Entry.Name) + fmt.Sprintf(format, args...)}
	}
	if len(got) != len(want) {
		return fail("has %d parameters, want %d: %s's %d, then one gradient array per float array (%s)",
			len(got), len(want), fwd.Entry.Name, len(fwd.Entry.Params), paramList(want[len(fwd.Entry.Params):]))
	}
	for i, w := range want {
		g := got[i]
		if g.Elem != w.Elem || g.NDim != w.NDim {
			what := fmt.Sprintf("parameter %d of %s", i+1, fwd.Entry.Name)
			if i >= len(fwd.Entry.Params) {
				what = "the gradient of " + fwd.Entry.Params[GradParams(fwd.Entry)[i-len(fwd.Entry.Params)]].Name
			}
			return fail("parameter %d (%s) is %s, want %s (%s)", i+1, g.Name, typeString(g), typeString(w), what)
		}
	}
	return nil
}

func typeString(p ir.Param) string {
	switch {
	case !p.IsArray():
		return p.Elem.String()
	case p.NDim == 1:
		return fmt.Sprintf("array[%s]", p.Elem)
	}
	return fmt.Sprintf("array[%s, %d]", p.Elem, p.NDim)
}

func paramList(ps []ir.Param) string {
	s := ""
	for i, p := range ps {
		if i > 0 {
			s += ", "
		}
		s += p.Name + ": " + typeString(p)
	}
	if s == "" {
		return "none"
	}
	return s
}

// accesses is what the flat func does with each array param.
type accesses struct {
	loads, stores, atomics map[int]*ir.Inst // the first access of each kind, by param
	all                    map[int][]*ir.Inst
}

func scan(f *ir.Func) *accesses {
	a := &accesses{loads: map[int]*ir.Inst{}, stores: map[int]*ir.Inst{}, atomics: map[int]*ir.Inst{}, all: map[int][]*ir.Inst{}}
	walk(f.Body, func(in *ir.Inst) {
		info, _ := in.Op.Info()
		if in.Space != ir.SpaceParam || (info.Form != ir.FormAccess && info.Form != ir.FormField) {
			return
		}
		m := a.loads
		switch {
		case info.Atomic:
			m = a.atomics
		case in.Op == ir.OpStore || in.Op == ir.OpStoreField:
			m = a.stores
		}
		if m[in.Param] == nil {
			m[in.Param] = in
		}
		a.all[in.Param] = append(a.all[in.Param], in)
	})
	return a
}

// check refuses a kernel that reads an array it writes: the adjoint
// replays the forward's loads after the forward ran, so they would read
// the new values.
func (a *accesses) check(f *ir.Func, kernel string) error {
	for p := range f.Params {
		ld := a.loads[p]
		if ld == nil {
			continue
		}
		name := f.Params[p].Name
		if st := a.stores[p]; st != nil {
			return &Error{Pos: st.Pos, Msg: fmt.Sprintf("kernel %s overwrites its input %s; its adjoint would replay with the new values: write to a new array", kernel, name)}
		}
		if at := a.atomics[p]; at != nil {
			return &Error{Pos: at.Pos, Msg: fmt.Sprintf("kernel %s reads %s and updates it with %s; its adjoint would replay with the new values: write to a new array", kernel, name, at.Op)}
		}
	}
	return nil
}

// ownElements finds the array params that each thread accesses only at
// its own element: every access indexes axis a with a register that is
// always tid(a) (written once, by tid or a move of such a register), and
// the array has as many axes as the launch. Their gradients are updated
// with a plain load and store, not an atomic: no other thread touches
// that element, and the result does not depend on the order of threads.
func (a *accesses) ownElements(f *ir.Func, tidDims int) map[int]bool {
	defs := map[ir.Reg]int{}
	walk(f.Body, func(in *ir.Inst) {
		for r := range in.Defs() {
			defs[r]++
		}
	})
	axis := map[ir.Reg]int{}
	for changed := true; changed; {
		changed = false
		walk(f.Body, func(in *ir.Inst) {
			if in.Dst == ir.NoReg || defs[in.Dst] != 1 {
				return
			}
			if _, ok := axis[in.Dst]; ok {
				return
			}
			switch in.Op {
			case ir.OpTid:
				axis[in.Dst] = int(toInt(in.Imm))
				changed = true
			case ir.OpMov:
				if ax, ok := axis[in.Args[0]]; ok {
					axis[in.Dst] = ax
					changed = true
				}
			}
		})
	}
	own := map[int]bool{}
	for p, ins := range a.all {
		if f.Params[p].NDim != tidDims || tidDims == 0 {
			continue
		}
		ok := true
		for _, in := range ins {
			for ax := 0; ax < tidDims && ok; ax++ {
				got, isTid := axis[in.Args[ax]]
				ok = isTid && got == ax
			}
		}
		own[p] = ok
	}
	return own
}

func toInt(v any) int64 {
	switch v := v.(type) {
	case int64:
		return v
	case int:
		return int64(v)
	case uint64:
		return int64(v)
	}
	return -1
}

// walk calls fn on every instruction of list, in order.
func walk(list []ir.Stmt, fn func(*ir.Inst)) {
	for _, s := range list {
		switch s := s.(type) {
		case *ir.Inst:
			fn(s)
		case *ir.If:
			walk(s.Then, fn)
			walk(s.Else, fn)
		case *ir.Loop:
			walk(s.Cond, fn)
			walk(s.Body, fn)
			walk(s.Post, fn)
		}
	}
}

// checkConds refuses a float computed in a loop's condition and read
// outside it: the reverse sweep gives no gradient to a condition (its
// floats feed comparisons), so one that flows on would lose its gradient.
func checkConds(tree []node, f *ir.Func, kernel string) error {
	condOf := map[ir.Reg]*nLoop{}
	var loops []*nLoop
	walkNodes(tree, nil, func(n node, _ *nLoop, inCond bool) {
		if l, ok := n.(*nLoop); ok {
			loops = append(loops, l)
			for _, d := range l.condDefs {
				if f.Regs[d].IsFloat() {
					condOf[d] = l
				}
			}
		}
	})
	var err error
	walkNodes(tree, nil, func(n node, owner *nLoop, inCond bool) {
		in, ok := n.(*nInst)
		if !ok || err != nil {
			return
		}
		for _, a := range in.in.Args {
			if l := condOf[a]; l != nil && !(inCond && owner == l) {
				err = &Error{Pos: in.in.Pos, Msg: fmt.Sprintf("kernel %s: a float computed in a loop condition and used outside it is not differentiable yet: compute it in the loop body", kernel)}
			}
		}
	})
	for _, l := range loops {
		for _, c := range l.carry {
			if l := condOf[c.post]; l != nil && err == nil {
				err = &Error{Pos: f.Pos, Msg: fmt.Sprintf("kernel %s: a float computed in a loop condition and used outside it is not differentiable yet: compute it in the loop body", kernel)}
			}
		}
	}
	return err
}

// walkNodes calls fn on every node, with the loop whose condition holds it
// (inCond) or nil.
func walkNodes(list []node, owner *nLoop, fn func(n node, owner *nLoop, inCond bool)) {
	for _, n := range list {
		fn(n, owner, owner != nil)
		switch n := n.(type) {
		case *nIf:
			walkNodes(n.then, owner, fn)
			walkNodes(n.els, owner, fn)
		case *nLoop:
			walkNodes(n.cond, n, fn)
			walkNodes(n.body, nil, fn)
			walkNodes(n.post, nil, fn)
		}
	}
}

// checkLocals refuses a local array written after it is read, or written
// and read inside one loop: the replay and the recomputed iterations read
// a local's final contents, which are then the values each load read
// (doc.go, "Local arrays").
func checkLocals(f *ir.Func, kernel string) error {
	type access struct {
		in    *ir.Inst
		loops []int
	}
	loads, stores := map[int][]access{}, map[int][]access{}
	var loops []int
	next := 0
	var visit func(list []ir.Stmt) error
	visit = func(list []ir.Stmt) error {
		for _, s := range list {
			switch s := s.(type) {
			case *ir.Inst:
				if s.Space != ir.SpaceLocal || (s.Op != ir.OpLoad && s.Op != ir.OpStore && s.Op != ir.OpLoadField && s.Op != ir.OpStoreField) {
					continue
				}
				a := access{s, slices.Clone(loops)}
				if s.Op == ir.OpLoad || s.Op == ir.OpLoadField {
					loads[s.Param] = append(loads[s.Param], a)
					continue
				}
				if len(loads[s.Param]) > 0 {
					return &Error{Pos: s.Pos, Msg: fmt.Sprintf("kernel %s: local array %s is written after it is read: not differentiable yet (write it fully before reading it)", kernel, f.Locals[s.Param].Name)}
				}
				stores[s.Param] = append(stores[s.Param], a)
			case *ir.If:
				if err := visit(s.Then); err != nil {
					return err
				}
				if err := visit(s.Else); err != nil {
					return err
				}
			case *ir.Loop:
				loops = append(loops, next)
				next++
				err := visit(s.Cond)
				if err == nil {
					err = visit(s.Body)
				}
				if err == nil {
					err = visit(s.Post)
				}
				loops = loops[:len(loops)-1]
				if err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := visit(f.Body); err != nil {
		return err
	}
	for li := range f.Locals {
		ls := loads[li]
		for _, st := range stores[li] {
			for _, ld := range ls {
				for _, l := range st.loops {
					if slices.Contains(ld.loops, l) {
						return &Error{Pos: st.in.Pos, Msg: fmt.Sprintf("kernel %s: local array %s is written and read in one loop: not differentiable yet (write it in a loop of its own)", kernel, f.Locals[li].Name)}
					}
				}
			}
		}
	}
	return nil
}

// Accesses lists the array params of k's entry that k reads and that it
// writes (stores and atomics), over its funcs inlined: what a tape needs
// of a launch (the arrays whose gradients the adjoint adds to, and those
// whose gradients it reads). A kernel the pass cannot inline (a block
// kernel) reads and writes every array param, as far as it knows.
func Accesses(k *ir.Kernel) (reads, writes []int) {
	f, err := normalize(k)
	if err != nil || k.IsBlock() {
		for i, p := range k.Entry.Params {
			if p.IsArray() {
				reads, writes = append(reads, i), append(writes, i)
			}
		}
		return reads, writes
	}
	acc := scan(f)
	for i := range f.Params {
		if acc.loads[i] != nil {
			reads = append(reads, i)
		}
		if acc.stores[i] != nil || acc.atomics[i] != nil {
			writes = append(writes, i)
		}
	}
	return reads, writes
}
