package ad

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// stackCap is the number of checkpoints of one loop's carried registers
// a thread keeps (a local array per carried register): a loop of n
// iterations keeps one every ceil(n/stackCap) iterations and recomputes
// from the nearest one (doc.go, "Loops").
const stackCap = 64

// emitter writes the adjoint func: the forward replay of the renamed
// tree, then its reverse sweep.
type emitter struct {
	f        *ir.Func
	body     *[]ir.Stmt
	gradOf   map[int]int       // forward array param -> its gradient param
	own      map[int]bool      // array params accessed only at the thread's own element
	adj      map[ir.Reg]ir.Reg // version -> its adjoint register
	adjOrder []ir.Reg          // adjoint registers, zeroed before the reverse sweep
	adjLocal map[int]int       // local array -> the local holding its adjoint
	counters map[*nLoop]ir.Reg // a loop's iteration count (i32)
	takenBy  map[int]ir.Reg    // own-element array -> set once a store's reverse took its gradient
	flags    []ir.Reg          // bool registers cleared before the reverse sweep
	stacks   map[*nLoop][]int  // a loop's checkpoint locals, one per carried register
	atomics  bool
	pos      pos.Pos
}

func (e *emitter) emit(s ir.Stmt) { *e.body = append(*e.body, s) }

// nested runs build with its statements going to a new list.
func (e *emitter) nested(build func()) []ir.Stmt {
	outer := e.body
	var list []ir.Stmt
	e.body = &list
	build()
	e.body = outer
	return list
}

func (e *emitter) op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg {
	d := e.f.NewReg(t)
	e.emit(&ir.Inst{Op: op, Dst: d, Args: args, Pos: e.pos})
	return d
}

func (e *emitter) konst(t ir.Type, v any) ir.Reg {
	d := e.f.NewReg(t)
	e.emit(konst(v, d))
	return d
}

// set writes dst = op(args) in place.
func (e *emitter) set(dst ir.Reg, op ir.Op, args ...ir.Reg) {
	e.emit(&ir.Inst{Op: op, Dst: dst, Args: args, Pos: e.pos})
}

func (e *emitter) float(r ir.Reg) bool { return r != ir.NoReg && e.f.Regs[r].IsFloat() }

// adjReg is the adjoint register of version r, made on first use.
func (e *emitter) adjReg(r ir.Reg) ir.Reg {
	if a, ok := e.adj[r]; ok {
		return a
	}
	a := e.f.NewReg(e.f.Regs[r])
	e.adj[r] = a
	e.adjOrder = append(e.adjOrder, a)
	return a
}

// accum adds g to the adjoint of r.
func (e *emitter) accum(r, g ir.Reg) {
	a := e.adjReg(r)
	e.set(a, ir.OpAdd, a, g)
}

// regDeriv is the ir.Deriv of kernels: each term is a register, each
// op an instruction.
type regDeriv struct {
	e *emitter
	t ir.Type
}

func (d *regDeriv) Op(op ir.Op, args ...ir.Term) ir.Term {
	regs := make([]ir.Reg, len(args))
	for i, a := range args {
		regs[i] = a.(ir.Reg)
	}
	t := d.e.f.Regs[regs[0]]
	if op == ir.OpSelect {
		t = d.e.f.Regs[regs[1]]
	}
	info, _ := op.Info()
	return d.e.op(op, info.ResultType(t), regs...)
}

func (d *regDeriv) Const(v float64) ir.Term { return d.e.konst(d.t, v) }

// ---- forward replay

// forward emits the replay of list: the forward's computation without
// its effects on parameter arrays (stores, atomics) and without print.
func (e *emitter) forward(list []node) {
	for _, n := range list {
		switch n := n.(type) {
		case *nInst:
			in := n.in
			info, _ := in.Op.Info()
			effect := in.Op == ir.OpStore || in.Op == ir.OpStoreField || info.Atomic
			if in.Op == ir.OpPrint || effect && in.Space == ir.SpaceParam {
				continue
			}
			c := *in
			e.emit(&c)
		case *nIf:
			e.emit(&ir.If{Cond: n.cond, Then: e.nested(func() { e.forward(n.then) }), Else: e.nested(func() { e.forward(n.els) })})
		case *nLoop:
			e.forwardLoop(n)
		}
	}
}

