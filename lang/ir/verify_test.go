package ir

import (
	"strings"
	"testing"
)

// saxpy is a well-formed kernel: out[i] = a * x[i] + out[i].
func saxpy() *Kernel {
	f := &Func{Name: "saxpy", Params: []Param{{Name: "a", Elem: F32}, {Name: "x", Elem: F32, NDim: 1}, {Name: "out", Elem: F32, NDim: 1}}}
	i, a, x, y, p := f.NewReg(I32), f.NewReg(F32), f.NewReg(F32), f.NewReg(F32), f.NewReg(F32)
	f.Body = []Stmt{
		&Inst{Op: OpTid, Dst: i, Imm: 0},
		&Inst{Op: OpParam, Dst: a, Param: 0},
		&Inst{Op: OpLoad, Dst: x, Param: 1, Args: []Reg{i}},
		&Inst{Op: OpLoad, Dst: y, Param: 2, Args: []Reg{i}},
		&Inst{Op: OpFma, Dst: p, Args: []Reg{a, x, y}},
		&Inst{Op: OpStore, Dst: NoReg, Param: 2, Args: []Reg{i, p}},
	}
	return &Kernel{Entry: f, TidDims: 1}
}

func TestVerifyAccepts(t *testing.T) {
	if err := Verify(saxpy()); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyRejects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(k *Kernel)
		want   string
	}{
		{"unknown op", func(k *Kernel) { inst(k, 4).Op = NumOps }, "unknown op"},
		{"arity", func(k *Kernel) { inst(k, 4).Args = []Reg{1, 2} }, "instruction 4 (fma): has 2 operands, want 3"},
		{"operand type", func(k *Kernel) { inst(k, 4).Args[1] = 0 }, "instruction 4 (fma): operand 1 has type i32"},
		{"class", func(k *Kernel) { in := inst(k, 4); in.Op, in.Args = OpRem, in.Args[:2] }, "(rem): does not apply to f32"},
		{"bad register", func(k *Kernel) { inst(k, 4).Args[2] = 99 }, "instruction 4 (fma): operand 2: register 99 out of range"},
		{"bad destination", func(k *Kernel) { inst(k, 4).Dst = -7 }, "destination: register -7 out of range"},
		{"result type", func(k *Kernel) { inst(k, 4).Dst = 0 }, "destination has type i32, want f32"},
		{"store value", func(k *Kernel) { inst(k, 5).Args[1] = 0 }, "(store): value 0 has type i32"},
		{"indices", func(k *Kernel) { inst(k, 2).Args = nil }, "(load): has 0 operands, want 1 indices"},
		{"not an array", func(k *Kernel) { inst(k, 2).Param = 0 }, "(load): parameter 0 is not an array"},
		{"param", func(k *Kernel) { inst(k, 1).Param = 1 }, "(param): parameter 1 is not a scalar"},
		{"tid axis", func(k *Kernel) { inst(k, 0).Imm = 1 }, "(tid): axis 1 of a 1-D launch"},
		{"const", func(k *Kernel) { inst(k, 0).Op = OpConst; inst(k, 0).Imm = "x" }, "(const): immediate x (string)"},
		{"if", func(k *Kernel) { k.Entry.Body = append(k.Entry.Body, &If{Cond: 1}) }, "if condition: has type f32"},
		{"break", func(k *Kernel) { k.Entry.Body = append(k.Entry.Body, &Break{}) }, "*ir.Break outside a loop"},
		{"return", func(k *Kernel) { k.Entry.Body = append(k.Entry.Body, &Return{Values: []Reg{1}}) }, "return of 1 values from saxpy, which has 0 results"},
		{"kernel results", func(k *Kernel) { k.Entry.Results = []Type{F32} }, "kernel has results [f32]"},
		{"dsts", func(k *Kernel) { inst(k, 4).Dsts = []Reg{4} }, "(fma): destinations [4] on an op other than call"},
		{"nil", func(k *Kernel) { k.Entry.Body[3] = (*Inst)(nil) }, "nil statement *ir.Inst"},
		{"callee", func(k *Kernel) {
			k.Entry.Body = append(k.Entry.Body, &Inst{Op: OpCall, Dst: NoReg, Callee: 3})
		}, "(call): callee 3 out of range"},
	}
	for _, tt := range tests {
		k := saxpy()
		tt.mutate(k)
		err := Verify(k)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "ir: func saxpy: ") {
			t.Errorf("%s: Verify = %v, want an error naming the func and %q", tt.name, err, tt.want)
		}
	}
}

func inst(k *Kernel, i int) *Inst { return k.Entry.Body[i].(*Inst) }

