package cpu

import (
	le "encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// TestEvalMatchesCPU runs every irtest case of every value op (and every
// conversion) on this executor over edge and random inputs, and compares
// each lane with ir.Eval (ir.Convert) bit for bit, any NaN matching any
// NaN: ir.Eval is the oracle of the IR's scalar semantics, and the cpu's
// generated lane loops must agree with it.
func TestEvalMatchesCPU(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 1))
	n := 0
	for _, op := range ir.Ops() {
		if info, _ := op.Info(); !info.IsValue() {
			continue
		}
		for _, c := range irtest.Cases(op) {
			p, err := Compile(c.Kernel, backend.Options{})
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			for range 8 {
				if !evalRound(t, r, c, p) {
					break
				}
			}
			n++
		}
	}
	if n < 200 {
		t.Errorf("only %d value-op cases", n)
	}
}

// evalRound launches c's kernel once on fresh inputs and compares; false
// after a mismatch (reported).
func evalRound(t *testing.T, r *rand.Rand, c irtest.Case, p *Program) bool {
	t.Helper()
	params := c.Kernel.Entry.Params
	lanes := irtest.BlockShape[0]
	in := make([][]uint64, len(params)-1) // every parameter but out, the last
	bufs := make([][]byte, len(params))
	args := make([]Arg, len(params))
	for k, prm := range params {
		bufs[k] = make([]byte, lanes*prm.Elem.Size())
		if k < len(in) {
			in[k] = make([]uint64, lanes)
			for i := range in[k] {
				in[k][i] = irtest.Operand(r, c.Op, k, prm.Elem)
				putLane(bufs[k], prm.Elem, i, in[k][i])
			}
		}
		args[k] = slice(bufs[k], lanes)
	}
	if err := p.Launch([]int{lanes}, args, Options{}); err != nil {
		t.Errorf("%s: %v", c, err)
		return false
	}
	rt := params[len(params)-1].Elem
	ops := make([]uint64, len(in))
	for i := range lanes {
		for k := range in {
			ops[k] = in[k][i]
		}
		want, err := irtest.Want(c, rt, ops)
		if err != nil {
			t.Errorf("%s: ir.Eval: %v", c, err)
			return false
		}
		if got := getLane(bufs[len(params)-1], rt, i); !irtest.SameBits(rt, got, want) {
			t.Errorf("%s on %#x: cpu %#x, ir.Eval %#x", c, ops, got, want)
			return false
		}
	}
	return true
}

func putLane(b []byte, t ir.Type, i int, v uint64) {
	switch t.Size() {
	case 1:
		b[i] = byte(v)
	case 4:
		le.LittleEndian.PutUint32(b[4*i:], uint32(v))
	default:
		le.LittleEndian.PutUint64(b[8*i:], v)
	}
}

func getLane(b []byte, t ir.Type, i int) uint64 {
	switch t.Size() {
	case 1:
		return uint64(b[i])
	case 4:
		return uint64(le.LittleEndian.Uint32(b[4*i:]))
	}
	return le.LittleEndian.Uint64(b[8*i:])
}

// TestEvalDivZeroMatchesCPU: where ir.Eval refuses a zero divisor, the
// cpu fails the launch.
func TestEvalDivZeroMatchesCPU(t *testing.T) {
	for _, op := range []ir.Op{ir.OpDiv, ir.OpRem} {
		for _, c := range irtest.Cases(op) {
			if !c.T.IsInt() {
				continue
			}
			if _, err := ir.Eval(op, c.T, 1, 0); err != ir.ErrDivZero {
				t.Errorf("%s: ir.Eval by zero: %v", c, err)
			}
			p, err := Compile(c.Kernel, backend.Options{})
			if err != nil {
				t.Fatal(err)
			}
			args := make([]Arg, len(c.Kernel.Entry.Params))
			for k, prm := range c.Kernel.Entry.Params {
				args[k] = slice(make([]byte, 64*prm.Elem.Size()), 64) // all zero
			}
			if err := p.Launch([]int{64}, args, Options{}); err == nil {
				t.Errorf("%s: the cpu divides by zero without an error", c)
			}
		}
	}
}
