package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
)

// fullMask names every lane of a warp: warp ops are executed by all 32
// (the block is a multiple of 32 threads wherever they appear).
const fullMask = "0xffffffffu"

// SlotBytes is the shared memory the block collectives that combine warps
// through shared memory (sum, min, max, the scans) use: one 8-byte slot
// per warp of the largest block.
const SlotBytes = 32 * 8

// SharedBytes is the dynamic shared memory one block of k needs at
// launch: its shared arrays (ir.Kernel.SharedBytes) and, when it uses a
// block collective that needs them, the slots after them at the next
// 16-byte boundary (slotOffset). 0 for a flat kernel.
func SharedBytes(k *ir.Kernel) int {
	if k == nil || !k.IsBlock() {
		return 0
	}
	if usesSlots(k) {
		return slotOffset(k) + SlotBytes
	}
	return k.SharedBytes()
}

func slotOffset(k *ir.Kernel) int { return (k.SharedBytes() + 15) &^ 15 }

// slotOps are the collectives that pass warp results through the slots;
// block_count, block_any and block_all are __syncthreads_count/_or/_and.
var slotOps = map[ir.Op]bool{ir.OpBlockSum: true, ir.OpBlockMin: true, ir.OpBlockMax: true,
	ir.OpBlockScan: true, ir.OpBlockScanExcl: true}

func usesSlots(k *ir.Kernel) bool { return entryUses(k, func(op ir.Op) bool { return slotOps[op] }) }

// usesLanes reports whether the entry reads gs_lane and gs_warp: the
// index ops, the offset shuffles and the collectives with slots.
func usesLanes(k *ir.Kernel) bool {
	return entryUses(k, func(op ir.Op) bool {
		return slotOps[op] || op == ir.OpLaneId || op == ir.OpWarpId || op == ir.OpShflDown || op == ir.OpShflUp
	})
}

func entryUses(k *ir.Kernel, pred func(ir.Op) bool) bool {
	found := false
	walkStmts(k.Entry, k.Entry.Body, func(_ *ir.Func, in *ir.Inst) { found = found || pred(in.Op) })
	return found
}

// cudaAxis is the CUDA dimension of axis a of a rank-r block or grid: C
// order puts the last axis on x, the one before on y, the first of three
// on z.
func cudaAxis(r, a int) string { return [...]string{"x", "y", "z"}[r-1-a] }

// blockEntry is a block kernel's __global__ function: the body runs once
// per CUDA thread, with the script's block as CUDA's block and its grid
// as CUDA's grid; there is no coarsening loop and no gs_launch parameter.
// __launch_bounds__ is exact (the launcher always uses Kernel.Block), so
// it only lets ptxas budget registers for the real block; with
// Kernel.MinBlocks it also carries that many blocks a multiprocessor.
func (g *gen) blockEntry() (string, error) {
	sig, err := g.entrySig()
	if err != nil {
		return "", err
	}
	body, err := g.body(g.k.Entry, true)
	if err != nil {
		return "", err
	}
	return sig + " {\n" + body + "}\n", nil
}

// blockPrologue declares what a block kernel's entry reads: tid() per
// axis, the linear thread index with its lane and warp, and pointers to
// the shared arrays and slots carved out of the dynamic shared memory at
// the offsets ir.Kernel.SharedBytes gives (16-byte aligned).
func (g *gen) blockPrologue() {
	k := g.k
	r := len(k.Block)
	for a := 0; a < k.TidDims; a++ {
		d := cudaAxis(r, a)
		g.line("int gs_tid%d = (int)(blockIdx.%s * %du + threadIdx.%s);", a, d, k.Block[a], d)
	}
	if usesLanes(k) {
		g.line("int gs_thread = %s;", linearThread(k.Block))
		g.line("int gs_lane = gs_thread & 31;")
		g.line("int gs_warp = gs_thread >> 5;")
	}
	if SharedBytes(k) == 0 {
		return
	}
	g.line("extern __shared__ __align__(16) unsigned char gs_smem[];")
	off := 0
	for i, b := range k.Shared {
		off = (off + 15) &^ 15
		ct, _ := ctype(b.Elem)
		g.line("%s* %s = (%s*)(gs_smem + %d);", ct, sharedName(i, b), ct, off)
		off += b.Bytes()
	}
	if usesSlots(k) {
		g.line("unsigned char* gs_slots = gs_smem + %d;", slotOffset(k))
	}
}