func TestVerifyCall(t *testing.T) {
	k := saxpy()
	g := &Func{Name: "twice", Params: []Param{{Name: "v", Elem: F32}}, Results: []Type{F32}}
	v, r := g.NewReg(F32), g.NewReg(F32)
	g.Body = []Stmt{&Inst{Op: OpParam, Dst: v, Param: 0}, &Inst{Op: OpAdd, Dst: r, Args: []Reg{v, v}}, &Return{Values: []Reg{r}}}
	k.Funcs = []*Func{g}
	call := &Inst{Op: OpCall, Dst: NoReg, Dsts: []Reg{4}, Callee: 0, Args: []Reg{4}, ArrayArgs: []int{-1}}
	k.Entry.Body = append(k.Entry.Body, call)
	if err := Verify(k); err != nil {
		t.Fatal(err)
	}
	call.Args = []Reg{0}
	if err := Verify(k); err == nil || !strings.Contains(err.Error(), "argument 0 (v) has type i32") {
		t.Errorf("Verify = %v", err)
	}
	call.Args, g.Body[2] = []Reg{4}, &Return{}
	if err := Verify(k); err == nil || !strings.Contains(err.Error(), "ir: func twice: return of 0 values from twice, which has 1 results") {
		t.Errorf("Verify = %v", err)
	}
}

// TestVerifyResults: a func of several results, returned and called with
// some results dropped, is valid; wrong counts and types are refused.
func TestVerifyResults(t *testing.T) {
	mk := func() (*Kernel, *Func, *Inst) {
		k := saxpy()
		g := &Func{Name: "split", Params: []Param{{Name: "v", Elem: F32}}, Results: []Type{F32, I32, F64}}
		v, n, w := g.NewReg(F32), g.NewReg(I32), g.NewReg(F64)
		g.Body = []Stmt{
			&Inst{Op: OpParam, Dst: v, Param: 0},
			&Inst{Op: OpConvert, Dst: n, Args: []Reg{v}},
			&Inst{Op: OpConvert, Dst: w, Args: []Reg{v}},
			&Return{Values: []Reg{v, n, w}},
		}
		k.Funcs = []*Func{g}
		call := &Inst{Op: OpCall, Dst: NoReg, Dsts: []Reg{4, 0, NoReg}, Callee: 0, Args: []Reg{4}, ArrayArgs: []int{-1}}
		k.Entry.Body = append(k.Entry.Body, call)
		return k, g, call
	}
	k, _, call := mk()
	if err := Verify(k); err != nil {
		t.Fatal(err)
	}
	call.Dsts = nil // a call as a statement
	if err := Verify(k); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		mutate func(g *Func, call *Inst)
		want   string
	}{
		{"dst count", func(g *Func, call *Inst) { call.Dsts = call.Dsts[:2] }, "(call): 2 destinations for the 3 results of split"},
		{"dst type", func(g *Func, call *Inst) { call.Dsts[1] = 4 }, "(call): destination 1: has type f32, result 1 of split is i32"},
		{"dst range", func(g *Func, call *Inst) { call.Dsts[2] = 99 }, "(call): destination 2: register 99 out of range"},
		{"dst", func(g *Func, call *Inst) { call.Dst = 4 }, "(call): destination r4: a call writes Dsts, not Dst"},
		{"value count", func(g *Func, call *Inst) { g.Body[3] = &Return{Values: []Reg{0, 1}} }, "func split: return of 2 values from split, which has 3 results"},
		{"value type", func(g *Func, call *Inst) { g.Body[3] = &Return{Values: []Reg{0, 2, 1}} }, "func split: return: value 1 has type f64, result 1 is i32"},
		{"result type", func(g *Func, call *Inst) { g.Results[2] = Invalid }, "func split: result 2 has type invalid"},
	}
	for _, tt := range tests {
		k, g, call := mk()
		tt.mutate(g, call)
		if err := Verify(k); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Verify = %v, want %q", tt.name, err, tt.want)
		}
	}
}

// blockSum is a well-formed block kernel of 64 threads: a shared array,
// a local array, a barrier and a block collective.
func blockSum() *Kernel {
	f := &Func{Name: "bsum", Params: []Param{{Name: "x", Elem: F32, NDim: 1}, {Name: "out", Elem: F32, NDim: 1}},
		Locals: []Buffer{{Name: "acc", Elem: F32, Dims: []int{4}}}}
	i, t, b, x, s, z := f.NewReg(I32), f.NewReg(I32), f.NewReg(I32), f.NewReg(F32), f.NewReg(F32), f.NewReg(I32)
	f.Body = []Stmt{
		&Inst{Op: OpTid, Dst: i, Imm: 0},
		&Inst{Op: OpThreadId, Dst: t, Imm: 0},
		&Inst{Op: OpLoad, Dst: x, Param: 0, Args: []Reg{i}},
		&Inst{Op: OpStore, Dst: NoReg, Space: SpaceShared, Param: 0, Args: []Reg{t, x}},
		&Inst{Op: OpSync, Dst: NoReg},
		&Inst{Op: OpBlockSum, Dst: s, Args: []Reg{x}},
		&Inst{Op: OpConst, Dst: z, Imm: int64(0)},
		&Inst{Op: OpStore, Dst: NoReg, Space: SpaceLocal, Param: 0, Args: []Reg{z, s}},
		&Inst{Op: OpBlockId, Dst: b, Imm: 0},
		&Inst{Op: OpStore, Dst: NoReg, Param: 1, Args: []Reg{b, s}},
	}
	return &Kernel{Entry: f, TidDims: 1, Block: []int{64}, Shared: []Buffer{{Name: "tile", Elem: F32, Dims: []int{64}}}}
}

