package cpu

import (
	"math"
	"runtime"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// saxpyKernel is `kernel saxpy(x: array[f32], y: array[f32], a: f32)
// { let i = tid(); y[i] = a * x[i] + y[i] }` lowered as the checker does.
func saxpyKernel() *builder {
	b := kernel("saxpy", arr("x", ir.F32, 1), arr("y", ir.F32, 1), scalar("a", ir.F32))
	i := b.tid(0)
	a := b.param(2)
	x := b.load(0, i)
	ax := b.op(ir.OpMul, ir.F32, a, x)
	y := b.load(1, i)
	b.store(1, i, b.op(ir.OpAdd, ir.F32, ax, y))
	return b
}

const saxpyN = 1 << 24

func TestSaxpy(t *testing.T) {
	p := saxpyKernel().compile(t)
	n := 100003 // not a multiple of the block size
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 2
	}
	if err := p.Launch([]int{n}, []Arg{slice(x), slice(y), {Bits: uint64(math.Float32bits(3))}}, Options{}); err != nil {
		t.Fatal(err)
	}
	for i := range y {
		if want := 3*float32(i) + 2; y[i] != want {
			t.Fatalf("y[%d] = %v, want %v", i, y[i], want)
		}
	}
}

func BenchmarkSaxpy(b *testing.B) {
	p := saxpyKernel().compile(b)
	x, y := make([]float32, saxpyN), make([]float32, saxpyN)
	args := []Arg{slice(x), slice(y), {Bits: uint64(math.Float32bits(3))}}
	b.SetBytes(saxpyN * 12)
	for b.Loop() {
		if err := p.Launch([]int{saxpyN}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSaxpyGoLoop(b *testing.B) {
	x, y := make([]float32, saxpyN), make([]float32, saxpyN)
	a := float32(3)
	b.SetBytes(saxpyN * 12)
	for b.Loop() {
		for i := range y {
			y[i] = a*x[i] + y[i]
		}
	}
}

// BenchmarkTranspose2D is `out[i, j] = m[j, i]` over a 2-D launch: the
// odometer tid and the general (bounds-checked, strided) access path.
func BenchmarkTranspose2D(b *testing.B) {
	const n = 2048
	kb := kernel("t", arr("m", ir.F32, 2), arr("out", ir.F32, 2))
	i, j := kb.tid(0), kb.tid(1)
	kb.store(1, i, j, kb.load(0, j, i))
	p := kb.compile(b)
	m, out := make([]float32, n*n), make([]float32, n*n)
	args := []Arg{slice(m, n, n), slice(out, n, n)}
	b.SetBytes(n * n * 8)
	for b.Loop() {
		if err := p.Launch([]int{n, n}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDivergentLoop is `s = 0; for k in range(0, i % 64) { s += k }
// ; out[i] = s`: masked loops whose lanes leave at different iterations.
func BenchmarkDivergentLoop(b *testing.B) {
	const n = 1 << 20
	kb := kernel("loop", arr("out", ir.I32, 1))
	i := kb.tid(0)
	s := kb.f.NewReg(ir.I32)
	kb.mov(s, i32c(kb, 0))
	kb.forRange(i32c(kb, 0), kb.op(ir.OpRem, ir.I32, i, i32c(kb, 64)), func(k ir.Reg) {
		kb.mov(s, kb.op(ir.OpAdd, ir.I32, s, k))
	})
	kb.store(0, i, s)
	p := kb.compile(b)
	out := make([]int32, n)
	for b.Loop() {
		if err := p.Launch([]int{n}, []Arg{slice(out)}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBlockSum is a grid-stride block reduction of 2^24 f32: `acc +=
// x[j]` over j = tid(), tid() + grid*block, ...; then block_sum(acc) and
// one atomic_add per block.
func BenchmarkBlockSum(b *testing.B) {
	const n, bs, grid = 1 << 24, 256, 64
	kb := kernel("sum", arr("x", ir.F32, 1), arr("out", ir.F32, 1)).block(bs)
	i := kb.tid(0)
	stride := kb.op(ir.OpMul, ir.I32, kb.index(ir.OpGridDim, 0), kb.index(ir.OpBlockDim, 0))
	size := kb.emit(&ir.Inst{Op: ir.OpShape, Dst: kb.f.NewReg(ir.I32), Param: 0, Imm: int64(0)}).Dst
	acc, j := kb.f.NewReg(ir.F32), kb.f.NewReg(ir.I32)
	kb.mov(acc, kb.konst(ir.F32, 0.0))
	kb.mov(j, i)
	kb.loop(func() ir.Reg { return kb.op(ir.OpLt, ir.Bool, j, size) },
		func() { kb.mov(acc, kb.op(ir.OpAdd, ir.F32, acc, kb.load(0, j))) },
		func() { kb.mov(j, kb.op(ir.OpAdd, ir.I32, j, stride)) })
	s := kb.op(ir.OpBlockSum, ir.F32, acc)
	kb.ifElse(kb.op(ir.OpEq, ir.Bool, kb.index(ir.OpThreadId, 0), i32c(kb, 0)), func() {
		kb.emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Param: 1, Args: []ir.Reg{i32c(kb, 0), s}})
	}, nil)
	p := kb.compile(b)
	x, out := make([]float32, n), make([]float32, 1)
	for k := range x {
		x[k] = 1
	}
	b.SetBytes(n * 4)
	for b.Loop() {
		out[0] = 0
		if err := p.Launch([]int{grid}, []Arg{slice(x), slice(out)}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if out[0] != n {
		b.Fatalf("sum = %v", out[0])
	}
}

// BenchmarkSharedTranspose is BenchmarkTranspose2D as a block kernel
// through a 32x33 shared tile (block 8x32, each thread moving 4 rows).
func BenchmarkSharedTranspose(b *testing.B) {
	const n, T, R = 2048, 32, 8
	kb := kernel("t", arr("m", ir.F32, 2), arr("out", ir.F32, 2)).block(R, T)
	tile := kb.shared("tile", ir.F32, T, T+1)
	ty, tx := kb.index(ir.OpThreadId, 0), kb.index(ir.OpThreadId, 1)
	by, bx := kb.index(ir.OpBlockId, 0), kb.index(ir.OpBlockId, 1)
	at := func(blk, thr ir.Reg) ir.Reg {
		return kb.op(ir.OpAdd, ir.I32, kb.op(ir.OpMul, ir.I32, blk, i32c(kb, T)), thr)
	}
	for k := 0; k < T; k += R {
		row := kb.op(ir.OpAdd, ir.I32, ty, i32c(kb, int64(k)))
		kb.storeIn(ir.SpaceShared, tile, row, tx, kb.load(0, at(by, row), at(bx, tx)))
	}
	kb.sync(ir.OpSync)
	for k := 0; k < T; k += R {
		row := kb.op(ir.OpAdd, ir.I32, ty, i32c(kb, int64(k)))
		kb.store(1, at(bx, row), at(by, tx), kb.loadIn(ir.SpaceShared, tile, tx, row))
	}
	p := kb.compile(b)
	m, out := make([]float32, n*n), make([]float32, n*n)
	args := []Arg{slice(m, n, n), slice(out, n, n)}
	b.SetBytes(n * n * 8)
	for b.Loop() {
		if err := p.Launch([]int{n / T, n / T}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// vec3Kernel is bench/vec_update.gs's upd3 as the checker lowers it: `p[i]
// += v[i] * dt` over arrays of vec3, f32 arrays with a trailing axis of 3
// indexed by constants. With gather, i is idx[tid()] instead (the general
// path with constant lane indices).
func vec3Kernel(gather bool) *builder {
	params := []ir.Param{arr("p", ir.F32, 2), arr("v", ir.F32, 2), scalar("dt", ir.F32)}
	if gather {
		params = append(params, arr("idx", ir.I32, 1))
	}
	b := kernel("upd3", params...)
	dt := b.param(2)
	i := b.tid(0)
	if gather {
		i = b.load(3, i)
	}
	var p, v [3]ir.Reg
	for c := range 3 {
		p[c] = b.load(0, i, i32c(b, int64(c)))
	}
	for c := range 3 {
		v[c] = b.load(1, i, i32c(b, int64(c)))
	}
	for c := range 3 {
		b.store(0, i, i32c(b, int64(c)), b.op(ir.OpAdd, ir.F32, p[c], b.op(ir.OpMul, ir.F32, v[c], dt)))
	}
	return b
}

func benchVec3(b *testing.B, gather bool) {
	const n = 1 << 20
	p := vec3Kernel(gather).compile(b)
	pos, vel := make([]float32, 3*n), make([]float32, 3*n)
	args := []Arg{slice(pos, n, 3), slice(vel, n, 3), {Bits: uint64(math.Float32bits(0.5))}}
	var idx []int32
	if gather {
		idx = make([]int32, n)
		for k := range idx {
			idx[k] = int32(k)
		}
		args = append(args, slice(idx))
	}
	defer runtime.KeepAlive(idx)
	b.SetBytes(n * 36)
	for b.Loop() {
		if err := p.Launch([]int{n}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	runtime.KeepAlive(pos) // args hold addresses only
	runtime.KeepAlive(vel)
}

// BenchmarkVec3Update is the tid fast path with constant lane indices.
func BenchmarkVec3Update(b *testing.B) { benchVec3(b, false) }

// BenchmarkVec3Gather is p[idx[i]] += v[idx[i]] * dt: a per-lane index on
// axis 0, the constant lane axis checked once per block.
func BenchmarkVec3Gather(b *testing.B) { benchVec3(b, true) }

// BenchmarkF32Update is BenchmarkVec3Update over three f32 arrays per
// quantity (upd1 of bench/vec_update.gs): the contiguous copy path.
func BenchmarkF32Update(b *testing.B) {
	const n = 1 << 20
	var params []ir.Param
	for _, name := range []string{"px", "py", "pz", "vx", "vy", "vz"} {
		params = append(params, arr(name, ir.F32, 1))
	}
	kb := kernel("upd1", append(params, scalar("dt", ir.F32))...)
	dt := kb.param(6)
	i := kb.tid(0)
	for c := range 3 {
		kb.store(c, i, kb.op(ir.OpAdd, ir.F32, kb.load(c, i), kb.op(ir.OpMul, ir.F32, kb.load(3+c, i), dt)))
	}
	p := kb.compile(b)
	var args []Arg
	var bufs [6][]float32
	for c := range bufs {
		bufs[c] = make([]float32, n)
		args = append(args, slice(bufs[c]))
	}
	args = append(args, Arg{Bits: uint64(math.Float32bits(0.5))})
	b.SetBytes(n * 36)
	for b.Loop() {
		if err := p.Launch([]int{n}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	runtime.KeepAlive(&bufs)
}

// jacobiKernel is bench/cpu/cpu.gs's jacobi as the checker lowers it:
// `let r, c = tid(); let i = r + 1; let j = c + 1; v[i, j] = 0.25 *
// (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])`, launched over
// the interior (side-2)^2.
func jacobiKernel() *builder {
	b := kernel("jacobi", arr("u", ir.F32, 2), arr("v", ir.F32, 2))
	r, c := b.tid(0), b.tid(1)
	plus := func(x ir.Reg, op ir.Op) ir.Reg {
		v := b.f.NewReg(ir.I32)
		b.mov(v, b.op(op, ir.I32, x, i32c(b, 1)))
		return v
	}
	i, j := plus(r, ir.OpAdd), plus(c, ir.OpAdd)
	near := func(x ir.Reg, op ir.Op) ir.Reg { return b.op(op, ir.I32, x, i32c(b, 1)) }
	s := b.op(ir.OpAdd, ir.F32, b.load(0, near(i, ir.OpSub), j), b.load(0, near(i, ir.OpAdd), j))
	s = b.op(ir.OpAdd, ir.F32, s, b.load(0, i, near(j, ir.OpSub)))
	s = b.op(ir.OpAdd, ir.F32, s, b.load(0, i, near(j, ir.OpAdd)))
	b.store(1, i, j, b.op(ir.OpMul, ir.F32, b.konst(ir.F32, 0.25), s))
	return b
}

// BenchmarkJacobi2D is jacobiKernel on 4096^2 f32 (bench/cpu's jacobi row).
func BenchmarkJacobi2D(b *testing.B) {
	const side = 4096
	p := jacobiKernel().compile(b)
	u, v := make([]float32, side*side), make([]float32, side*side)
	args := []Arg{slice(u, side, side), slice(v, side, side)}
	b.SetBytes((side - 2) * (side - 2) * 8)
	for b.Loop() {
		if err := p.Launch([]int{side - 2, side - 2}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	runtime.KeepAlive(u)
	runtime.KeepAlive(v)
}
