package cpu

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// TestBlockIndexOps: in 1-D, 2-D and 3-D blocks and grids every thread
// writes its index ops to out[tid..., k]; a block of 15 threads has a
// short last warp.
func TestBlockIndexOps(t *testing.T) {
	for _, tc := range []struct{ block, grid []int }{
		{[]int{64}, []int{5}}, {[]int{15}, []int{3}}, {[]int{8, 16}, []int{3, 2}}, {[]int{4, 2, 8}, []int{2, 3, 2}},
	} {
		r := len(tc.block)
		b := kernel("idx", arr("out", ir.I32, r+1)).block(tc.block...)
		var tids, vals []ir.Reg
		for ax := range r {
			tids = append(tids, b.tid(ax))
		}
		for _, op := range []ir.Op{ir.OpThreadId, ir.OpBlockId, ir.OpBlockDim, ir.OpGridDim, ir.OpTid} {
			for ax := range r {
				vals = append(vals, b.index(op, ax))
			}
		}
		vals = append(vals, b.index(ir.OpLaneId, 0), b.index(ir.OpWarpId, 0))
		for k, v := range vals {
			b.store(0, append(append([]ir.Reg{}, tids...), i32c(b, int64(k)), v)...)
		}
		shape := make([]int, r+1)
		total := len(vals)
		for ax := range r {
			shape[ax] = tc.block[ax] * tc.grid[ax]
			total *= shape[ax]
		}
		shape[r] = len(vals)
		out := make([]int32, total)
		if err := b.compile(t).Launch(tc.grid, []Arg{slice(out, shape...)}, Options{}); err != nil {
			t.Fatal(err)
		}
		for g := range total / len(vals) {
			want := blockIndexRef(g, shape[:r], tc.block, tc.grid)
			got := out[g*len(vals) : (g+1)*len(vals)]
			if !equal(got, want) {
				t.Fatalf("block %v grid %v: thread %d has %v, want %v", tc.block, tc.grid, g, got, want)
			}
		}
	}
}

// blockIndexRef is what the thread at linear global index g of a launch
// of extents shape (per axis) writes in TestBlockIndexOps.
func blockIndexRef(g int, shape, block, grid []int) []int32 {
	r := len(shape)
	coord := make([]int, r)
	for ax := r - 1; ax >= 0; ax-- {
		coord[ax], g = g%shape[ax], g/shape[ax]
	}
	var thr, blk, bd, gd, tid []int32
	lin := 0
	for ax := range r {
		thr = append(thr, int32(coord[ax]%block[ax]))
		blk = append(blk, int32(coord[ax]/block[ax]))
		bd, gd, tid = append(bd, int32(block[ax])), append(gd, int32(grid[ax])), append(tid, int32(coord[ax]))
		lin = lin*block[ax] + coord[ax]%block[ax]
	}
	return append(append(append(append(append(thr, blk...), bd...), gd...), tid...), int32(lin%32), int32(lin/32))
}

