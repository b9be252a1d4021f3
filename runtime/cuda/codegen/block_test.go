package codegen

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// index emits a block index op (thread_id, block_id, ...) of axis.
func (b *fb) index(op ir.Op, axis int) ir.Reg {
	d := b.f.NewReg(ir.I32)
	b.inst(&ir.Inst{Op: op, Dst: d, Imm: int64(axis)})
	return d
}

// access emits a load (value NoReg) or a store of a shared or local array.
func (b *fb) access(sp ir.Space, i int, t ir.Type, value ir.Reg, idx ...ir.Reg) ir.Reg {
	if value != ir.NoReg {
		b.inst(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: i, Space: sp, Args: append(idx, value)})
		return ir.NoReg
	}
	d := b.f.NewReg(t)
	b.inst(&ir.Inst{Op: ir.OpLoad, Dst: d, Param: i, Space: sp, Args: idx})
	return d
}

func (b *fb) blockKernel(block []int, tidDims int, shared ...ir.Buffer) *ir.Kernel {
	return &ir.Kernel{Entry: b.f, TidDims: tidDims, Block: block, Shared: shared}
}

func buf(name string, t ir.Type, dims ...int) ir.Buffer {
	return ir.Buffer{Name: name, Elem: t, Dims: dims}
}

// geometryKernel stores every index op of a rank-len(block) block kernel.
func geometryKernel(block []int) *ir.Kernel {
	b := newFunc("geo", arr("out", ir.I32, 1))
	i := b.tid(0)
	for a := range block {
		for _, op := range []ir.Op{ir.OpThreadId, ir.OpBlockId, ir.OpBlockDim, ir.OpGridDim} {
			b.store(0, i, b.index(op, a))
		}
		if a > 0 {
			b.store(0, i, b.tid(a))
		}
	}
	b.store(0, i, b.op(ir.OpLaneId, ir.I32))
	b.store(0, i, b.op(ir.OpWarpId, ir.I32))
	return b.blockKernel(block, len(block))
}

// The block's axes are C order: the last is CUDA's x, so a 2-D block's
// axis 0 is y and a 3-D block's is z, for blocks and grids alike; there is
// no coarsening loop and no gs_launch parameter.
func TestBlockGeometry(t *testing.T) {
	src := mustSource(t, geometryKernel([]int{4, 24}), Options{})
	wantAll(t, src,
		`extern "C" __global__ void __launch_bounds__\(96\) gs_geo\(gs_array1 p0_out\) \{`,
		`int gs_tid0 = \(int\)\(blockIdx\.y \* 4u \+ threadIdx\.y\);`,
		`int gs_tid1 = \(int\)\(blockIdx\.x \* 24u \+ threadIdx\.x\);`,
		`int gs_thread = \(int\)\(threadIdx\.x \+ 24u \* threadIdx\.y\);\n\s+int gs_lane = gs_thread & 31;\n\s+int gs_warp = gs_thread >> 5;`,
		`r\d+ = \(int\)threadIdx\.y;\n.*\n\s+r\d+ = \(int\)blockIdx\.y;\n.*\n\s+r\d+ = 4;\n.*\n\s+r\d+ = \(int\)gridDim\.y;`,
		`r\d+ = \(int\)threadIdx\.x;\n.*\n\s+r\d+ = \(int\)blockIdx\.x;\n.*\n\s+r\d+ = 24;\n.*\n\s+r\d+ = \(int\)gridDim\.x;`,
		`r\d+ = gs_lane;`, `r\d+ = gs_warp;`,
		`Block kernel: launched with block \[4 24\]`,
	)
	wantNone(t, src, `gs_launch gs_dims`, `gs_first`, `gs_lin`, `gs_dims\.per`, `_body\(`, `gs_smem`)

	src = mustSource(t, geometryKernel([]int{2, 3, 16}), Options{})
	wantAll(t, src,
		`__launch_bounds__\(96\)`,
		`int gs_tid0 = \(int\)\(blockIdx\.z \* 2u \+ threadIdx\.z\);`,
		`int gs_tid1 = \(int\)\(blockIdx\.y \* 3u \+ threadIdx\.y\);`,
		`int gs_tid2 = \(int\)\(blockIdx\.x \* 16u \+ threadIdx\.x\);`,
		`int gs_thread = \(int\)\(threadIdx\.x \+ 16u \* \(threadIdx\.y \+ 3u \* threadIdx\.z\)\);`,
		`r\d+ = \(int\)threadIdx\.z;\n.*\n\s+r\d+ = \(int\)blockIdx\.z;\n.*\n\s+r\d+ = 2;\n.*\n\s+r\d+ = \(int\)gridDim\.z;`,
	)
	src = mustSource(t, geometryKernel([]int{64}), Options{})
	wantAll(t, src, `int gs_tid0 = \(int\)\(blockIdx\.x \* 64u \+ threadIdx\.x\);`, `int gs_thread = \(int\)threadIdx\.x;`)

	k := geometryKernel([]int{64})
	k.MinBlocks = 4
	wantAll(t, mustSource(t, k, Options{}), `__launch_bounds__\(64, 4\) gs_geo\(`)

	if got := ParamLayout(geometryKernel([]int{64})); len(got) != 1 || got[0].Class != ParamArray {
		t.Errorf("block kernel layout %v, want the array alone", got)
	}
}

