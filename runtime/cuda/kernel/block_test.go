package kernel

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// copyKernel is `out[gid] = a[gid]` over block, with shared arrays.
func copyKernel(name string, block []int, shared ...ir.Buffer) *ir.Kernel {
	b := newKB(name, array("a", ir.F32), array("out", ir.F32))
	g := b.gid(len(block))
	b.st(1, b.ld(0, g), g)
	return b.kernel(block, 0, shared...)
}

// A block kernel runs exactly its block over the launch's grid, C order
// mapped to CUDA's x (last axis), y, z; it has no gs_launch parameter, and
// a changed grid repacks.
func TestBlockLaunchShape(t *testing.T) {
	k := copyKernel("k3", []int{2, 3, 16})
	if g := (&program{k: k, coarsenAt: 1}).Geometry([]int{4, 5, 6}); g != (backend.Geometry{Block: 96, Blocks: 120, PerThread: 1}) {
		t.Errorf("Geometry = %+v", g)
	}
	kk := &Kernel{src: k, layout: codegen.ParamLayout(k), args: cuda.NewArgs(2), coarsenAt: 1}
	arr := backend.Array{Data: 0x1000, Shape: [4]int{11520}, Strides: [4]int{1}}
	args := []backend.Arg{{Array: arr}, {Array: arr}}
	kk.pack([]int{4, 5, 6}, args, 120)
	if kk.grid != [3]uint32{6, 5, 4} || kk.block != [3]uint32{16, 3, 2} || kk.empty {
		t.Errorf("grid %v block %v empty %v", kk.grid, kk.block, kk.empty)
	}
	if len(kk.params) != 2 {
		t.Errorf("%d parameters, want the two arrays", len(kk.params))
	}
	if !kk.samePack([]int{4, 5, 6}, args) || kk.samePack([]int{4, 5, 7}, args) || kk.samePack([]int{4, 5}, args) {
		t.Error("the relaunch cache does not follow the grid")
	}
	kk.pack([]int{4, 5, 7}, args, 140)
	if kk.grid != [3]uint32{7, 5, 4} {
		t.Errorf("repacked grid %v", kk.grid)
	}
	// An empty grid launches nothing (and needs no driver).
	if err := kk.Launch(0, []int{4, 0, 7}, args); err != nil || !kk.empty {
		t.Errorf("empty grid: %v, empty %v", err, kk.empty)
	}
	k2 := &Kernel{src: copyKernel("k2", []int{4, 24}), layout: kk.layout, args: cuda.NewArgs(2)}
	k2.pack([]int{2, 3}, args, 6)
	if k2.grid != [3]uint32{3, 2, 1} || k2.block != [3]uint32{24, 4, 1} {
		t.Errorf("2-D: grid %v block %v", k2.grid, k2.block)
	}
}

// program.Launch checks the grid (backend.CheckLaunch) before it builds
// anything.
func TestBlockLaunchChecksGrid(t *testing.T) {
	p := &program{k: copyKernel("k2", []int{4, 24})}
	args := []backend.Arg{{}, {}}
	for _, c := range []struct {
		dims []int
		want string
	}{
		{[]int{3}, "kernel k2 has a 2-D block (block(4, 24)) and is launched over a 1-D grid"},
		{[]int{65536, 1}, "kernel k2: grid axis 0 has 65536 blocks, want 0..65535"},
		{[]int{1, -1}, "kernel k2: negative launch dimension -1"},
	} {
		if err := p.Launch(&backend.Env{}, c.dims, args); err == nil || err.Error() != c.want {
			t.Errorf("grid %v: %v, want %q", c.dims, err, c.want)
		}
	}
}

