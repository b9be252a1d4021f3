package codegen

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/lang/pos"
)

func mustSource(t *testing.T, k *ir.Kernel, opts Options) string {
	t.Helper()
	src, err := Source(k, opts)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// lineDirective matches the position markers that map generated code to
// script positions; wantAll looks at the code without them.
var lineDirective = regexp.MustCompile(`(?m)^\s*// gs:pos .*\n`)

// wantAll fails for every snippet (a regexp) missing from src.
func wantAll(t *testing.T, src string, snippets ...string) {
	t.Helper()
	src = lineDirective.ReplaceAllString(src, "")
	for _, s := range snippets {
		if !regexp.MustCompile(s).MatchString(src) {
			t.Errorf("missing %q in:\n%s", s, src)
		}
	}
}

func wantNone(t *testing.T, src string, snippets ...string) {
	t.Helper()
	for _, s := range snippets {
		if regexp.MustCompile(s).MatchString(src) {
			t.Errorf("unexpected %q in:\n%s", s, src)
		}
	}
}

func TestSaxpy(t *testing.T) {
	src := mustSource(t, saxpy(), Options{})
	wantAll(t, src,
		`extern "C" __global__ void __launch_bounds__\(256, 4\) gs_saxpy\(gs_array1 p0_x, gs_array1 p1_y, float p2_a, gs_launch gs_dims\) \{`,
		`struct gs_array1 \{ unsigned long long data; long long shape\[1\]; long long strides\[1\]; \};`,
		`struct gs_launch \{ long long n\[4\]; long long total; long long per; \};`,
		// The body runs once per launch thread; each CUDA thread runs
		// gs_dims.per of them, a block apart.
		`static __device__ __forceinline__ void gs_saxpy_body\(gs_array1 p0_x, gs_array1 p1_y, float p2_a, const gs_launch& gs_dims, long long gs_lin\) \{`,
		`long long gs_first = \(long long\)blockIdx\.x \* \(long long\)blockDim\.x \* gs_dims\.per \+ \(long long\)threadIdx\.x;`,
		`for \(long long gs_k = 0; gs_k < gs_dims\.per; gs_k\+\+\) \{\n\s+long long gs_lin = gs_first \+ gs_k \* \(long long\)blockDim\.x;\n\s+if \(gs_lin >= gs_dims\.total\) return;\n\s+gs_saxpy_body\(p0_x, p1_y, p2_a, gs_dims, gs_lin\);`,
		`int gs_tid0 = \(int\)gs_lin;`,
		`r1 = gs_tid0;`,
		`r2 = p2_a;`,
		`r3 = \*\(\(float\*\)p0_x\.data \+ \(\(long long\)r0 \* p0_x\.strides\[0\]\)\);`,
		`r4 = __fmul_rn\(r2, r3\);`,
		`r6 = __fadd_rn\(r4, r5\);`,
		`\*\(\(float\*\)p1_y\.data \+ \(\(long long\)r0 \* p1_y\.strides\[0\]\)\) = r6;`,
	)
	// Registers are declared before the first statement.
	if strings.Index(src, "float r6 = 0;") > strings.Index(src, "r1 = gs_tid0;") {
		t.Errorf("registers not declared up front:\n%s", src)
	}
	wantNone(t, src, `gs_fail`, `gs_error`, `#include`, `rsqrtf`, `__f\w+_rz`)
}

func TestStencil2D(t *testing.T) {
	src := mustSource(t, stencil(), Options{})
	wantAll(t, src,
		`extern "C" __global__ void __launch_bounds__\(256, 4\) gs_blur\(gs_array2 p0_a, gs_array2 p1_b, gs_launch gs_dims\)`,
		// C order: the last axis is fastest.
		`unsigned int gs_rest = \(unsigned int\)gs_lin;\n\s+int gs_tid1 = \(int\)\(gs_rest % \(unsigned int\)gs_dims\.n\[1\]\);\n\s+gs_rest /= \(unsigned int\)gs_dims\.n\[1\];\n\s+int gs_tid0 = \(int\)gs_rest;`,
		`= \(int\)p0_a\.shape\[0\];`, `= \(int\)p0_a\.shape\[1\];`,
		`\(\(float\*\)p0_a\.data \+ \(\(long long\)r\d+ \* p0_a\.strides\[0\] \+ \(long long\)r\d+ \* p0_a\.strides\[1\]\)\)`,
		`= 0\.25f;`,
		`if \(r\d+\) \{\n\s+.*\n\s+if \(r\d+\) \{`,
		`= \(int\)\(\(unsigned int\)r\d+ - \(unsigned int\)r\d+\);`,
	)
}

func TestHistogramAtomics(t *testing.T) {
	src := mustSource(t, histogram(), Options{})
	wantAll(t, src,
		`atomicAdd\(\(\(int\*\)p1_bins\.data \+ \(\(long long\)r\d+ \* p1_bins\.strides\[0\]\)\), r\d+\);`,
		`r\d+ = gs_rem_i32\(r\d+, r\d+\);`,
		`static __device__ __forceinline__ int gs_rem_i32\(int a, int b\)`,
	)
	wantNone(t, src, `gs_div_i32`, `gs_f2`, `gs_atomic_`)
	dbg := mustSource(t, histogram(), Options{Debug: true})
	wantAll(t, dbg,
		`if \(r\d+ == 0\) gs_fail\(2, 3, -1, -1, 0, 0\);\n\s+r\d+ = gs_rem_i32`,
		`gs_fail\(1, 5, 1, 0, \(long long\)r\d+, p1_bins\.shape\[0\]\);\n\s+atomicAdd`,
	)
}

func TestAtomicForms(t *testing.T) {
	cases := []struct {
		op   ir.Op
		t    ir.Type
		want string
	}{
		{ir.OpAtomicAdd, ir.I64, `\(long long\)atomicAdd\(\(unsigned long long\*\)\(\(long long\*\)p1_out\.data`},
		{ir.OpAtomicAdd, ir.U64, `atomicAdd\(\(\(unsigned long long\*\)p1_out\.data`},
		{ir.OpAtomicAdd, ir.F64, `atomicAdd\(\(\(double\*\)p1_out\.data`},
		{ir.OpAtomicSub, ir.I32, `atomicAdd\(\(\(int\*\)p1_out.data \+ .*\), \(int\)\(0u - \(unsigned int\)r\d+\)\)`},
		{ir.OpAtomicSub, ir.F32, `atomicAdd\(\(\(float\*\)p1_out.data \+ .*\), -r\d+\)`},
		{ir.OpAtomicSub, ir.I64, `atomicAdd\(\(unsigned long long\*\).*\(unsigned long long\)\(long long\)\(0u - \(unsigned long long\)r\d+\)\)`},
		{ir.OpAtomicMin, ir.I64, `atomicMin\(\(\(long long\*\)p1_out`},
		{ir.OpAtomicMax, ir.U32, `atomicMax\(\(\(unsigned int\*\)p1_out`},
		{ir.OpAtomicMin, ir.F32, `gs_atomic_min_f32\(\(\(float\*\)p1_out`},
		{ir.OpAtomicMax, ir.F64, `gs_atomic_max_f64\(\(\(double\*\)p1_out`},
		{ir.OpAtomicCAS, ir.I32, `atomicCAS\(\(\(int\*\)p1_out.data \+ .*\), r\d+, r\d+\)`},
		{ir.OpAtomicCAS, ir.I64, `\(long long\)atomicCAS\(\(unsigned long long\*\)`},
		{ir.OpAtomicCAS, ir.F32, `__uint_as_float\(atomicCAS\(\(unsigned int\*\).*__float_as_uint\(r\d+\), __float_as_uint\(r\d+\)\)\)`},
		{ir.OpAtomicCAS, ir.F64, `__longlong_as_double\(\(long long\)atomicCAS\(\(unsigned long long\*\).*__double_as_longlong`},
	}
	for _, c := range cases {
		src := mustSource(t, atomicKernel(c.op, c.t), Options{})
		wantAll(t, src, c.want)
		// One with the old value kept, one as a statement.
		wantAll(t, src, `r\d+ = [^;]*atomic`, `\n\s+[^=\n]*atomic[^=\n]*;\n`)
	}
	src := mustSource(t, atomicKernel(ir.OpAtomicMin, ir.F32), Options{})
	wantAll(t, src, `fminf\(__uint_as_float\(assumed\), v\)`, `old = atomicCAS\(a, assumed, want\);`)
	wantNone(t, src, `gs_atomic_max_f32`)
}

func TestLoopBreakContinue(t *testing.T) {
	src := mustSource(t, loopKernel(), Options{})
	wantAll(t, src,
		`for \(;;\) \{\n\s+r\d+ = \(r\d+ < r\d+\);\n\s+if \(!r\d+\) break;\n\s+\{`,
		`if \(r\d+\) \{\n\s+goto gs_cont0;\n\s+\}`,
		`if \(r\d+\) \{\n\s+break;\n\s+\}`,
		// continue lands before Post, which increments j.
		`\}\n\s+gs_cont0:;\n\s+r\d+ = 1;\n\s+r\d+ = \(int\)\(\(unsigned int\)r\d+ \+ \(unsigned int\)r\d+\);\n\s+r\d+ = r\d+;\n\s+\}`,
	)
	// A loop with no continue gets no label; nested loops get their own.
	b := newFunc("nest", arr("out", ir.I32, 1))
	i := b.tid(0)
	inner := &ir.Loop{CondReg: ir.NoReg, Body: []ir.Stmt{&ir.Continue{}}}
	outer := &ir.Loop{CondReg: ir.NoReg, Body: []ir.Stmt{inner, &ir.Break{}}}
	b.emit(outer)
	b.store(0, i, i)
	src = mustSource(t, b.kernel(1), Options{})
	wantAll(t, src, `goto gs_cont1;`, `gs_cont1:;`)
	wantNone(t, src, `gs_cont0`, `if \(!`)
}

func TestFuncCall(t *testing.T) {
	src := mustSource(t, twiceKernel(), Options{})
	wantAll(t, src,
		`static __device__ float gs_f0_get\(gs_array1 p0_v, int p1_i\);\n`,
		`static __device__ float gs_f0_get\(gs_array1 p0_v, int p1_i\) \{\n\s+int r0 = 0;`,
		`return r\d+;\n\}`,
		`r\d+ = gs_f0_get\(p1_a, r\d+\);`,
	)
	wantNone(t, src, `gs_tid0 =.*\n.*gs_f0_get\(gs_array`) // no thread decoding in funcs
	// Prototypes come before every definition, the entry last.
	if strings.Index(src, "gs_f0_get(gs_array1 p0_v, int p1_i);") > strings.Index(src, "gs_f0_get(gs_array1 p0_v, int p1_i) {") ||
		strings.Index(src, "__global__") < strings.Index(src, "gs_f0_get(gs_array1 p0_v, int p1_i) {") {
		t.Errorf("bad order:\n%s", src)
	}
	dbg := mustSource(t, twiceKernel(), Options{Debug: true})
	wantAll(t, dbg,
		`static __device__ float gs_f0_get\(gs_array1 p0_v, int p1_i, int gs_root0\)`,
		`gs_fail\(1, `+itoa(callLoadID())+`, gs_root0, 0, \(long long\)r\d+, p0_v\.shape\[0\]\);`,
		`r\d+ = gs_f0_get\(p1_a, r\d+, 1\);`,
	)
}

func TestVoidFuncAndReturns(t *testing.T) {
	fn := newFunc("put", arr("v", ir.I64, 2), scalar("x", ir.I64))
	z := fn.konst(ir.I32, int64(0))
	fn.store(0, z, z, fn.param(1))
	fn.emit(&ir.Return{})
	b := newFunc("k", arr("out", ir.I64, 2), scalar("x", ir.I64))
	b.inst(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Args: []ir.Reg{ir.NoReg, b.param(1)}, ArrayArgs: []int{0, -1}})
	b.emit(&ir.Return{})
	src := mustSource(t, b.kernel(0, fn.f), Options{Debug: true})
	wantAll(t, src,
		`static __device__ void gs_f0_put\(gs_array2 p0_v, long long p1_x, int gs_root0\)`,
		`\n\s+gs_f0_put\(p0_out, r\d+, 0\);\n\s+return;\n\}`,
	)
	wantNone(t, src, `gs_tid0`, `return \(\w+\)0;`)
}

