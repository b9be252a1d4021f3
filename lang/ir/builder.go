package ir

// Builder appends statements to a func's body: the one helper every
// kernel built in Go (fills, constructors, reductions, fused expressions,
// random numbers) writes its IR with. Body is where statements go, the
// func's own body or, while Nested runs, the list of an if or a loop.
type Builder struct {
	F    *Func
	Body *[]Stmt
}

// NewBuilder builds into f's body.
func NewBuilder(f *Func) *Builder { return &Builder{F: f, Body: &f.Body} }

// Emit appends s.
func (b *Builder) Emit(s Stmt) { *b.Body = append(*b.Body, s) }

// Op emits op over args into a new register of type t.
func (b *Builder) Op(op Op, t Type, args ...Reg) Reg {
	r := b.F.NewReg(t)
	b.Emit(&Inst{Op: op, Dst: r, Args: args})
	return r
}

// Const is a new register holding v (int64, uint64, float64 or bool) as
// type t.
func (b *Builder) Const(t Type, v any) Reg {
	r := b.F.NewReg(t)
	b.Emit(&Inst{Op: OpConst, Dst: r, Imm: v})
	return r
}

// Param reads scalar parameter i.
func (b *Builder) Param(i int) Reg {
	r := b.F.NewReg(b.F.Params[i].Elem)
	b.Emit(&Inst{Op: OpParam, Dst: r, Param: i})
	return r
}

// Conv converts r to t (r itself when it has that type).
func (b *Builder) Conv(t Type, r Reg) Reg {
	if b.F.Regs[r] == t {
		return r
	}
	return b.Op(OpConvert, t, r)
}

// Nested runs build with its statements going to a new list, and returns
// the list.
func (b *Builder) Nested(build func()) []Stmt {
	outer := b.Body
	var list []Stmt
	b.Body = &list
	build()
	b.Body = outer
	return list
}

// If runs then where cond holds.
func (b *Builder) If(cond Reg, then func()) { b.Emit(&If{Cond: cond, Then: b.Nested(then)}) }

// While repeats body while cond (built anew before each iteration) holds.
func (b *Builder) While(cond func() Reg, body func()) {
	var c Reg
	condStmts := b.Nested(func() { c = cond() })
	b.Emit(&Loop{Cond: condStmts, CondReg: c, Body: b.Nested(body)})
}
