package kernel

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// evalShim completes hostShim with the CUDA functions that value ops use
// and host C++ has under other names. sqrt is correctly rounded in both.
const evalShim = `
static float __fsqrt_rn(float x) { return sqrtf(x); }
static double __dsqrt_rn(double x) { return sqrt(x); }
`

// hostInexact are the math functions whose host libm result may differ
// from Go's f64 function rounded (ir.Eval) in the last bit, as CUDA's
// do: their rounding is not part of the IR's contract (doc.go, "Scalar
// semantics"), so the host comparison leaves them out.
var hostInexact = map[ir.Op]bool{
	ir.OpSin: true, ir.OpCos: true, ir.OpTan: true, ir.OpAsin: true, ir.OpAcos: true, ir.OpAtan: true,
	ir.OpSinh: true, ir.OpCosh: true, ir.OpTanh: true, ir.OpExp: true, ir.OpExp2: true, ir.OpLog: true,
	ir.OpLog2: true, ir.OpLog10: true, ir.OpAtan2: true, ir.OpPow: true,
}

// TestEvalOnHost compiles codegen's C for every irtest case of every
// value op (and every conversion) with g++ against hostShim, runs each on
// edge and random inputs and compares every lane with ir.Eval (ir.Convert)
// bit for bit, any NaN matching any NaN: the generated C computes the IR's
// scalar semantics wherever they do not rest on CUDA's libm.
func TestEvalOnHost(t *testing.T) {
	cxx := hostCXX(t, "compiles and runs about 230 kernels on the host")
	var cases []gpuCase
	for _, op := range ir.Ops() {
		if info, _ := op.Info(); !info.IsValue() || hostInexact[op] {
			continue
		}
		for i, c := range irtest.Cases(op) {
			cases = append(cases, evalCase(c, uint64(len(cases)*100+i)))
		}
	}
	exes := compileHostParts(t, cxx, "eval", "-O1", len(cases), func(ids []int) (string, error) {
		src, err := hostSource(cases, ids)
		return strings.Replace(src, hostShim, hostShim+evalShim, 1), err
	})
	if exes == nil {
		return
	}
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range 4 {
		wg.Go(func() {
			for i := range jobs {
				if _, msg := cases[i].run(&hostDev{t: t, exe: exes[i%hostParts], i: i, dir: t.TempDir()}); msg != "" {
					t.Errorf("%s: %s", cases[i].name, msg)
				}
			}
		})
	}
	for i := range cases {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	t.Logf("%d value-op kernels run on the host", len(cases))
}

// evalLanes is the threads of one evalCase launch: one block.
const evalLanes = 256

// evalCase runs irtest case c as a block kernel of one block (so that the
// generated entry takes only the kernel's parameters, as hostSource
// passes them) on inputs drawn with seed.
func evalCase(c irtest.Case, seed uint64) gpuCase {
	k := *c.Kernel
	k.Block = []int{evalLanes}
	params := k.Entry.Params
	return gpuCase{name: c.String(), k: &k, run: func(d device) (int, string) {
		r := rand.New(rand.NewPCG(seed, 24))
		in := make([][]uint64, len(params)-1) // every parameter but out, the last
		var args []backend.Arg
		for j := range in {
			in[j] = make([]uint64, evalLanes)
			for i := range in[j] {
				in[j][i] = irtest.Operand(r, c.Op, j, params[j].Elem)
			}
			args = append(args, d.upload(params[j].Elem, in[j]))
		}
		rt := params[len(params)-1].Elem
		out := d.zeros(rt, evalLanes)
		d.launch([]int{1}, append(args, out))
		got := d.download(rt, out, evalLanes)
		want := make([]uint64, evalLanes)
		ops := make([]uint64, len(in))
		for i := range want {
			for j := range in {
				ops[j] = in[j][i]
			}
			w, err := irtest.Want(c, rt, ops)
			if err != nil {
				return 0, err.Error()
			}
			want[i] = w
			if irtest.SameBits(rt, got[i], w) { // any NaN for any NaN
				got[i] = w
			}
		}
		n, msg := compare(rt, got, want)
		if msg != "" {
			msg = fmt.Sprintf("%s (inputs of the first lane that differs: %s)", msg, firstDiff(got, want, in))
		}
		return n, msg
	}}
}

func firstDiff(got, want []uint64, in [][]uint64) string {
	for i := range want {
		if got[i] != want[i] {
			var s []string
			for j := range in {
				s = append(s, fmt.Sprintf("%#x", in[j][i]))
			}
			return strings.Join(s, ", ")
		}
	}
	return ""
}
