package codegen

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// The GPU check: with GS_CODEGEN_DUMP=dir, TestDumpForGPU writes every test
// kernel's source to dir/*.cu and a manifest of launches with inputs and
// expected outputs (raw little-endian bytes, computed by Go, whose semantics
// the CPU executor shares) to dir/manifest.json. testdata/gpucheck.py
// compiles every source with NVRTC (-arch=sm_90 -default-device -std=c++17)
// and runs the manifest on a GPU. Without the variable the test is skipped.

type dumpArg struct {
	Array   bool    `json:"array"`
	Dtype   string  `json:"dtype"`
	Hex     string  `json:"hex"`
	Shape   []int64 `json:"shape,omitempty"`
	Strides []int64 `json:"strides,omitempty"`
	Offset  int64   `json:"offset,omitempty"`
}

type dumpCase struct {
	Name   string         `json:"name"`
	File   string         `json:"file"`
	Entry  string         `json:"entry"`
	Dims   []int64        `json:"dims"`
	Args   []dumpArg      `json:"args"`
	Expect map[int]string `json:"expect"`          // arg index -> expected bytes (hex)
	Error  []int64        `json:"error,omitempty"` // expected error record, Debug builds
	Debug  bool           `json:"debug"`
}

func le(v any) string {
	b, err := binary.Append(nil, binary.LittleEndian, v)
	if err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func vec(t ir.Type, v any) dumpArg {
	n := int64(binary.Size(v) / t.Size())
	return dumpArg{Array: true, Dtype: t.String(), Hex: le(v), Shape: []int64{n}, Strides: []int64{1}}
}

func sc(t ir.Type, v any) dumpArg { return dumpArg{Dtype: t.String(), Hex: le(v)} }

type dumper struct {
	dir   string
	cases []dumpCase
	t     *testing.T
}

func (d *dumper) source(name string, k *ir.Kernel, debug bool) string {
	src, err := Source(k, Options{Debug: debug})
	if err != nil {
		d.t.Fatalf("%s: %v", name, err)
	}
	file := name + ".cu"
	if err := os.WriteFile(filepath.Join(d.dir, file), []byte(src), 0o644); err != nil {
		d.t.Fatal(err)
	}
	return file
}

func (d *dumper) run(c dumpCase, k *ir.Kernel) {
	c.File = d.source(c.Name, k, c.Debug)
	c.Entry = EntryName(k)
	d.cases = append(d.cases, c)
}

func TestDumpForGPU(t *testing.T) {
	dir := os.Getenv("GS_CODEGEN_DUMP")
	if dir == "" {
		t.Skip("GS_CODEGEN_DUMP not set")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	d := &dumper{dir: dir, t: t}
	n := 0
	for _, op := range allOps() {
		for _, ty := range allTypes {
			k, ok := caseFor(op, ty)
			if !ok {
				continue
			}
			for _, debug := range []bool{false, true} {
				d.source(fmt.Sprintf("op_%s_%s_%v", op, ty, debug), k, debug)
				n++
			}
		}
	}
	for _, from := range allTypes {
		for _, to := range allTypes {
			d.source(fmt.Sprintf("cvt_%s_%s", from, to), opKernel("k", ir.OpConvert, to, from), false)
		}
	}
	runCases(d)
	b, _ := json.MarshalIndent(map[string]any{"cases": d.cases}, "", " ")
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d op sources, %d run cases in %s", n, len(d.cases), dir)
}

func runCases(d *dumper) {
	// saxpy over a strided view: x is every second element of a buffer.
	xs := make([]float32, 2000)
	for i := range xs {
		xs[i] = float32(i) * 0.5
	}
	ys, want := make([]float32, 1000), make([]float32, 1000)
	for i := range ys {
		ys[i] = 1
		want[i] = float32(float64(float32(3*xs[2*i])) + 1)
	}
	x := vec(ir.F32, xs)
	x.Shape, x.Strides = []int64{1000}, []int64{2}
	for _, debug := range []bool{false, true} {
		d.run(dumpCase{Name: fmt.Sprintf("run_saxpy_%v", debug), Dims: []int64{1000}, Debug: debug,
			Args: []dumpArg{x, vec(ir.F32, ys), sc(ir.F32, float32(3))}, Expect: map[int]string{1: le(want)}}, saxpy())
	}
	stencilCase(d)
	histCase(d)
	loopCase(d)
	callCases(d)
	convertCases(d)
	divCases(d)
	shiftCases(d)
	moreCases(d)
	d.run(dumpCase{Name: "run_print", Dims: []int64{3}, Args: []dumpArg{vec(ir.F32, []float32{0.1, 1.5, 2.5})}}, printKernel())
}

func stencilCase(d *dumper) {
	const h, w = 5, 7
	a, out := make([]float32, h*w), make([]float32, h*w)
	for i := range a {
		a[i] = float32(i*i%11) + 0.5
	}
	want := make([]float32, h*w)
	for i := 1; i < h-1; i++ {
		for j := 1; j < w-1; j++ {
			s := a[(i-1)*w+j] + a[(i+1)*w+j]
			s += a[i*w+j-1]
			s += a[i*w+j+1]
			want[i*w+j] = s * 0.25
		}
	}
	aa, oo := vec(ir.F32, a), vec(ir.F32, out)
	aa.Shape, aa.Strides = []int64{h, w}, []int64{w, 1}
	oo.Shape, oo.Strides = aa.Shape, aa.Strides
	d.run(dumpCase{Name: "run_stencil", Dims: []int64{h, w}, Debug: true, Args: []dumpArg{aa, oo},
		Expect: map[int]string{1: le(want)}}, stencil())
}

func histCase(d *dumper) {
	const n = 1 << 20
	x, bins := make([]int32, n), make([]int32, 16)
	for i := range x {
		x[i] = int32(i*7 + i/3)
		bins[x[i]%16]++
	}
	d.run(dumpCase{Name: "run_hist", Dims: []int64{n}, Args: []dumpArg{vec(ir.I32, x), vec(ir.I32, make([]int32, 16))},
		Expect: map[int]string{1: le(bins)}}, histogram())
}

func loopCase(d *dumper) {
	out, want := make([]int32, 20), make([]int32, 20)
	for i := range want {
		for j := int32(0); j < 10; j++ {
			if j%2 == 1 {
				continue
			}
			if j > int32(i) {
				break
			}
			want[i] += j
		}
	}
	d.run(dumpCase{Name: "run_loop", Dims: []int64{20}, Args: []dumpArg{vec(ir.I32, out), sc(ir.I32, int32(10))},
		Expect: map[int]string{0: le(want)}}, loopKernel())
}

func callCases(d *dumper) {
	a, out, want := []float32{1, 2, 3, 4}, make([]float32, 5), make([]float32, 5)
	for i, v := range a {
		want[i] = v*2 + 1
	}
	d.run(dumpCase{Name: "run_call", Dims: []int64{4}, Args: []dumpArg{vec(ir.F32, out[:4]), vec(ir.F32, a)},
		Expect: map[int]string{0: le(want[:4])}}, twiceKernel())
	// Debug: thread 4 reads a[4] inside the func; the record names entry
	// param 1 (a), not the func's param 0. Other threads finish normally.
	sentinel := []float32{0, 0, 0, 0, -7}
	want[4] = -7
	oo := vec(ir.F32, sentinel)
	d.run(dumpCase{Name: "run_call_oob", Dims: []int64{5}, Debug: true, Args: []dumpArg{oo, vec(ir.F32, a)},
		Expect: map[int]string{0: le(want)}, Error: []int64{1, callLoadID(), 1, 0, 4, 4}}, twiceKernel())
	// 2-D: thread 2 reads a[2, 3] of a 3x3 array: axis 1, index 3, extent 3.
	grid := vec(ir.F32, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8})
	grid.Shape, grid.Strides = []int64{3, 3}, []int64{3, 1}
	d.run(dumpCase{Name: "run_oob2d", Dims: []int64{3}, Debug: true,
		Args:   []dumpArg{grid, vec(ir.F32, []float32{-1, -1, -1})},
		Expect: map[int]string{1: le([]float32{1, 5, -1})}, Error: []int64{1, 3, 0, 1, 3, 3}}, oobKernel())
}

// callLoadID is the instruction id of the load inside func get.
func callLoadID() int64 {
	for id, in := range DebugInfo(twiceKernel()).Insts {
		if in.Func == "get" && in.Op == ir.OpLoad {
			return int64(id)
		}
	}
	return -1
}

//go:noinline
func goConv(x float64, t ir.Type) uint64 {
	switch t {
	case ir.I32:
		return uint64(uint32(int32(x)))
	case ir.I64:
		return uint64(int64(x))
	case ir.U8:
		return uint64(uint8(x))
	case ir.U32:
		return uint64(uint32(x))
	}
	return uint64(x)
}

//go:noinline
func goConv32(x float32, t ir.Type) uint64 {
	switch t {
	case ir.I32:
		return uint64(uint32(int32(x)))
	case ir.I64:
		return uint64(int64(x))
	case ir.U8:
		return uint64(uint8(x))
	case ir.U32:
		return uint64(uint32(x))
	}
	return uint64(x)
}

var convInputs = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), -1, -1.5, 1.5, 255.7, 256, 300,
	-300, 2147483647.5, 2147483648, -2147483648.9, -2147483649, 4294967295, 4294967296, 5e9, -5e9,
	9.3e18, 1e19, 1.9e19, 2e19, -9.3e18, -1e19, 9223372036854775807, -9223372036854775808}

