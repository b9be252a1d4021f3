package kernel

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// hostField is one field case built with opts for the host.
type hostField struct {
	c    irtest.Case
	opts codegen.Options
}

// hostFieldSource is a translation unit running the generated C of the
// field cases fs on hostShim: case i's run(a, out) reads both arrays from
// files (C order, of the case's shapes), launches 64 threads (one block
// of a block kernel, a 64-thread flat launch otherwise) and writes out
// back.
func hostFieldSource(fs []hostField, ids []int) (string, error) {
	var b strings.Builder
	b.WriteString(hostShim)
	for _, i := range ids {
		c := fs[i].c
		src, err := codegen.Source(c.Kernel, fs[i].opts)
		if err != nil {
			return "", fmt.Errorf("%s: %v", c, err)
		}
		fmt.Fprintf(&b, "\nnamespace k%d {\nalignas(16) unsigned char gs_smem[%d];\n", i, codegen.SharedBytes(c.Kernel)+16)
		b.WriteString(strings.ReplaceAll(src, `extern "C" `, ""))
		b.WriteString("int run(char** argv) {\n")
		var args []string
		for j := range c.Kernel.Entry.Params {
			shape := c.Shape(j)
			strides := make([]string, len(shape))
			st := 1
			for ax := len(shape) - 1; ax >= 0; ax-- {
				strides[ax] = fmt.Sprint(st)
				st *= shape[ax]
			}
			dims := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(shape)), ", "), "[]")
			fmt.Fprintf(&b, "  std::vector<unsigned char> b%d = gs_host_read(argv[%d]);\n", j, j)
			fmt.Fprintf(&b, "  gs_array%d a%d = {(unsigned long long)b%d.data(), {%s}, {%s}};\n", len(shape), j, j, dims, strings.Join(strides, ", "))
			args = append(args, fmt.Sprintf("a%d", j))
		}
		if !c.Kernel.IsBlock() {
			b.WriteString("  gs_launch gs_l = {{64, 1, 1, 1}, 64, 1};\n")
			args = append(args, "gs_l")
		}
		fmt.Fprintf(&b, "  gs_host_launch(dim3{1, 1, 1}, dim3{64, 1, 1}, [&] { %s(%s); });\n", codegen.EntryName(c.Kernel), strings.Join(args, ", "))
		b.WriteString("  gs_host_write(argv[1], b1);\n  return 0;\n}\n}\n")
	}
	b.WriteString("\nint main(int argc, char** argv) {\n  switch (atoi(argv[1])) {\n")
	for _, i := range ids {
		fmt.Fprintf(&b, "  case %d: return k%d::run(argv + 2);\n", i, i)
	}
	b.WriteString("  }\n  return 2;\n}\n")
	return b.String(), nil
}

// TestFieldCasesOnHost compiles the generated C of every field case of
// lang/ir/irtest (and the unit-stride variant of those on parameters)
// with g++ against hostShim, runs each on random bytes and compares out
// with the cpu's bit for bit: the typed accesses at byte offsets, the
// index arithmetic of 1-D and 2-D arrays of structs, the shared carve-up
// and the aligned local arrays, as TestGPUFieldCases does on a GPU.
func TestFieldCasesOnHost(t *testing.T) {
	cxx := hostCXX(t, "compiles and runs about 100 kernels on the host")
	var fs []hostField
	for _, op := range []ir.Op{ir.OpLoadField, ir.OpStoreField} {
		for _, c := range irtest.Cases(op) {
			fs = append(fs, hostField{c: c})
			if c.Space == ir.SpaceParam {
				fs = append(fs, hostField{c: c, opts: codegen.Options{UnitStride: true}},
					hostField{c: c, opts: codegen.Options{Index32: true}})
			}
		}
	}
	exes := compileHostParts(t, cxx, "field", "-O0", len(fs), func(ids []int) (string, error) { return hostFieldSource(fs, ids) })
	if exes == nil {
		return
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	compared := 0
	for i, f := range fs {
		c := f.c
		dims := []int{64}
		if c.Kernel.IsBlock() {
			dims = []int{1}
		}
		a := make([]byte, prod(c.Shape(0)))
		for k := range a {
			a[k] = byte(rng.IntN(256))
		}
		want := fieldOnCPU(t, c, dims, a)
		fa, fo := filepath.Join(dir, "a"), filepath.Join(dir, "out")
		if err := os.WriteFile(fa, a, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fo, make([]byte, len(a)), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(exes[i%hostParts], fmt.Sprint(i), fa, fo).CombinedOutput(); err != nil {
			t.Fatalf("host run of %s: %v\n%s", c, err, out)
		}
		got, err := os.ReadFile(fo)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s %+v: the host's bytes differ from the cpu's", c, f.opts)
		}
		compared += len(want)
	}
	t.Logf("%d field kernels run on the host, %d bytes compared bit for bit", len(fs), compared)
}
