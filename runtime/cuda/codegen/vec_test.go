package codegen

import (
	"reflect"
	"testing"

	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// vecKernels are compound-array kernels as scripts write them: the
// lowering decides what the lane runs look like, so these go through the
// checker.
const vecKernels = `
kernel v4(a: array[vec4], out: array[vec4]) {
    let i = tid()
    out[i] = a[i] * 2.0 + a[(i + 1) % len(a)]
}
kernel v2d(a: array[vec2d], out: array[vec2d]) {
    let i = tid()
    out[i] = a[i] * a[(i + 1) % len(a)]
}
kernel v4d(a: array[vec4d], out: array[vec4d]) {
    let i = tid()
    out[i] = a[i] + a[(i + 7) % len(a)] * 0.5
}
kernel v4i(a: array[vec4i], out: array[vec4i]) {
    let i = tid()
    out[i] = a[i] + a[(i + 3) % len(a)]
}
kernel v3(a: array[vec3], out: array[vec3]) {
    let i = tid()
    out[i] = a[i] + a[(i + 1) % len(a)]
}
kernel m22(a: array[mat22], out: array[mat22]) {
    let i = tid()
    out[i] = a[i] * a[(i + 1) % len(a)]
}
func fetch(a: array[vec2], i: i32) -> vec2 {
    return a[i]
}
kernel viafunc(a: array[vec2], b: array[vec4], out: array[vec4]) {
    let i = tid()
    let p = fetch(a, i)
    out[i] = vec4(p.x, p.y, b[i].x, b[i].y)
}
kernel reduce4(v: array[vec4], out: array[f64]) block(256) {
    let i = block_id() * 256 + thread_id()
    let s: f64 = 0.0
    while i < len(v) {
        let a = v[i]
        s += f64(a.x) + f64(a.w)
        i += grid_dim() * 256
    }
    s = block_sum(s)
    if thread_id() == 0 {
        out[block_id()] = s
    }
}
`

func lowerScript(t *testing.T, src string) map[string]*ir.Kernel {
	t.Helper()
	f, err := syntax.Parse("t.gs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	info, err := check.NewChecker(func(string) bool { return false }).Check(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ir.Kernel{}
	for _, k := range info.Kernels {
		out[k.Entry.Name] = k
	}
	return out
}

// The Vector build loads and stores the lanes of an element at once;
// without Vector, or in a Debug build, every lane is its own access.
func TestVectorAccesses(t *testing.T) {
	ks := lowerScript(t, vecKernels)
	lane0 := func(vt, ct, p string) string {
		return `\*\(const ` + vt + `\*\)\(\(` + ct + `\*\)` + p + `\.data \+ \(\(long long\)r\d+ \* ` + p + `\.strides\[0\]\)\);`
	}
	cases := []struct {
		kernel string
		want   []string
		none   []string
	}{
		{"v4", []string{
			`(?s)\{\n\s+const float4 gs_v = ` + lane0("float4", "float", "p0_a") + `\n\s+r\d+ = gs_v\.x;\n\s+r\d+ = gs_v\.y;\n\s+r\d+ = gs_v\.z;\n\s+r\d+ = gs_v\.w;\n\s+\}`,
			`\*\(float4\*\)\(\(float\*\)p1_out\.data \+ \(\(long long\)r\d+ \* p1_out\.strides\[0\]\)\) = float4\{r\d+, r\d+, r\d+, r\d+\};`,
		}, []string{`float2`, `= \*\(\(float\*\)`}},
		{"v2d", []string{lane0("double2", "double", "p0_a"), `= double2\{r\d+, r\d+\};`}, []string{`= \*\(\(double\*\)`}},
		// vec4d: two 16-byte accesses, at lanes 0 and 2
		{"v4d", []string{lane0("double2", "double", "p0_a"), `\*\(const double2\*\)\(\(\(double\*\)p0_a\.data \+ \(\(long long\)r\d+ \* p0_a\.strides\[0\]\)\) \+ 2\);`,
			`\*\(double2\*\)\(\(\(double\*\)p1_out\.data \+ \(\(long long\)r\d+ \* p1_out\.strides\[0\]\)\) \+ 2\) = double2\{r\d+, r\d+\};`}, nil},
		{"v4i", []string{lane0("int4", "int", "p0_a"), `= int4\{r\d+, r\d+, r\d+, r\d+\};`}, nil},
		// 12-byte elements are never 16-byte aligned: scalar
		{"v3", []string{`r\d+ = \*\(\(float\*\)p0_a\.data`}, []string{`gs_v = `, `float[234]\{`}},
		// a matrix: a vector access per row
		{"m22", []string{`const float2 gs_v = \*\(const float2\*\)\(\(float\*\)p0_a\.data \+ \(\(long long\)r\d+ \* p0_a\.strides\[0\] \+ \(long long\)r\d+ \* p0_a\.strides\[1\]\)\);`,
			`= float2\{r\d+, r\d+\};`}, nil},
		// in a device func, and b[i].x (which loads the whole element)
		{"viafunc", []string{`(?s)gs_f0_fetch\(gs_array2 p0_a, int p1_i\) \{.*const float2 gs_v = `, `const float4 gs_v = `, `= float4\{`}, nil},
		{"reduce4", []string{`const float4 gs_v = `}, nil},
	}
	for _, c := range cases {
		k := ks[c.kernel]
		src := mustSource(t, k, Options{UnitStride: true, Vector: true})
		wantAll(t, src, append(c.want, `vector=true`)...)
		wantNone(t, src, c.none...)
		for _, opts := range []Options{{UnitStride: true}, {}, {Debug: true, Vector: true}} {
			src := mustSource(t, k, opts)
			wantNone(t, src, `gs_v = `, `float[24]\{`, `double2\{`, `int4\{`, `vector=true`)
		}
	}
	// Index32 offsets apply to the element's first lane as to a scalar.
	src := mustSource(t, ks["v4"], Options{UnitStride: true, Index32: true, Vector: true})
	wantAll(t, src, `const float4 gs_v = \*\(const float4\*\)\(\(float\*\)p0_a\.data \+ \(long long\)\(\(int\)r\d+ \* \(int\)p0_a\.strides\[0\]\)\);`)
}

// VectorNeeds names the entry's arrays that vector accesses reach,
// through device funcs too, with their widest access.
func TestVectorNeeds(t *testing.T) {
	ks := lowerScript(t, vecKernels)
	cases := map[string][]VectorNeed{
		"v4":      {{0, 4}, {1, 4}},
		"v2d":     {{0, 2}, {1, 2}},
		"v4d":     {{0, 2}, {1, 2}},
		"v4i":     {{0, 4}, {1, 4}},
		"v3":      nil,
		"m22":     {{0, 2}, {1, 2}},
		"viafunc": {{0, 2}, {1, 4}, {2, 4}},
		"reduce4": {{0, 4}},
	}
	for name, want := range cases {
		if got := VectorNeeds(ks[name]); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: VectorNeeds = %v, want %v", name, got, want)
		}
	}
}

// laneLoads appends the checker's lowering of a vec4 load of a[i]:
// const k, load a[i, k] for each lane, and returns the lanes' registers.
func (b *fb) laneLoads(p int, i ir.Reg, lanes int) []ir.Reg {
	out := make([]ir.Reg, lanes)
	for k := range out {
		out[k] = b.load(p, i, b.konst(ir.I32, int64(k)))
	}
	return out
}

// Only runs whose reordering changes nothing become vector accesses.
func TestLaneRunRules(t *testing.T) {
	build := func(body func(b *fb, i ir.Reg)) *ir.Kernel {
		b := newFunc("k", arr("a", ir.F32, 2), arr("out", ir.F32, 1), arr("c", ir.F32, 2))
		i := b.f.NewReg(ir.I32)
		b.mov(i, b.tid(0))
		body(b, i)
		return b.kernel(1)
	}
	sink := func(b *fb, i ir.Reg, rs []ir.Reg) {
		s := rs[0]
		for _, r := range rs[1:] {
			s = b.op(ir.OpAdd, ir.F32, s, r)
		}
		b.store(1, i, s)
	}
	cases := []struct {
		name   string
		body   func(b *fb, i ir.Reg)
		vector string // the access printed, "" for none
	}{
		{"whole element", func(b *fb, i ir.Reg) { sink(b, i, b.laneLoads(0, i, 4)) }, "float4"},
		{"two lanes", func(b *fb, i ir.Reg) { sink(b, i, b.laneLoads(0, i, 2)) }, "float2"},
		{"three lanes", func(b *fb, i ir.Reg) { sink(b, i, b.laneLoads(0, i, 3)) }, ""},
		{"one lane", func(b *fb, i ir.Reg) { sink(b, i, b.laneLoads(0, i, 1)) }, ""},
		{"lanes shared consts", func(b *fb, i ir.Reg) {
			ks := []ir.Reg{b.konst(ir.I32, int64(0)), b.konst(ir.I32, int64(1))}
			sink(b, i, []ir.Reg{b.load(0, i, ks[0]), b.load(0, i, ks[1])})
		}, "float2"},
		{"out of order", func(b *fb, i ir.Reg) {
			one, zero := b.konst(ir.I32, int64(1)), b.konst(ir.I32, int64(0))
			sink(b, i, []ir.Reg{b.load(0, i, one), b.load(0, i, zero)})
		}, ""},
		{"not from lane 0", func(b *fb, i ir.Reg) {
			b.konst(ir.I32, int64(7))
			one, two := b.konst(ir.I32, int64(1)), b.konst(ir.I32, int64(2))
			sink(b, i, []ir.Reg{b.load(0, i, one), b.load(0, i, two)})
		}, ""},
		{"lane index not a const of the run", func(b *fb, i ir.Reg) {
			zero := b.konst(ir.I32, int64(0))
			one := b.konst(ir.I32, int64(1))
			b.op(ir.OpAdd, ir.I32, i, i)
			sink(b, i, []ir.Reg{b.load(0, i, zero), b.load(0, i, one)})
		}, ""},
		{"other element", func(b *fb, i ir.Reg) {
			j := b.op(ir.OpAdd, ir.I32, i, i)
			sink(b, i, []ir.Reg{b.load(0, i, b.konst(ir.I32, int64(0))), b.load(0, j, b.konst(ir.I32, int64(1)))})
		}, ""},
		{"other array", func(b *fb, i ir.Reg) {
			sink(b, i, []ir.Reg{b.load(0, i, b.konst(ir.I32, int64(0))), b.load(2, i, b.konst(ir.I32, int64(1)))})
		}, ""},
		{"a store between", func(b *fb, i ir.Reg) {
			r0 := b.load(0, i, b.konst(ir.I32, int64(0)))
			b.store(0, i, b.konst(ir.I32, int64(1)), r0)
			sink(b, i, []ir.Reg{r0, b.load(0, i, b.konst(ir.I32, int64(1)))})
		}, ""},
		{"const overwrites the index", func(b *fb, i ir.Reg) {
			r0 := b.load(0, i, b.konst(ir.I32, int64(0)))
			b.inst(&ir.Inst{Op: ir.OpConst, Dst: i, Imm: int64(5)})
			sink(b, i, []ir.Reg{r0, b.load(0, i, b.konst(ir.I32, int64(1)))})
		}, ""},
		{"const overwrites a lane", func(b *fb, i ir.Reg) {
			zero := b.konst(ir.I32, int64(0))
			r0 := b.load(0, i, zero)
			b.inst(&ir.Inst{Op: ir.OpConst, Dst: zero, Imm: int64(1)})
			sink(b, i, []ir.Reg{r0, b.load(0, i, zero)})
		}, ""},
	}
	for _, c := range cases {
		k := build(c.body)
		src := mustSource(t, k, Options{UnitStride: true, Vector: true})
		if c.vector == "" {
			wantNone(t, src, `gs_v = `)
			if n := VectorNeeds(k); n != nil {
				t.Errorf("%s: VectorNeeds = %v, want none", c.name, n)
			}
			continue
		}
		wantAll(t, src, `const `+c.vector+` gs_v = `)
	}
}

// A load into a register that a later lane's index reads ends the run.
func TestLaneRunLoadIntoIndex(t *testing.T) {
	b := newFunc("k", arr("a", ir.I32, 2), arr("out", ir.I32, 1))
	i := b.f.NewReg(ir.I32)
	b.mov(i, b.tid(0))
	zero, one := b.konst(ir.I32, int64(0)), b.konst(ir.I32, int64(1))
	r0 := b.f.NewReg(ir.I32)
	b.inst(&ir.Inst{Op: ir.OpLoad, Dst: r0, Param: 0, Args: []ir.Reg{i, zero}})
	b.inst(&ir.Inst{Op: ir.OpLoad, Dst: i, Param: 0, Args: []ir.Reg{i, one}}) // the last lane may write its own index
	b.store(1, r0, i)
	k := b.kernel(1)
	wantAll(t, mustSource(t, k, Options{Vector: true}), `const int2 gs_v = `)

	b = newFunc("k", arr("a", ir.I32, 2), arr("out", ir.I32, 1))
	i = b.f.NewReg(ir.I32)
	b.mov(i, b.tid(0))
	zero, one = b.konst(ir.I32, int64(0)), b.konst(ir.I32, int64(1))
	b.inst(&ir.Inst{Op: ir.OpLoad, Dst: i, Param: 0, Args: []ir.Reg{i, zero}}) // lane 1 reads the new i
	r1 := b.load(0, i, one)
	b.store(1, i, r1)
	wantNone(t, mustSource(t, b.kernel(1), Options{Vector: true}), `gs_v = `)
}
