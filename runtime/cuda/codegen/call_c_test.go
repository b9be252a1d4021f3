package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
)

// callShim lets a whole generated kernel compile as host C++: the CUDA
// qualifiers vanish, the index registers the __global__ entry reads are
// zero, and the rounding intrinsics are the host's IEEE operations.
const callShim = `#include <cstdio>
#define __device__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(...)
struct gs_dim3 { unsigned int x, y, z; };
static gs_dim3 blockIdx, blockDim, threadIdx;
static float __fadd_rn(float a, float b) { return a + b; }
static float __fsub_rn(float a, float b) { return a - b; }
static float __fmul_rn(float a, float b) { return a * b; }
static double __dadd_rn(double a, double b) { return a + b; }
static double __dsub_rn(double a, double b) { return a - b; }
static double __dmul_rn(double a, double b) { return a * b; }
`

// TestMultiResultCallsOnHost prints irtest's calls of funcs with several
// results (result structs, their unpacking, dropped results, early
// returns of several values), compiles the C with the host C++ compiler,
// runs the entry's body for every launch thread and checks the outputs
// against each case's Want: the text the GPU tests hand to NVRTC, run.
func TestMultiResultCallsOnHost(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to compile the generated C")
	}
	const n = 200
	for _, c := range irtest.Calls() {
		k := c.Kernel
		src := mustSource(t, k, Options{})
		var main strings.Builder
		fmt.Fprintf(&main, "int main() {\n  const int n = %d;\n", n)
		var args []string
		for i, p := range k.Entry.Params {
			ct, _ := ctype(p.Elem)
			fmt.Fprintf(&main, "  static %s d%d[n];\n", ct, i)
			fmt.Fprintf(&main, "  gs_array1 a%d = {(unsigned long long)d%d, {n}, {1}};\n", i, i)
			args = append(args, fmt.Sprintf("a%d", i))
		}
		main.WriteString("  for (int i = 0; i < n; i++) d0[i] = i % 70;\n")
		main.WriteString("  gs_launch dims = {{n, 1, 1, 1}, n, 1};\n")
		fmt.Fprintf(&main, "  for (long long i = 0; i < n; i++) %s_body(%s, dims, i);\n", EntryName(k), strings.Join(args, ", "))
		main.WriteString("  for (int i = 0; i < n; i++) {\n")
		for i := 1; i < len(k.Entry.Params); i++ {
			fmt.Fprintf(&main, "    printf(\"%%.17g \", (double)d%d[i]);\n", i)
		}
		main.WriteString("    printf(\"\\n\");\n  }\n  return 0;\n}\n")
		dir := t.TempDir()
		file, bin := filepath.Join(dir, "k.cc"), filepath.Join(dir, "k")
		if err := os.WriteFile(file, []byte(callShim+src+main.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(cxx, "-O1", "-ffp-contract=off", "-std=c++17", "-o", bin, file).CombinedOutput(); err != nil {
			t.Fatalf("%s: g++: %v\n%s\n%s", c, err, out, src)
		}
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != n {
			t.Fatalf("%s: %d output lines, want %d", c, len(lines), n)
		}
		for i, line := range lines {
			want := c.Want(float64(i % 70))
			got := strings.Fields(line)
			if len(got) != len(want) {
				t.Fatalf("%s: line %d is %q, want %d values", c, i, line, len(want))
			}
			for j, w := range want {
				if g, err := strconv.ParseFloat(got[j], 64); err != nil || g != w {
					t.Fatalf("%s: %s[%d] = %s, want %v\n%s", c, k.Entry.Params[j+1].Name, i, got[j], w, src)
				}
			}
		}
	}
}

// TestMultiResultFuncText: a func of several results returns a struct
// declared before its prototype, every return builds it, and a call
// unpacks the members its Dsts keep; one result stays a scalar return.
func TestMultiResultFuncText(t *testing.T) {
	cases := map[string][]string{
		"f32x3": {
			`struct gs_f0_spread_res \{ float v0; float v1; float v2; \};\nstatic __device__ gs_f0_spread_res gs_f0_spread\(float p0_v\);`,
			`return gs_f0_spread_res\{r0, r1, r2\};`,
			`\{\n\s+gs_f0_spread_res gs_res = gs_f0_spread\(r4\);\n\s+r1 = gs_res\.v0;\n\s+r2 = gs_res\.v1;\n\s+r3 = gs_res\.v2;\n\s+\}`,
		},
		"f64_i32": {`struct gs_f0_parts_res \{ double v0; int v1; \};`},
		"dropped": {
			`\n\s+gs_f0_spread\(r1\);\n`,
			`gs_res = gs_f0_spread\(r1\);\n\s+r2 = gs_res\.v1;\n\s+\}`,
		},
		"early": {`return gs_f0_find_res\{r0, r3\};`, `return gs_f0_find_res\{r4, r10\};`, `return gs_f0_find_res\{r12, r13\};\n\}`},
	}
	for _, c := range irtest.Calls() {
		src := mustSource(t, c.Kernel, Options{})
		wantAll(t, src, cases[c.Name]...)
		if c.Name == "dropped" {
			wantNone(t, src, `gs_res\.v[02]`)
		}
	}
	// A func of several results whose body ends in an if gets the
	// unreachable fallback return of a zeroed struct.
	k := irtest.Calls()[0].Kernel
	g := k.Funcs[0]
	g.Body = []ir.Stmt{&ir.If{Cond: g.NewReg(ir.Bool), Then: g.Body}}
	wantAll(t, mustSource(t, k, Options{}), `\}\n\s+return gs_f0_spread_res\{\};\n\}`)
}
