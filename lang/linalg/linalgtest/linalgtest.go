// Package linalgtest enumerates every operation of lang/linalg at every
// argument type it accepts, and builds each as kernel IR, for the tests
// that run them on a backend and compare with ir.Host: lang/linalg's
// cpu test and runtime/cuda/kernel's GPU test share this one enumeration.
package linalgtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg"
	"github.com/gscript-lang/gscript/lang/token"
)

// Combo is one operation at argument types that linalg accepts.
type Combo struct {
	// Name is "op+" ... "op!=" for the binary operators, "neg" for unary
	// minus, "new" for a constructor of Target, else a builtin's name.
	Name   string
	Target dtype.Type // the constructed type of "new"
	Ts     []dtype.Type
}

func (c Combo) String() string {
	if c.Name == "new" {
		return fmt.Sprintf("%s%v", c.Target, c.Ts)
	}
	return fmt.Sprintf("%s%v", c.Name, c.Ts)
}

// Combos enumerates every operator and builtin at every accepted
// combination of argument types, and constructors at typical argument
// lists (accepted: Run on ir.Host succeeds on zero arguments).
func Combos() []Combo {
	pool := append(dtype.Compounds(), dtype.Of(ir.F32), dtype.Of(ir.F64), dtype.Of(ir.I32))
	var out []Combo
	add := func(c Combo) {
		if _, _, err := Run(&ir.Host{}, c, zeroArgs(c.Ts)); err == nil {
			out = append(out, c)
		}
	}
	for _, op := range []string{"op+", "op-", "op*", "op/", "op==", "op!="} {
		for _, a := range pool {
			for _, b := range pool {
				add(Combo{Name: op, Ts: []dtype.Type{a, b}})
			}
		}
	}
	for _, a := range pool {
		add(Combo{Name: "neg", Ts: []dtype.Type{a}})
	}
	for _, f := range linalg.Names() {
		for _, ts := range tuples(pool, f.Arity) {
			add(Combo{Name: f.Name, Ts: ts})
		}
	}
	for _, t := range dtype.Compounds() {
		for _, ts := range constructorArgs(t) {
			add(Combo{Name: "new", Target: t, Ts: ts})
		}
	}
	return out
}

// tuples are every n-tuple of pool (n <= 3).
func tuples(pool []dtype.Type, n int) [][]dtype.Type {
	if n == 0 {
		return [][]dtype.Type{nil}
	}
	var out [][]dtype.Type
	for _, rest := range tuples(pool, n-1) {
		for _, t := range pool {
			out = append(out, append([]dtype.Type{t}, rest...))
		}
	}
	return out
}

func constructorArgs(t dtype.Type) [][]dtype.Type {
	rep := func(n int, u dtype.Type) []dtype.Type {
		ts := make([]dtype.Type, n)
		for i := range ts {
			ts[i] = u
		}
		return ts
	}
	e := dtype.Of(t.Elem)
	out := [][]dtype.Type{nil, {e}, {dtype.Of(ir.I32)}, rep(t.Lanes(), e), rep(t.Lanes(), dtype.Of(ir.F64)), rep(t.N, vecT(t.Elem, t.M)),
		{vecT(t.Elem, 3), e}}
	for _, o := range []ir.Type{ir.F32, ir.F64, ir.I32} {
		if u, ok := t.WithElem(o); ok {
			out = append(out, []dtype.Type{u})
		}
	}
	return out
}

func vecT(e ir.Type, n int) dtype.Type { return dtype.Type{Kind: dtype.Vec, Elem: e, N: n} }

func zeroArgs(ts []dtype.Type) [][]uint64 {
	out := make([][]uint64, len(ts))
	for i, t := range ts {
		out[i] = make([]uint64, t.Lanes())
	}
	return out
}

// Run applies c through any ir.Machine: args holds the lanes of each argument;
// the result's type and lanes come back.
func Run[R any](o ir.Machine[R], c Combo, args [][]R) (dtype.Type, []R, error) {
	switch {
	case c.Name == "neg":
		return linalg.Unary(o, token.Sub, c.Ts[0], args[0])
	case c.Name == "new":
		out, err := linalg.Construct(o, c.Target, c.Ts, args)
		return c.Target, out, err
	case strings.HasPrefix(c.Name, "op"):
		return linalg.Binary(o, token.Lookup(c.Name[2:]), c.Ts[0], c.Ts[1], args[0], args[1])
	}
	return linalg.Call(o, c.Name, c.Ts, args)
}

// Emit appends c's IR to b (ir.Emit) over the argument lanes args.
func Emit(b *ir.Builder, c Combo, args [][]ir.Reg) (dtype.Type, []ir.Reg, error) {
	rt, out, err := Run[ir.Reg](ir.Emit{B: b}, c, args)
	if err != nil {
		return rt, out, fmt.Errorf("%s: %w", c, err)
	}
	return rt, out, nil
}

// Kernel builds c as a one-thread kernel: a scalar parameter per input
// lane, the result's lanes stored to the array parameter out (the last).
func Kernel(c Combo) (*ir.Kernel, dtype.Type, error) {
	f := &ir.Func{Name: "k"}
	for _, u := range c.Ts {
		for range u.Lanes() {
			f.Params = append(f.Params, ir.Param{Name: "p", Elem: u.Elem})
		}
	}
	b := ir.NewBuilder(f)
	args := make([][]ir.Reg, len(c.Ts))
	p := 0
	for i, u := range c.Ts {
		for range u.Lanes() {
			args[i] = append(args[i], b.Param(p))
			p++
		}
	}
	rt, out, err := Emit(b, c, args)
	if err != nil {
		return nil, rt, err
	}
	f.Params = append(f.Params, ir.Param{Name: "out", Elem: rt.Elem, NDim: 1})
	for k, r := range out {
		b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: p, Args: []ir.Reg{b.Const(ir.I32, int64(k)), r}})
	}
	return &ir.Kernel{Entry: f}, rt, nil
}

// Specials are the float inputs drawn besides random ones.
var Specials = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2, 3, 1e-40, 1e30, -1e30, math.Inf(1), math.Inf(-1), math.NaN()}

// Input draws one input lane of type e, as ir.Host's bits: a special a
// quarter of the time, else an integer in [-10, 10] for i32 and a normal
// deviate times 4 for floats.
func Input(r *rand.Rand, e ir.Type) uint64 {
	var x float64
	switch k := r.IntN(4); {
	case k == 0:
		x = Specials[r.IntN(len(Specials))]
	case e == ir.I32:
		x = float64(r.IntN(21) - 10)
	default:
		x = r.NormFloat64() * 4
	}
	return ir.FromFloat(x, e)
}

// Inputs draws the lanes of every argument of c, argument by argument.
func Inputs(r *rand.Rand, c Combo) [][]uint64 {
	args := make([][]uint64, len(c.Ts))
	for i, u := range c.Ts {
		for range u.Lanes() {
			args[i] = append(args[i], Input(r, u.Elem))
		}
	}
	return args
}

// Want is c on args evaluated by ir.Host; ok is false when Host
// fails (an integer division by zero, where a kernel fails or, on the
// GPU, gives an unspecified value).
func Want(c Combo, args [][]uint64) (rt dtype.Type, want []uint64, ok bool) {
	h := &ir.Host{}
	rt, want, err := Run[uint64](h, c, args)
	return rt, want, err == nil && h.Err == nil
}