// Shared arrays are carved from one dynamic shared byte array at the
// 16-byte aligned offsets of ir.Kernel.SharedBytes, with the collectives'
// slots after them; indices are C order over the static extents.
func TestSharedCarveUp(t *testing.T) {
	b := newFunc("carve", arr("out", ir.F32, 1))
	i := b.tid(0)
	ty, tx := b.index(ir.OpThreadId, 0), b.index(ir.OpThreadId, 1)
	v := b.access(ir.SpaceShared, 2, ir.F32, ir.NoReg, ty, tx)
	b.access(ir.SpaceShared, 2, ir.F32, v, tx, ty)
	b.store(0, i, b.op(ir.OpBlockSum, ir.F32, v))
	k := b.blockKernel([]int{2, 32}, 2, buf("flags", ir.U8, 3), buf("acc", ir.F64, 5), buf("tile", ir.F32, 2, 7))
	if k.SharedBytes() != 64+56 || SharedBytes(k) != 128+SlotBytes {
		t.Fatalf("SharedBytes %d, with slots %d", k.SharedBytes(), SharedBytes(k))
	}
	src := mustSource(t, k, Options{})
	wantAll(t, src,
		`extern __shared__ __align__\(16\) unsigned char gs_smem\[\];\n`+
			`\s+unsigned char\* gs_s0_flags = \(unsigned char\*\)\(gs_smem \+ 0\);\n`+
			`\s+double\* gs_s1_acc = \(double\*\)\(gs_smem \+ 16\);\n`+
			`\s+float\* gs_s2_tile = \(float\*\)\(gs_smem \+ 64\);\n`+
			`\s+unsigned char\* gs_slots = gs_smem \+ 128;\n`,
		`r\d+ = \*\(gs_s2_tile \+ \(\(int\)r1 \* 7 \+ \(int\)r2\)\);`,
		`\*\(gs_s2_tile \+ \(\(int\)r2 \* 7 \+ \(int\)r1\)\) = r\d+;`,
		`r\d+ = gs_block_sum_f32\(r\d+, gs_lane, gs_warp, 2, \(float\*\)gs_slots\);`,
		`384 bytes of dynamic shared memory`,
	)
	// Without a collective that needs them there are no slots.
	b = newFunc("plain", arr("out", ir.I32, 1))
	i = b.tid(0)
	b.access(ir.SpaceShared, 0, ir.I32, i, i)
	b.store(0, i, b.op(ir.OpBlockCount, ir.I32, b.op(ir.OpEq, ir.Bool, i, i)))
	k = b.blockKernel([]int{64}, 1, buf("s", ir.I32, 64))
	if SharedBytes(k) != 256 {
		t.Errorf("SharedBytes = %d, want 256 (no slots)", SharedBytes(k))
	}
	src = mustSource(t, k, Options{})
	wantAll(t, src, `r\d+ = __syncthreads_count\(r\d+\);`)
	wantNone(t, src, `gs_slots`, `gs_lane`)
	if SharedBytes(saxpy()) != 0 {
		t.Error("a flat kernel needs shared memory")
	}
}

