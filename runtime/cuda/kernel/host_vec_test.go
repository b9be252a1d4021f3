package kernel

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// vecBuilds are the builds the vector tests compare with the cpu: the
// scalar ones and the Vector ones over each offset form.
var vecBuilds = []codegen.Options{
	{}, {UnitStride: true, Index32: true},
	{Vector: true}, {UnitStride: true, Vector: true}, {UnitStride: true, Index32: true, Vector: true},
}

// hostVecRun is one case of vecCases built with opts for the host.
type hostVecRun struct {
	c    vecCase
	k    *ir.Kernel
	opts codegen.Options
}

// hostVecSource is a translation unit running the generated C of runs
// ids on hostShim: run i's main(i, files...) reads every parameter from
// its file (C order, of the case's shapes), launches the case's 64
// threads and writes every parameter back.
func hostVecSource(runs []hostVecRun, ids []int) (string, error) {
	var b strings.Builder
	b.WriteString(hostShim)
	for _, i := range ids {
		r := runs[i]
		src, err := codegen.Source(r.k, r.opts)
		if err != nil {
			return "", fmt.Errorf("%s: %v", r.c.name, err)
		}
		if r.opts.Vector && r.c.vector && !strings.Contains(src, "gs_v = ") {
			return "", fmt.Errorf("%s %+v: no vector access in\n%s", r.c.name, r.opts, src)
		}
		fmt.Fprintf(&b, "\nnamespace k%d {\nalignas(16) unsigned char gs_smem[%d];\n", i, codegen.SharedBytes(r.k)+16)
		b.WriteString(strings.ReplaceAll(src, `extern "C" `, ""))
		b.WriteString("int run(char** argv) {\n")
		var args []string
		for j, shape := range r.c.shapes {
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
		if !r.k.IsBlock() {
			n := [4]int{1, 1, 1, 1}
			copy(n[:], r.c.dims)
			fmt.Fprintf(&b, "  gs_launch gs_l = {{%d, %d, %d, %d}, %d, 1};\n", n[0], n[1], n[2], n[3], prod(r.c.dims))
			args = append(args, "gs_l")
		}
		fmt.Fprintf(&b, "  gs_host_launch(dim3{1, 1, 1}, dim3{64, 1, 1}, [&] { %s(%s); });\n", codegen.EntryName(r.k), strings.Join(args, ", "))
		for j := range r.c.shapes {
			fmt.Fprintf(&b, "  gs_host_write(argv[%d], b%d);\n", j, j)
		}
		b.WriteString("  return 0;\n}\n}\n")
	}
	b.WriteString("\nint main(int argc, char** argv) {\n  switch (atoi(argv[1])) {\n")
	for _, i := range ids {
		fmt.Fprintf(&b, "  case %d: return k%d::run(argv + 2);\n", i, i)
	}
	b.WriteString("  }\n  return 2;\n}\n")
	return b.String(), nil
}

// TestVectorAccessesOnHost compiles the scalar and Vector builds of
// vecCases with g++ against hostShim, runs each on random values and
// compares every parameter afterwards with the cpu's bit for bit: the
// vector loads and stores (float4, int2, double2 ... through their
// element's first lane) move the lanes the scalar accesses do.
func TestVectorAccessesOnHost(t *testing.T) {
	cxx := hostCXX(t, "compiles and runs about 70 kernels on the host")
	ks := kernels(t, vecSource)
	var runs []hostVecRun
	for _, c := range vecCases {
		for _, opts := range vecBuilds {
			runs = append(runs, hostVecRun{c: c, k: ks[c.name], opts: opts})
		}
	}
	exes := compileHostParts(t, cxx, "vec", "-O1", len(runs), func(ids []int) (string, error) { return hostVecSource(runs, ids) })
	if exes == nil {
		return
	}
	dir := t.TempDir()
	compared := 0
	for i, r := range runs {
		in := vecInputs(r.k, r.c, uint64(i/len(vecBuilds)))
		want := vecOnCPU(t, r.k, r.c, in)
		argv := []string{fmt.Sprint(i)}
		for j := range in {
			f := filepath.Join(dir, fmt.Sprintf("p%d", j))
			if err := os.WriteFile(f, in[j], 0o644); err != nil {
				t.Fatal(err)
			}
			argv = append(argv, f)
		}
		if out, err := exec.Command(exes[i%hostParts], argv...).CombinedOutput(); err != nil {
			t.Fatalf("host run of %s %+v: %v\n%s", r.c.name, r.opts, err, out)
		}
		for j := range in {
			got, err := os.ReadFile(argv[j+1])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want[j]) {
				t.Errorf("%s %+v: parameter %d differs from the cpu's", r.c.name, r.opts, j)
			}
			compared += len(got)
		}
	}
	t.Logf("%d builds run on the host, %d bytes compared bit for bit", len(runs), compared)
}
