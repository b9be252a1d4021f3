package check

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
)

// Block uniformity (COOPERATIVE.md section 2, doc.go "Uniformity"): sync()
// and the block collectives must be reached by every thread of a block, so
// no condition around them may differ between threads. The rule is
// flow-insensitive and works on registers: each register of a block
// kernel is a node of a graph whose edges say "this value depends on that
// one", either as data (an operand, a value moved into a variable) or as
// control (a value assigned under a condition, or inside a loop). Sources
// are the values that differ by themselves (thread indices, memory loads,
// atomics, warp ops); a register is divergent when a path leads to it from
// a source, wherever in the body the assignment stands. Barriers record the
// conditions around them while the body is lowered; once it is done, the
// graph is solved and each barrier's conditions are checked.

// unode is a node of the uniformity graph: a register, or a loop.
type unode struct {
	deps []uedge
	src  *origin // the value differs between threads by itself
	name string  // the variable the register holds, for messages
	// set by solve: div when divergent, via the edge it became so
	div bool
	via uedge
}

// uedge is a dependency on node to; ctrl marks a control dependency.
type uedge struct {
	to   *unode
	ctrl bool
}

// origin is a source of divergence: the expression and where it is.
type origin struct {
	what string
	pos  ast.Pos
}

// ctrl is a condition around the code being lowered: an if condition (or
// the left operand of && and ||), or a loop. The conditions around a point
// form a list through parent, innermost first, and so does their chain:
// the chain node of a condition depends on the condition and on its
// parent's chain, so that an instruction needs one control edge, to the
// innermost chain, however deep it is nested (and a barrier keeps one
// pointer), which bounds the graph by the size of the body.
type ctrl struct {
	node   *unode   // the condition's own node (a loop's: loopCtl.node)
	chain  *unode   // depends on node and parent.chain
	pos    ast.Pos  // the condition's position
	loop   *loopCtl // set for a loop
	parent *ctrl
}

// loopCtl is a loop: its node depends on the loop condition and on the
// conditions under which a break or continue leaves the iteration early,
// since then some threads run fewer iterations than others.
type loopCtl struct {
	node    *unode
	cond    *unode // nil for `while true`
	condPos ast.Pos
	exits   []loopExit
}

// loopExit is a break or continue; the conditions from at up to the loop
// are those it stands under inside the loop.
type loopExit struct {
	tok string
	pos ast.Pos
	at  *ctrl
}

// barrierSite is a sync() or block collective and the conditions around it.
type barrierSite struct {
	name string
	pos  ast.Pos
	at   *ctrl
}

// returnSite is a kernel's return: the conditions around it, and how many
// barriers came before it in the body.
type returnSite struct {
	pos    ast.Pos
	at     *ctrl
	before int
}

// uniformity is the graph of one block kernel's body. Its methods do
// nothing on a nil receiver, which outside block kernels there is.
type uniformity struct {
	regs  []*unode // by register
	nodes []*unode // the others: loops and chains
	ctx   *ctrl    // the innermost condition around the code being lowered
	sites []barrierSite
	rets  []returnSite
}

// push makes c, a condition with its node set, the innermost one.
func (u *uniformity) push(c *ctrl) {
	c.parent, c.chain = u.ctx, &unode{deps: []uedge{{to: c.node, ctrl: true}}}
	if u.ctx != nil {
		c.chain.deps = append(c.chain.deps, uedge{to: u.ctx.chain, ctrl: true})
	}
	u.nodes = append(u.nodes, c.chain)
	u.ctx = c
}

func (u *uniformity) pop() { u.ctx = u.ctx.parent }

// outward lists the conditions from c out to (not including) stop,
// outermost first.
func outward(c, stop *ctrl) []*ctrl {
	var list []*ctrl
	for ; c != stop; c = c.parent {
		list = append(list, c)
	}
	slices.Reverse(list)
	return list
}

func (u *uniformity) node(r ir.Reg) *unode {
	for int(r) >= len(u.regs) {
		u.regs = append(u.regs, nil)
	}
	if u.regs[r] == nil {
		u.regs[r] = &unode{}
	}
	return u.regs[r]
}

// uniformResults are ops whose result is the same in every thread of a
// block whatever their operands: block indices and shape, and the
// collectives that give every thread the block's result.
var uniformResults = map[ir.Op]bool{
	ir.OpBlockId: true, ir.OpBlockDim: true, ir.OpGridDim: true,
	ir.OpBlockSum: true, ir.OpBlockMin: true, ir.OpBlockMax: true,
	ir.OpBlockCount: true, ir.OpBlockAny: true, ir.OpBlockAll: true,
}

