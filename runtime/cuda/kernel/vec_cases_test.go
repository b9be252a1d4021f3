package kernel

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cpu"
)

// vecSource are kernels over compound arrays whose lane runs the Vector
// build turns into vector accesses (codegen's vec.go), and one (v3) whose
// runs stay scalar.
const vecSource = `
kernel v4(a: array[vec4], out: array[vec4]) {
    let i = tid()
    out[i] = a[i] * 2.0 + a[(i + 1) % len(a)]
}
kernel v2(a: array[vec2], out: array[vec2]) {
    let i = tid()
    out[i] = a[i] - a[len(a) - 1 - i]
}
kernel v4i(a: array[vec4i], out: array[vec4i]) {
    let i = tid()
    out[i] = a[i] + a[(i + 3) % len(a)]
}
kernel v2i(a: array[vec2i], out: array[vec2i]) {
    let i = tid()
    out[i] = a[i] * a[(i + 3) % len(a)]
}
kernel v2d(a: array[vec2d], out: array[vec2d]) {
    let i = tid()
    out[i] = a[i] * a[(i + 1) % len(a)]
}
kernel v4d(a: array[vec4d], out: array[vec4d]) {
    let i = tid()
    out[i] = a[i] + a[(i + 7) % len(a)] * 0.5
}
kernel v3(a: array[vec3], out: array[vec3]) {
    let i = tid()
    out[i] = a[i] + a[(i + 1) % len(a)]
}
kernel m22(a: array[mat22], out: array[mat22]) {
    let i = tid()
    out[i] = a[i] * a[(i + 1) % len(a)]
}
kernel m44(a: array[mat44], out: array[mat44]) {
    let i = tid()
    out[i] = a[i] * a[(i + 1) % len(a)]
}
kernel q(a: array[quat], out: array[quat]) {
    let i = tid()
    out[i] = a[i] * a[(i + 5) % len(a)]
}
func fetch(a: array[vec4], i: i32) -> vec4 {
    return a[i]
}
kernel viafunc(a: array[vec4], out: array[vec4]) {
    let i = tid()
    out[i] = fetch(a, i) + fetch(a, len(a) - 1 - i)
}
kernel grid2(a: array[vec4, 2], out: array[vec4, 2]) {
    let i, j = tid()
    out[i, j] = a[i, j] + a[j, i]
}
kernel pairs(a: array[f32, 2], out: array[f32, 2]) {
    let i = tid()
    out[i, 0] = a[i, 0] + a[i, 1]
    out[i, 1] = a[i, 0] * a[i, 1]
}
kernel reduce4(a: array[vec4], out: array[f64]) block(64) {
    let t = thread_id()
    let i = t
    let s0: f64 = 0.0
    let s1: f64 = 0.0
    while i < len(a) {
        let v = a[i]
        s0 += f64(v.x) + f64(v.z)
        s1 += f64(v.y) * f64(v.w)
        i += 64
    }
    let s = block_sum(s0 + s1)
    if t == 0 {
        out[0] = s
    }
}
`

// vecCase is one kernel of vecSource: its parameters' shapes (the IR's:
// lane axes last) and its launch (64 threads of a flat kernel, or one
// block).
type vecCase struct {
	name   string
	shapes [][]int
	dims   []int
	vector bool // the Vector build has vector accesses
}

var vecCases = []vecCase{
	{"v4", [][]int{{64, 4}, {64, 4}}, []int{64}, true},
	{"v2", [][]int{{64, 2}, {64, 2}}, []int{64}, true},
	{"v4i", [][]int{{64, 4}, {64, 4}}, []int{64}, true},
	{"v2i", [][]int{{64, 2}, {64, 2}}, []int{64}, true},
	{"v2d", [][]int{{64, 2}, {64, 2}}, []int{64}, true},
	{"v4d", [][]int{{64, 4}, {64, 4}}, []int{64}, true},
	{"v3", [][]int{{64, 3}, {64, 3}}, []int{64}, false},
	{"m22", [][]int{{64, 2, 2}, {64, 2, 2}}, []int{64}, true},
	{"m44", [][]int{{64, 4, 4}, {64, 4, 4}}, []int{64}, true},
	{"q", [][]int{{64, 4}, {64, 4}}, []int{64}, true},
	{"viafunc", [][]int{{64, 4}, {64, 4}}, []int{64}, true},
	{"grid2", [][]int{{8, 8, 4}, {8, 8, 4}}, []int{8, 8}, true},
	{"pairs", [][]int{{64, 2}, {64, 2}}, []int{64}, true},
	{"reduce4", [][]int{{256, 4}, {1}}, []int{1}, true},
}

// vecInputs are the parameters' initial bytes: random values of moderate
// size (no NaN, whose payloads the backends need not agree on).
func vecInputs(k *ir.Kernel, c vecCase, seed uint64) [][]byte {
	r := rand.New(rand.NewPCG(seed, 7))
	bufs := make([][]byte, len(c.shapes))
	for j, p := range k.Entry.Params {
		v := make([]uint64, prod(c.shapes[j]))
		for i := range v {
			switch p.Elem {
			case ir.F32:
				v[i] = uint64(math.Float32bits(float32(r.NormFloat64() * 4)))
			case ir.F64:
				v[i] = math.Float64bits(r.NormFloat64() * 4)
			default:
				v[i] = uint64(r.Int64N(2001) - 1000)
			}
		}
		bufs[j] = encode(p.Elem, v)
	}
	return bufs
}

// vecOnCPU runs c on the cpu backend over copies of bufs and returns them.
func vecOnCPU(t *testing.T, k *ir.Kernel, c vecCase, bufs [][]byte) [][]byte {
	t.Helper()
	p, err := cpu.Compile(k, backend.Options{})
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	out := make([][]byte, len(bufs))
	args := make([]backend.Arg, len(bufs))
	for j := range bufs {
		out[j] = append([]byte(nil), bufs[j]...)
		args[j] = cOrder(uintptr(unsafe.Pointer(&out[j][0])), c.shapes[j])
	}
	err = p.Launch(c.dims, args, cpu.Options{})
	runtime.KeepAlive(out)
	if err != nil {
		t.Fatalf("%s on the cpu: %v", c.name, err)
	}
	return out
}
