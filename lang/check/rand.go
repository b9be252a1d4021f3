package check

import (
	"fmt"
	"go/constant"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/rng"
)

// The random number builtins are Warp's (package rng): rand_init makes a
// u32 state, and randf, randi, randu and randn draw from a state held in
// a local variable, which each call advances in place, as Warp's take
// their state by reference. The samplers (sample_unit_disk ...) draw in
// the same way and give a vector, poisson(rng, lam) a u32 count.
var randBuiltins = append([]string{"rand_init", "randf", "randi", "randu", "randn", "poisson"}, samplerNames()...)

func samplerNames() []string {
	names := make([]string, len(rng.Samplers))
	for i, sp := range rng.Samplers {
		names[i] = sp.Name
	}
	return names
}

// Op and Const make the body an rng.Emitter.
func (b *body) Op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg {
	dst := b.reg(t)
	b.emit(&ir.Inst{Op: op, Dst: dst, Args: args})
	return dst
}

func (b *body) Const(t ir.Type, imm any) ir.Reg {
	dst := b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpConst, Dst: dst, Imm: imm})
	return dst
}

func (b *body) randCall(e *ast.CallExpr, name string) operand {
	if name == "rand_init" {
		return b.randInit(e)
	}
	if sp, ok := rng.SamplerByName(name); ok {
		return b.sample(e, sp)
	}
	if name == "poisson" {
		return b.poisson(e)
	}
	if len(e.Args) != 1 && (len(e.Args) != 3 || name == "randn" || name == "randu") {
		want := "1 argument (the state)"
		if name == "randf" || name == "randi" {
			want += " or 3 (the state, lo, hi)"
		}
		b.errs.Add(e.Lparen, "%s expects %s, got %d", name, want, len(e.Args))
		return invalid()
	}
	v := b.stateVar(e.Args[0], name)
	bounds, ok := b.randBounds(e, name)
	if v == nil || !ok {
		return invalid()
	}
	state, val, t := b.draw(name, v.reg, bounds)
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: v.reg, Args: []ir.Reg{state}})
	return operand{mode: modeValue, t: t, reg: val, expr: e}
}

// sample lowers a sampler: a vecN of f32 lanes from the state variable.
func (b *body) sample(e *ast.CallExpr, sp rng.Sampler) operand {
	if len(e.Args) != 1 {
		b.errs.Add(e.Lparen, "%s expects 1 argument (the state), got %d", sp.Name, len(e.Args))
		return invalid()
	}
	v := b.stateVar(e.Args[0], sp.Name)
	if v == nil {
		return invalid()
	}
	state, lanes := sp.EmitSample(b, v.reg)
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: v.reg, Args: []ir.Reg{state}})
	t, _ := dtype.ByName(fmt.Sprintf("vec%d", sp.Lanes))
	return vecOperand(t, lanes, e)
}

// poisson lowers poisson(rng, lam), lam converted to f32.
func (b *body) poisson(e *ast.CallExpr) operand {
	if len(e.Args) != 2 {
		b.errs.Add(e.Lparen, "poisson expects 2 arguments (the state, lam), got %d", len(e.Args))
		return invalid()
	}
	v := b.stateVar(e.Args[0], "poisson")
	lam, ok := b.args(e.Args[1:])
	if v == nil || !ok {
		return invalid()
	}
	regs, ok := b.convertAll(lam, ir.F32, "lam of poisson")
	if !ok {
		return invalid()
	}
	state, n := rng.EmitPoisson(flow{b, e.Lparen}, v.reg, regs[0])
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: v.reg, Args: []ir.Reg{state}})
	return operand{mode: modeValue, t: ir.U32, reg: n, expr: e}
}

// flow is a body as an rng.FlowEmitter, for the loops of poisson at pos:
// they join the uniformity graph as a script's loops do.
type flow struct {
	*body
	pos ast.Pos
}

func (f flow) If(cond ir.Reg, then, els func()) {
	node := &ir.If{Cond: cond}
	f.uni.under(cond, f.pos, func() {
		if then != nil {
			f.into(&node.Then, then)
		}
		if els != nil {
			f.into(&node.Else, els)
		}
	})
	f.emit(node)
}

func (f flow) Loop(body func()) {
	loop := &ir.Loop{CondReg: ir.NoReg}
	f.uni.loop(func(func(ir.Reg, ast.Pos)) { f.into(&loop.Body, body) })
	f.emit(loop)
}