// Shared memory over the device's default needs the opt-in; over the
// opt-in limit it is an error naming both numbers.
func TestSharedBytesLimit(t *testing.T) {
	dev := &cuda.DeviceInfo{Ordinal: 0, MaxSharedMemoryPerBlock: 48 << 10, MaxSharedMemoryPerBlockOptin: 232448}
	for _, c := range []struct {
		k    *ir.Kernel
		want int
	}{
		{copyKernel("none", []int{64}), 0},
		{copyKernel("tile", []int{64}, buffer("t", ir.F32, 25600)), 102400},
		{copyKernel("full", []int{64}, buffer("t", ir.U8, 232448)), 232448},
		{blockSumKernel(256), codegen.SlotBytes},
	} {
		if n, err := sharedBytes(c.k, dev); n != c.want || err != nil {
			t.Errorf("%s: %d, %v; want %d", c.k.Entry.Name, n, err, c.want)
		}
	}
	over := copyKernel("over", []int{64}, buffer("t", ir.F32, 58113))
	_, err := sharedBytes(over, dev)
	if want := "kernel over: shared arrays need 232452 bytes per block, cuda:0 allows at most 232448"; err == nil || err.Error() != want {
		t.Errorf("over the limit: %v, want %q", err, want)
	}
}

// The reference itself, on inputs whose results are known in closed form.
func TestBlockReference(t *testing.T) {
	const n = 96
	v, ones, lanes := make([]uint64, n), make([]uint64, n), make([]int32, n)
	for i := range v {
		v[i], ones[i], lanes[i] = uint64(i+1), 1, 1
	}
	check := func(what string, got []uint64, want func(i int) uint64) {
		t.Helper()
		for i, g := range got {
			if g != want(i) {
				t.Fatalf("%s: [%d] = %d, want %d", what, i, g, want(i))
			}
		}
	}
	check("block_sum", refBlock(ir.OpBlockSum, ir.I32, v, nil), func(int) uint64 { return n * (n + 1) / 2 })
	check("block_max", refBlock(ir.OpBlockMax, ir.I64, v, nil), func(int) uint64 { return n })
	check("block_min", refBlock(ir.OpBlockMin, ir.U8, v, nil), func(int) uint64 { return 1 })
	check("warp_sum", refBlock(ir.OpWarpSum, ir.U32, v, nil), func(i int) uint64 { w := uint64(i / 32); return 32*32*w + 528 })
	check("block_scan", refBlock(ir.OpBlockScan, ir.I32, ones, nil), func(i int) uint64 { return uint64(i + 1) })
	check("block_scan_exclusive", refBlock(ir.OpBlockScanExcl, ir.U64, ones, nil), func(i int) uint64 { return uint64(i) })
	check("shfl_down", refBlock(ir.OpShflDown, ir.I32, v, lanes), func(i int) uint64 {
		if i%32 == 31 {
			return uint64(i + 1)
		}
		return uint64(i + 2)
	})
	check("block_count", refBlock(ir.OpBlockCount, ir.Bool, ones, nil), func(int) uint64 { return n })
	fv := make([]uint64, n)
	for i := range fv {
		fv[i] = b32(float32(i))
	}
	check("block_sum f32", refBlock(ir.OpBlockSum, ir.F32, fv, nil), func(int) uint64 { return b32(n * (n - 1) / 2) })
	if identity := refIdentity(ir.OpBlockMax, ir.I32); identity != 0x80000000 {
		t.Errorf("max identity of i32 %#x", identity)
	}
}

// Every kernel the GPU tests build is valid IR that codegen prints, so
// that a mistake in a test's IR shows without a GPU.
func TestBlockKernelsPrint(t *testing.T) {
	dev := &cuda.DeviceInfo{MaxSharedMemoryPerBlock: 48 << 10, MaxSharedMemoryPerBlockOptin: 232448}
	cases := blockCases(dev)
	cases = append(cases, gpuCase{k: blockSumKernel(benchThreads)})
	for _, c := range cases {
		if _, err := codegen.Source(c.k, codegen.Options{Debug: c.opts.Debug}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if _, err := sharedBytes(c.k, dev); err != nil {
			t.Error(err)
		}
	}
	t.Logf("%d kernels", len(cases))
}