func convertCases(d *dumper) {
	f32s := make([]float32, len(convInputs))
	for i, v := range convInputs {
		f32s[i] = float32(v)
	}
	for _, to := range []ir.Type{ir.U8, ir.I32, ir.I64, ir.U32, ir.U64} {
		w64, w32 := make([]byte, 0), make([]byte, 0)
		for i, v := range convInputs {
			w64 = appendInt(w64, to, goConv(v, to))
			w32 = appendInt(w32, to, goConv32(f32s[i], to))
		}
		n := int64(len(convInputs))
		out := dumpArg{Array: true, Dtype: to.String(), Hex: hex.EncodeToString(make([]byte, len(w64))), Shape: []int64{n}, Strides: []int64{1}}
		d.run(dumpCase{Name: "run_cvt_f64_" + to.String(), Dims: []int64{n}, Args: []dumpArg{vec(ir.F64, convInputs), out},
			Expect: map[int]string{1: hex.EncodeToString(w64)}}, opKernel("k", ir.OpConvert, to, ir.F64))
		d.run(dumpCase{Name: "run_cvt_f32_" + to.String(), Dims: []int64{n}, Args: []dumpArg{vec(ir.F32, f32s), out},
			Expect: map[int]string{1: hex.EncodeToString(w32)}}, opKernel("k", ir.OpConvert, to, ir.F32))
	}
}