// counter is loop l's iteration count register.
func (e *emitter) counter(l *nLoop) ir.Reg {
	if e.counters == nil {
		e.counters = map[*nLoop]ir.Reg{}
	}
	if r, ok := e.counters[l]; ok {
		return r
	}
	r := e.f.NewReg(ir.I32)
	e.counters[l] = r
	return r
}

func (e *emitter) backEdge(l *nLoop) {
	for _, c := range l.carry {
		if c.h != c.post {
			e.set(c.h, ir.OpMov, c.post)
		}
	}
}

// forwardLoop emits l as it runs, counting its iterations.
func (e *emitter) forwardLoop(l *nLoop) {
	n := e.counter(l)
	e.emit(konst(int64(0), n))
	one := e.konst(ir.I32, int64(1))
	e.emit(&ir.Loop{
		Cond:    e.nested(func() { e.forward(l.cond) }),
		CondReg: l.c,
		Body: e.nested(func() {
			e.set(n, ir.OpAdd, n, one)
			e.forward(l.body)
		}),
		Post: e.nested(func() {
			e.forward(l.post)
			e.backEdge(l)
		}),
	})
}

// repeat emits a loop running body count times.
func (e *emitter) repeat(count ir.Reg, body func(it ir.Reg)) {
	it := e.konst(ir.I32, int64(0))
	one := e.konst(ir.I32, int64(1))
	c := e.f.NewReg(ir.Bool)
	e.emit(&ir.Loop{
		Cond:    []ir.Stmt{&ir.Inst{Op: ir.OpLt, Dst: c, Args: []ir.Reg{it, count}}},
		CondReg: c,
		Body:    e.nested(func() { body(it) }),
		Post:    []ir.Stmt{&ir.Inst{Op: ir.OpAdd, Dst: it, Args: []ir.Reg{it, one}}},
	})
}

// iteration emits one whole iteration of l (the condition holds).
func (e *emitter) iteration(l *nLoop, backEdge bool) {
	e.forward(l.cond)
	e.forward(l.body)
	e.forward(l.post)
	if backEdge {
		e.backEdge(l)
	}
}

// ---- reverse sweep

func (e *emitter) reverse(list []node) {
	for i := len(list) - 1; i >= 0; i-- {
		switch n := list[i].(type) {
		case *nInst:
			e.reverseInst(n.in)
		case *nIf:
			then := e.nested(func() { e.reverse(n.then) })
			els := e.nested(func() { e.reverse(n.els) })
			if len(then)+len(els) > 0 {
				e.emit(&ir.If{Cond: n.cond, Then: then, Else: els})
			}
		case *nLoop:
			e.reverseLoop(n)
		}
	}
}

// access emits an access of param (or local) p in space sp at idx.
func (e *emitter) load(sp ir.Space, p int, t ir.Type, idx []ir.Reg, at pos.Pos) ir.Reg {
	d := e.f.NewReg(t)
	e.emit(&ir.Inst{Op: ir.OpLoad, Dst: d, Space: sp, Param: p, Args: idx, Pos: at})
	return d
}

func (e *emitter) store(sp ir.Space, p int, idx []ir.Reg, v ir.Reg, at pos.Pos) {
	e.emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Space: sp, Param: p, Args: append(append([]ir.Reg(nil), idx...), v), Pos: at})
}

