package linalg_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cpu"
)

// combo is one operation at argument types that linalg accepts.
type combo struct {
	name   string // as apply and eval take it
	target dtype.Type
	ts     []dtype.Type
}

// combos enumerates every operator and builtin at every accepted
// combination of argument types, and constructors at typical argument
// lists.
func combos() []combo {
	pool := append(dtype.Compounds(), dtype.Of(ir.F32), dtype.Of(ir.F64), dtype.Of(ir.I32))
	ok := func(c combo) bool {
		_, _, err := run(&linalg.Host{}, c, zeroArgs(c.ts))
		return err == nil
	}
	var out []combo
	add := func(c combo) {
		if ok(c) {
			out = append(out, c)
		}
	}
	for _, op := range []string{"op+", "op-", "op*", "op/", "op==", "op!="} {
		for _, a := range pool {
			for _, b := range pool {
				add(combo{name: op, ts: []dtype.Type{a, b}})
			}
		}
	}
	for _, a := range pool {
		add(combo{name: "neg", ts: []dtype.Type{a}})
	}
	for _, f := range linalg.Names() {
		for _, ts := range tuples(pool, f.Arity) {
			add(combo{name: f.Name, ts: ts})
		}
	}
	for _, t := range dtype.Compounds() {
		for _, ts := range constructorArgs(t) {
			add(combo{name: "new", target: t, ts: ts})
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

// run applies c through any Ops.
func run[R any](o linalg.Ops[R], c combo, args [][]R) (dtype.Type, []R, error) {
	switch {
	case c.name == "neg":
		return linalg.Unary(o, "-", c.ts[0], args[0])
	case c.name == "new":
		out, err := linalg.Construct(o, c.target, c.ts, args)
		return c.target, out, err
	case strings.HasPrefix(c.name, "op"):
		return linalg.Binary(o, c.name[2:], c.ts[0], c.ts[1], args[0], args[1])
	}
	return linalg.Call(o, c.name, c.ts, args)
}

// kernel builds c as a one-thread kernel: a scalar parameter per input
// lane, the result's lanes stored to the array parameter out.
func kernel(t *testing.T, c combo) (*cpu.Program, dtype.Type) {
	f := &ir.Func{Name: "k"}
	for _, u := range c.ts {
		for range u.Lanes() {
			f.Params = append(f.Params, ir.Param{Name: "p", Elem: u.Elem})
		}
	}
	b := ir.NewBuilder(f)
	args := make([][]ir.Reg, len(c.ts))
	p := 0
	for i, u := range c.ts {
		for range u.Lanes() {
			args[i] = append(args[i], b.Param(p))
			p++
		}
	}
	rt, out, err := run[ir.Reg](linalg.Builder{B: b}, c, args)
	if err != nil {
		t.Fatal(err)
	}
	f.Params = append(f.Params, ir.Param{Name: "out", Elem: rt.Elem, NDim: 1})
	for k, r := range out {
		b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: p, Args: []ir.Reg{b.Const(ir.I32, int64(k)), r}})
	}
	prog, err := cpu.Compile(&ir.Kernel{Entry: f}, backend.Options{})
	if err != nil {
		t.Fatalf("%v %v: %v", c.name, c.ts, err)
	}
	return prog, rt
}

// specials are the float inputs drawn besides random ones.
var specials = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2, 3, 1e-40, 1e30, -1e30, math.Inf(1), math.Inf(-1), math.NaN()}

func input(r *rand.Rand, e ir.Type) uint64 {
	var x float64
	switch k := r.IntN(4); {
	case k == 0:
		x = specials[r.IntN(len(specials))]
	case e == ir.I32:
		x = float64(r.IntN(21) - 10)
	default:
		x = r.NormFloat64() * 4
	}
	return ir.FromFloat(x, e)
}

// The host (Host) and a cpu kernel (Builder) give the same bits for
// every operation at every accepted type, on random and special inputs.
func TestHostMatchesCPU(t *testing.T) {
	cs := combos()
	t.Logf("%d combinations", len(cs))
	if len(cs) < 300 {
		t.Fatalf("only %d combinations", len(cs))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cs {
		prog, rt := kernel(t, c)
		for range 12 {
			check(t, r, c, prog, rt)
		}
	}
}

func check(t *testing.T, r *rand.Rand, c combo, prog *cpu.Program, rt dtype.Type) {
	t.Helper()
	args := make([][]uint64, len(c.ts))
	var launch []cpu.Arg
	for i, u := range c.ts {
		for range u.Lanes() {
			x := input(r, u.Elem)
			args[i] = append(args[i], x)
			if u.Elem == ir.I32 {
				x = uint64(int64(int32(x))) // launch arguments sign-extend
			}
			launch = append(launch, cpu.Arg{Bits: x})
		}
	}
	h := &linalg.Host{}
	_, want, _ := run[uint64](h, c, args)
	if h.Err != nil {
		return // an integer division by zero: the kernel fails too
	}
	buf := make([]uint64, len(want))
	launch = append(launch, cpu.Arg{Array: cpu.ArrayArg{Data: uintptr(unsafe.Pointer(&buf[0])), Shape: [4]int{len(buf)}, Strides: [4]int{1}}})
	if err := prog.Launch([]int{1}, launch, cpu.Options{}); err != nil {
		t.Fatalf("%s %v: %v", c.name, c.ts, err)
	}
	for k, w := range want {
		if got := lane(buf, rt.Elem, k); got != w {
			t.Errorf("%s %v %v (of %#x): lane %d is %#x on the cpu, %#x on the host", c.name, c.target, c.ts, args, k, got, w)
			return
		}
	}
}

// lane reads element k of an out array of type e held in buf.
func lane(buf []uint64, e ir.Type, k int) uint64 {
	p := unsafe.Pointer(&buf[0])
	switch e.Size() {
	case 1:
		return uint64(unsafe.Slice((*uint8)(p), len(buf))[k])
	case 4:
		return uint64(unsafe.Slice((*uint32)(p), len(buf))[k])
	}
	return buf[k]
}