// The block collectives are generated helpers in the order of lang/ir's
// doc.go; only those a kernel uses are printed, each once, after the
// helpers it calls.
func TestCollectiveHelpers(t *testing.T) {
	b := newFunc("red", arr("x", ir.F32, 1), arr("out", ir.F32, 1))
	i := b.tid(0)
	x := b.load(0, i)
	s := b.op(ir.OpBlockSum, ir.F32, x)
	b.store(1, i, b.op(ir.OpBlockSum, ir.F32, b.op(ir.OpWarpSum, ir.F32, s)))
	src := mustSource(t, b.blockKernel([]int{128}, 1), Options{})
	const want = `
static __device__ __forceinline__ float gs_warp_sum_f32(float v) {
  { float o = __shfl_xor_sync(0xffffffffu, v, 16); v = __fadd_rn(v, o); }
  { float o = __shfl_xor_sync(0xffffffffu, v, 8); v = __fadd_rn(v, o); }
  { float o = __shfl_xor_sync(0xffffffffu, v, 4); v = __fadd_rn(v, o); }
  { float o = __shfl_xor_sync(0xffffffffu, v, 2); v = __fadd_rn(v, o); }
  { float o = __shfl_xor_sync(0xffffffffu, v, 1); v = __fadd_rn(v, o); }
  return v;
}

static __device__ __forceinline__ float gs_block_sum_f32(float v, int lane, int warp, int warps, float* slots) {
  float w = gs_warp_sum_f32(v);
  __syncthreads();
  if (lane == 0) slots[warp] = w;
  __syncthreads();
  return gs_warp_sum_f32(lane < warps ? slots[lane] : 0.0f);
}

extern "C"`
	if !strings.Contains(src, want) {
		t.Errorf("helpers are not as doc.go orders them:\n%s", src)
	}
	if n := strings.Count(src, "gs_warp_sum_f32(float v) {"); n != 1 {
		t.Errorf("gs_warp_sum_f32 printed %d times", n)
	}
	wantAll(t, src, `r\d+ = gs_block_sum_f32\(r\d+, gs_lane, gs_warp, 4, \(float\*\)gs_slots\);`, `r\d+ = gs_warp_sum_f32\(r\d+\);`)
	wantNone(t, src, `gs_scan`, `gs_shfl_`, `gs_block_min`, `gs_f2`)

	b = newFunc("scan", arr("x", ir.I64, 1), arr("out", ir.I64, 1))
	i = b.tid(0)
	x = b.load(0, i)
	b.store(1, i, b.op(ir.OpBlockScanExcl, ir.I64, b.op(ir.OpBlockScan, ir.I64, x)))
	src = mustSource(t, b.blockKernel([]int{64}, 1), Options{})
	wantAll(t, src,
		`(?s)gs_warp_scan_i64.*gs_scan_prefix_i64.*gs_block_scan_i64\(long long v.*gs_block_scan_excl_i64\(long long v.*__global__`,
		`\{ long long u = __shfl_up_sync\(0xffffffffu, s, 16\); if \(lane >= 16\) s = \(long long\)\(\(unsigned long long\)u \+ \(unsigned long long\)s\); \}`,
		`if \(lane == 31\) slots\[warp\] = s;`,
		`for \(int i = 1; i < warp; i\+\+\) p = \(long long\)\(\(unsigned long long\)p \+ \(unsigned long long\)slots\[i\]\);`,
		`return warp == 0 \? s : \(long long\)\(\(unsigned long long\)p \+ \(unsigned long long\)s\);`,
		`long long e = __shfl_up_sync\(0xffffffffu, s, 1\);`,
		`if \(warp == 0\) return lane == 0 \? 0LL : e;\n\s+return lane == 0 \? p : \(long long\)\(\(unsigned long long\)p \+ \(unsigned long long\)e\);`,
	)
	if n := strings.Count(src, "gs_warp_scan_i64(long long s, int lane) {"); n != 1 {
		t.Errorf("gs_warp_scan_i64 printed %d times", n)
	}
}