// linearThread is the thread's index in C order over the block, the
// order CUDA forms warps in: threadIdx.x + Bx*(threadIdx.y + By*threadIdx.z).
func linearThread(block []int) string {
	r := len(block)
	switch r {
	case 1:
		return "(int)threadIdx.x"
	case 2:
		return fmt.Sprintf("(int)(threadIdx.x + %du * threadIdx.y)", block[1])
	}
	return fmt.Sprintf("(int)(threadIdx.x + %du * (threadIdx.y + %du * threadIdx.z))", block[2], block[1])
}

func sharedName(i int, b ir.Buffer) string { return fmt.Sprintf("gs_s%d_%s", i, ident(b.Name)) }
func localName(i int, b ir.Buffer) string  { return fmt.Sprintf("gs_l%d_%s", i, ident(b.Name)) }

// locals declares the function's local arrays, zeroed, with the
// registers: at the top, so no goto crosses their initialisation, and
// once per call, so every call starts from zeros. A byte array that field
// accesses name is 8-aligned, for their typed accesses.
func (g *gen) locals(f *ir.Func) error {
	fields := make([]bool, len(f.Locals))
	walkStmts(f, f.Body, func(_ *ir.Func, in *ir.Inst) {
		if (in.Op == ir.OpLoadField || in.Op == ir.OpStoreField) && in.Space == ir.SpaceLocal {
			fields[in.Param] = true
		}
	})
	for i, b := range f.Locals {
		ct, ok := ctype(b.Elem)
		if !ok {
			return errorf(b.Pos, "codegen: %s: local array %s has type %s", f.Name, b.Name, b.Elem)
		}
		if fields[i] {
			ct = "__align__(8) " + ct
		}
		g.line("%s %s[%d] = {};", ct, localName(i, b), b.Len())
	}
	return nil
}

// barrier emits sync and sync_warp.
func (g *gen) barrier(in *ir.Inst) error {
	if err := g.inBlockEntry(in); err != nil {
		return err
	}
	if len(in.Args) != 0 || in.Dst != ir.NoReg {
		return g.instErr(in, "has operands or a result")
	}
	if in.Op == ir.OpSync {
		g.line("__syncthreads();")
	} else {
		g.line("__syncwarp();")
	}
	return nil
}

func (g *gen) inBlockEntry(in *ir.Inst) error {
	if !g.entry || !g.k.IsBlock() {
		return g.instErr(in, "outside the entry of a block kernel")
	}
	return nil
}

// blockExpr is the C expression of a block kernel's index, warp and
// collective ops (the ops whose table row has Block set).
func (g *gen) blockExpr(in *ir.Inst, dt ir.Type) (string, error) {
	if err := g.inBlockEntry(in); err != nil {
		return "", err
	}
	switch in.Op { // each index, shuffle, vote and collective prints its own CUDA form
	case ir.OpThreadId, ir.OpBlockId, ir.OpBlockDim, ir.OpGridDim:
		return g.axisExpr(in, dt)
	case ir.OpLaneId, ir.OpWarpId:
		if dt != ir.I32 || len(in.Args) != 0 {
			return "", g.instErr(in, "into %s with %d operands", dt, len(in.Args))
		}
		return map[ir.Op]string{ir.OpLaneId: "gs_lane", ir.OpWarpId: "gs_warp"}[in.Op], nil
	case ir.OpShfl, ir.OpShflDown, ir.OpShflUp, ir.OpShflXor:
		return g.shuffle(in, dt)
	}
	a, at, err := g.operands(in, 1)
	if err != nil {
		return "", err
	}
	info, _ := in.Op.Info()
	if !info.Types.Has(at[0]) {
		return "", g.instErr(in, "does not apply to %s", at[0])
	}
	if want := info.ResultType(at[0]); dt != want {
		return "", g.instErr(in, "destination is %s, want %s", dt, want)
	}
	return g.collective(in, at[0], a[0])
}