// addTo adds g to element idx of the adjoint of the array in.Param
// (which in accesses): a parameter's gradient array, atomically unless
// every access is the thread's own element, or a local's adjoint local.
func (e *emitter) addTo(in *ir.Inst, idx []ir.Reg, g ir.Reg) {
	t := e.f.Regs[g]
	if in.Space == ir.SpaceLocal {
		a := e.adjOfLocal(in.Param)
		old := e.load(ir.SpaceLocal, a, t, idx, in.Pos)
		e.store(ir.SpaceLocal, a, idx, e.op(ir.OpAdd, t, old, g), in.Pos)
		return
	}
	gp := e.gradOf[in.Param]
	if e.own[in.Param] {
		old := e.load(ir.SpaceParam, gp, t, idx, in.Pos)
		e.store(ir.SpaceParam, gp, idx, e.op(ir.OpAdd, t, old, g), in.Pos)
		return
	}
	e.atomics = true
	e.emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Space: ir.SpaceParam, Param: gp, Args: append(append([]ir.Reg(nil), idx...), g), Pos: in.Pos})
}

// taken is the flag of own-element array p's stores.
func (e *emitter) taken(p int) ir.Reg {
	if e.takenBy == nil {
		e.takenBy = map[int]ir.Reg{}
	}
	if r, ok := e.takenBy[p]; ok {
		return r
	}
	r := e.f.NewReg(ir.Bool)
	e.takenBy[p] = r
	e.flags = append(e.flags, r)
	return r
}

// adjOfLocal is the local holding the adjoint of local li, zeroed with
// the kernel's locals.
func (e *emitter) adjOfLocal(li int) int {
	if a, ok := e.adjLocal[li]; ok {
		return a
	}
	b := e.f.Locals[li]
	b.Name = "adj." + b.Name
	e.f.Locals = append(e.f.Locals, b)
	e.adjLocal[li] = len(e.f.Locals) - 1
	return e.adjLocal[li]
}

func (e *emitter) reverseInst(in *ir.Inst) {
	info, _ := in.Op.Info()
	e.pos = in.Pos
	switch {
	case in.Op == ir.OpMov:
		if g, ok := e.adj[in.Dst]; ok && e.float(in.Dst) {
			e.accum(in.Args[0], g)
		}
	case in.Op == ir.OpConvert:
		if g, ok := e.adj[in.Dst]; ok && e.float(in.Dst) && e.float(in.Args[0]) {
			e.accum(in.Args[0], e.op(ir.OpConvert, e.f.Regs[in.Args[0]], g))
		}
	case in.Op == ir.OpLoad:
		g, ok := e.adj[in.Dst]
		_, hasGrad := e.gradOf[in.Param]
		if ok && e.float(in.Dst) && (in.Space == ir.SpaceLocal || hasGrad) {
			e.addTo(in, in.Args, g)
		}
	case in.Op == ir.OpStore || in.Op == ir.OpAtomicAdd || in.Op == ir.OpAtomicSub:
		idx, v := in.Args[:len(in.Args)-1], in.Args[len(in.Args)-1]
		if !e.float(v) {
			return
		}
		t := e.f.Regs[v]
		if in.Space == ir.SpaceLocal {
			// A store's value gets the element's adjoint, which the
			// overwritten value then does not have.
			a := e.adjOfLocal(in.Param)
			e.accum(v, e.load(ir.SpaceLocal, a, t, idx, in.Pos))
			e.store(ir.SpaceLocal, a, idx, e.konst(t, 0.0), in.Pos)
			return
		}
		gp, ok := e.gradOf[in.Param]
		if !ok {
			return
		}
		g := e.load(ir.SpaceParam, gp, t, idx, in.Pos)
		if e.own[in.Param] {
			// Every access of this thread hits its own element, so the
			// last store executed (the first reversed) takes the
			// gradient, and what it overwrote (earlier stores, atomic
			// additions) gets none.
			taken := e.taken(in.Param)
			g = e.op(ir.OpSelect, t, taken, e.konst(t, 0.0), g)
			if in.Op == ir.OpStore {
				e.emit(konst(true, taken))
			}
		}
		if in.Op == ir.OpAtomicSub {
			g = e.op(ir.OpNeg, t, g)
		}
		e.accum(v, g)
	case info.Diff == ir.DiffRule:
		g, ok := e.adj[in.Dst]
		if !ok || !e.float(in.Dst) {
			return
		}
		d := &regDeriv{e: e, t: e.f.Regs[in.Dst]}
		x := make([]ir.Term, len(in.Args))
		for i, a := range in.Args {
			x[i] = a
		}
		for i, p := range info.Adjoint(d, g, in.Dst, x) {
			if p != nil && e.float(in.Args[i]) {
				e.accum(in.Args[i], p.(ir.Reg))
			}
		}
	}
}