func TestDebugBoundsChecks(t *testing.T) {
	src := mustSource(t, oobKernel(), Options{Debug: true})
	wantAll(t, src,
		`extern "C" \{\n__device__ gs_error_t gs_error;\n\}`,
		`\[\[noreturn\]\] static __device__ __noinline__ void gs_fail\(`,
		`atomicCAS\(&gs_error\.code, 0ull, \(unsigned long long\)code\) == 0ull`,
		`asm volatile\("exit;" ::: "memory"\);`,
		`if \(\(unsigned long long\)\(long long\)r0 >= \(unsigned long long\)p0_a\.shape\[0\]\) gs_fail\(1, 3, 0, 0, \(long long\)r0, p0_a\.shape\[0\]\);\n`+
			`\s+if \(\(unsigned long long\)\(long long\)r2 >= \(unsigned long long\)p0_a\.shape\[1\]\) gs_fail\(1, 3, 0, 1, \(long long\)r2, p0_a\.shape\[1\]\);\n`+
			`\s+r3 = \*\(\(float\*\)p0_a\.data`,
		`gs_fail\(1, 4, 1, 0, \(long long\)r0, p1_out\.shape\[0\]\);\n\s+\*\(\(float\*\)p1_out`,
	)
	if !strings.Contains(src, "struct gs_error_t {\n  unsigned long long code;\n  long long inst, param, axis, index, extent;\n};") {
		t.Errorf("error record layout changed (ErrorRecordSize, DecodeErrorRecord):\n%s", src)
	}
	if ErrorSymbol != "gs_error" {
		t.Errorf("ErrorSymbol %q does not name the generated variable", ErrorSymbol)
	}
	plain := mustSource(t, oobKernel(), Options{})
	wantNone(t, plain, `gs_fail`, `gs_error`, `\.shape\[`)
}

