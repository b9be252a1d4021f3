package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Vector accesses (Options.Vector). The checker lowers v[i] of an
// array[vec4] to four scalar loads of v[i, 0..3], each after the OpConst
// of its lane index; printed one by one they stay four 4-byte loads,
// since NVRTC cannot prove the element 16-byte aligned. A lane run is
// such a group in one statement list, recognised here:
//
//   - statements ss[i:i+span] that are all instructions: OpConsts and
//     m >= 2 accesses of one array parameter, all loads or all stores,
//     of a 4- or 8-byte type (f32, i32, u32, f64, i64, u64);
//   - access k indexes the array with the same registers as access 0 on
//     every axis but the last (or registers an OpConst of the run set to
//     the same value), and on the last with a register an earlier OpConst
//     of the run set to k: the lanes 0..m-1 of one element, in order;
//   - no OpConst writes a register an earlier access of the run reads or
//     writes, and no load writes a register a later access reads, so
//     printing the OpConsts first and then the accesses all at once
//     computes the same registers. Nothing else, so nothing that could
//     store to the array, sits between the accesses.
//
// A run prints as m/w accesses of w lanes (w = 4 for 4-byte types when m
// is a multiple of 4, else 2: vec2, vec4, vec2d, vec4d and matrix rows of
// 2 or 4): *(const float4*)&v[i, 0] into a float4 whose x..w go to the
// lanes' registers, or one float4{...} store. Runs of 3 lanes (vec3) stay
// scalar: 12-byte elements are never 16-byte aligned.
//
// Such an access is only valid where the element's first lane is aligned
// to w lanes; the launcher promises it for every array parameter that
// VectorNeeds names (data address a multiple of w lanes' bytes, unit
// innermost stride, the other strides multiples of w) before it picks the
// Vector build. Debug builds keep scalar accesses, each bounds-checked.

// laneRun is one lane run (see above) starting at statement i.
type laneRun struct {
	span   int        // statements of the run
	consts []*ir.Inst // its OpConsts, printed first in order
	access []*ir.Inst // the accesses of lanes 0..m-1
	width  int        // lanes per vector access
}

// findRun returns the lane run that starts at ss[i], if any. f is the
// func the statements belong to; malformed IR finds no run (the scalar
// path reports it).
func findRun(f *ir.Func, ss []ir.Stmt, i int) (laneRun, bool) {
	var r laneRun
	if first, ok := ss[i].(*ir.Inst); !ok || first == nil || (first.Op != ir.OpConst && !isAccess(first)) {
		return r, false
	}
	known := map[ir.Reg]int64{} // registers an OpConst of the run set, and to what
	nconst, end := 0, i
	for j := i; j < len(ss); j++ {
		in, ok := ss[j].(*ir.Inst)
		if !ok || in == nil {
			break
		}
		if in.Op == ir.OpConst {
			if in.Dst < 0 || int(in.Dst) >= len(f.Regs) || touches(r.access, in.Dst) {
				break
			}
			if v, ok := constInt(f.Regs[in.Dst], in.Imm); ok {
				known[in.Dst] = v
			} else {
				delete(known, in.Dst)
			}
			r.consts = append(r.consts, in)
			continue
		}
		if !r.extends(f, in, known) {
			break
		}
		r.access = append(r.access, in)
		nconst, end = len(r.consts), j+1
	}
	r.consts, r.span = r.consts[:nconst], end-i
	m := len(r.access)
	if m < 2 {
		return r, false
	}
	size := f.Params[r.access[0].Param].Elem.Size()
	switch {
	case size == 4 && m%4 == 0:
		r.width = 4
	case m%2 == 0:
		r.width = 2
	default:
		return r, false
	}
	return r, true
}

func isAccess(in *ir.Inst) bool {
	return (in.Op == ir.OpLoad || in.Op == ir.OpStore) && in.Space == ir.SpaceParam
}

// indices are an access's index registers (a store's Args end with its
// value).
func indices(in *ir.Inst) []ir.Reg {
	if in.Op == ir.OpStore {
		return in.Args[:len(in.Args)-1]
	}
	return in.Args
}

// touches reports whether an access of as reads or writes register x.
func touches(as []*ir.Inst, x ir.Reg) bool {
	for _, a := range as {
		if a.Dst == x || slices.Contains(a.Args, x) {
			return true
		}
	}
	return false
}

// constInt is the integer an OpConst of type t with imm sets, when t is an
// integer type.
func constInt(t ir.Type, imm any) (int64, bool) {
	if !t.IsInt() {
		return 0, false
	}
	bits, ok := ir.ImmBits(imm, t)
	if !ok {
		return 0, false
	}
	switch t {
	case ir.I32:
		return int64(int32(bits)), true
	case ir.U32:
		return int64(uint32(bits)), true
	case ir.U8:
		return int64(uint8(bits)), true
	}
	return int64(bits), true
}

// vecElem reports whether vector accesses exist for arrays of t.
func vecElem(t ir.Type) bool {
	switch t {
	case ir.I32, ir.U32, ir.F32, ir.I64, ir.U64, ir.F64:
		return true
	}
	return false
}