func appendInt(b []byte, t ir.Type, v uint64) []byte {
	switch t.Size() {
	case 1:
		return append(b, byte(v))
	case 4:
		return binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return binary.LittleEndian.AppendUint64(b, v)
}

func divCases(d *dumper) {
	as := []int64{7, -7, 7, -7, math.MinInt32, math.MinInt32, 5, -5, 0, 123456, math.MaxInt32}
	bs := []int64{2, 2, -2, -2, -1, 1, 0, 0, 3, -1000, -1}
	n := int64(len(as))
	for _, t := range []ir.Type{ir.I32, ir.I64, ir.U32} {
		var ab, bb, q, r []byte
		for i := range as {
			a, b := as[i], bs[i]
			ab, bb = appendInt(ab, t, uint64(a)), appendInt(bb, t, uint64(b))
			var qv, rv uint64
			switch {
			case b == 0 && t == ir.U32:
				qv, rv = math.MaxUint32, uint64(a) // documented non-debug values
			case b == 0:
				qv, rv = math.MaxUint64, uint64(a)
			case t == ir.I32:
				x, y := int32(a), int32(b)
				qv, rv = uint64(x/y), uint64(x%y)
			case t == ir.I64:
				qv, rv = uint64(a/b), uint64(a%b)
			default:
				x, y := uint32(a), uint32(b)
				qv, rv = uint64(x/y), uint64(x%y)
			}
			q, r = appendInt(q, t, qv), appendInt(r, t, rv)
		}
		mk := func(h []byte) dumpArg {
			return dumpArg{Array: true, Dtype: t.String(), Hex: hex.EncodeToString(h), Shape: []int64{n}, Strides: []int64{1}}
		}
		zero := mk(make([]byte, len(q)))
		d.run(dumpCase{Name: "run_div_" + t.String(), Dims: []int64{n}, Args: []dumpArg{mk(ab), mk(bb), zero},
			Expect: map[int]string{2: hex.EncodeToString(q)}}, opKernel("k", ir.OpDiv, t, t, t))
		d.run(dumpCase{Name: "run_rem_" + t.String(), Dims: []int64{n}, Args: []dumpArg{mk(ab), mk(bb), zero},
			Expect: map[int]string{2: hex.EncodeToString(r)}}, opKernel("k", ir.OpRem, t, t, t))
	}
	// Debug: the zero divisor (thread 1) is reported at the div.
	d.run(dumpCase{Name: "run_div_zero_debug", Dims: []int64{3}, Debug: true,
		Args:  []dumpArg{vec(ir.I32, []int32{1, 2, 3}), vec(ir.I32, []int32{1, 0, 1}), vec(ir.I32, []int32{9, 9, 9})},
		Error: []int64{2, 3, -1, -1, 0, 0}, Expect: map[int]string{2: le([]int32{1, 9, 3})}},
		opKernel("k", ir.OpDiv, ir.I32, ir.I32, ir.I32))
}

func shiftCases(d *dumper) {
	vals := []int64{1, -1, -8, 0x7f, math.MinInt32, 12345}
	counts := []int64{0, 1, 7, 8, 31, 32, 33, 63, 64, 100, -1}
	var av, cv []int64
	for _, v := range vals {
		for _, c := range counts {
			av, cv = append(av, v), append(cv, c)
		}
	}
	n := int64(len(av))
	for _, t := range []ir.Type{ir.U8, ir.I32, ir.U32, ir.I64, ir.U64} {
		var ab, cb, shl, shr []byte
		for i := range av {
			a, c := uint64(av[i]), uint64(cv[i]) // negative counts act as huge unsigned counts
			ab, cb = appendInt(ab, t, a), appendInt(cb, ir.I32, uint64(cv[i]))
			l, r := goShift(t, a, c)
			shl, shr = appendInt(shl, t, l), appendInt(shr, t, r)
		}
		mk := func(tt ir.Type, h []byte) dumpArg {
			return dumpArg{Array: true, Dtype: tt.String(), Hex: hex.EncodeToString(h), Shape: []int64{n}, Strides: []int64{1}}
		}
		zero := mk(t, make([]byte, len(shl)))
		d.run(dumpCase{Name: "run_shl_" + t.String(), Dims: []int64{n}, Args: []dumpArg{mk(t, ab), mk(ir.I32, cb), zero},
			Expect: map[int]string{2: hex.EncodeToString(shl)}}, opKernel("k", ir.OpShl, t, t, ir.I32))
		d.run(dumpCase{Name: "run_shr_" + t.String(), Dims: []int64{n}, Args: []dumpArg{mk(t, ab), mk(ir.I32, cb), zero},
			Expect: map[int]string{2: hex.EncodeToString(shr)}}, opKernel("k", ir.OpShr, t, t, ir.I32))
	}
}

// goShift shifts as Go does with an unsigned count.
func goShift(t ir.Type, a, c uint64) (uint64, uint64) {
	switch t {
	case ir.U8:
		return uint64(uint8(a) << c), uint64(uint8(a) >> c)
	case ir.I32:
		return uint64(uint32(int32(a) << c)), uint64(uint32(int32(a) >> c))
	case ir.U32:
		return uint64(uint32(a) << c), uint64(uint32(a) >> c)
	case ir.I64:
		return uint64(int64(a) << c), uint64(int64(a) >> c)
	}
	return a << c, a >> c
}
