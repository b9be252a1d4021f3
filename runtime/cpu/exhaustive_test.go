package cpu

import (
	"math"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// TestEveryOp compiles a kernel for every op of the table at every operand
// type its row allows: an op added to the table fails here until this
// executor implements it.
func TestEveryOp(t *testing.T) {
	for _, op := range ir.Ops() {
		for _, c := range irtest.Cases(op) {
			if _, err := Compile(c.Kernel, backend.Options{}); err != nil {
				t.Errorf("%s: %v", c, err)
			}
		}
	}
}

// TestEveryOpRuns launches every case of TestEveryOp over 64 threads (one
// block of a block kernel) with every input element 1: no op at any type
// or space meets an internal error.
func TestEveryOpRuns(t *testing.T) {
	for _, op := range ir.Ops() {
		for _, c := range irtest.Cases(op) {
			p, err := Compile(c.Kernel, backend.Options{})
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			var args []Arg
			for i, prm := range c.Kernel.Entry.Params {
				args = append(args, ones(prm, c.Shape(i)))
			}
			dims := []int{64}
			if c.Kernel.IsBlock() {
				dims = []int{1}
			}
			if err := p.Launch(dims, args, Options{}); err != nil {
				t.Errorf("%s: %v", c, err)
			}
		}
	}
}

// ones is an argument for prm: a C-order array of shape, or a scalar,
// holding 1 in prm's type.
func ones(prm ir.Param, shape []int) Arg {
	bits := uint64(1)
	switch prm.Elem {
	case ir.F32:
		bits = uint64(math.Float32bits(1))
	case ir.F64:
		bits = math.Float64bits(1)
	}
	if !prm.IsArray() {
		return Arg{Bits: bits}
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	size := prm.Elem.Size()
	data := make([]byte, n*size)
	for k := range n {
		for j := range size {
			data[k*size+j] = byte(bits >> (8 * j)) // little-endian, as the hosts
		}
	}
	return slice(data, shape...) // strides count elements of prm.Elem
}

// TestCompileVerifies: malformed IR is refused by ir.Verify, with its
// message naming the func and instruction.
func TestCompileVerifies(t *testing.T) {
	k := irtest.Cases(ir.OpAdd)[0].Kernel
	in := k.Entry.Body[len(k.Entry.Body)-2].(*ir.Inst) // the add
	in.Args = in.Args[:1]
	_, err := Compile(k, backend.Options{})
	if err == nil || !strings.Contains(err.Error(), "ir: func k: instruction") || !strings.Contains(err.Error(), "(add): has 1 operands, want 2") {
		t.Errorf("Compile = %v", err)
	}
}