// collective is the expression of a warp or block collective of one
// operand a of type t.
func (g *gen) collective(in *ir.Inst, t ir.Type, a string) (string, error) {
	op := in.Op
	warps := g.k.BlockThreads() / ir.WarpSize
	ct, _ := ctype(t)
	switch op { // a collective's C: its CUDA intrinsic or the butterfly of ir/doc.go
	case ir.OpBallot:
		return fmt.Sprintf("__ballot_sync(%s, %s)", fullMask, a), nil
	case ir.OpWarpAll:
		return fmt.Sprintf("(__all_sync(%s, %s) != 0)", fullMask, a), nil
	case ir.OpWarpAny:
		return fmt.Sprintf("(__any_sync(%s, %s) != 0)", fullMask, a), nil
	case ir.OpBlockCount:
		return fmt.Sprintf("__syncthreads_count(%s)", a), nil
	case ir.OpBlockAny:
		return fmt.Sprintf("(__syncthreads_or(%s) != 0)", a), nil
	case ir.OpBlockAll:
		return fmt.Sprintf("(__syncthreads_and(%s) != 0)", a), nil
	case ir.OpWarpSum, ir.OpWarpMin, ir.OpWarpMax:
		return fmt.Sprintf("%s(%s)", g.warpReduce(reduceOp[op], t), a), nil
	case ir.OpBlockSum, ir.OpBlockMin, ir.OpBlockMax:
		return fmt.Sprintf("%s(%s, gs_lane, gs_warp, %d, (%s*)gs_slots)", g.blockReduce(reduceOp[op], t), a, warps, ct), nil
	case ir.OpBlockScan, ir.OpBlockScanExcl:
		return fmt.Sprintf("%s(%s, gs_lane, gs_warp, (%s*)gs_slots)", g.blockScan(op == ir.OpBlockScanExcl, t), a, ct), nil
	}
	return "", g.instErr(in, "is not a collective")
}

// reduceOp is the binary op each reduction folds with.
var reduceOp = map[ir.Op]ir.Op{
	ir.OpWarpSum: ir.OpAdd, ir.OpWarpMin: ir.OpMin, ir.OpWarpMax: ir.OpMax,
	ir.OpBlockSum: ir.OpAdd, ir.OpBlockMin: ir.OpMin, ir.OpBlockMax: ir.OpMax,
}

// axisExpr reads the block, grid and thread index ops of axis Imm.
func (g *gen) axisExpr(in *ir.Inst, dt ir.Type) (string, error) {
	r := len(g.k.Block)
	a, ok := immInt(in.Imm)
	switch {
	case !ok || a < 0 || a >= r:
		return "", g.instErr(in, "axis %v out of range for a %d-D block", in.Imm, r)
	case dt != ir.I32 || len(in.Args) != 0:
		return "", g.instErr(in, "into %s with %d operands", dt, len(in.Args))
	}
	d := cudaAxis(r, a)
	switch in.Op { // each index reads its own CUDA built-in
	case ir.OpThreadId:
		return "(int)threadIdx." + d, nil
	case ir.OpBlockId:
		return "(int)blockIdx." + d, nil
	case ir.OpGridDim:
		return "(int)gridDim." + d, nil
	}
	return fmt.Sprint(g.k.Block[a]), nil // block_dim: the kernel's constant
}

// shuffle reads a from another lane. Every lane executes the shuffle
// itself; the out-of-range rules of doc.go then pick the own value in
// gs_shfl_down_T and gs_shfl_up_T, after the shuffle.
func (g *gen) shuffle(in *ir.Inst, dt ir.Type) (string, error) {
	x, xt, err := g.operands(in, 2)
	if err != nil {
		return "", err
	}
	if xt[0] != dt || xt[1] != ir.I32 {
		return "", g.instErr(in, "operands %s, %s -> %s", xt[0], xt[1], dt)
	}
	a, b := x[0], x[1]
	switch in.Op { // each shuffle's own intrinsic and source rule
	case ir.OpShfl:
		return shfl("__shfl_sync", dt, a, b+" & 31"), nil
	case ir.OpShflXor:
		return shfl("__shfl_xor_sync", dt, a, b+" & 31"), nil
	}
	return fmt.Sprintf("%s(%s, %s, gs_lane)", g.shflOffset(in.Op == ir.OpShflUp, dt), a, b), nil
}

// shfl is one CUDA shuffle intrinsic (fn) of v of type t with lane
// operand x. CUDA overloads them for int, unsigned, long long, unsigned
// long long, float and double; bool and u8 travel as int.
func shfl(fn string, t ir.Type, v, x string) string {
	switch t {
	case ir.Bool:
		return fmt.Sprintf("(%s(%s, (int)%s, %s) != 0)", fn, fullMask, v, x)
	case ir.U8:
		return fmt.Sprintf("(unsigned char)%s(%s, (int)%s, %s)", fn, fullMask, v, x)
	}
	return fmt.Sprintf("%s(%s, %s, %s)", fn, fullMask, v, x)
}

