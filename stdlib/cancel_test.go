package stdlib_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestLongCPUCallsStopAtDeadline runs each long cpu call under an
// embedder's 100 ms deadline, after a setup without one: the call must
// return the interruption (not run to the end, which takes far longer
// than 100 ms on any machine: a 6000^3 product, 216e9 multiply-adds;
// 2^30 kernel threads; 2^26 elements through eight transcendental
// functions (the kernels) or through 200 arithmetic ops (fuse's host
// path); a 16M-line CSV; a sort of 2^26 distinct f32, four full radix
// passes) and do so within stopSlack of the deadline. The calls poll
// every few milliseconds (docs/benchmarks.md quotes how soon they stop:
// under 100 ms on the idle 2-core machine); the slack is for a loaded
// 2-core CI machine, where timing is not the test's to judge.
func TestLongCPUCallsStopAtDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates and computes for a while")
	}
	dir := t.TempDir()
	csv := filepath.Join(dir, "big.csv")
	if err := os.WriteFile(csv, []byte(strings.Repeat("1.5,2.5\n", 16<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, setup, long string }{
		{"matmul", "array a: f32[6000, 6000] = 1.0", "let c = matmul(a, a)"},
		{"launch", `kernel spin(y: array[f32]) {
    let i = tid()
    y[i % 1024] = sqrt(f32(i)) + sin(f32(i))
}
array y: f32[1024] = 0.0`, "launch spin[1 << 30](y)"},
		{"expression", "array x: f32[1 << 26] = 0.5", "let z = sin(cos(sin(cos(sin(cos(exp(sqrt(x))))))))"},
		{"host expression", "array x: f32[1 << 26] = 0.5", "let z = x" + strings.Repeat(" + x * 2.0", 100)},
		{"load_text", fmt.Sprintf("let path = %q", csv), "let t = load_text(path)"},
		{"sort", "let x = rand(1 << 26)", "let s = sort(x)"}, // 1.6 s on the 2-core machine
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe(), Files: interp.AllFiles()})
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if err := in.Exec(context.Background(), "setup.gs", []byte(tc.setup)); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			err = in.Exec(ctx, "long.gs", []byte(tc.long))
			late := time.Since(deadline(ctx))
			if err == nil || !strings.Contains(err.Error(), "interrupted") || late > stopSlack {
				t.Fatalf("%s: %v, %v after the deadline", tc.name, err, late)
			}
			t.Logf("%s: stopped %v after the deadline", tc.name, late)
		})
	}
}

// stopSlack bounds how late after its deadline a long call may return.
const stopSlack = 10 * time.Second

func deadline(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}

// TestMatmulStepBudget: a cpu product spends MaxKernelSteps one step per
// multiply-add, so an embedder's budget bounds it as it bounds kernels.
func TestMatmulStepBudget(t *testing.T) {
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe(), MaxKernelSteps: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := "array a: f32[64, 64] = 1.0\nlet c = matmul(a, a)\narray b: f32[256, 256] = 1.0\nlet d = matmul(b, b)"
	err = in.Exec(context.Background(), "budget.gs", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "budget.gs:4") || !strings.Contains(err.Error(), "step budget") {
		t.Fatalf("a 256^3 product under a budget of 1e6 steps: %v", err)
	}
}