// Reductions start the lanes without a warp from the op's identity.
func TestReductionIdentities(t *testing.T) {
	cases := []struct {
		op   ir.Op
		t    ir.Type
		want string
	}{
		{ir.OpBlockMin, ir.F32, `__uint_as_float\(0x7f800000u\)`}, {ir.OpBlockMax, ir.F64, `__longlong_as_double\(0xfff0000000000000LL\)`},
		{ir.OpBlockMin, ir.I32, `2147483647`}, {ir.OpBlockMax, ir.I32, `\(-2147483647 - 1\)`},
		{ir.OpBlockMin, ir.U8, `\(\(unsigned char\)255\)`}, {ir.OpBlockMax, ir.U64, `0ull`},
		{ir.OpBlockMax, ir.I64, `\(-9223372036854775807LL - 1LL\)`}, {ir.OpBlockMin, ir.U32, `4294967295u`},
		{ir.OpBlockSum, ir.F64, `0\.0`}, {ir.OpBlockSum, ir.U8, `\(\(unsigned char\)0\)`},
	}
	for _, c := range cases {
		k, _ := blockCase(c.op, mustInfo(c.op), c.t)
		wantAll(t, mustSource(t, k, Options{}), `lane < warps \? slots\[lane\] : `+c.want+`\);`)
	}
	src := mustSource(t, func() *ir.Kernel { k, _ := blockCase(ir.OpWarpMin, mustInfo(ir.OpWarpMin), ir.F64); return k }(), Options{})
	wantAll(t, src, `\{ double o = __shfl_xor_sync\(0xffffffffu, v, 16\); v = fmin\(v, o\); \}`)
}

func mustInfo(op ir.Op) ir.OpInfo {
	info, _ := op.Info()
	return info
}

// Every lane runs the shuffle; the out-of-range rules pick the own value
// after it. bool and u8 travel as int, 64-bit types use CUDA's overloads.
func TestShuffleForms(t *testing.T) {
	shuffle := func(op ir.Op, ty ir.Type) string {
		k, _ := blockCase(op, mustInfo(op), ty)
		return mustSource(t, k, Options{})
	}
	wantAll(t, shuffle(ir.OpShfl, ir.F64), `r3 = __shfl_sync\(0xffffffffu, r1, r2 & 31\);`)
	wantAll(t, shuffle(ir.OpShflXor, ir.U64), `r3 = __shfl_xor_sync\(0xffffffffu, r1, r2 & 31\);`)
	wantAll(t, shuffle(ir.OpShfl, ir.Bool), `r3 = \(__shfl_sync\(0xffffffffu, \(int\)r1, r2 & 31\) != 0\);`)
	wantAll(t, shuffle(ir.OpShflXor, ir.U8), `r3 = \(unsigned char\)__shfl_xor_sync\(0xffffffffu, \(int\)r1, r2 & 31\);`)
	wantAll(t, shuffle(ir.OpShflDown, ir.I32),
		`static __device__ __forceinline__ int gs_shfl_down_i32\(int v, int b, int lane\) \{\n`+
			`  unsigned int src = \(unsigned int\)lane \+ \(unsigned int\)b;\n`+
			`  int u = __shfl_sync\(0xffffffffu, v, \(int\)\(src & 31u\)\);\n`+
			`  return \(\(unsigned int\)b < 32u && src < 32u\) \? u : v;\n\}`,
		`r3 = gs_shfl_down_i32\(r1, r2, gs_lane\);`)
	wantAll(t, shuffle(ir.OpShflUp, ir.U8),
		`unsigned int src = \(unsigned int\)lane - \(unsigned int\)b;\n`+
			`  unsigned char u = \(unsigned char\)__shfl_sync\(0xffffffffu, \(int\)v, \(int\)\(src & 31u\)\);`,
		`r3 = gs_shfl_up_u8\(r1, r2, gs_lane\);`)
	wantAll(t, shuffle(ir.OpBallot, ir.Bool), `r2 = __ballot_sync\(0xffffffffu, r1\);`)
	wantAll(t, shuffle(ir.OpWarpAll, ir.Bool), `r2 = \(__all_sync\(0xffffffffu, r1\) != 0\);`)
	wantAll(t, shuffle(ir.OpWarpAny, ir.Bool), `r2 = \(__any_sync\(0xffffffffu, r1\) != 0\);`)
	wantAll(t, shuffle(ir.OpBlockAny, ir.Bool), `r2 = \(__syncthreads_or\(r1\) != 0\);`)
	wantAll(t, shuffle(ir.OpBlockAll, ir.Bool), `r2 = \(__syncthreads_and\(r1\) != 0\);`)
	wantAll(t, shuffle(ir.OpSync, ir.I32), `\n\s+__syncthreads\(\);\n`)
	wantAll(t, shuffle(ir.OpSyncWarp, ir.I32), `\n\s+__syncwarp\(\);\n`)
}

