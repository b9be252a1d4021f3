package stdlib_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/dist"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// The NCCL tests need a GPU (they skip without one) and NCCL, which the
// GPU machines have: without it they fail, naming what to install.

// distInterp is an interpreter placed as rank of world on dev, against
// the store at addr.
func distInterp(t *testing.T, rank, world int, addr, dev string, out *strings.Builder) *interp.Interp {
	t.Helper()
	cfg := &dist.Config{Rank: rank, WorldSize: world, LocalRank: rank, LocalWorldSize: world, Master: addr, AgentStore: true}
	in, err := interp.New(interp.Options{Stdout: out, Device: dev, Predeclared: stdlib.Universe(), Dist: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

func needNCCL(t *testing.T) {
	t.Helper()
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	if _, err := cuda.LoadNCCL(); err != nil {
		t.Fatal(err)
	}
}

func testStore(t *testing.T) string {
	st, err := dist.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st.Addr().String()
}

// ncclWorldOne is every collective on every dtype through NCCL at world
// size 1 (each leaves its array as it is), then all_reduce captured with
// a kernel and replayed.
const ncclWorldOne = `
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}

fn expect(what, got, want) {
    if !array_equal(got.to("cpu"), want.to("cpu")) {
        error(format("%s: got %v, want %v", what, got, want))
    }
}

for t in [bool, u8, i32, i64, u32, u64, f32, f64] {
    let want = (arange(5) % 2).astype(t)
    let x = want.to(want.device)
    for op in ["sum", "prod", "min", "max"] {
        all_reduce(x, op=op)
        expect(str(t) + " " + op, x, want)
    }
    broadcast(x, root=0)
    reduce(x, root=0, op="max")
    expect(str(t) + " broadcast, reduce", x, want)
    let g = all_gather(x)
    expect(str(t) + " all_gather", g, want.reshape([1, 5]))
    let s = reduce_scatter(ones([4, 2], dtype=t))
    expect(str(t) + " reduce_scatter", s, ones([4, 2], dtype=t))
}
let a = full(1 << 20, 1.5)
all_reduce(a, op="avg")
expect("avg", a, full(1 << 20, 1.5))
let y = zeros(1000)
capture g {
    launch addone[1000](y)
    all_reduce(y)
}
replay(g, 10)
synchronize()
print(y.device, sum(y))
`

func TestNCCLWorldOne(t *testing.T) {
	needNCCL(t)
	var out strings.Builder
	in := distInterp(t, 0, 1, testStore(t), "cuda:0", &out)
	if err := in.Exec(context.Background(), "nccl.gs", []byte(ncclWorldOne)); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "cuda:0 10000.0\n" {
		t.Errorf("got %q", got)
	}
}

// TestNCCLTwoRanksOneGPU: two ranks on one GPU are refused on both, with
// the remedy, before NCCL is asked (it would refuse: "Duplicate GPU").
func TestNCCLTwoRanksOneGPU(t *testing.T) {
	needNCCL(t)
	addr := testStore(t)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for r := range 2 {
		var out strings.Builder
		in := distInterp(t, r, 2, addr, "cuda:0", &out)
		wg.Go(func() { errs[r] = in.Exec(context.Background(), "two.gs", []byte("let x = ones(4)\nall_reduce(x)\n")) })
	}
	wg.Wait()
	for r, err := range errs {
		var ee *interp.EvalError
		if !errors.As(err, &ee) || !strings.Contains(err.Error(), "ranks 0 and 1 both use one GPU") || !strings.Contains(err.Error(), "or use cpu arrays") {
			t.Errorf("rank %d: %v", r, err)
		}
	}
}

// TestDistDefaultDevice: a rank's default device is cuda:LOCAL_RANK when
// the node has a GPU for each of its ranks, else cpu.
func TestDistDefaultDevice(t *testing.T) {
	n := mem.CUDADeviceCount()
	if n == 0 {
		t.Skip("no CUDA device")
	}
	for _, tc := range []struct {
		local, localWorld int
		want              string
	}{{0, 1, "cuda:0"}, {n - 1, n, "cuda:" + strconv.Itoa(n-1)}, {0, n + 1, "cpu"}} {
		cfg := &dist.Config{Rank: tc.local, WorldSize: tc.localWorld, LocalRank: tc.local, LocalWorldSize: tc.localWorld, Master: "127.0.0.1:1"}
		in, err := interp.New(interp.Options{Predeclared: stdlib.Universe(), Dist: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if got := in.Thread().DefaultDevice().String(); got != tc.want {
			t.Errorf("local rank %d of %d on %d GPUs: %s, want %s", tc.local, tc.localWorld, n, got, tc.want)
		}
		in.Close()
	}
}