func (f flow) Break() {
	f.uni.exit("break", f.pos)
	f.emit(&ir.Break{})
}

func (f flow) Continue() {
	f.uni.exit("continue", f.pos)
	f.emit(&ir.Continue{})
}

func (f flow) Set(dst, src ir.Reg) { f.emit(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{src}}) }

// draw emits one draw of name from state s, bounded by bounds when set:
// the new state, the value and its type.
func (b *body) draw(name string, s ir.Reg, bounds []ir.Reg) (state, v ir.Reg, t ir.Type) {
	switch {
	case name == "randf" && bounds != nil:
		state, v = rng.EmitRandfRange(b, s, bounds[0], bounds[1])
		return state, v, ir.F32
	case name == "randf":
		state, v = rng.EmitRandf(b, s)
		return state, v, ir.F32
	case name == "randi" && bounds != nil:
		state, v = rng.EmitRandiRange(b, s, bounds[0], bounds[1])
		return state, v, ir.I32
	case name == "randn":
		state, v = rng.EmitRandn(b, s)
		return state, v, ir.F32
	}
	state = rng.EmitPCG(b, s)
	if name == "randu" {
		return state, state, ir.U32
	}
	return state, b.Op(ir.OpConvert, ir.I32, state), ir.I32
}

// stateVar is the variable a draw advances: a local u32 (not an
// expression, whose advanced state would be lost).
func (b *body) stateVar(arg ast.Expr, name string) *kvar {
	id, ok := arg.(*ast.Ident)
	v := (*kvar)(nil)
	if ok {
		v = b.lookup(id.Name)
	}
	if v == nil || v.isArray {
		x := b.expr(arg)
		if x.mode != modeInvalid {
			b.errs.Add(arg.Start(), "the state argument of %s must be a local variable (it is advanced in place), not %s", name, exprString(arg))
		}
		return nil
	}
	if v.bad {
		return nil
	}
	if v.t != ir.U32 {
		b.errs.Add(arg.Start(), "the state argument of %s must be a u32 from rand_init, not %s %s", name, v.t, id.Name)
		return nil
	}
	return v
}

// randBounds checks and converts randf's or randi's lo and hi (f32 or
// i32); nil when there are none.
func (b *body) randBounds(e *ast.CallExpr, name string) ([]ir.Reg, bool) {
	if len(e.Args) == 1 {
		return nil, true
	}
	ops, ok := b.args(e.Args[1:])
	if !ok {
		return nil, false
	}
	t := ir.F32
	if name == "randi" {
		t = ir.I32
	}
	return b.convertAll(ops, t, "bound of "+name)
}

// randInit lowers rand_init(seed) and rand_init(seed, offset): ints of any
// type, taken as u32 (their low 32 bits, as Warp's uint32(seed)).
func (b *body) randInit(e *ast.CallExpr) operand {
	if len(e.Args) != 1 && len(e.Args) != 2 {
		b.errs.Add(e.Lparen, "rand_init expects 1 or 2 arguments (seed[, offset]), got %d", len(e.Args))
		return invalid()
	}
	ops, ok := b.args(e.Args)
	if !ok {
		return invalid()
	}
	regs := make([]ir.Reg, len(ops))
	for i, o := range ops {
		if regs[i], ok = b.u32Arg(o); !ok {
			return invalid()
		}
	}
	var state ir.Reg
	if len(regs) == 1 {
		state = rng.EmitPCG(b, regs[0])
	} else {
		state = rng.EmitInit(b, regs[0], regs[1])
	}
	return operand{mode: modeValue, t: ir.U32, reg: state, expr: e}
}

// u32Arg converts an int operand to u32, keeping its low 32 bits; an
// untyped constant may be any int that fits an i64.
func (b *body) u32Arg(o operand) (ir.Reg, bool) {
	if !typeOf(o).IsInt() || o.mode != modeConst && o.mode != modeValue {
		b.errs.Add(o.expr.Start(), "rand_init needs int arguments, got %s", o)
		return ir.NoReg, false
	}
	if o.untyped() {
		v, exact := constant.Int64Val(o.val)
		if !exact {
			b.errs.Add(o.expr.Start(), "rand_init argument %s overflows an i64", o)
			return ir.NoReg, false
		}
		return b.Const(ir.U32, uint64(uint32(v))), true
	}
	r := b.materialize(o)
	if o.t == ir.U32 {
		return r, true
	}
	return b.Op(ir.OpConvert, ir.U32, r), true
}
