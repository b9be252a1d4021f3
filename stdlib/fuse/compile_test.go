package fuse

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	_ "github.com/gscript-lang/gscript/runtime/cpu"
	"github.com/gscript-lang/gscript/runtime/mem"
)

func newArray(t *testing.T, dt ir.Type, shape ...int) *interp.Array {
	t.Helper()
	a, err := mem.NewTracker(nil).New(mem.HostAllocator{}, mem.CPUDevice, dt, shape)
	if err != nil {
		t.Fatal(err)
	}
	return &interp.Array{A: a}
}

// mustf makes a checker of (value, error) results that fails t.
func mustf(t *testing.T) func(interp.Value, error) interp.Value {
	return func(v interp.Value, err error) interp.Value {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// saxpy is a * x + y over fresh arrays.
func saxpy(t *testing.T, dt ir.Type, shape ...int) (*Expr, *mem.Array) {
	must := mustf(t)
	x, y := newArray(t, dt, shape...), newArray(t, dt, shape...)
	e := must(Binary(token.Add, must(Binary(token.Mul, interp.Float(2), x)), y)).(Value).E
	return e, newArray(t, e.t, e.shape...).A
}

// TestKernelsVerify compiles trees of every form and checks the IR.
func TestKernelsVerify(t *testing.T) {
	must := mustf(t)
	f := newArray(t, ir.F32, 2, 3)
	row := newArray(t, ir.F32, 3)
	i := newArray(t, ir.I32, 2, 3)
	b := newArray(t, ir.Bool, 2, 3)
	cases := map[string]interp.Value{
		"broadcast": must(Binary(token.Mul, f, row)),
		"promote":   must(Binary(token.Add, f, i)),
		"compare":   must(Binary(token.Lss, f, interp.Float(0.5))),
		"bits":      must(Binary(token.And, b, must(Binary(token.Gtr, i, interp.Int(1))))),
		"neg":       must(Unary(token.Sub, i)),
		"math":      must(Math("sqrt", i)),
		"pow":       must(Math("pow", f, interp.Int(2))),
		"minimum":   must(Extremum("minimum", f, row)),
		"clip":      must(Clip(i, interp.Int(0), interp.Int(9))),
		"where":     must(Where(b, f, interp.Int(0))),
		"astype":    must(AsType(f, ir.U8)),
		"typed":     must(Binary(token.Add, i, interp.Scalar{T: ir.I64, Bits: 3})),
	}
	for name, v := range cases {
		e := v.(Value).E
		out := newArray(t, e.t, e.shape...).A
		p := newPlan(e, out)
		if err := ir.Verify(p.kernel()); err != nil {
			t.Errorf("%s (%s): %v", name, p.key(), err)
		}
	}
}

// TestFlatForm: contiguous operands of the output's shape give the 1-D
// kernel over tid() (the backends' unit-stride and coarsened fast path);
// a broadcast operand gives the rank-D one.
func TestFlatForm(t *testing.T) {
	must := mustf(t)
	e, out := saxpy(t, ir.F32, 4, 5)
	if p := newPlan(e, out); !p.flat || p.kernel().Entry.Params[1].NDim != 1 {
		t.Errorf("saxpy is not flat: %s", p.key())
	}
	m, row := newArray(t, ir.F32, 4, 5), newArray(t, ir.F32, 5)
	b := must(Binary(token.Add, m, row)).(Value).E
	if p := newPlan(b, newArray(t, ir.F32, 4, 5).A); p.flat || p.kernel().TidDims != 2 {
		t.Errorf("a broadcast is flat: %s", p.key())
	}
}

// TestKeys: the key depends on the tree's shape, dtypes and form, not on
// the arrays, so a loop of one statement builds one kernel.
func TestKeys(t *testing.T) {
	must := mustf(t)
	e1, o1 := saxpy(t, ir.F32, 8)
	e2, o2 := saxpy(t, ir.F32, 1000)
	e3, o3 := saxpy(t, ir.F64, 8)
	k1, k2, k3 := newPlan(e1, o1).key(), newPlan(e2, o2).key(), newPlan(e3, o3).key()
	if k1 != k2 {
		t.Errorf("one statement, two keys: %s and %s", k1, k2)
	}
	if k1 == k3 {
		t.Errorf("f32 and f64 share the key %s", k1)
	}
	x := newArray(t, ir.F32, 8)
	same := must(Binary(token.Mul, x, x)).(Value).E
	other := must(Binary(token.Mul, x, newArray(t, ir.F32, 8))).(Value).E
	p := newPlan(same, o1)
	if len(p.arrays) != 1 || p.key() == newPlan(other, o1).key() {
		t.Errorf("x * x: %d array parameters, key %s", len(p.arrays), p.key())
	}
	if !strings.HasPrefix(k1, "gscript_fused_flat_f32=") {
		t.Errorf("key %s", k1)
	}
}

// TestCacheHit runs a loop of an array statement: the thread caches one
// kernel for it, whatever the iteration count.
func TestCacheHit(t *testing.T) {
	defer kernelsOnly()()
	must := mustf(t)
	in, err := interp.New(interp.Options{Device: "cpu", Predeclared: map[string]interp.Value{}})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := "array y: f32[64] = 0.0\narray x: f32[64] = 1.0\nlet i = 0\nwhile i < 50 { y += 0.5 * x; i += 1 }\n"
	if err := in.Exec(t.Context(), "loop.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	builds := 0
	e := must(Binary(token.Add, newArray(t, ir.F32, 64), must(Binary(token.Mul, interp.Float(0.5), newArray(t, ir.F32, 64))))).(Value).E
	key := newPlan(e, newArray(t, ir.F32, 64).A).key()
	interp.GeneratedKernel(key, func() (*ir.Kernel, error) { builds++; return nil, nil })
	if builds != 0 {
		t.Errorf("the loop's kernel %s was not cached", key)
	}
}