// TestSharedTranspose: a 16x16 tile in shared memory (padded to 17
// columns) transposes a matrix whose sides are not multiples of 16.
func TestSharedTranspose(t *testing.T) {
	const T = 16
	b := kernel("transpose", arr("a", ir.F32, 2), arr("out", ir.F32, 2)).block(T, T)
	tile := b.shared("tile", ir.F32, T, T+1)
	ty, tx := b.index(ir.OpThreadId, 0), b.index(ir.OpThreadId, 1)
	by, bx := b.index(ir.OpBlockId, 0), b.index(ir.OpBlockId, 1)
	rows := b.emit(&ir.Inst{Op: ir.OpShape, Dst: b.f.NewReg(ir.I32), Param: 0, Imm: int64(0)}).Dst
	cols := b.emit(&ir.Inst{Op: ir.OpShape, Dst: b.f.NewReg(ir.I32), Param: 0, Imm: int64(1)}).Dst
	at := func(blk, thr ir.Reg) ir.Reg {
		return b.op(ir.OpAdd, ir.I32, b.op(ir.OpMul, ir.I32, blk, i32c(b, T)), thr)
	}
	inside := func(r, c, nr, nc ir.Reg) ir.Reg {
		return b.op(ir.OpAnd, ir.Bool, b.op(ir.OpLt, ir.Bool, r, nr), b.op(ir.OpLt, ir.Bool, c, nc))
	}
	r, c := at(by, ty), at(bx, tx)
	b.ifElse(inside(r, c, rows, cols), func() { b.storeIn(ir.SpaceShared, tile, ty, tx, b.load(0, r, c)) }, nil)
	b.sync(ir.OpSync)
	r2, c2 := at(bx, ty), at(by, tx)
	b.ifElse(inside(r2, c2, cols, rows), func() { b.store(1, r2, c2, b.loadIn(ir.SpaceShared, tile, tx, ty)) }, nil)

	nr, nc := 40, 57
	a, out := make([]float32, nr*nc), make([]float32, nr*nc)
	for k := range a {
		a[k] = float32(k)
	}
	grid := []int{(nr + T - 1) / T, (nc + T - 1) / T}
	if err := b.compile(t).Launch(grid, []Arg{slice(a, nr, nc), slice(out, nc, nr)}, Options{}); err != nil {
		t.Fatal(err)
	}
	for i := range nc {
		for j := range nr {
			if out[i*nr+j] != a[j*nc+i] {
				t.Fatalf("out[%d, %d] = %v, want %v", i, j, out[i*nr+j], a[j*nc+i])
			}
		}
	}
}

// TestSharedZeroedAndAtomics: each block counts its values in a shared
// histogram (atomics), which starts zeroed in every block although a
// worker reuses its frame, and adds it to the global one.
func TestSharedZeroedAndAtomics(t *testing.T) {
	b := kernel("hist", arr("in", ir.I32, 1), arr("hist", ir.I32, 1), arr("first", ir.I32, 1)).block(64)
	h := b.shared("h", ir.I32, 16)
	i, th := b.tid(0), b.index(ir.OpThreadId, 0)
	small := b.op(ir.OpLt, ir.Bool, th, i32c(b, 16))
	b.ifElse(small, func() {
		b.store(2, b.op(ir.OpAdd, ir.I32, b.op(ir.OpMul, ir.I32, b.index(ir.OpBlockId, 0), i32c(b, 16)), th),
			b.loadIn(ir.SpaceShared, h, th))
	}, nil)
	b.sync(ir.OpSync)
	b.emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Space: ir.SpaceShared, Param: h,
		Args: []ir.Reg{b.op(ir.OpRem, ir.I32, b.load(0, i), i32c(b, 16)), i32c(b, 1)}})
	b.sync(ir.OpSync)
	b.ifElse(small, func() {
		b.emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Param: 1, Args: []ir.Reg{th, b.loadIn(ir.SpaceShared, h, th)}})
	}, nil)
	const blocks = 50
	in, hist, first := make([]int32, 64*blocks), make([]int32, 16), make([]int32, 16*blocks)
	for k := range in {
		in[k] = int32(k * 7)
	}
	for k := range first {
		first[k] = -1
	}
	if err := b.compile(t).Launch([]int{blocks}, []Arg{slice(in), slice(hist), slice(first)}, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	for k, v := range hist {
		if v != 64*blocks/16 {
			t.Errorf("hist[%d] = %d", k, v)
		}
	}
	for k, v := range first {
		if v != 0 {
			t.Fatalf("block %d saw %d in h[%d] before any write", k/16, v, k%16)
		}
	}
}