// Local arrays are zeroed C arrays declared with the registers, in every
// func that has them; an atomic on one is a plain read-modify-write.
func TestLocalArrays(t *testing.T) {
	fn := newFunc("acc", scalar("x", ir.I32))
	fn.f.Results = []ir.Type{ir.I32}
	fn.f.Locals = []ir.Buffer{buf("hist", ir.I32, 2, 4)}
	x := fn.param(0)
	one := fn.konst(ir.I32, int64(1))
	old := fn.f.NewReg(ir.I32)
	fn.inst(&ir.Inst{Op: ir.OpAtomicAdd, Dst: old, Param: 0, Space: ir.SpaceLocal, Args: []ir.Reg{one, x, x}})
	fn.emit(&ir.Return{Values: []ir.Reg{fn.access(ir.SpaceLocal, 0, ir.I32, ir.NoReg, one, x)}})

	b := newFunc("k", arr("out", ir.F32, 1))
	b.f.Locals = []ir.Buffer{buf("tile", ir.F32, 3, 4)}
	i := b.tid(0)
	r := b.f.NewReg(ir.I32)
	b.inst(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: []ir.Reg{r}, Args: []ir.Reg{i}, ArrayArgs: []int{-1}})
	v := b.op(ir.OpConvert, ir.F32, r)
	b.access(ir.SpaceLocal, 0, ir.F32, v, i, i)
	cas := b.f.NewReg(ir.F32)
	b.inst(&ir.Inst{Op: ir.OpAtomicCAS, Dst: cas, Param: 0, Space: ir.SpaceLocal, Args: []ir.Reg{i, i, v, v}})
	b.inst(&ir.Inst{Op: ir.OpAtomicMin, Dst: ir.NoReg, Param: 0, Space: ir.SpaceLocal, Args: []ir.Reg{i, i, v}})
	b.store(0, i, b.access(ir.SpaceLocal, 0, ir.F32, ir.NoReg, i, i))
	src := mustSource(t, b.kernel(1, fn.f), Options{Debug: true})
	wantAll(t, src,
		`static __device__ int gs_f0_acc\(int p0_x\) \{\n(\s+int r\d+ = 0;\n)+\s+int gs_l0_hist\[8\] = \{\};\n`,
		`\{\n\s+int gs_old = \*\(gs_l0_hist \+ \(\(int\)r1 \* 4 \+ \(int\)r0\)\);\n`+
			`\s+\*\(gs_l0_hist \+ \(\(int\)r1 \* 4 \+ \(int\)r0\)\) = \(int\)\(\(unsigned int\)gs_old \+ \(unsigned int\)r0\);\n`+
			`\s+r2 = gs_old;\n\s+\}`,
		`gs_k_body\(.*\) \{\n\s+int gs_tid0 = \(int\)gs_lin;\n(\s+\w+ r\d+ = 0;\n)+\s+float gs_l0_tile\[12\] = \{\};\n`,
		`\*\(gs_l0_tile \+ \(\(int\)r0 \* 4 \+ \(int\)r0\)\) = __float_as_uint\(gs_old\) == __float_as_uint\(r2\) \? r2 : gs_old;`,
		`\*\(gs_l0_tile \+ \(\(int\)r0 \* 4 \+ \(int\)r0\)\) = fminf\(gs_old, r2\);\n\s+\}`,
		// Debug builds check shared and local indices against the static extents.
		`if \(\(unsigned long long\)\(long long\)r1 >= 2ull\) gs_fail\(1, \d+, -1, 0, \(long long\)r1, 2\);\n`+
			`\s+if \(\(unsigned long long\)\(long long\)r0 >= 4ull\) gs_fail\(1, \d+, -1, 1, \(long long\)r0, 4\);`,
	)
	wantNone(t, src, `atomicAdd`, `atomicCAS\(\(`, `gs_atomic_min`)
}