func TestVerifyBlockKernel(t *testing.T) {
	if err := Verify(blockSum()); err != nil {
		t.Fatal(err)
	}
	full := blockSum()
	full.MinBlocks = 32 // 2048 threads: a multiprocessor's all
	if err := Verify(full); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		mutate func(k *Kernel)
		want   string
	}{
		{"flat", func(k *Kernel) { k.Block, k.Shared = nil, nil }, "(thread_id): thread_id outside a block kernel"},
		{"warp multiple", func(k *Kernel) { k.Block = []int{48}; k.Shared[0].Dims = []int{48} }, "block_sum in a block of 48 threads, not a multiple of 32"},
		{"axis", func(k *Kernel) { inst(k, 1).Imm = 1 }, "(thread_id): axis 1 of a 1-D block"},
		{"too many threads", func(k *Kernel) { k.Block = []int{2, 1024} }, "has 2048 threads"},
		{"z limit", func(k *Kernel) { k.Block = []int{65, 1, 1} }, "axis 0 is 65, want 1..64"},
		{"tid dims", func(k *Kernel) { k.TidDims = 2 }, "tid dimensions 2 in a kernel with a 1-D block"},
		{"min blocks", func(k *Kernel) { k.MinBlocks = 33 }, "33 blocks of 64 threads a multiprocessor: want 0..2048 threads"},
		{"negative min blocks", func(k *Kernel) { k.MinBlocks = -1 }, "-1 blocks of 64 threads"},
		{"flat min blocks", func(k *Kernel) { k.Block, k.Shared, k.MinBlocks = nil, nil, 2 }, "blocks a multiprocessor"},
		{"shared index", func(k *Kernel) { inst(k, 3).Param = 1 }, "shared array 1 out of range"},
		{"local type", func(k *Kernel) { inst(k, 7).Args[1] = 0 }, "value 0 has type i32, array acc holds f32"},
		{"shared extents", func(k *Kernel) { k.Shared[0].Dims = []int{0} }, "shared array 0 (tile)"},
		{"space on add", func(k *Kernel) { inst(k, 6).Space = SpaceLocal }, "space local on an op without an array"},
	}
	for _, tt := range tests {
		k := blockSum()
		tt.mutate(k)
		if err := Verify(k); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Verify = %v, want %q", tt.name, err, tt.want)
		}
	}
	if got := blockSum().SharedBytes(); got != 256 {
		t.Errorf("SharedBytes = %d, want 256", got)
	}
}

// TestBuilder: a kernel written with Builder (a loop, an if, a conversion
// and a constant) is valid IR, and Conv of a register of the target type
// emits nothing.
func TestBuilder(t *testing.T) {
	f := &Func{Name: "count", Params: []Param{{Name: "out", Elem: I64, NDim: 1}, {Name: "n", Elem: I32}}}
	b := NewBuilder(f)
	i := f.NewReg(I32)
	b.Emit(&Inst{Op: OpTid, Dst: i, Imm: 0})
	n := b.Param(1)
	if b.Conv(I32, n) != n {
		t.Error("Conv to the register's own type made a new register")
	}
	acc := b.Const(I64, int64(0))
	k := b.Const(I32, int64(0))
	b.While(func() Reg { return b.Op(OpLt, Bool, k, n) }, func() {
		b.Emit(&Inst{Op: OpAdd, Dst: k, Args: []Reg{k, b.Const(I32, int64(1))}})
		b.If(b.Op(OpLt, Bool, k, i), func() {
			b.Emit(&Inst{Op: OpAdd, Dst: acc, Args: []Reg{acc, b.Conv(I64, k)}})
		})
	})
	b.Emit(&Inst{Op: OpStore, Dst: NoReg, Param: 0, Args: []Reg{i, acc}})
	if err := Verify(&Kernel{Entry: f, TidDims: 1}); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Body[len(f.Body)-2].(*Loop); !ok {
		t.Errorf("the loop is not in the body: %T", f.Body[len(f.Body)-2])
	}
}
