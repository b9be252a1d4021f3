package rng

import (
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
)

// The sampling functions of rand.h: sample_triangle, sample_unit_ring ...
// sample_unit_hypercube, each a few randf draws and f32 math, returning
// a vec2, vec3 or vec4. Each is written once, over an abstract f32
// machine (machine), that the host runs on float32s rounded op by op
// (Sample) and an Emitter runs as IR (EmitSample), so that the reference
// and the kernel code cannot drift apart; the tests pin the reference to
// values transcribed independently from rand.h.
//
// Like randn, the samplers that call sin, cos, acos or pow are exact
// across backends only where those functions are: the host (and the cpu
// backend) rounds Go's f64 math to f32, CUDA's sinf, cosf, acosf and powf
// may differ in the last bit. sample_triangle (sqrt, correctly rounded
// everywhere), sample_unit_square, _cube and _hypercube are exact
// everywhere.

// A Sampler is one sampling function: its rand.h name and the number of
// lanes of the vector it returns (its draws are that many or fewer).
type Sampler struct {
	Name  string
	Lanes int
	fn    func(m machine) []val
}

// val is a value of a machine: a host float32 or an IR register.
type val struct {
	f float32
	r ir.Reg
}

// machine is the f32 arithmetic the samplers are written in: randf
// advances the state; op applies an f32 op, rounding its result to f32.
type machine interface {
	randf() val
	c(x float32) val
	op(op ir.Op, args ...val) val
}

// oneThird is rand.h's 1.f / 3.f, rounded to f32 as C does.
const oneThird = float32(1) / float32(3)

// Samplers lists rand.h's sampling functions, in its order.
var Samplers = []Sampler{
	{"sample_triangle", 2, sampleTriangle},
	{"sample_unit_ring", 2, sampleRing},
	{"sample_unit_disk", 2, sampleDisk},
	{"sample_unit_sphere_surface", 3, func(m machine) []val { return sampleSphere(m, true, false) }},
	{"sample_unit_sphere", 3, func(m machine) []val { return sampleSphere(m, true, true) }},
	{"sample_unit_hemisphere_surface", 3, func(m machine) []val { return sampleSphere(m, false, false) }},
	{"sample_unit_hemisphere", 3, func(m machine) []val { return sampleSphere(m, false, true) }},
	{"sample_unit_square", 2, func(m machine) []val { return sampleCube(m, 2) }},
	{"sample_unit_cube", 3, func(m machine) []val { return sampleCube(m, 3) }},
	{"sample_unit_hypercube", 4, func(m machine) []val { return sampleCube(m, 4) }},
}

// SamplerByName finds a sampler.
func SamplerByName(name string) (Sampler, bool) {
	for _, s := range Samplers {
		if s.Name == name {
			return s, true
		}
	}
	return Sampler{}, false
}

// Sample is the reference: it draws from state s (advancing it) and
// returns the lanes.
func (sp Sampler) Sample(s *uint32) []float32 {
	vs := sp.fn(hostMachine{s})
	out := make([]float32, len(vs))
	for i, v := range vs {
		out[i] = v.f
	}
	return out
}

// EmitSample emits the sampler on state register s: the new state and
// the f32 lane registers.
func (sp Sampler) EmitSample(e Emitter, s ir.Reg) (state ir.Reg, lanes []ir.Reg) {
	m := &irMachine{e: e, s: s}
	vs := sp.fn(m)
	lanes = make([]ir.Reg, len(vs))
	for i, v := range vs {
		lanes[i] = v.r
	}
	return m.s, lanes
}

// theta is randf(state, 0.f, 2.f * M_PI_F) = (2 pi - 0) * u + 0: 2 pi * u,
// as the subtraction and the addition of 0 are exact (u >= +0).
func theta(m machine) val { return m.op(ir.OpMul, m.c(twoPi), m.randf()) }

