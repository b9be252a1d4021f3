package ad

import (
	"maps"
	"slices"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Renaming gives every instruction of the flat func a register of its
// own (a version), so that a value the reverse sweep needs is not
// overwritten by a later instruction: registers are mutable, the
// versions are written once per execution. Where the two sides of an if
// leave different versions of a register, each side ends with a move to
// one merged version; a loop reads each register it writes through a
// header version (carried), set before the loop and at the end of each
// iteration (the back edge).

type node interface{}

// nInst is an instruction over versions.
type nInst struct{ in *ir.Inst }

// nIf is an if over versions.
type nIf struct {
	cond      ir.Reg
	then, els []node
}

// nLoop is a normalized loop over versions: repeat { cond; if !c leave;
// body; post; back edge }.
type nLoop struct {
	cond       []node
	c          ir.Reg // NoReg: forever (left by a flag of the condition)
	body, post []node
	carry      []carried
	defs       []ir.Reg // versions written inside (condition, body, post, nested loops' headers)
	condDefs   []ir.Reg // versions the condition writes
}

// carried is a register the loop writes: its header version h, the
// version before the loop (pre) and at the end of an iteration (post).
type carried struct{ h, pre, post ir.Reg }

type renamer struct {
	f       *ir.Func
	temps   map[ir.Reg]bool   // registers no loop carries (see temps)
	cur     map[ir.Reg]ir.Reg // flat register -> its current version
	regions []*[]ir.Reg       // the defs lists of the enclosing loops
}

func rename(f *ir.Func) []node {
	r := &renamer{f: f, cur: map[ir.Reg]ir.Reg{}, temps: temps(f)}
	return r.list(f.Body)
}

// fresh is a new version of flat register v.
func (r *renamer) fresh(v ir.Reg) ir.Reg {
	d := r.f.NewReg(r.f.Regs[v])
	for _, reg := range r.regions {
		*reg = append(*reg, d)
	}
	return d
}

// ver is the current version of v (v itself where nothing wrote it yet:
// the lowering never reads such a register).
func (r *renamer) ver(v ir.Reg) ir.Reg {
	if v == ir.NoReg {
		return v
	}
	if d, ok := r.cur[v]; ok {
		return d
	}
	return v
}

func (r *renamer) list(src []ir.Stmt) []node {
	var out []node
	for _, s := range src {
		out = append(out, r.stmt(s)...)
	}
	return out
}

func (r *renamer) stmt(s ir.Stmt) []node {
	switch s := s.(type) {
	case *ir.Inst:
		c := *s
		c.Args = make([]ir.Reg, len(s.Args))
		for i, a := range s.Args {
			c.Args[i] = r.ver(a)
		}
		if s.Dst != ir.NoReg {
			c.Dst = r.fresh(s.Dst)
			r.cur[s.Dst] = c.Dst
		}
		return []node{&nInst{&c}}
	case *ir.If:
		n := &nIf{cond: r.ver(s.Cond)}
		before := maps.Clone(r.cur)
		n.then = r.list(s.Then)
		afterThen := r.cur
		r.cur = maps.Clone(before)
		n.els = r.list(s.Else)
		afterElse := r.cur
		r.cur = maps.Clone(afterElse)
		keys := slices.Sorted(maps.Keys(afterThen))
		for _, k := range slices.Sorted(maps.Keys(afterElse)) {
			if _, ok := afterThen[k]; !ok {
				keys = append(keys, k)
			}
		}
		// Both sides start from the versions before the if, so a
		// register written before it is in both maps.
		for _, v := range keys {
			t, inT := afterThen[v]
			e, inE := afterElse[v]
			switch {
			case inT && inE && t != e:
				m := r.fresh(v)
				n.then = append(n.then, mov(m, t))
				n.els = append(n.els, mov(m, e))
				r.cur[v] = m
			case inT:
				// Equal on both sides, or written on the then side only
				// and not before the if: a register of that side alone
				// (the lowering reads none after the if).
				r.cur[v] = t
			}
		}
		return []node{n}
	case *ir.Loop:
		return r.loop(s)
	}
	return nil
}

func mov(dst, src ir.Reg) node {
	return &nInst{&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{src}}}
}