func TestDebugInfoAndDescribe(t *testing.T) {
	k := twiceKernel()
	d := DebugInfo(k)
	if d.Kernel != "twice" || len(d.Params) != 2 || d.Params[1] != "a" {
		t.Fatalf("bad table header %+v", d)
	}
	n := 0
	walkKernel(k, func(*ir.Func, *ir.Inst) { n++ })
	if len(d.Insts) != n {
		t.Fatalf("%d insts, want %d", len(d.Insts), n)
	}
	id := callLoadID()
	if id < 0 || d.Insts[id].Func != "get" {
		t.Fatalf("load in get has id %d", id)
	}
	// The ids in the source are the table's ids.
	src := mustSource(t, k, Options{Debug: true})
	wantAll(t, src, `gs_fail\(1, `+itoa(id)+`, gs_root0, 0,`)

	rec := ErrorRecord{Code: ErrBounds, Inst: id, Param: 1, Axis: 0, Index: 4, Extent: 4}
	pos, msg := d.Describe(rec, []string{"", "xs"}, [][]int{{4}, {4}})
	if want := "index 4 out of bounds for axis 0 of array xs with shape [4]"; msg != want {
		t.Errorf("msg %q, want %q", msg, want)
	}
	if pos != d.Insts[id].Pos || !pos.IsValid() {
		t.Errorf("pos %v, want %v", pos, d.Insts[id].Pos)
	}
	_, msg = d.Describe(rec, nil, nil)
	if want := "index 4 out of bounds for axis 0 of array a with shape [... axis 0: 4 ...]"; msg != want {
		t.Errorf("msg %q, want %q", msg, want)
	}
	rec = ErrorRecord{Code: ErrBounds, Inst: 0, Param: 0, Axis: 1, Index: -3, Extent: 3}
	_, msg = d.Describe(rec, []string{"grid"}, [][]int{{2, 3}})
	if want := "index -3 out of bounds for axis 1 of array grid with shape [2, 3]"; msg != want {
		t.Errorf("msg %q, want %q", msg, want)
	}
	if _, msg = d.Describe(ErrorRecord{Code: ErrDivZero, Inst: 1}, nil, nil); msg != "integer division by zero" {
		t.Errorf("msg %q", msg)
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func TestDecodeErrorRecord(t *testing.T) {
	b := make([]byte, ErrorRecordSize)
	for i, v := range []int64{1, 7, 2, 1, -5, 9} {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
	}
	rec, err := DecodeErrorRecord(b)
	if err != nil || rec != (ErrorRecord{ErrBounds, 7, 2, 1, -5, 9}) {
		t.Fatalf("got %+v, %v", rec, err)
	}
	if _, err := DecodeErrorRecord(b[:40]); err == nil {
		t.Fatal("short record accepted")
	}
}

func TestPrint(t *testing.T) {
	src := mustSource(t, printKernel(), Options{})
	wantAll(t, src, `printf\("i = %d x = %\.9g %s\\n", r0, \(double\)r1, \(r\d+ \? "true" : "false"\)\);`)
	b := newFunc("p", scalar("a", ir.U8), scalar("b", ir.I64), scalar("c", ir.U64), scalar("d", ir.F64), scalar("e", ir.U32))
	var args []ir.Reg
	for i := range 5 {
		args = append(args, b.param(i))
	}
	b.inst(&ir.Inst{Op: ir.OpPrint, Dst: ir.NoReg, Args: args, Format: "100% {} {} {} {} {}? \"é\"\t\\"})
	src = mustSource(t, b.kernel(0), Options{})
	wantAll(t, src, regexp.QuoteMeta(`printf("100%% %u %lld %llu %.17g %u\? \"\303\251\"\t\\", (unsigned int)r0, r1, r2, r3, (unsigned int)r4);`))
	b.inst(&ir.Inst{Op: ir.OpPrint, Dst: ir.NoReg, Args: args[:1], Format: "{} {}"})
	if _, err := Source(b.kernel(0), Options{}); err == nil {
		t.Error("placeholder count mismatch accepted")
	}
}

func TestDeterministic(t *testing.T) {
	for _, mk := range []func() *ir.Kernel{saxpy, stencil, histogram, loopKernel, twiceKernel, printKernel} {
		for _, debug := range []bool{false, true} {
			a := mustSource(t, mk(), Options{Debug: debug})
			for range 5 {
				if b := mustSource(t, mk(), Options{Debug: debug}); b != a {
					t.Fatalf("output differs between runs")
				}
			}
		}
	}
	if mustSource(t, saxpy(), Options{}) == mustSource(t, saxpy(), Options{Debug: true}) {
		t.Error("debug and plain builds are the same source (cache keys would collide)")
	}
}

// cKeywords are C++ keywords and CUDA names a careless generator could
// produce from user identifiers.
var cKeywords = []string{"int", "float", "double", "char", "long", "unsigned", "signed", "bool", "void", "return",
	"for", "if", "else", "while", "break", "continue", "goto", "struct", "class", "template", "typename", "static",
	"extern", "const", "volatile", "register", "auto", "default", "switch", "case", "new", "delete", "this",
	"true", "false", "operator", "namespace", "asm", "inline", "sizeof", "threadIdx", "blockIdx", "printf",
	"atomicAdd", "gs_array1", "gs_error", "gs_fail", "gs_tid0", "gs_dims", "r0", "p0_x", "__global__", "main"}

func TestIdentifiersAvoidKeywords(t *testing.T) {
	for _, kw := range cKeywords {
		fn := newFunc(kw, arr(kw, ir.F32, 1), scalar(kw, ir.F32))
		fn.f.Results = []ir.Type{ir.F32}
		fn.emit(&ir.Return{Values: []ir.Reg{fn.param(1)}})
		b := newFunc(kw, arr(kw, ir.F32, 1), scalar(kw, ir.F32))
		i := b.tid(0)
		r := b.f.NewReg(ir.F32)
		b.inst(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: []ir.Reg{r}, Args: []ir.Reg{ir.NoReg, b.param(1)}, ArrayArgs: []int{0, -1}})
		b.store(0, i, r)
		src := mustSource(t, b.kernel(1, fn.f), Options{Debug: true})
		code := regexp.MustCompile(`//.*`).ReplaceAllString(src, "")
		idents := regexp.MustCompile(`[A-Za-z_]\w*`).FindAllString(code, -1)
		for _, id := range idents {
			if id == kw && !strings.Contains(generatedVocabulary, " "+kw+" ") {
				t.Errorf("user name %q appears bare in the source", kw)
				break
			}
		}
		wantAll(t, src, `gs_`+kw+`\(gs_array1 p0_`+kw+`, float p1_`+kw+`,`, `gs_f0_`+kw+`\(`)
	}
}

// generatedVocabulary is every identifier the generator itself writes, so a
// user name equal to one of them shows up legitimately.
const generatedVocabulary = " int float double char long unsigned bool void return for if else break goto struct static extern const volatile true false asm printf atomicAdd atomicCAS gs_array1 gs_error gs_fail gs_dims gs_tid0 r0 __global__ threadIdx blockIdx "

func TestEntryName(t *testing.T) {
	k := func(name string) *ir.Kernel { return &ir.Kernel{Entry: &ir.Func{Name: name}} }
	cases := map[string]string{"saxpy": "gs_saxpy", "my_kernel2": "gs_my_kernel2", "é": "gsu__e9_", "a_é": "gsu_a_5f__e9_", "aé": "gsu_a_e9_"}
	for in, want := range cases {
		if got := EntryName(k(in)); got != want {
			t.Errorf("EntryName(%q) = %q, want %q", in, got, want)
		}
	}
	seen := map[string]string{}
	for _, name := range []string{"a_b", "a__b", "ab", "a_é", "a__e9_", "aé", "a_e9_", "gsu_x", "u_x", "_", "__"} {
		e := EntryName(k(name))
		if prev, dup := seen[e]; dup {
			t.Errorf("%q and %q share entry name %q", prev, name, e)
		}
		seen[e] = name
		if !regexp.MustCompile(`^[A-Za-z_]\w*$`).MatchString(e) {
			t.Errorf("EntryName(%q) = %q is not a C identifier", name, e)
		}
	}
}

func TestParamLayout(t *testing.T) {
	k := saxpy()
	k.Entry.Params = append(k.Entry.Params, scalar("flag", ir.Bool), scalar("n", ir.I64))
	got := ParamLayout(k)
	want := []ParamKind{
		{ParamArray, 0, ir.F32, 1, 24}, {ParamArray, 1, ir.F32, 1, 24}, {ParamScalar, 2, ir.F32, 0, 4},
		{ParamScalar, 3, ir.Bool, 0, 1}, {ParamScalar, 4, ir.I64, 0, 8},
		{Class: ParamLaunch, Size: 48},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("param %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	a := ArrayParam{Data: 0x1122, Shape: [4]int64{3, 5}, Strides: [4]int64{5, 1}}
	b := make([]byte, ArrayParamSize(2))
	PackArray(b, &a, 2)
	var words [5]uint64
	binary.Read(bytes.NewReader(b), binary.LittleEndian, &words)
	if words != [5]uint64{0x1122, 3, 5, 5, 1} {
		t.Errorf("PackArray rank 2 = %v", words)
	}
	l := make([]byte, LaunchParamSize)
	PackLaunch(l, []int{7, 9}, 63, 4)
	var lw [6]uint64
	binary.Read(bytes.NewReader(l), binary.LittleEndian, &lw)
	if lw != [6]uint64{7, 9, 1, 1, 63, 4} {
		t.Errorf("PackLaunch = %v", lw)
	}
	// The C signature lists the same parameters in the same order.
	src := mustSource(t, k, Options{})
	wantAll(t, src, `gs_saxpy\(gs_array1 p0_x, gs_array1 p1_y, float p2_a, bool p3_flag, long long p4_n, gs_launch gs_dims\)`)
}

func TestLiterals(t *testing.T) {
	cases := []struct {
		t    ir.Type
		imm  any
		want string
	}{
		{ir.I32, int64(-7), "-7"}, {ir.I32, int64(math.MinInt32), "(-2147483647 - 1)"},
		{ir.I32, int64(1 << 32), "0"}, {ir.I32, uint64(math.MaxUint32), "-1"},
		{ir.I64, int64(math.MinInt64), "(-9223372036854775807LL - 1LL)"}, {ir.I64, int64(5), "5LL"},
		{ir.U32, int64(-1), "4294967295u"}, {ir.U64, int64(-1), "18446744073709551615ull"},
		{ir.U8, int64(300), "((unsigned char)44)"}, {ir.Bool, true, "true"}, {ir.Bool, int64(0), "false"},
		{ir.F32, 0.1, "0.1f"}, {ir.F32, 1.0, "1.0f"}, {ir.F32, int64(3), "3.0f"}, {ir.F32, 1e20, "1e+20f"},
		{ir.F32, math.Copysign(0, -1), "-0.0f"}, {ir.F32, math.Inf(1), "__uint_as_float(0x7f800000u)"},
		{ir.F32, math.NaN(), "__uint_as_float(0x7fc00000u)"}, {ir.F32, int64(16777217), "1.6777216e+07f"},
		{ir.F64, 0.1, "0.1"}, {ir.F64, 2.0, "2.0"}, {ir.F64, math.Inf(-1), "__longlong_as_double(0xfff0000000000000LL)"},
		{ir.F64, 5e-324, "5e-324"}, {ir.I32, 2.9, "2"}, {ir.I32, math.NaN(), "(-2147483647 - 1)"},
		{ir.U64, 1e19, "10000000000000000000ull"}, {ir.U8, -1.0, "((unsigned char)255)"},
	}
	for _, c := range cases {
		got, err := literal(c.t, c.imm)
		if err != nil || got != c.want {
			t.Errorf("literal(%s, %v) = %q, %v; want %q", c.t, c.imm, got, err, c.want)
		}
	}
	if _, err := literal(ir.I32, "x"); err == nil {
		t.Error("string immediate accepted")
	}
}

// TestConvertMatchesGo checks ir.Convert's float->int rule (used for
// constants, and modelled by the generated helpers) against Go's own
// conversions on amd64.
func TestConvertMatchesGo(t *testing.T) {
	for _, v := range convInputs {
		for _, to := range []ir.Type{ir.U8, ir.I32, ir.I64, ir.U32, ir.U64} {
			if got, want := ir.FromFloat(v, to), goConv(v, to); got != want && isAMD64 {
				t.Errorf("cvt %v to %s: %#x, Go gives %#x", v, to, got, want)
			}
		}
	}
}

func TestMalformedIR(t *testing.T) {
	mk := func(edit func(b *fb)) *ir.Kernel {
		b := newFunc("bad", arr("x", ir.F32, 1), scalar("s", ir.F32))
		edit(b)
		return b.kernel(1)
	}
	cases := map[string]*ir.Kernel{
		"nil kernel":    nil,
		"bad register":  mk(func(b *fb) { b.inst(&ir.Inst{Op: ir.OpMov, Dst: 5, Args: []ir.Reg{0}}) }),
		"type mismatch": mk(func(b *fb) { b.op(ir.OpAdd, ir.F32, b.tid(0), b.tid(0)) }),
		"sqrt on int":   mk(func(b *fb) { b.op(ir.OpSqrt, ir.I32, b.tid(0)) }),
		"index count":   mk(func(b *fb) { b.load(0, b.tid(0), b.tid(0)) }),
		"float index":   mk(func(b *fb) { b.load(0, b.param(1)) }),
		"scalar as array": mk(func(b *fb) {
			b.inst(&ir.Inst{Op: ir.OpLoad, Dst: b.f.NewReg(ir.F32), Param: 1, Args: []ir.Reg{b.tid(0)}})
		}),
		"tid axis":      mk(func(b *fb) { b.tid(1) }),
		"break outside": mk(func(b *fb) { b.emit(&ir.Break{}) }),
		"continue in post": mk(func(b *fb) {
			b.emit(&ir.Loop{CondReg: ir.NoReg, Post: []ir.Stmt{&ir.Continue{}}})
		}),
		"non-bool cond":  mk(func(b *fb) { b.emit(&ir.If{Cond: b.tid(0)}) }),
		"kernel returns": mk(func(b *fb) { b.emit(&ir.Return{Values: []ir.Reg{b.tid(0)}}) }),
		"bad callee":     mk(func(b *fb) { b.inst(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Callee: 3}) }),
		"u8 atomic": mk(func(b *fb) {
			b.f.Params[0].Elem = ir.U8
			b.inst(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Param: 0, Args: []ir.Reg{b.tid(0), b.konst(ir.U8, int64(1))}})
		}),
		"nil stmt":   mk(func(b *fb) { b.emit((*ir.If)(nil)) }),
		"bad op":     mk(func(b *fb) { b.inst(&ir.Inst{Op: ir.Op(200), Dst: b.f.NewReg(ir.I32)}) }),
		"const text": mk(func(b *fb) { b.konst(ir.I32, "seven") }),
	}
	for name, k := range cases {
		_, err := Source(k, Options{})
		var ae *pos.Error
		if err == nil || !errors.As(err, &ae) {
			t.Errorf("%s: got %v, want an *pos.Error", name, err)
			continue
		}
		if name == "sqrt on int" && (!ae.Pos.IsValid() || !strings.Contains(ae.Msg, "(sqrt): does not apply to i32")) {
			t.Errorf("%s: %v (want the instruction's position and op)", name, err)
		}
	}
}

// A func whose last statement is an if/else that returns on both sides gets
// an unreachable fallback return so that C sees a value on every path.
func TestFuncFallbackReturn(t *testing.T) {
	fn := newFunc("pick", scalar("c", ir.Bool), scalar("x", ir.I32))
	fn.f.Results = []ir.Type{ir.I32}
	c, x := fn.param(0), fn.param(1)
	fn.emit(&ir.If{Cond: c, Then: []ir.Stmt{&ir.Return{Values: []ir.Reg{x}}}, Else: []ir.Stmt{&ir.Return{Values: []ir.Reg{x}}}})
	b := newFunc("k", arr("out", ir.I32, 1))
	i := b.tid(0)
	r := b.f.NewReg(ir.I32)
	b.inst(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: []ir.Reg{r}, Args: []ir.Reg{b.konst(ir.Bool, true), i}, ArrayArgs: []int{-1, -1}})
	b.store(0, i, r)
	src := mustSource(t, b.kernel(1, fn.f), Options{})
	wantAll(t, src, `\} else \{\n\s+return r1;\n\s+\}\n\s+return \(int\)0;\n\}`, `r\d+ = gs_f0_pick\(r\d+, r0\);`)
}