// reverseLoop emits the reverse of loop l (doc.go, "Loops"): from the
// state before the loop it runs the forward again, keeping a checkpoint
// of the carried registers every s = ceil(n/stackCap) iterations; then
// for each iteration j from the last, it restores the checkpoint before
// j, runs forward to j, recomputes iteration j and runs its reverse.
func (e *emitter) reverseLoop(l *nLoop) {
	var floats []carried
	for _, c := range l.carry {
		if e.float(c.h) {
			floats = append(floats, c)
		}
	}
	var moved []ir.Reg
	take := e.nested(func() {
		for _, c := range floats {
			a := e.adjReg(c.h)
			m := e.f.NewReg(e.f.Regs[c.h])
			e.set(m, ir.OpMov, a)
			e.emit(konst(0.0, a))
			moved = append(moved, m)
		}
	})
	give := e.nested(func() {
		for i, c := range floats {
			e.accum(c.post, moved[i])
		}
	})
	rev := e.nested(func() {
		e.reverse(l.post)
		e.reverse(l.body)
	})
	if len(rev) == 0 {
		// No gradient reaches the loop's body: nothing flows through it.
		return
	}
	var zero []ir.Stmt
	for _, d := range l.defs {
		if a, ok := e.adj[d]; ok {
			zero = append(zero, konst(0.0, a))
		}
	}
	if e.reverseFast(l, rev, take, zero, give) {
		return
	}
	stacks := make([]int, len(l.carry))
	for i, c := range l.carry {
		e.f.Locals = append(e.f.Locals, ir.Buffer{Name: fmt.Sprintf("ad.checkpoint%d", len(e.f.Locals)), Elem: e.f.Regs[c.h], Dims: []int{stackCap}, Pos: e.pos})
		stacks[i] = len(e.f.Locals) - 1
	}
	n := e.counter(l)
	zeroI := e.konst(ir.I32, int64(0))
	has := e.op(ir.OpGt, ir.Bool, n, zeroI)
	e.emit(&ir.If{Cond: has, Then: e.nested(func() {
		// s = (n + stackCap - 1) / stackCap, at least 1 as n > 0.
		s := e.op(ir.OpDiv, ir.I32, e.op(ir.OpAdd, ir.I32, n, e.konst(ir.I32, int64(stackCap-1))), e.konst(ir.I32, int64(stackCap)))
		for _, c := range l.carry {
			e.set(c.h, ir.OpMov, c.pre)
		}
		e.repeat(n, func(it ir.Reg) {
			q := e.op(ir.OpDiv, ir.I32, it, s)
			r := e.op(ir.OpSub, ir.I32, it, e.op(ir.OpMul, ir.I32, q, s))
			at := e.op(ir.OpEq, ir.Bool, r, zeroI)
			e.emit(&ir.If{Cond: at, Then: e.nested(func() {
				for i, c := range l.carry {
					e.store(ir.SpaceLocal, stacks[i], []ir.Reg{q}, c.h, e.pos)
				}
			})})
			e.iteration(l, true)
		})
		// j runs from n-1 down to 0.
		j := e.f.NewReg(ir.I32)
		e.set(j, ir.OpSub, n, e.konst(ir.I32, int64(1)))
		one := e.konst(ir.I32, int64(1))
		c := e.f.NewReg(ir.Bool)
		e.emit(&ir.Loop{
			Cond:    []ir.Stmt{&ir.Inst{Op: ir.OpGe, Dst: c, Args: []ir.Reg{j, zeroI}}},
			CondReg: c,
			Body: e.nested(func() {
				q := e.op(ir.OpDiv, ir.I32, j, s)
				for i, c := range l.carry {
					v := e.load(ir.SpaceLocal, stacks[i], e.f.Regs[c.h], []ir.Reg{q}, e.pos)
					e.set(c.h, ir.OpMov, v)
				}
				k := e.op(ir.OpSub, ir.I32, j, e.op(ir.OpMul, ir.I32, q, s))
				e.repeat(k, func(ir.Reg) { e.iteration(l, true) })
				*e.body = append(*e.body, take...)
				*e.body = append(*e.body, zero...)
				*e.body = append(*e.body, give...)
				e.iteration(l, false)
				*e.body = append(*e.body, rev...)
			}),
			Post: []ir.Stmt{&ir.Inst{Op: ir.OpSub, Dst: j, Args: []ir.Reg{j, one}}},
		})
	})})
	// What reaches the header of the first iteration is the adjoint of
	// the values before the loop.
	for _, c := range floats {
		if a, ok := e.adj[c.h]; ok {
			e.accum(c.pre, a)
			e.emit(konst(0.0, a))
		}
	}
}