// writes lists the flat registers a statement list writes, in order.
func writes(list []ir.Stmt, out []ir.Reg) []ir.Reg {
	for _, s := range list {
		switch s := s.(type) {
		case *ir.Inst:
			if s.Dst != ir.NoReg && !slices.Contains(out, s.Dst) {
				out = append(out, s.Dst)
			}
		case *ir.If:
			out = writes(s.Else, writes(s.Then, out))
		case *ir.Loop:
			out = writes(s.Post, writes(s.Body, writes(s.Cond, out)))
		}
	}
	return out
}

func (r *renamer) loop(l *ir.Loop) []node {
	var pre []node
	var vs []ir.Reg
	for _, v := range writes(l.Post, writes(l.Body, writes(l.Cond, nil))) {
		if !r.temps[v] {
			vs = append(vs, v)
		}
	}
	n := &nLoop{}
	for _, v := range vs {
		p, ok := r.cur[v]
		if !ok {
			p = r.fresh(v)
			pre = append(pre, &nInst{konst(zeroImm(r.f.Regs[v]), p)})
		}
		h := r.fresh(v)
		pre = append(pre, mov(h, p))
		n.carry = append(n.carry, carried{h: h, pre: p})
		r.cur[v] = h
	}
	r.regions = append(r.regions, &n.defs)
	condStart := len(n.defs)
	n.cond = r.list(l.Cond)
	n.condDefs = slices.Clone(n.defs[condStart:])
	n.c = r.ver(l.CondReg)
	exit := maps.Clone(r.cur)
	n.body = r.list(l.Body)
	n.post = r.list(l.Post)
	r.regions = r.regions[:len(r.regions)-1]
	for i, v := range vs {
		n.carry[i].post = r.ver(v)
	}
	// After the loop, the registers hold what they held when the
	// condition failed.
	r.cur = exit
	return append(pre, n)
}

// temps finds the registers written by one instruction whose every read
// comes after it in its statement list (or inside a later statement of
// that list): each iteration of a loop around them writes them before
// reading them, so no loop carries them (the lowering's temporaries).
func temps(f *ir.Func) map[ir.Reg]bool {
	defs, reads := map[ir.Reg]int{}, map[ir.Reg]int{}
	walk(f.Body, func(in *ir.Inst) {
		for r := range in.Defs() {
			defs[r]++
		}
	})
	countReads(f.Body, reads)
	out := map[ir.Reg]bool{}
	var visit func(list []ir.Stmt)
	visit = func(list []ir.Stmt) {
		after := map[ir.Reg]int{}
		for i := len(list) - 1; i >= 0; i-- {
			if in, ok := list[i].(*ir.Inst); ok && in.Dst != ir.NoReg && defs[in.Dst] == 1 && after[in.Dst] == reads[in.Dst] {
				out[in.Dst] = true
			}
			countReads(list[i:i+1], after)
			switch s := list[i].(type) {
			case *ir.If:
				visit(s.Then)
				visit(s.Else)
			case *ir.Loop:
				visit(s.Cond)
				visit(s.Body)
				visit(s.Post)
			}
		}
	}
	visit(f.Body)
	return out
}

// countReads adds to m the reads of each register in list.
func countReads(list []ir.Stmt, m map[ir.Reg]int) {
	for _, s := range list {
		switch s := s.(type) {
		case *ir.Inst:
			for _, a := range s.Args {
				m[a]++
			}
		case *ir.If:
			m[s.Cond]++
			countReads(s.Then, m)
			countReads(s.Else, m)
		case *ir.Loop:
			countReads(s.Cond, m)
			if s.CondReg != ir.NoReg {
				m[s.CondReg]++
			}
			countReads(s.Body, m)
			countReads(s.Post, m)
		}
	}
}