func TestUnitStride(t *testing.T) {
	src := mustSource(t, saxpy(), Options{UnitStride: true})
	wantAll(t, src,
		`r3 = \*\(\(float\*\)p0_x\.data \+ \(\(long long\)r0\)\);`,
		`\*\(\(float\*\)p1_y\.data \+ \(\(long long\)r0\)\) = r6;`,
		`unit_stride=true`,
	)
	wantNone(t, src, `strides\[0\]`)
	// 2-D: only the innermost axis loses its stride.
	src = mustSource(t, stencil(), Options{UnitStride: true})
	wantAll(t, src, `\(\(float\*\)p0_a\.data \+ \(\(long long\)r\d+ \* p0_a\.strides\[0\] \+ \(long long\)r\d+\)\)`)
	wantNone(t, src, `p0_a\.strides\[1\]`)
}

// Index32 computes offsets in int and widens the sum once.
func TestIndex32(t *testing.T) {
	src := mustSource(t, stencil(), Options{Index32: true})
	wantAll(t, src, `\(\(float\*\)p0_a\.data \+ \(long long\)\(\(int\)r\d+ \* \(int\)p0_a\.strides\[0\] \+ \(int\)r\d+ \* \(int\)p0_a\.strides\[1\]\)\)`,
		`index32=true`)
	src = mustSource(t, stencil(), Options{Index32: true, UnitStride: true})
	wantAll(t, src, `\(long long\)\(\(int\)r\d+ \* \(int\)p0_a\.strides\[0\] \+ \(int\)r\d+\)\)`)
}

