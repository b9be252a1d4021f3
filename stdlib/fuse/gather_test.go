package fuse

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// verifyBoth verifies k and builds it for both backends (CUDA C only
// generated here: the GPU conformance run compiles and runs it).
func verifyBoth(t *testing.T, name string, k *ir.Kernel) {
	t.Helper()
	if err := ir.Verify(k); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	if _, err := codegen.Source(k, codegen.Options{}); err != nil {
		t.Errorf("%s: codegen: %v", name, err)
	}
	if _, err := backend.Compile(k, mem.CPUDevice, backend.Options{}); err != nil {
		t.Errorf("%s: cpu: %v", name, err)
	}
}

// TestIndexKernelsIR: the kernels of gathers (alone, fused, broadcast,
// along an inner axis), of the scatter's check and of its writes and
// atomic adds are valid IR on both backends, for the index dtypes.
func TestIndexKernelsIR(t *testing.T) {
	must := mustf(t)
	for _, it := range []ir.Type{ir.I32, ir.I64, ir.U8, ir.U64} {
		src := newArray(t, ir.F32, 5, 3).A
		ix := newArray(t, it, 4).A
		col := newArray(t, ir.F32, 2, 1, 1)
		g0 := must(Gather(src, ix, 0))
		g1 := must(Gather(src, ix, 1))
		cases := map[string]interp.Value{
			"gather":    g0,
			"fused":     must(Binary(token.Add, must(Binary(token.Mul, g0, interp.Float(2))), interp.Float(1))),
			"broadcast": must(Binary(token.Mul, g0, col)),
			"axis1":     g1,
			"two":       must(Binary(token.Sub, g0, must(Gather(src, ix, 0)))),
		}
		for name, v := range cases {
			e := v.(Value).E
			out := newArray(t, e.t, e.shape...).A
			verifyBoth(t, it.String()+" "+name, newPlan(e, out).kernel())
		}
		for _, pass := range []checkPass{passCheck, passReset, passElect} {
			verifyBoth(t, it.String()+" check", checkKernel(it, 2, pass))
		}
		for _, add := range []bool{false, true} {
			e := must(Binary(token.Mul, g0, interp.Float(0.5))).(Value).E
			p := newPlanOf(e)
			p.rank, p.out = 2, ir.F32
			p.collect(e, []int{4, 3})
			verifyBoth(t, it.String()+" scatter", scatterKernel(p, ir.F32, 2, it, 1, add))
		}
	}
}

// TestGatherFuses: take(a, idx) * 2.0 + b is one kernel whose parameters
// are the output, b, then a, idx, a's extent and the error slot: the
// gathered values never reach memory.
func TestGatherFuses(t *testing.T) {
	must := mustf(t)
	a, idx, b := newArray(t, ir.F32, 10).A, newArray(t, ir.I64, 4).A, newArray(t, ir.F32, 4)
	e := must(Binary(token.Add, must(Binary(token.Mul, must(Gather(a, idx, 0)), interp.Float(2))), b)).(Value).E
	p := newPlan(e, newArray(t, ir.F32, 4).A)
	var names []string
	for _, prm := range p.kernel().Entry.Params {
		names = append(names, prm.Name)
	}
	if got := strings.Join(names, " "); got != "out x0 s0 g0 gi0 gn0 gerr" || p.arrays[0] != b.A || p.gathers[0].gat.src != a {
		t.Errorf("params %s, plan %s", got, p.key())
	}
}
