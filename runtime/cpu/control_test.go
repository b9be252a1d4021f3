package cpu

import (
	"math"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/runtime/backend"
)

func i32c(b *builder, v int64) ir.Reg { return b.konst(ir.I32, v) }

func launch1(t *testing.T, b *builder, n int, args ...Arg) {
	t.Helper()
	if err := b.compile(t).Launch([]int{n}, args, Options{}); err != nil {
		t.Fatal(err)
	}
}

func TestIfElseDivergent(t *testing.T) {
	// let v = 0; if i%3 == 0 { v = i*2 } else if i%3 == 1 { v = -i } else { v = 7 }; out[i] = v
	b := kernel("k", arr("out", ir.I32, 1))
	i := b.tid(0)
	v := b.f.NewReg(ir.I32)
	b.mov(v, i32c(b, 0))
	r := b.op(ir.OpRem, ir.I32, i, i32c(b, 3))
	b.ifElse(b.op(ir.OpEq, ir.Bool, r, i32c(b, 0)),
		func() { b.mov(v, b.op(ir.OpMul, ir.I32, i, i32c(b, 2))) },
		func() {
			b.ifElse(b.op(ir.OpEq, ir.Bool, r, i32c(b, 1)),
				func() { b.mov(v, b.op(ir.OpNeg, ir.I32, i)) },
				func() { b.mov(v, i32c(b, 7)) })
		})
	b.store(0, i, v)
	n := 3000
	out := make([]int32, n)
	launch1(t, b, n, slice(out))
	for i, got := range out {
		want := []int32{int32(i * 2), int32(-i), 7}[i%3]
		if got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
}

func TestLoopBreakContinue(t *testing.T) {
	// s = 0; for k in range(0, i%50) { if k%3 == 0 { continue }; if k > i%17+5 { break }; s += k }; out[i] = s
	b := kernel("k", arr("out", ir.I32, 1))
	i := b.tid(0)
	s := b.f.NewReg(ir.I32)
	b.mov(s, i32c(b, 0))
	hi := b.op(ir.OpRem, ir.I32, i, i32c(b, 50))
	lim := b.op(ir.OpAdd, ir.I32, b.op(ir.OpRem, ir.I32, i, i32c(b, 17)), i32c(b, 5))
	b.forRange(i32c(b, 0), hi, func(k ir.Reg) {
		b.ifElse(b.op(ir.OpEq, ir.Bool, b.op(ir.OpRem, ir.I32, k, i32c(b, 3)), i32c(b, 0)), b.cont, nil)
		b.ifElse(b.op(ir.OpGt, ir.Bool, k, lim), b.brk, nil)
		b.mov(s, b.op(ir.OpAdd, ir.I32, s, k))
	})
	b.store(0, i, s)
	n := 2500
	out := make([]int32, n)
	launch1(t, b, n, slice(out))
	for i, got := range out {
		want := int32(0)
		for k := 0; k < i%50; k++ {
			if k%3 == 0 {
				continue
			}
			if k > i%17+5 {
				break
			}
			want += int32(k)
		}
		if got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
}

func TestNestedLoopsAndReturn(t *testing.T) {
	// out[i] = -1; if i%4 == 3 { return }
	// j = 0; loop forever { for k in range(0, 3) { if k == 1 { continue }; j += k }; if j >= i%9 { out[i] = j; return }; j += 1 }
	b := kernel("k", arr("out", ir.I32, 1))
	i := b.tid(0)
	b.store(0, i, i32c(b, -1))
	b.ifElse(b.op(ir.OpEq, ir.Bool, b.op(ir.OpRem, ir.I32, i, i32c(b, 4)), i32c(b, 3)), func() { b.ret() }, nil)
	j := b.f.NewReg(ir.I32)
	b.mov(j, i32c(b, 0))
	b.loop(nil, func() {
		b.forRange(i32c(b, 0), i32c(b, 3), func(k ir.Reg) {
			b.ifElse(b.op(ir.OpEq, ir.Bool, k, i32c(b, 1)), b.cont, nil)
			b.mov(j, b.op(ir.OpAdd, ir.I32, j, k))
		})
		b.ifElse(b.op(ir.OpGe, ir.Bool, j, b.op(ir.OpRem, ir.I32, i, i32c(b, 9))), func() {
			b.store(0, i, j)
			b.ret()
		}, nil)
		b.mov(j, b.op(ir.OpAdd, ir.I32, j, i32c(b, 1)))
	}, nil)
	b.store(0, i, i32c(b, 99)) // never reached: every lane returns in the loop
	n := 1500
	out := make([]int32, n)
	launch1(t, b, n, slice(out))
	for i, got := range out {
		want := int32(-1)
		if i%4 != 3 {
			j := 0
			for {
				j += 2
				if j >= i%9 {
					break
				}
				j++
			}
			want = int32(j)
		}
		if got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
}

func TestFuncCallDivergent(t *testing.T) {
	// func steps(n: i32) -> i32 { let m = n; let s = 0
	//   while m != 1 { if m%2 == 0 { m = m/2 } else { m = 3*m+1 }; s += 1; if s > 50 { return -1 } }
	//   return s }
	// func put(a: array[i32], k: i32, v: i32) { a[k] = v }
	// kernel: let i = tid(); if i%2 == 0 { put(out, i, steps(i+1)) } else { put(out, i, 1000 + i) }
	b := kernel("k", arr("out", ir.I32, 1))
	fs, steps := b.fn("steps", []ir.Type{ir.I32}, scalar("n", ir.I32))
	m := fs.f.NewReg(ir.I32)
	fs.mov(m, fs.param(0))
	s := fs.f.NewReg(ir.I32)
	fs.mov(s, i32c(fs, 0))
	fs.loop(func() ir.Reg { return fs.op(ir.OpNe, ir.Bool, m, i32c(fs, 1)) }, func() {
		fs.ifElse(fs.op(ir.OpEq, ir.Bool, fs.op(ir.OpRem, ir.I32, m, i32c(fs, 2)), i32c(fs, 0)),
			func() { fs.mov(m, fs.op(ir.OpDiv, ir.I32, m, i32c(fs, 2))) },
			func() { fs.mov(m, fs.op(ir.OpAdd, ir.I32, fs.op(ir.OpMul, ir.I32, m, i32c(fs, 3)), i32c(fs, 1))) })
		fs.mov(s, fs.op(ir.OpAdd, ir.I32, s, i32c(fs, 1)))
		fs.ifElse(fs.op(ir.OpGt, ir.Bool, s, i32c(fs, 50)), func() { fs.ret(i32c(fs, -1)) }, nil)
	}, nil)
	fs.ret(s)
	fp, put := b.fn("put", nil, arr("a", ir.I32, 1), scalar("k", ir.I32), scalar("v", ir.I32))
	fp.store(0, fp.param(1), fp.param(2))

	i := b.tid(0)
	call := func(callee int, dsts []ir.Reg, args []ir.Reg, arrays []int) {
		b.emit(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: dsts, Callee: callee, Args: args, ArrayArgs: arrays})
	}
	b.ifElse(b.op(ir.OpEq, ir.Bool, b.op(ir.OpRem, ir.I32, i, i32c(b, 2)), i32c(b, 0)), func() {
		r := b.f.NewReg(ir.I32)
		call(steps, []ir.Reg{r}, []ir.Reg{b.op(ir.OpAdd, ir.I32, i, i32c(b, 1))}, []int{-1})
		call(put, nil, []ir.Reg{ir.NoReg, i, r}, []int{0, -1, -1})
	}, func() {
		call(put, nil, []ir.Reg{ir.NoReg, i, b.op(ir.OpAdd, ir.I32, i, i32c(b, 1000))}, []int{0, -1, -1})
	})
	n := 3000
	out := make([]int32, n)
	launch1(t, b, n, slice(out))
	for i, got := range out {
		want := int32(1000 + i)
		if i%2 == 0 {
			m, s := i+1, 0
			for m != 1 {
				if m%2 == 0 {
					m /= 2
				} else {
					m = 3*m + 1
				}
				if s++; s > 50 {
					s = -1
					break
				}
			}
			want = int32(s)
		}
		if got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
}

func TestRecursionRejected(t *testing.T) {
	b := kernel("k", arr("out", ir.I32, 1))
	f, idx := b.fn("f", nil)
	f.emit(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Callee: idx})
	b.emit(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Callee: idx})
	if _, err := Compile(b.k, backend.Options{}); err == nil {
		t.Fatal("recursive func compiled")
	}
}

func TestCompileErrors(t *testing.T) {
	b := kernel("k", arr("out", ir.I32, 1))
	x := b.konst(ir.I32, int64(1))
	y := b.konst(ir.F32, 1.0)
	b.op(ir.OpAdd, ir.I32, x, y)
	if _, err := Compile(b.k, backend.Options{}); err == nil {
		t.Error("mismatched add compiled")
	}
	b = kernel("k", arr("out", ir.I32, 1))
	b.emit(&ir.Inst{Op: ir.OpLoad, Dst: b.f.NewReg(ir.I32), Param: 0, Args: []ir.Reg{55}})
	if _, err := Compile(b.k, backend.Options{}); err == nil {
		t.Error("bad register compiled")
	}
	b = kernel("k", arr("out", ir.I32, 1))
	b.brk()
	if _, err := Compile(b.k, backend.Options{}); err == nil {
		t.Error("break outside loop compiled")
	}
	if _, err := Compile(nil, backend.Options{}); err == nil {
		t.Error("nil kernel compiled")
	}
}

// TestMultiResultCalls runs irtest's calls of funcs with several results
// and checks each output against the case's Want, over threads whose
// inputs differ, so that the early returns of "early" diverge within a
// block.
func TestMultiResultCalls(t *testing.T) {
	const n = 1000
	in := func(i int) float64 { return float64(i % 70) }
	for _, c := range irtest.Calls() {
		p, err := Compile(c.Kernel, backend.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		params := c.Kernel.Entry.Params
		data := make([][]byte, len(params))
		args := make([]Arg, len(params))
		for k, prm := range params {
			data[k] = make([]byte, n*prm.Elem.Size())
			args[k] = slice(data[k], n)
		}
		for i := range n {
			putBits(data[0], params[0].Elem, i, ir.FromFloat(in(i), params[0].Elem))
		}
		if err := p.Launch([]int{n}, args, Options{}); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		for i := range n {
			for k, want := range c.Want(in(i)) {
				et := params[k+1].Elem
				got := math.Float64frombits(ir.Convert(getBits(data[k+1], et, i), et, ir.F64))
				if got != want {
					t.Fatalf("%s: %s[%d] (input %v) = %v, want %v", c, params[k+1].Name, i, in(i), got, want)
				}
			}
		}
	}
}

// putBits and getBits access element i of little-endian data of type t.
func putBits(data []byte, t ir.Type, i int, bits uint64) {
	for j := range t.Size() {
		data[i*t.Size()+j] = byte(bits >> (8 * j))
	}
}

func getBits(data []byte, t ir.Type, i int) uint64 {
	var bits uint64
	for j := range t.Size() {
		bits |= uint64(data[i*t.Size()+j]) << (8 * j)
	}
	return bits
}

// TestCallDstDefines: a call's Dsts count as definitions of their
// registers, so a constant that a call overwrites on some threads is not
// hoisted out of the blocks (later blocks would read the call's values):
//
//	func pair(v: i32) -> (i32, i32) { return v * 10, v }
//	kernel: r = 5; if i < 100 { r, _ = pair(i) }; out[i] = r
func TestCallDstDefines(t *testing.T) {
	b := kernel("k", arr("out", ir.I32, 1))
	fp, pair := b.fn("pair", []ir.Type{ir.I32, ir.I32}, scalar("v", ir.I32))
	v := fp.param(0)
	fp.ret(fp.op(ir.OpMul, ir.I32, v, i32c(fp, 10)), v)
	i := b.tid(0)
	r := i32c(b, 5)
	b.ifElse(b.op(ir.OpLt, ir.Bool, i, i32c(b, 100)), func() {
		b.emit(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: []ir.Reg{r, ir.NoReg}, Callee: pair, Args: []ir.Reg{i}, ArrayArgs: []int{-1}})
	}, nil)
	b.store(0, i, r)
	n := 100000
	out := make([]int32, n)
	launch1(t, b, n, slice(out))
	for i, got := range out {
		want := int32(5)
		if i < 100 {
			want = int32(10 * i)
		}
		if got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
}