// sampleTriangle: r = sqrt(u1), barycentric (1 - r, u2 * r).
func sampleTriangle(m machine) []val {
	r := m.op(ir.OpSqrt, m.randf())
	u := m.op(ir.OpSub, m.c(1), r)
	v := m.op(ir.OpMul, m.randf(), r)
	return []val{u, v}
}

// sampleRing: (cos theta, sin theta).
func sampleRing(m machine) []val {
	t := theta(m)
	return []val{m.op(ir.OpCos, t), m.op(ir.OpSin, t)}
}

// sampleDisk: r = sqrt(u1), then (r cos theta, r sin theta).
func sampleDisk(m machine) []val {
	r := m.op(ir.OpSqrt, m.randf())
	t := theta(m)
	return []val{m.op(ir.OpMul, r, m.op(ir.OpCos, t)), m.op(ir.OpMul, r, m.op(ir.OpSin, t))}
}

// sampleSphere is the four sphere samplers: phi = acos(1 - 2 u1) over the
// whole sphere (acos(1 - u1) over the hemisphere z >= 0), theta, and for
// the solid ones a radius r = pow(u3, 1/3) multiplied in first:
// (r cos theta sin phi, r sin theta sin phi, r cos phi), left to right.
func sampleSphere(m machine, whole, solid bool) []val {
	u := m.randf()
	if whole {
		u = m.op(ir.OpMul, m.c(2), u)
	}
	phi := m.op(ir.OpAcos, m.op(ir.OpSub, m.c(1), u))
	t := theta(m)
	x, y, z := m.op(ir.OpCos, t), m.op(ir.OpSin, t), m.op(ir.OpCos, phi)
	if solid {
		r := m.op(ir.OpPow, m.randf(), m.c(oneThird))
		x, y, z = m.op(ir.OpMul, r, x), m.op(ir.OpMul, r, y), m.op(ir.OpMul, r, z)
	}
	sin := m.op(ir.OpSin, phi)
	return []val{m.op(ir.OpMul, x, sin), m.op(ir.OpMul, y, sin), z}
}

// sampleCube is sample_unit_square, _cube and _hypercube: n draws, each
// minus 0.5.
func sampleCube(m machine, n int) []val {
	out := make([]val, n)
	for i := range out {
		out[i] = m.op(ir.OpSub, m.randf(), m.c(0.5))
	}
	return out
}

// hostMachine runs a sampler on float32s through ir.Eval, each op
// rounded to f32 and the math functions Go's f64 ones rounded, as on the
// cpu backend.
type hostMachine struct{ s *uint32 }

func (h hostMachine) randf() val      { return val{f: Randf(h.s)} }
func (h hostMachine) c(x float32) val { return val{f: x} }

// op evaluates on a fixed array of operands, so that a draw allocates
// nothing per op. An error is a sampler written with an op or arity that
// f32 has not (TestSamplers runs every sampler), not an input's fault.
func (h hostMachine) op(op ir.Op, a ...val) val {
	var bits [3]uint64
	for i, v := range a {
		bits[i] = uint64(math.Float32bits(v.f))
	}
	r, err := ir.Eval(op, ir.F32, bits[:len(a)]...)
	if err != nil {
		panic("rng: " + err.Error())
	}
	return val{f: math.Float32frombits(uint32(r))}
}

// irMachine emits a sampler through e, threading the state register.
type irMachine struct {
	e Emitter
	s ir.Reg
}

func (m *irMachine) randf() val {
	var v ir.Reg
	m.s, v = EmitRandf(m.e, m.s)
	return val{r: v}
}

func (m *irMachine) c(x float32) val { return val{r: m.e.Const(ir.F32, float64(x))} }

func (m *irMachine) op(op ir.Op, a ...val) val {
	regs := make([]ir.Reg, len(a))
	for i, v := range a {
		regs[i] = v.r
	}
	return val{r: m.e.Op(op, ir.F32, regs...)}
}