// shflOffset generates gs_shfl_down_T or gs_shfl_up_T: the source lane is
// lane+b or lane-b, and a lane whose b is outside 0..31 or whose source
// is outside the warp keeps its own value. Unsigned arithmetic makes both
// conditions one compare each (a negative b is huge).
func (g *gen) shflOffset(up bool, t ir.Type) string {
	dir, sign := "down", "+"
	if up {
		dir, sign = "up", "-"
	}
	name := fmt.Sprintf("gs_shfl_%s_%s", dir, t)
	return g.generated(name, func() string {
		ct, _ := ctype(t)
		return fmt.Sprintf(`static __device__ __forceinline__ %[1]s %[2]s(%[1]s v, int b, int lane) {
  unsigned int src = (unsigned int)lane %[3]s (unsigned int)b;
  %[1]s u = %[4]s;
  return ((unsigned int)b < 32u && src < 32u) ? u : v;
}
`, ct, name, sign, shfl("__shfl_sync", t, "v", "(int)(src & 31u)"))
	})
}

// arith is the C expression of binary op (add, min, max) on a and b of
// type t, exactly as the instruction prints it.
func (g *gen) arith(op ir.Op, t ir.Type, a, b string) string {
	if t.IsFloat() {
		return floatExpr(op, t, []string{a, b}, g.opts.FastMath)
	}
	return g.intExpr(&ir.Inst{Op: op}, t, []string{a, b})
}

// identity is the value a block reduction's lanes without a warp start
// from: 0 for sums, +Inf / -Inf for float min / max, the largest /
// smallest value of an integer type.
func identity(op ir.Op, t ir.Type) string {
	var s string
	switch {
	case op == ir.OpAdd:
		s, _ = literal(t, int64(0))
	case t.IsFloat():
		s, _ = literal(t, math.Inf(map[ir.Op]int{ir.OpMin: 1, ir.OpMax: -1}[op]))
	default:
		w := uint(t.Size() * 8)
		lo, hi := uint64(0), uint64(1)<<w-1 // unsigned
		if t.IsSigned() {
			lo, hi = uint64(1)<<(w-1), uint64(1)<<(w-1)-1
		}
		if op == ir.OpMax {
			hi = lo
		}
		s = intLiteral(t, hi)
	}
	return s
}

// warpReduce generates gs_warp_OP_T: for m in 16, 8, 4, 2, 1,
// v = OP(v, shfl_xor(v, m)) (doc.go's butterfly; every lane ends with
// the same bits).
func (g *gen) warpReduce(op ir.Op, t ir.Type) string {
	name := fmt.Sprintf("gs_warp_%s_%s", reduceName(op), t)
	return g.generated(name, func() string {
		ct, _ := ctype(t)
		var b strings.Builder
		fmt.Fprintf(&b, "static __device__ __forceinline__ %s %s(%s v) {\n", ct, name, ct)
		for m := 16; m >= 1; m /= 2 {
			// The shuffle gets its own variable: min and max on ints read
			// an operand twice, and a shuffle must not be repeated or
			// skipped by some lanes.
			fmt.Fprintf(&b, "  { %s o = %s; v = %s; }\n", ct, shfl("__shfl_xor_sync", t, "v", fmt.Sprint(m)), g.arith(op, t, "v", "o"))
		}
		b.WriteString("  return v;\n}\n")
		return b.String()
	})
}

func reduceName(op ir.Op) string {
	return map[ir.Op]string{ir.OpAdd: "sum", ir.OpMin: "min", ir.OpMax: "max"}[op]
}