// TestLocalArrays: a func's local array is zeroed at every call, also
// under a partial mask in a loop; a kernel's own local array at the start
// of every block (flat and block kernels).
func TestLocalArrays(t *testing.T) {
	for _, blockKernel := range []bool{false, true} {
		// func bump(v: i32) -> i32 { local l: i32[4]; l[1] = l[1] + v; return l[1] }
		// kernel: local e: i32[3]; out[i] = e[2]; e[2] = 77
		//   for k in range(0, 3) { if (i + k) % 2 == 0 { out[i] = out[i] + bump(i) } }
		b := kernel("loc", arr("out", ir.I32, 1))
		if blockKernel {
			b.block(128)
		}
		fb, bump := b.fn("bump", []ir.Type{ir.I32}, scalar("v", ir.I32))
		l := fb.local("l", ir.I32, 4)
		one := i32c(fb, 1)
		fb.storeIn(ir.SpaceLocal, l, one, fb.op(ir.OpAdd, ir.I32, fb.loadIn(ir.SpaceLocal, l, one), fb.param(0)))
		fb.ret(fb.loadIn(ir.SpaceLocal, l, one))
		e := b.local("e", ir.I32, 3)
		i := b.tid(0)
		two := i32c(b, 2)
		b.store(0, i, b.loadIn(ir.SpaceLocal, e, two))
		b.storeIn(ir.SpaceLocal, e, two, i32c(b, 77))
		b.forRange(i32c(b, 0), i32c(b, 3), func(k ir.Reg) {
			even := b.op(ir.OpEq, ir.Bool, b.op(ir.OpRem, ir.I32, b.op(ir.OpAdd, ir.I32, i, k), two), i32c(b, 0))
			b.ifElse(even, func() {
				r := b.f.NewReg(ir.I32)
				b.emit(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: []ir.Reg{r}, Callee: bump, Args: []ir.Reg{i}, ArrayArgs: []int{-1}})
				b.store(0, i, b.op(ir.OpAdd, ir.I32, b.load(0, i), r))
			}, nil)
		})
		n := 128 * 20
		dims := []int{n}
		if blockKernel {
			dims = []int{20}
		}
		out := make([]int32, n)
		if err := b.compile(t).Launch(dims, []Arg{slice(out)}, Options{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		for k, v := range out {
			calls := 1 + (k+1)%2 // k = 0..2 with (i + k) even
			if v != int32(calls*k) {
				t.Fatalf("block kernel %v: out[%d] = %d, want %d", blockKernel, k, v, calls*k)
			}
		}
	}
}

// TestBufferBounds: shared and local indices are checked, naming the
// array.
func TestBufferBounds(t *testing.T) {
	for _, sp := range []ir.Space{ir.SpaceShared, ir.SpaceLocal} {
		b := kernel("oob", arr("out", ir.I32, 1)).block(32)
		var p int
		if sp == ir.SpaceShared {
			p = b.shared("tile", ir.I32, 2, 16)
		} else {
			p = b.local("acc", ir.I32, 2, 16)
		}
		th := b.index(ir.OpThreadId, 0)
		st := b.storeIn(sp, p, b.op(ir.OpDiv, ir.I32, th, i32c(b, 15)), i32c(b, 1), th)
		err := b.compile(t).Launch([]int{3}, []Arg{slice(make([]int32, 1))}, Options{})
		want := st.Pos.String() + ": kernel oob: index 2 out of bounds for axis 0 of array " + b.buffer(sp, p).Name + " with shape [2, 16]"
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v\nwant %s", sp, err, want)
		}
	}
}