// reverseFast emits the reverse of l without checkpoints where the
// iteration's recomputation needs, of the registers the loop carries,
// only inductions (h = h + c each iteration, c fixed before the loop):
// iteration j restores them as pre + j*c and recomputes only what the
// reverse of its body reads, so the reverse costs one pass, not two plus
// replays. A for loop over range(n) summing into an accumulator is the
// case. It reports false, emitting nothing, where that does not hold.
func (e *emitter) reverseFast(l *nLoop, rev, take, zero, give []ir.Stmt) bool {
	region := map[ir.Reg]bool{}
	for _, d := range l.defs {
		region[d] = true
	}
	carriedH := map[ir.Reg]bool{}
	for _, c := range l.carry {
		carriedH[c.h] = true
	}
	tracked := func(r ir.Reg) bool { return region[r] || carriedH[r] }
	// The inductions: carried integers whose end-of-iteration version is
	// h + c, at the top of the post, with c from before the loop.
	step := map[ir.Reg]ir.Reg{}
	for _, c := range l.carry {
		if !e.f.Regs[c.h].IsInt() {
			continue
		}
		for _, n := range l.post {
			if in, ok := n.(*nInst); ok && in.in.Dst == c.post && in.in.Op == ir.OpAdd &&
				in.in.Args[0] == c.h && !tracked(in.in.Args[1]) {
				step[c.h] = in.in.Args[1]
			}
		}
	}
	needed := map[ir.Reg]bool{}
	readsOf(rev, func(r ir.Reg) {
		if tracked(r) {
			needed[r] = true
		}
	})
	iter := append(append(append([]node(nil), l.cond...), l.body...), l.post...)
	for changed := true; changed; {
		changed = false
		ok := sliceBack(iter, needed, tracked, &changed)
		if !ok {
			return false
		}
	}
	for _, c := range l.carry {
		if _, ok := step[c.h]; needed[c.h] && !ok {
			return false
		}
	}
	n := e.counter(l)
	zeroI := e.konst(ir.I32, int64(0))
	e.emit(&ir.If{Cond: e.op(ir.OpGt, ir.Bool, n, zeroI), Then: e.nested(func() {
		j := e.f.NewReg(ir.I32)
		e.set(j, ir.OpSub, n, e.konst(ir.I32, int64(1)))
		one := e.konst(ir.I32, int64(1))
		c := e.f.NewReg(ir.Bool)
		e.emit(&ir.Loop{
			Cond:    []ir.Stmt{&ir.Inst{Op: ir.OpGe, Dst: c, Args: []ir.Reg{j, zeroI}}},
			CondReg: c,
			Body: e.nested(func() {
				for _, cr := range l.carry {
					st, ok := step[cr.h]
					if !ok || !needed[cr.h] {
						continue
					}
					t := e.f.Regs[cr.h]
					jt := j
					if t != ir.I32 {
						jt = e.op(ir.OpConvert, t, j)
					}
					e.set(cr.h, ir.OpAdd, cr.pre, e.op(ir.OpMul, t, jt, st))
				}
				*e.body = append(*e.body, take...)
				*e.body = append(*e.body, zero...)
				*e.body = append(*e.body, give...)
				e.pruned(iter, needed)
				*e.body = append(*e.body, rev...)
			}),
			Post: []ir.Stmt{&ir.Inst{Op: ir.OpSub, Dst: j, Args: []ir.Reg{j, one}}},
		})
	})})
	for _, c := range l.carry {
		if a, ok := e.adj[c.h]; ok && e.float(c.h) {
			e.accum(c.pre, a)
			e.emit(konst(0.0, a))
		}
	}
	return true
}

