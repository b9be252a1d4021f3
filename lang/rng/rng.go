// Package rng is gscript's random number generator: Warp's (warp/native/
// rand.h), the PCG hash of Jarzynski and Olano ("Hash Functions for GPU
// Rendering", JCGT 9(3), 2020) on a u32 state, so that a seed gives the
// streams Warp gives. It holds the algorithm twice, in Go (the reference
// the tests pin) and as IR emitted into a kernel (the kernel builtins
// randf, randi, ... and the host builtins rand, randn, randint), and the
// two must agree bit for bit.
//
// randf and randi are integer ops and one exact int-to-float conversion
// and scaling, identical on every backend. randn also calls log, sqrt and
// cos: it is bit-identical across backends only where those functions are
// (the cpu backend rounds Go's f64 math to f32, CUDA's may differ in the
// last bit). sample.go adds rand.h's samplers (vectors), poisson.go its
// poisson.
package rng

import (
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
)

// The constants of rand.h.
const (
	pcgMul   = 747796405
	pcgInc   = 2891336453
	pcgMix   = 277803737
	fScale   = 1.0 / 16777216.0              // 2^-24: randf keeps the top 24 bits
	epsilon  = float32(5.96e-8)              // RANDN_EPSILON: keeps log's argument above 0
	twoPi    = float32(2) * float32(math.Pi) // 2.f * M_PI_F, folded as C folds it
	minusTwo = float32(-2)
)

// PCG is rand_pcg: one step of the hash.
func PCG(x uint32) uint32 {
	b := x*pcgMul + pcgInc
	c := ((b >> ((b >> 28) + 4)) ^ b) * pcgMix
	return (c >> 22) ^ c
}

// Init is rand_init(seed, offset): the state of stream offset of seed.
func Init(seed, offset uint32) uint32 { return PCG(seed + PCG(offset)) }

// Init1 is rand_init(seed).
func Init1(seed uint32) uint32 { return PCG(seed) }

// Randu advances the state and returns it: randi's and randu's draw.
func Randu(s *uint32) uint32 {
	*s = PCG(*s)
	return *s
}

// Randi is randi(state): the draw as an i32.
func Randi(s *uint32) int32 { return int32(Randu(s)) }

// RandiRange is randi(state, lo, hi): state % (hi - lo) + lo in u32
// arithmetic, as C converts Warp's int operands; hi > lo.
func RandiRange(s *uint32, lo, hi int32) int32 {
	return int32(Randu(s)%uint32(hi-lo) + uint32(lo))
}

// Randf is randf(state): the top 24 bits of the draw over 2^24, in [0, 1).
func Randf(s *uint32) float32 { return float32(Randu(s)>>8) * fScale }

// RandfRange is randf(state, lo, hi) = (hi - lo) * randf(state) + lo.
func RandfRange(s *uint32, lo, hi float32) float32 { return (hi-lo)*Randf(s) + lo }

// Randn is randn(state), Box-Muller: sqrt(-2 log(u1 + eps)) * cos(2 pi
// u2), u1 drawn first. Its f32 math is Go's f64 math rounded to f32, as
// on the cpu backend.
func Randn(s *uint32) float32 {
	u1 := Randf(s) + epsilon
	r := f32math(math.Sqrt, minusTwo*f32math(math.Log, u1))
	return r * f32math(math.Cos, twoPi*Randf(s))
}

func f32math(f func(float64) float64, x float32) float32 { return float32(f(float64(x))) }

// Emitter appends instructions to a kernel body: Op emits Dst = op(args)
// with Dst of type t; Const emits a constant of type t (imm as ir.Inst.Imm
// holds it).
type Emitter interface {
	Op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg
	Const(t ir.Type, imm any) ir.Reg
}

// EmitPCG emits PCG(x) for a u32 register x.
func EmitPCG(e Emitter, x ir.Reg) ir.Reg {
	u := func(v uint64) ir.Reg { return e.Const(ir.U32, v) }
	b := e.Op(ir.OpAdd, ir.U32, e.Op(ir.OpMul, ir.U32, x, u(pcgMul)), u(pcgInc))
	sh := e.Op(ir.OpAdd, ir.U32, e.Op(ir.OpShr, ir.U32, b, u(28)), u(4))
	c := e.Op(ir.OpMul, ir.U32, e.Op(ir.OpXor, ir.U32, e.Op(ir.OpShr, ir.U32, b, sh), b), u(pcgMix))
	return e.Op(ir.OpXor, ir.U32, e.Op(ir.OpShr, ir.U32, c, u(22)), c)
}

// EmitInit emits Init(seed, offset) for u32 registers.
func EmitInit(e Emitter, seed, offset ir.Reg) ir.Reg {
	return EmitPCG(e, e.Op(ir.OpAdd, ir.U32, seed, EmitPCG(e, offset)))
}

// EmitRandf emits Randf on state s: the new state and the f32 value.
func EmitRandf(e Emitter, s ir.Reg) (state, v ir.Reg) {
	state = EmitPCG(e, s)
	top := e.Op(ir.OpConvert, ir.F32, e.Op(ir.OpShr, ir.U32, state, e.Const(ir.U32, uint64(8))))
	return state, e.Op(ir.OpMul, ir.F32, top, e.Const(ir.F32, float64(fScale)))
}

// EmitRandfRange emits RandfRange with f32 registers lo and hi.
func EmitRandfRange(e Emitter, s, lo, hi ir.Reg) (state, v ir.Reg) {
	state, u := EmitRandf(e, s)
	return state, e.Op(ir.OpAdd, ir.F32, e.Op(ir.OpMul, ir.F32, e.Op(ir.OpSub, ir.F32, hi, lo), u), lo)
}

// EmitRandiRange emits RandiRange with i32 registers lo and hi: the new
// state and the i32 value.
func EmitRandiRange(e Emitter, s, lo, hi ir.Reg) (state, v ir.Reg) {
	state = EmitPCG(e, s)
	ulo := e.Op(ir.OpConvert, ir.U32, lo)
	width := e.Op(ir.OpSub, ir.U32, e.Op(ir.OpConvert, ir.U32, hi), ulo)
	r := e.Op(ir.OpAdd, ir.U32, e.Op(ir.OpRem, ir.U32, state, width), ulo)
	return state, e.Op(ir.OpConvert, ir.I32, r)
}

// EmitRandn emits Randn on state s: the new state and the f32 value.
func EmitRandn(e Emitter, s ir.Reg) (state, v ir.Reg) {
	f := func(x float32) ir.Reg { return e.Const(ir.F32, float64(x)) }
	state, u1 := EmitRandf(e, s)
	lg := e.Op(ir.OpLog, ir.F32, e.Op(ir.OpAdd, ir.F32, u1, f(epsilon)))
	r := e.Op(ir.OpSqrt, ir.F32, e.Op(ir.OpMul, ir.F32, f(minusTwo), lg))
	state, u2 := EmitRandf(e, state)
	return state, e.Op(ir.OpMul, ir.F32, r, e.Op(ir.OpCos, ir.F32, e.Op(ir.OpMul, ir.F32, f(twoPi), u2)))
}