// TestBufferShapeAndAtomics: shape of shared and local arrays, and
// atomics on a local array (each lane its own copy).
func TestBufferShapeAndAtomics(t *testing.T) {
	b := kernel("k", arr("out", ir.I32, 2)).block(32)
	sh := b.shared("s", ir.I32, 3, 5)
	l := b.local("l", ir.I32, 7)
	th := b.index(ir.OpThreadId, 0)
	shape := func(sp ir.Space, p, ax int) ir.Reg {
		return b.emit(&ir.Inst{Op: ir.OpShape, Dst: b.f.NewReg(ir.I32), Space: sp, Param: p, Imm: int64(ax)}).Dst
	}
	atomic := func(op ir.Op, args ...ir.Reg) ir.Reg {
		return b.emit(&ir.Inst{Op: op, Dst: b.f.NewReg(ir.I32), Space: ir.SpaceLocal, Param: l, Args: args}).Dst
	}
	two := i32c(b, 2)
	o1 := atomic(ir.OpAtomicAdd, two, th)             // 0, l[2] = th
	o2 := atomic(ir.OpAtomicCAS, two, th, i32c(b, 9)) // th, l[2] = 9
	sum := b.op(ir.OpAdd, ir.I32, b.op(ir.OpAdd, ir.I32, o1, o2), b.loadIn(ir.SpaceLocal, l, two))
	for k, v := range []ir.Reg{shape(ir.SpaceShared, sh, 0), shape(ir.SpaceShared, sh, 1), shape(ir.SpaceLocal, l, 0), sum} {
		b.store(0, th, i32c(b, int64(k)), v)
	}
	out := make([]int32, 32*4)
	if err := b.compile(t).Launch([]int{1}, []Arg{slice(out, 32, 4)}, Options{}); err != nil {
		t.Fatal(err)
	}
	for th := range 32 {
		if got, want := out[th*4:th*4+4], []int32{3, 5, 7, int32(th + 9)}; !equal(got, want) {
			t.Fatalf("thread %d: %v, want %v", th, got, want)
		}
	}
}

// TestBufferLimits: shared memory beyond the H200's 232448 bytes per
// block, or local arrays beyond 512 KiB per thread, do not compile.
func TestBufferLimits(t *testing.T) {
	b := kernel("big", arr("out", ir.I32, 1)).block(32)
	b.shared("a", ir.F32, 100)
	b.shared("b", ir.U8, maxSharedBytes-400)
	if _, err := Compile(b.k, backend.Options{}); err != nil {
		t.Errorf("shared at the limit: %v", err)
	}
	b.k.Shared[1].Dims[0]++
	_, err := Compile(b.k, backend.Options{})
	if want := "kernel big: shared arrays take 232449 bytes per block, more than the 232448 bytes a block may have on cpu"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}

	b = kernel("loc", arr("out", ir.I32, 1))
	b.local("l", ir.F64, 1<<16)
	p, err := Compile(b.k, backend.Options{})
	if err != nil {
		t.Fatalf("local at the limit: %v", err)
	}
	if p.width*maxLocalBytes > maxLocalFrame {
		t.Errorf("a flat kernel with 512 KiB of locals per thread runs %d lanes", p.width)
	}
	b.local("m", ir.U8, 1)
	if _, err := Compile(b.k, backend.Options{}); err == nil || !strings.Contains(err.Error(), "local arrays take 524289 bytes per thread") {
		t.Errorf("err = %v", err)
	}

	// A block of 1024 threads cannot narrow: its 512 MiB frames run on one
	// worker.
	b = kernel("wide", arr("out", ir.I32, 1)).block(1024)
	b.local("l", ir.F64, 1<<16)
	if p, err = Compile(b.k, backend.Options{}); err != nil {
		t.Fatal(err)
	}
	if p.width != 1024 || p.maxWorkers != 1 {
		t.Errorf("%d lanes on %d workers", p.width, p.maxWorkers)
	}
}

