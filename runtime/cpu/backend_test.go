package cpu

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"

	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// The cpu registers itself as the cpu device's backend; its programs honour
// the caller's Env (print output, cancellation).
func TestBackendInterface(t *testing.T) {
	b, err := backend.For(mem.CPUDevice)
	if err != nil {
		t.Fatal(err)
	}
	// x[i] = i * 2; if i == 0 { print("hello {}", i) }
	kb := kernel("k", arr("x", ir.I32, 1))
	i := kb.tid(0)
	kb.store(0, i, kb.op(ir.OpMul, ir.I32, i, i32c(kb, 2)))
	kb.ifElse(kb.op(ir.OpEq, ir.Bool, i, i32c(kb, 0)), func() {
		kb.emit(&ir.Inst{Op: ir.OpPrint, Dst: ir.NoReg, Args: []ir.Reg{i}, Format: "hello {}\n"})
	}, nil)
	p, err := b.Compile(kb.k, mem.CPUDevice, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g := p.Geometry([]int{3000}); g.Block != lanes || g.Blocks != (3000+lanes-1)/lanes || g.PerThread != 1 {
		t.Errorf("Geometry = %+v", g)
	}
	xs := make([]int32, 3000)
	var out strings.Builder
	if err := p.Launch(&backend.Env{Out: &out}, []int{len(xs)}, []backend.Arg{slice(xs)}); err != nil {
		t.Fatal(err)
	}
	if xs[2999] != 5998 || out.String() != "hello 0\n" {
		t.Errorf("x[2999] = %d, output %q", xs[2999], out.String())
	}
	var stop atomic.Bool
	stop.Store(true)
	if err := p.Launch(&backend.Env{Cancel: &stop}, []int{len(xs)}, []backend.Arg{slice(xs)}); !errors.Is(err, backend.ErrCanceled) {
		t.Errorf("canceled launch: %v", err)
	}
}