func TestPositionMarkers(t *testing.T) {
	src := mustSource(t, loopKernel(), Options{})
	if !regexp.MustCompile(`(?m)^\s*// gs:pos \d+:\d+ "t\.gs"\n`).MatchString(src) {
		t.Errorf("no position marker naming the script:\n%s", src)
	}
	if mustSource(t, loopKernel(), Options{}) != src {
		t.Error("output with position markers is not deterministic")
	}
}

// ScriptPos finds the marker above a generated line; MapLog rewrites
// NVRTC's messages with it and keeps everything else.
func TestMapLog(t *testing.T) {
	src := "struct x;\n  // gs:pos 3:7 \"a b.gs\"\n  r1 = 0;\n  r2 = 1;\n  // gs:pos 4:2 \"a b.gs\"\n  r3 = r2;\n"
	if _, ok := ScriptPos(src, 1); ok {
		t.Error("line 1 has no marker above it")
	}
	for line, want := range map[int]string{2: "a b.gs:3:7", 4: "a b.gs:3:7", 6: "a b.gs:4:2", 99: "a b.gs:4:2"} {
		if p, ok := ScriptPos(src, line); !ok || p.String() != want {
			t.Errorf("ScriptPos(%d) = %v %v, want %s", line, p, ok, want)
		}
	}
	log := "k.cu(4): error: identifier \"q\" is undefined\n    r2 = q;\n         ^\n\nother.cu(4): error: elsewhere\n1 error detected in the compilation of \"k.cu\".\n"
	out, first, ok := MapLog(log, "k.cu", src)
	if !ok || first.String() != "a b.gs:3:7" {
		t.Errorf("first = %v %v", first, ok)
	}
	want := "a b.gs:3:7: error: identifier \"q\" is undefined (generated k.cu line 4)\n    r2 = q;\n         ^\n\nother.cu(4): error: elsewhere\n1 error detected in the compilation of \"k.cu\".\n"
	if out != want {
		t.Errorf("MapLog:\n%s\nwant:\n%s", out, want)
	}
	if _, _, ok := MapLog("k.cu(1): error: x", "k.cu", src); ok {
		t.Error("a message above every marker mapped")
	}
}