// sliceBack adds to needed the tracked operands of the needed
// instructions of list and the conditions of ifs holding one; it reports
// false for a nested loop (whose recomputation is not sliced).
func sliceBack(list []node, needed map[ir.Reg]bool, tracked func(ir.Reg) bool, changed *bool) bool {
	add := func(r ir.Reg) {
		if r != ir.NoReg && tracked(r) && !needed[r] {
			needed[r] = true
			*changed = true
		}
	}
	for i := len(list) - 1; i >= 0; i-- {
		switch n := list[i].(type) {
		case *nInst:
			if n.in.Dst != ir.NoReg && needed[n.in.Dst] {
				for _, a := range n.in.Args {
					add(a)
				}
			}
		case *nIf:
			if !sliceBack(n.then, needed, tracked, changed) || !sliceBack(n.els, needed, tracked, changed) {
				return false
			}
			if holdsNeeded(n.then, needed) || holdsNeeded(n.els, needed) {
				add(n.cond)
			}
		case *nLoop:
			return false
		}
	}
	return true
}

func holdsNeeded(list []node, needed map[ir.Reg]bool) bool {
	for _, n := range list {
		switch n := n.(type) {
		case *nInst:
			if n.in.Dst != ir.NoReg && needed[n.in.Dst] {
				return true
			}
		case *nIf:
			if holdsNeeded(n.then, needed) || holdsNeeded(n.els, needed) {
				return true
			}
		}
	}
	return false
}

// pruned emits the forward replay of the needed instructions of list.
func (e *emitter) pruned(list []node, needed map[ir.Reg]bool) {
	for _, n := range list {
		switch n := n.(type) {
		case *nInst:
			if n.in.Dst != ir.NoReg && needed[n.in.Dst] {
				c := *n.in
				e.emit(&c)
			}
		case *nIf:
			if holdsNeeded(n.then, needed) || holdsNeeded(n.els, needed) {
				e.emit(&ir.If{Cond: n.cond, Then: e.nested(func() { e.pruned(n.then, needed) }), Else: e.nested(func() { e.pruned(n.els, needed) })})
			}
		}
	}
}

// readsOf calls fn on every register list reads.
func readsOf(list []ir.Stmt, fn func(ir.Reg)) {
	for _, s := range list {
		switch s := s.(type) {
		case *ir.Inst:
			for _, a := range s.Args {
				fn(a)
			}
		case *ir.If:
			fn(s.Cond)
			readsOf(s.Then, fn)
			readsOf(s.Else, fn)
		case *ir.Loop:
			readsOf(s.Cond, fn)
			if s.CondReg != ir.NoReg {
				fn(s.CondReg)
			}
			readsOf(s.Body, fn)
			readsOf(s.Post, fn)
		}
	}
}