// TestGrid: a block kernel's launch extents are blocks per axis, checked
// as backend.CheckLaunch does; Geometry is its block and grid.
func TestGrid(t *testing.T) {
	b := kernel("g", arr("out", ir.I32, 1)).block(2, 32)
	b.store(0, i32c(b, 0), i32c(b, 1))
	bk, err := backend.For(mem.CPUDevice)
	if err != nil {
		t.Fatal(err)
	}
	p, err := bk.Compile(b.k, mem.CPUDevice, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g := p.Geometry([]int{3, 5}); g != (backend.Geometry{Block: 64, Blocks: 15, PerThread: 1}) {
		t.Errorf("Geometry = %+v", g)
	}
	out := []int32{0}
	args := []backend.Arg{slice(out)}
	for _, tc := range []struct {
		grid []int
		want string
	}{
		{[]int{3, 1, 1}, "kernel g has a 2-D block (block(2, 32)) and is launched over a 3-D grid"},
		{[]int{70000, 1}, "kernel g: grid axis 0 has 70000 blocks, want 0..65535"},
		{[]int{1, -2}, "kernel g: negative launch dimension -2"},
	} {
		if err := p.Launch(&backend.Env{}, tc.grid, args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("grid %v: err = %v, want %q", tc.grid, err, tc.want)
		}
	}
	if err := p.Launch(&backend.Env{}, []int{0, 4}, args); err != nil || out[0] != 0 {
		t.Errorf("empty grid: err = %v, out = %d", err, out[0])
	}
	if err := p.Launch(&backend.Env{}, []int{1, 1}, args); err != nil || out[0] != 1 {
		t.Errorf("one block: err = %v, out = %d", err, out[0])
	}
}

// TestBlockTidAccess: x[tid()] in a 1-D block kernel takes the tid fast
// path, checked against the array's end like any access.
func TestBlockTidAccess(t *testing.T) {
	b := kernel("fill", arr("y", ir.I32, 1)).block(64)
	i := b.tid(0)
	st := b.store(0, i, b.op(ir.OpMul, ir.I32, i, i32c(b, 3)))
	y := make([]int32, 64*5)
	p := b.compile(t)
	if err := p.Launch([]int{5}, []Arg{slice(y)}, Options{}); err != nil {
		t.Fatal(err)
	}
	for k, v := range y {
		if v != int32(3*k) {
			t.Fatalf("y[%d] = %d", k, v)
		}
	}
	err := p.Launch([]int{6}, []Arg{slice(y[:300])}, Options{})
	if want := st.Pos.String() + ": kernel fill: index 300 out of bounds for axis 0 of array y with shape [300]"; err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestDivergentBarriers: a barrier or block collective that some live
// threads do not reach is a positioned error, never a hang; threads that
// returned are not waited for.
func TestDivergentBarriers(t *testing.T) {
	type build func(b *builder) *ir.Inst
	below := func(b *builder, op ir.Op, n int64) ir.Reg {
		return b.op(ir.OpLt, ir.Bool, b.index(op, 0), i32c(b, n))
	}
	barrierIf := func(op ir.Op, idx ir.Op, n int64) build {
		return func(b *builder) *ir.Inst {
			var in *ir.Inst
			b.ifElse(below(b, idx, n), func() { in = b.sync(op) }, nil)
			return in
		}
	}
	returnAbove := func(n int64, then build) build {
		return func(b *builder) *ir.Inst {
			b.ifElse(b.op(ir.OpNot, ir.Bool, below(b, ir.OpThreadId, n)), func() { b.ret() }, nil)
			return then(b)
		}
	}
	sumIf := func(b *builder) *ir.Inst {
		var in *ir.Inst
		b.ifElse(below(b, ir.OpThreadId, 32), func() {
			in = b.emit(&ir.Inst{Op: ir.OpBlockSum, Dst: b.f.NewReg(ir.I32), Args: []ir.Reg{i32c(b, 1)}})
		}, nil)
		return in
	}
	tests := []struct {
		name string
		body build
		want string // "" for no error
	}{
		{"sync under thread_id < 10", barrierIf(ir.OpSync, ir.OpThreadId, 10), "sync() reached by 10 of 64 threads of block (0): the others branched away before it"},
		{"sync after returns", returnAbove(60, barrierIf(ir.OpSync, ir.OpThreadId, 10)), "sync() reached by 10 of 64 threads of block (0): the others branched away or returned before it (4 returned)"},
		{"sync after some threads returned", returnAbove(60, func(b *builder) *ir.Inst { return b.sync(ir.OpSync) }), "sync() reached by 60 of 64 threads of block (0): the others branched away or returned before it (4 returned)"},
		{"sync under a uniform if", barrierIf(ir.OpSync, ir.OpBlockId, 2), ""},
		{"sync_warp under lane_id < 5", barrierIf(ir.OpSyncWarp, ir.OpLaneId, 5), "sync_warp() reached by 5 of 32 threads of warp 0 of block (0): the others branched away before it"},
		{"sync_warp by one warp", barrierIf(ir.OpSyncWarp, ir.OpWarpId, 1), ""},
		{"sync_warp after returns", returnAbove(40, barrierIf(ir.OpSyncWarp, ir.OpThreadId, 36)), "sync_warp() reached by 4 of 32 threads of warp 1 of block (0): the others branched away or returned before it (24 returned)"},
		{"block_sum in half the block", sumIf, "block_sum() reached by 32 of 64 threads of block (0)"},
	}
	for _, tt := range tests {
		b := kernel("k", arr("out", ir.I32, 1)).block(64)
		in := tt.body(b)
		err := b.compile(t).Launch([]int{4}, []Arg{slice(make([]int32, 1))}, Options{})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), in.Pos.String()+": kernel k: "+tt.want)):
			t.Errorf("%s: err = %v\nwant %s: kernel k: %s", tt.name, err, in.Pos, tt.want)
		}
	}
}

