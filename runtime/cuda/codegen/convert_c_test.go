package codegen

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// convShim lets the generated helpers compile as host C++: they use no
// CUDA intrinsic, only guarded C casts, so gcc runs exactly their text.
const convShim = `#include <cstdio>
#include <cstring>
#define __device__
#define __forceinline__ inline
`

// convEdgeFloats are the float inputs of the C helper test.
var convEdgeFloats = []float64{0, math.Copysign(0, -1), -0.5, 0.5, -1.5, 2.9, 255, 256, 300, -1, 3e9, -3e9,
	2147483647, 2147483648, -2147483648, -2147483649, 4294967295, 4294967296, 1 << 53, 1<<53 + 2,
	9223372036854775807, 9223372036854775808, -9223372036854775808, 1.5e19, 18446744073709551615, 1e19, 2e19,
	1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, 0.1}

// convEdgeInts are the integer bit patterns of the C helper test.
var convEdgeInts = []uint64{0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fffffff, 0x80000000, 0xffffffff, 3000000000,
	1<<53 + 1, 1<<63 - 1, 1 << 63, math.MaxUint64, 0xffffffff00000005}

// convInputsFor returns the raw bits of the test inputs as a from.
func convInputsFor(from ir.Type) []uint64 {
	var in []uint64
	switch {
	case from == ir.Bool:
		return []uint64{0, 1}
	case from.IsFloat():
		for _, f := range convEdgeFloats {
			in = append(in, ir.FromFloat(f, from))
		}
	default:
		for _, b := range convEdgeInts {
			in = append(in, ir.Convert(b, ir.U64, from)) // the low bits, as a register of from holds them
		}
	}
	return in
}

// TestConvertHelpersMatchIR compiles the C that codegen emits for every
// conversion (the gs_f2* helpers and the casts around them) with the host
// C++ compiler and compares its results on edge values with ir.Convert.
func TestConvertHelpersMatchIR(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to compile the conversion helpers")
	}
	g := &gen{k: &ir.Kernel{Entry: &ir.Func{Name: "k"}}, need: map[string]bool{}, ids: map[*ir.Inst]int{}}
	g.f = g.k.Entry
	var body, want strings.Builder
	types := ir.Scalars.Types()
	for _, from := range types {
		for _, to := range types {
			expr, err := g.convert(&ir.Inst{Op: ir.OpConvert}, to, "x", from)
			if err != nil {
				t.Fatalf("%s -> %s: %v", from, to, err)
			}
			fc, _ := ctype(from)
			tc, _ := ctype(to)
			fmt.Fprintf(&body, "static unsigned long long cv_%s_%s(unsigned long long b) {\n"+
				"  %s x; memcpy(&x, &b, sizeof x); %s y = %s;\n"+
				"  unsigned long long r = 0; memcpy(&r, &y, sizeof y); return r;\n}\n", from, to, fc, tc, expr)
			for _, b := range convInputsFor(from) {
				fmt.Fprintf(&want, "%s %s %#x %#x\n", from, to, b, ir.Convert(b, from, to))
			}
		}
	}
	var src strings.Builder
	src.WriteString(convShim)
	for _, h := range helpers {
		if g.need[h.name] {
			src.WriteString(h.text)
		}
	}
	src.WriteString(body.String())
	src.WriteString("int main() {\n")
	for _, from := range types {
		for _, to := range types {
			for _, b := range convInputsFor(from) {
				fmt.Fprintf(&src, "  printf(\"%s %s %%#llx %%#llx\\n\", %#xull, cv_%s_%s(%#xull));\n", from, to, b, from, to, b)
			}
		}
	}
	src.WriteString("  return 0;\n}\n")
	dir := t.TempDir()
	file, bin := filepath.Join(dir, "conv.cc"), filepath.Join(dir, "conv")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cxx, "-O2", "-std=c++17", "-o", bin, file).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	got, exp := strings.Split(string(out), "\n"), strings.Split(want.String(), "\n")
	if len(got) != len(exp) {
		t.Fatalf("%d result lines, want %d", len(got), len(exp))
	}
	for i := range got {
		if norm(got[i]) != norm(exp[i]) {
			t.Errorf("C gives %q, ir.Convert %q", got[i], exp[i])
		}
	}
}

// norm spells printf's "0" (%#llx of zero) as Go's "0x0".
func norm(line string) string {
	f := strings.Fields(line)
	for i := 2; i < len(f); i++ {
		if v, err := strconv.ParseUint(strings.TrimPrefix(f[i], "0x"), 16, 64); err == nil {
			f[i] = strconv.FormatUint(v, 16)
		}
	}
	return strings.Join(f, " ")
}