// TestFastMath checks what a fast-math kernel prints: plain operators for
// --use_fast_math to contract and approximate, rsqrtf instead of a
// correctly rounded 1/sqrt; Options.FastMath and Kernel.FastMath alike.
func TestFastMath(t *testing.T) {
	k := saxpy()
	strict := mustSource(t, k, Options{})
	fast := mustSource(t, k, Options{FastMath: true})
	wantAll(t, fast, `r4 = \(r2 \* r3\);`, `r6 = \(r4 \+ r5\);`)
	wantNone(t, fast, `__f\w+_rn`)
	k.FastMath = true
	if src := mustSource(t, k, Options{}); src != fast {
		t.Errorf("Kernel.FastMath prints\n%s\nOptions.FastMath\n%s", src, fast)
	}
	if strict == fast {
		t.Error("fast and strict sources are the same")
	}
	want := map[ir.Op][2]string{
		ir.OpRsqrt: {`rsqrtf\(r\d+\)`, `rsqrt\(r\d+\)`},
		ir.OpSqrt:  {`sqrtf\(r\d+\)`, `[^_]sqrt\(r\d+\)`},
		ir.OpDiv:   {`\(r\d+ / r\d+\)`, `\(r\d+ / r\d+\)`},
	}
	for op, w := range want {
		for _, c := range irtest.Cases(op) {
			if !c.T.IsFloat() {
				continue
			}
			src := mustSource(t, c.Kernel, Options{FastMath: true})
			wantAll(t, src, w[map[ir.Type]int{ir.F32: 0, ir.F64: 1}[c.T]])
			wantNone(t, src, `__[fd]\w+_rn`)
		}
	}
}

// TestCoarsenedEntry: a small loop-free kernel gets the entry that runs
// CoarsenPer launch threads unrolled; one whose body calls a func with a
// loop (an n-body's interaction loop) does not, since the loop is its
// body too. Both declare their block to the compiler.
func TestCoarsenedEntry(t *testing.T) {
	ks := lowerScript(t, `
func total(x: array[f32]) -> f32 {
    let s: f32 = 0.0
    for j in range(len(x)) {
        s += x[j]
    }
    return s
}
kernel small(x: array[f32]) {
    x[tid()] += 1.0
}
kernel looping(x: array[f32], y: array[f32]) {
    y[tid()] = total(x)
}
`)
	unrolled := fmt.Sprintf("if (gs_dims.per == %d) {", CoarsenPer)
	bounds := fmt.Sprintf("__launch_bounds__(%d, %d)", FlatBlock, flatBlocksPerSM)
	for name, want := range map[string]bool{"small": true, "looping": false} {
		src := mustSource(t, ks[name], Options{})
		if got := strings.Contains(src, unrolled); got != want || !strings.Contains(src, bounds) {
			t.Errorf("%s: unrolled entry %v (want %v), bounds %v:\n%s", name, got, want, strings.Contains(src, bounds), src)
		}
	}
}