// varies reports whether op's result may differ between the threads of a
// block even when its operands do not: thread indices, memory reads, warp
// ops and scans.
func varies(op ir.Op) bool {
	info, _ := op.Info()
	switch {
	case uniformResults[op]:
		return false
	case op == ir.OpTid, op == ir.OpLoad, op == ir.OpLoadField, info.Atomic:
		return true
	}
	return info.Block
}

// inst adds the dependencies of each of an instruction's results: its
// operands (unless the op's result is uniform by itself) and the
// conditions around it. A varying op is a source (see from for its
// description).
func (u *uniformity) inst(in *ir.Inst) {
	if u == nil {
		return
	}
	for d := range in.Defs() {
		u.def(in, d)
	}
}

// def adds the dependencies of register d, written by in.
func (u *uniformity) def(in *ir.Inst, d ir.Reg) {
	n := u.node(d)
	if !uniformResults[in.Op] {
		for _, a := range in.Args {
			if a != ir.NoReg {
				n.deps = append(n.deps, uedge{to: u.node(a)})
			}
		}
	}
	if u.ctx != nil {
		n.deps = append(n.deps, uedge{to: u.ctx.chain, ctrl: true})
	}
	if varies(in.Op) && n.src == nil {
		n.src = &origin{what: in.Op.String() + "()", pos: in.Pos}
	}
}

// from describes register r, a source, as the expression e.
func (u *uniformity) from(r ir.Reg, e ast.Expr) {
	if u != nil && r != ir.NoReg {
		u.node(r).src = &origin{what: exprString(e), pos: e.Start()}
	}
}

// named records that register r holds variable name.
func (u *uniformity) named(r ir.Reg, name string) {
	if u != nil {
		u.node(r).name = name
	}
}

// under runs f with the condition in register cond, at pos, around it.
func (u *uniformity) under(cond ir.Reg, pos ast.Pos, f func()) {
	if u == nil || cond == ir.NoReg {
		f()
		return
	}
	u.push(&ctrl{node: u.node(cond), pos: pos})
	f()
	u.pop()
}

// loop runs f, which lowers a loop's condition and body, with the loop
// around it; f calls the returned setCond once the condition's register
// is known.
func (u *uniformity) loop(f func(setCond func(ir.Reg, ast.Pos))) {
	if u == nil {
		f(func(ir.Reg, ast.Pos) {})
		return
	}
	lp := &loopCtl{node: &unode{}}
	u.nodes = append(u.nodes, lp.node)
	u.push(&ctrl{node: lp.node, loop: lp})
	f(func(r ir.Reg, pos ast.Pos) {
		if r != ir.NoReg {
			lp.cond, lp.condPos = u.node(r), pos
			lp.node.deps = append(lp.node.deps, uedge{to: lp.cond})
		}
	})
	u.pop()
}

// exit records a break or continue: the conditions between it and its
// loop decide how many iterations each thread runs. The loop's node
// depends on the innermost chain, which also holds the conditions around
// the loop: those are checked before the loop's own, outermost first.
func (u *uniformity) exit(tok string, pos ast.Pos) {
	if u == nil {
		return
	}
	c := u.ctx
	for c != nil && c.loop == nil {
		c = c.parent
	}
	if c == nil || c == u.ctx {
		return // not in a loop (reported elsewhere), or under no condition in it
	}
	lp := c.loop
	lp.exits = append(lp.exits, loopExit{tok: tok, pos: pos, at: u.ctx})
	lp.node.deps = append(lp.node.deps, uedge{to: u.ctx.chain, ctrl: true})
}

// ret records a return of the kernel at pos: threads that take it never
// reach a later barrier, nor one in an enclosing loop's next iteration.
func (u *uniformity) ret(pos ast.Pos) {
	if u != nil && u.ctx != nil {
		u.rets = append(u.rets, returnSite{pos: pos, at: u.ctx, before: len(u.sites)})
	}
}

// barrier records a sync() or block collective at pos.
func (u *uniformity) barrier(name string, pos ast.Pos) {
	if u != nil {
		u.sites = append(u.sites, barrierSite{name: name, pos: pos, at: u.ctx})
	}
}

// solve marks every node a source reaches, breadth first, so that each
// divergent node's via edge starts a shortest path back to a source.
func (u *uniformity) solve() {
	users := map[*unode][]*unode{}
	var queue []*unode
	add := func(n *unode) {
		if n == nil {
			return
		}
		for _, d := range n.deps {
			users[d.to] = append(users[d.to], n)
		}
		if n.src != nil {
			n.div = true
			queue = append(queue, n)
		}
	}
	for _, n := range u.regs {
		add(n)
	}
	for _, n := range u.nodes {
		add(n)
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range users[n] {
			if m.div {
				continue
			}
			m.div = true
			for _, d := range m.deps {
				if d.to == n {
					m.via = d
					break
				}
			}
			queue = append(queue, m)
		}
	}
}