// TestBlockCancel: cancellation and the step budget stop a block kernel
// that spins, with a sync in its loop.
func TestBlockCancel(t *testing.T) {
	b := kernel("spin", arr("out", ir.I32, 1)).block(128)
	b.loop(nil, func() { b.sync(ir.OpSync) }, nil)
	p := b.compile(t)
	var stop atomic.Bool
	go func() {
		time.Sleep(20 * time.Millisecond)
		stop.Store(true)
	}()
	done := make(chan error, 1)
	go func() { done <- p.Launch([]int{1000}, []Arg{slice(make([]int32, 1))}, Options{Cancel: &stop}) }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrCanceled) {
			t.Fatalf("err = %v, want ErrCanceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("launch did not stop")
	}
	var steps atomic.Int64
	err := p.Launch([]int{1000}, []Arg{slice(make([]int32, 1))}, Options{Steps: &steps, MaxSteps: 100000})
	if !errors.Is(err, backend.ErrStepBudget) {
		t.Errorf("err = %v, want the step budget", err)
	}
}

// TestZeroLocalsStops: zeroing a block's local arrays polls the launch's
// cancellation between chunks, so a frame of hundreds of MB (a block of
// 1024 threads with 512 KB each) answers Ctrl-C at once, not after
// clearing all of it; a launch that goes on gets them all zeroed.
func TestZeroLocalsStops(t *testing.T) {
	b := kernel("big", arr("out", ir.I32, 1)).block(64)
	e := b.local("e", ir.I32, 1<<16) // 256 KiB a thread, 16 MiB a frame
	b.store(0, b.tid(0), b.loadIn(ir.SpaceLocal, e, i32c(b, 0)))
	p := b.compile(t)
	for _, canceled := range []bool{true, false} {
		var stop atomic.Bool
		stop.Store(canceled)
		ln := p.take()
		ln.start([]int{1}, []Arg{slice(make([]int32, 64))}, Options{Cancel: &stop})
		fr := p.getFrame()
		fr.ln = ln
		for i := range fr.bufMem {
			fr.bufMem[i] = ^uint64(0)
		}
		done := p.begin(fr, 0)
		last := fr.bufMem[len(fr.bufMem)-1]
		if done == canceled || canceled != (last != 0) {
			t.Errorf("canceled %v: begin = %v, last word %x", canceled, done, last)
		}
		fr.ln = nil
		p.putFrame(fr)
		p.release(ln)
	}
}
