package interp_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// tapeKernels are recorded launches whose adjoints (lang/ad) cover
// loops, branches, vectors, gathers and atomics; x and w require
// gradients, loss is the one output.
const tapeKernels = `
kernel spring(x: array[vec3d], w: array[f64], y: array[vec3d], n: i32) {
    let i = tid()
    let p = x[i]
    let v = vec3d(0.0)
    for k in range(n) {
        let d = x[(i + k + 1) % len(x)] - p
        if length(d) > 0.5 {
            v += d * (w[i] * f64(k))
        } else {
            v -= d * sin(w[i])
        }
    }
    y[i] = p + v
}
kernel energy(y: array[vec3d], loss: array[f64]) {
    let i = tid()
    atomic_add(loss, 0, dot(y[i], y[i]) * 0.5)
}
kernel init(x: array[vec3d], w: array[f64]) {
    let i = tid()
    let r = rand_init(7, i)
    x[i] = vec3d(f64(randf(r)), f64(randf(r)), f64(randf(r)))
    w[i] = f64(randf(r)) - 0.5
}
array x: vec3d[64]
array w: f64[64]
launch init[64](x, w)
requires_grad(x)
requires_grad(w)
array y: vec3d[64]
array loss: f64[1]
`

// TestTapeCUDAMatchesCPU: the gradients of a recorded spring step are
// the same on cuda:0 as on the cpu (atomics in the adjoint of the gathered
// x: equal to rounding, not bits).
func TestTapeCUDAMatchesCPU(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	grads := map[string][][]float64{}
	for _, dev := range []string{"cpu", "cuda:0"} {
		in, tp, err := tapeInterpOn(t, dev, tapeKernels, "launch spring[64](x, w, y, 9)\nlaunch energy[64](y, loss)")
		if err != nil {
			t.Fatal(err)
		}
		loss := globalArray(t, in, "loss")
		if err := in.Backward(tp, interp.Seed{Out: loss.A, Grad: interp.Int(1)}); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"x", "w"} {
			grads[dev] = append(grads[dev], f64s(t, globalArray(t, in, name).Grad()))
		}
	}
	for k, c := range grads["cpu"] {
		g := grads["cuda:0"][k]
		for i := range c {
			if math.Abs(c[i]-g[i]) > 1e-12*(1+math.Abs(c[i])) {
				t.Fatalf("gradient %d[%d]: cpu %v, cuda %v", k, i, c[i], g[i])
			}
		}
	}
}

// TestTapeCapture: a tape's forward and backward recorded inside a
// capture block replay as one graph, adding the same gradient into the
// leaves as an uncaptured step.
func TestTapeCapture(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	step := `
fn step() {
    loss[:] = 0.0
    tape t {
        launch spring[64](x, w, y, 9)
        launch energy[64](y, loss)
    }
    backward(t, loss)
}
step()
let once = array(w.grad)
let err = nil
allocator mempool {
    capture g {
        step()
    }
    replay(g, 3)
    synchronize()
    err = max(abs(w.grad - 4.0 * once)) / max(abs(once))
}
`
	in, _, err := tapeInterpOn(t, "cuda:0", tapeKernels+step, "")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := in.Global("err")
	if f, err := strconv.ParseFloat(v.String(), 64); err != nil || f > 1e-12 {
		t.Fatalf("after a step and 3 replays w.grad is off 4x the step's by %v", v)
	}
}