// blockReduce generates gs_block_OP_T: each warp reduces, lane 0 of each
// puts its result in slots[warp] between two barriers (the first keeps a
// previous collective's readers from seeing it), and every warp reduces
// the slots, padded with the identity, so every thread gets the result.
func (g *gen) blockReduce(op ir.Op, t ir.Type) string {
	name := fmt.Sprintf("gs_block_%s_%s", reduceName(op), t)
	return g.generated(name, func() string {
		ct, _ := ctype(t)
		w := g.warpReduce(op, t)
		return fmt.Sprintf(`static __device__ __forceinline__ %[1]s %[2]s(%[1]s v, int lane, int warp, int warps, %[1]s* slots) {
  %[1]s w = %[3]s(v);
  __syncthreads();
  if (lane == 0) slots[warp] = w;
  __syncthreads();
  return %[3]s(lane < warps ? slots[lane] : %[4]s);
}
`, ct, name, w, identity(op, t))
	})
}

// blockScan generates gs_block_scan_T or gs_block_scan_excl_T in the order
// of doc.go: an inclusive warp scan by shfl_up (gs_warp_scan_T), the
// warps' totals through the slots, and the sum of the earlier warps'
// totals left to right (gs_scan_prefix_T).
func (g *gen) blockScan(exclusive bool, t ir.Type) string {
	name := fmt.Sprintf("gs_block_scan_%s", t)
	if exclusive {
		name = fmt.Sprintf("gs_block_scan_excl_%s", t)
	}
	return g.generated(name, func() string {
		ct, _ := ctype(t)
		ws, pre := g.warpScan(t), g.scanPrefix(t)
		zero, _ := literal(t, int64(0))
		head := fmt.Sprintf("static __device__ __forceinline__ %[1]s %[2]s(%[1]s v, int lane, int warp, %[1]s* slots) {\n  %[1]s s = %[3]s(v, lane);\n", ct, name, ws)
		if !exclusive {
			return head + fmt.Sprintf("  %[1]s p = %[2]s(s, lane, warp, slots);\n  return warp == 0 ? s : %[3]s;\n}\n", ct, pre, g.arith(ir.OpAdd, t, "p", "s"))
		}
		return head + fmt.Sprintf(`  %[1]s e = %[2]s;
  %[1]s p = %[3]s(s, lane, warp, slots);
  if (warp == 0) return lane == 0 ? %[4]s : e;
  return lane == 0 ? p : %[5]s;
}
`, ct, shfl("__shfl_up_sync", t, "s", "1"), pre, zero, g.arith(ir.OpAdd, t, "p", "e"))
	})
}

// warpScan generates gs_warp_scan_T, the inclusive scan of a warp: for d
// in 1, 2, 4, 8, 16: u = shfl_up(s, d); if lane >= d { s = u + s }.
func (g *gen) warpScan(t ir.Type) string {
	name := fmt.Sprintf("gs_warp_scan_%s", t)
	return g.generated(name, func() string {
		ct, _ := ctype(t)
		var b strings.Builder
		fmt.Fprintf(&b, "static __device__ __forceinline__ %s %s(%s s, int lane) {\n", ct, name, ct)
		for d := 1; d <= 16; d *= 2 {
			fmt.Fprintf(&b, "  { %s u = %s; if (lane >= %d) s = %s; }\n", ct, shfl("__shfl_up_sync", t, "s", fmt.Sprint(d)), d, g.arith(ir.OpAdd, t, "u", "s"))
		}
		b.WriteString("  return s;\n}\n")
		return b.String()
	})
}

// scanPrefix generates gs_scan_prefix_T: lane 31 of each warp puts the
// warp's total in slots[warp] between two barriers, and the result is
// slots[0] + ... + slots[warp-1] summed left to right (for warp 0 a value
// the scans do not use).
func (g *gen) scanPrefix(t ir.Type) string {
	name := fmt.Sprintf("gs_scan_prefix_%s", t)
	return g.generated(name, func() string {
		ct, _ := ctype(t)
		return fmt.Sprintf(`static __device__ __forceinline__ %[1]s %[2]s(%[1]s s, int lane, int warp, %[1]s* slots) {
  __syncthreads();
  if (lane == 31) slots[warp] = s;
  __syncthreads();
  %[1]s p = slots[0];
  for (int i = 1; i < warp; i++) p = %[3]s;
  return p;
}
`, ct, name, g.arith(ir.OpAdd, t, "p", "slots[i]"))
	})
}

// generated adds a helper whose text depends on the kernel (a type, an
// op) once and returns its name. Helpers that text adds come first, so
// every helper follows those it calls.
func (g *gen) generated(name string, text func() string) string {
	if !g.genNames[name] {
		g.genNames[name] = true
		g.gened = append(g.gened, text())
	}
	return name
}