// A failed check of a shared or local index names the array and its
// static shape, and the instruction's position.
func TestDescribeBuffer(t *testing.T) {
	b := newFunc("k", arr("out", ir.F32, 1))
	i := b.tid(0)
	b.access(ir.SpaceShared, 0, ir.F32, b.access(ir.SpaceShared, 0, ir.F32, ir.NoReg, i, i), i, i)
	k := b.blockKernel([]int{64}, 1, buf("tile", ir.F32, 8, 8))
	src := mustSource(t, k, Options{Debug: true})
	wantAll(t, src, `gs_fail\(1, 1, -1, 1, \(long long\)r0, 8\);\n\s+r1 = \*\(gs_s0_tile`)
	d := DebugInfo(k)
	p, msg := d.Describe(ErrorRecord{Code: ErrBounds, Inst: 1, Param: -1, Axis: 1, Index: 9, Extent: 8}, []string{"xs"}, [][]int{{5}})
	if want := "index 9 out of bounds for axis 1 of array tile with shape [8, 8]"; msg != want {
		t.Errorf("msg %q, want %q", msg, want)
	}
	if p != (pos.Pos{File: "t.gs", Line: 3, Col: 5}) {
		t.Errorf("pos %v", p)
	}
	// The array parameter of the same kernel is still named by the launch.
	_, msg = d.Describe(ErrorRecord{Code: ErrBounds, Inst: 0, Param: 0, Axis: 0, Index: 5, Extent: 5}, []string{"xs"}, [][]int{{5}})
	if want := "index 5 out of bounds for axis 0 of array xs with shape [5]"; msg != want {
		t.Errorf("msg %q, want %q", msg, want)
	}
}

// Position markers stay in front of the new instructions.
func TestBlockPositionMarkers(t *testing.T) {
	b := newFunc("k", arr("out", ir.F32, 1))
	i := b.tid(0)
	b.inst(&ir.Inst{Op: ir.OpSync, Dst: ir.NoReg})
	x := b.load(0, i)
	b.store(0, i, b.op(ir.OpBlockMax, ir.F32, x))
	src := mustSource(t, b.blockKernel([]int{64}, 1), Options{})
	want := map[string]int{"__syncthreads();": 3, "= gs_block_max_f32(": 5}
	entry := false
	for n, l := range strings.Split(src, "\n") {
		entry = entry || strings.Contains(l, "__global__")
		for call, line := range want {
			if !entry || !strings.Contains(l, call) {
				continue
			}
			if p, ok := ScriptPos(src, n+1); !ok || p.Line != line {
				t.Errorf("generated line %d %q maps to %v %v, want script line %d", n+1, l, p, ok, line)
			}
			delete(want, call)
		}
	}
	if len(want) > 0 {
		t.Errorf("not found: %v in\n%s", want, src)
	}
}