// extends reports whether in is the next lane access of r.
func (r *laneRun) extends(f *ir.Func, in *ir.Inst, known map[ir.Reg]int64) bool {
	if !isAccess(in) || in.Param < 0 || in.Param >= len(f.Params) || len(in.Args) == 0 {
		return false
	}
	p := f.Params[in.Param]
	idx := indices(in)
	if !p.IsArray() || !vecElem(p.Elem) || len(idx) != p.NDim {
		return false
	}
	for _, x := range in.Args {
		if x < 0 || int(x) >= len(f.Regs) {
			return false
		}
	}
	for _, x := range idx {
		if !f.Regs[x].IsInt() {
			return false
		}
	}
	val := in.Dst // the loaded register, or the stored one
	if in.Op == ir.OpStore {
		val = in.Args[len(in.Args)-1]
	}
	if val < 0 || int(val) >= len(f.Regs) || f.Regs[val] != p.Elem {
		return false
	}
	lane, ok := known[idx[len(idx)-1]]
	if !ok || lane != int64(len(r.access)) {
		return false
	}
	if len(r.access) == 0 {
		return true
	}
	a0 := r.access[0]
	if in.Op != a0.Op || in.Param != a0.Param {
		return false
	}
	for k, x := range idx[:len(idx)-1] {
		y := indices(a0)[k]
		if x == y {
			continue
		}
		vx, okx := known[x]
		vy, oky := known[y]
		if !okx || !oky || vx != vy {
			return false
		}
	}
	for _, a := range r.access {
		if a.Op == ir.OpLoad && slices.Contains(in.Args, a.Dst) {
			return false
		}
	}
	return true
}

// vecType is CUDA's vector type of w lanes of t.
func vecType(t ir.Type, w int) string {
	name := map[ir.Type]string{ir.I32: "int", ir.U32: "uint", ir.F32: "float", ir.I64: "longlong", ir.U64: "ulonglong", ir.F64: "double"}[t]
	return fmt.Sprintf("%s%d", name, w)
}

// laneRun prints r: its OpConsts, then its accesses w lanes at a time.
func (g *gen) laneRun(r laneRun) error {
	for _, c := range r.consts {
		g.sourcePos(c.Pos)
		if err := g.inst(c); err != nil {
			return err
		}
	}
	a0 := r.access[0]
	g.sourcePos(a0.Pos)
	idx := indices(a0)
	base, et, err := g.element(a0, idx[:len(idx)-1], true) // lane 0 of the element
	if err != nil {
		return err
	}
	vt := vecType(et, r.width)
	for c := 0; c < len(r.access); c += r.width {
		ptr := base
		if c > 0 {
			ptr = fmt.Sprintf("(%s + %d)", base, c)
		}
		lanes := r.access[c : c+r.width]
		if a0.Op == ir.OpStore {
			vals := make([]string, len(lanes))
			for l, a := range lanes {
				vals[l], _, _ = g.reg(a.Args[len(a.Args)-1], a.Pos)
			}
			g.line("*(%s*)%s = %s{%s};", vt, ptr, vt, strings.Join(vals, ", "))
			continue
		}
		g.line("{")
		g.depth++
		g.line("const %s gs_v = *(const %s*)%s;", vt, vt, ptr)
		for l, a := range lanes {
			d, _, _ := g.reg(a.Dst, a.Pos)
			g.line("%s = gs_v.%c;", d, "xyzw"[l])
		}
		g.depth--
		g.line("}")
	}
	return nil
}

// VectorNeed is what the vector accesses of a Vector build need of one
// array argument: its data address a multiple of Lanes elements' bytes,
// its innermost stride 1 and its other strides multiples of Lanes.
type VectorNeed struct {
	Param int // entry parameter index
	Lanes int // the widest vector access's lanes: 2 or 4
}

// VectorNeeds lists, in parameter order, the array parameters of k's
// entry that the vector accesses of a Vector build reach, directly or
// through the calls of device funcs; nil when the build has none (it is
// then the scalar build). k must have passed ir.Verify.
func VectorNeeds(k *ir.Kernel) []VectorNeed {
	w := &vecWalk{k: k, sums: map[*ir.Func][]int{}}
	var out []VectorNeed
	for p, n := range w.summary(k.Entry) {
		if n > 0 {
			out = append(out, VectorNeed{Param: p, Lanes: n})
		}
	}
	return out
}

// vecWalk computes, once per func, the lanes its runs need of each of its
// parameters (0: none), finding runs as gen.stmts does.
type vecWalk struct {
	k    *ir.Kernel
	sums map[*ir.Func][]int
}

func (w *vecWalk) summary(f *ir.Func) []int {
	if s, ok := w.sums[f]; ok {
		return s
	}
	s := make([]int, len(f.Params))
	w.sums[f] = s // a recursive call (refused by Verify) sees no needs
	w.stmts(f, s, f.Body)
	return s
}

func (w *vecWalk) stmts(f *ir.Func, s []int, ss []ir.Stmt) {
	for i := 0; i < len(ss); i++ {
		if r, ok := findRun(f, ss, i); ok {
			p := r.access[0].Param
			s[p] = max(s[p], r.width)
			i += r.span - 1
			continue
		}
		switch st := ss[i].(type) {
		case *ir.Inst:
			if st == nil || st.Op != ir.OpCall || st.Callee < 0 || st.Callee >= len(w.k.Funcs) {
				continue
			}
			for j, n := range w.summary(w.k.Funcs[st.Callee]) {
				if j < len(st.ArrayArgs) {
					if a := st.ArrayArgs[j]; a >= 0 && a < len(s) && n > 0 {
						s[a] = max(s[a], n)
					}
				}
			}
		case *ir.If:
			if st != nil {
				w.stmts(f, s, st.Then)
				w.stmts(f, s, st.Else)
			}
		case *ir.Loop:
			if st != nil {
				w.stmts(f, s, st.Cond)
				w.stmts(f, s, st.Body)
				w.stmts(f, s, st.Post)
			}
		}
	}
}