// explain names what makes node n divergent: the variable nearest to n on
// the path from its source, and the source.
func explain(n *unode) string {
	name, ctrl := "", false
	for m := n; m != nil; m = m.via.to {
		if name == "" && m.name != "" {
			name = m.name
		}
		if name != "" && m.via.ctrl {
			ctrl = true
		}
		if m.src == nil {
			continue
		}
		src := fmt.Sprintf("%s at %d:%d", m.src.what, m.src.pos.Line, m.src.pos.Col)
		switch {
		case name == "":
			return src
		case ctrl:
			return fmt.Sprintf("%s (assigned under a condition on %s)", name, src)
		}
		return fmt.Sprintf("%s (from %s)", name, src)
	}
	return "?"
}

// check reports, for each barrier, the outermost condition around it that
// differs between threads, at the condition; each condition once.
func (u *uniformity) check(errs *ast.ErrorList) {
	if u == nil || len(u.sites) == 0 {
		return
	}
	u.solve()
	u.checkReturns(errs)
	seen := map[*ctrl]bool{}
	for _, s := range u.sites {
		if s.at == nil || !s.at.chain.div {
			continue
		}
		for _, c := range outward(s.at, nil) {
			if !c.node.div {
				continue
			}
			if !seen[c] {
				seen[c] = true
				reportDivergence(errs, s, c)
			}
			break
		}
	}
}

// checkReturns reports a return under a condition that differs between
// threads when a barrier may run after it: one later in the body, or one
// in a loop around the return (its next iteration). The threads that
// returned never arrive (the cpu fails such a launch at run time; CUDA
// leaves it undefined).
func (u *uniformity) checkReturns(errs *ast.ErrorList) {
	for _, r := range u.rets {
		if !r.at.chain.div {
			continue
		}
		s, ok := u.barrierAfter(r)
		if !ok {
			continue
		}
		for _, c := range outward(r.at, nil) {
			if c.node.div {
				errs.Add(c.pos, "%s() at %d:%d after a return that only some threads of a block take: the return at %d:%d is under a condition that differs between threads: %s (guard the work with if instead of returning)",
					s.name, s.pos.Line, s.pos.Col, r.pos.Line, r.pos.Col, explain(c.node))
				break
			}
		}
	}
}

// barrierAfter finds a barrier that may run after return r.
func (u *uniformity) barrierAfter(r returnSite) (barrierSite, bool) {
	if r.before < len(u.sites) {
		return u.sites[r.before], true
	}
	loops := outward(r.at, nil)
	for _, s := range u.sites {
		for _, c := range outward(s.at, nil) {
			if c.loop != nil && slices.Contains(loops, c) {
				return s, true
			}
		}
	}
	return barrierSite{}, false
}

// through reports whether divergent node n became so through node m.
func through(n, m *unode) bool {
	for ; n != nil; n = n.via.to {
		if n == m {
			return true
		}
	}
	return false
}

func reportDivergence(errs *ast.ErrorList, s barrierSite, c *ctrl) {
	at := func(p ast.Pos) string {
		if p.Line == s.pos.Line {
			return s.name + "()"
		}
		return fmt.Sprintf("%s() at %d:%d", s.name, s.pos.Line, s.pos.Col)
	}
	lp := c.loop
	if lp == nil || lp.cond != nil && lp.cond.div && !through(lp.cond, lp.node) {
		pos, n := c.pos, c.node
		if lp != nil {
			pos, n = lp.condPos, lp.cond
		}
		errs.Add(pos, "%s under a condition that differs between threads of a block: %s", at(pos), explain(n))
		return
	}
	// The loop differs because threads leave it early (its condition may
	// then differ too, through the counter assigned in the loop).
	for _, ex := range lp.exits {
		for _, ec := range outward(ex.at, c) {
			if ec.node.div {
				errs.Add(ec.pos, "%s in a loop that some threads of a block leave early: the %s at %d:%d is under a condition that differs between threads: %s",
					at(ec.pos), ex.tok, ex.pos.Line, ex.pos.Col, explain(ec.node))
				return
			}
		}
	}
	errs.Add(s.pos, "%s in a loop whose iterations differ between threads of a block: %s", s.name+"()", explain(lp.node))
}
