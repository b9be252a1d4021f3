package cpu

import (
	"github.com/gscript-lang/gscript/lang/ir"
)

func immInt(imm any) (int, bool) {
	switch v := imm.(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case uint64:
		return int(v), v < 1<<31
	}
	return 0, false
}

// leaf compiles the instructions without register operands: Const,
// Param, Tid, Shape and the block index ops. Those whose value is the same
// in every block and whose register has a single definition are hoisted:
// computed once per launch and frame instead of once per block.
func (c *compiler) leaf(ctx *fnCtx, in *ir.Inst, o operands) (instFn, error) {
	if o.dst < 0 || len(o.args) != 0 {
		return nil, c.errf(ctx, in.Pos, "%s needs a destination and no operands", in.Op)
	}
	d, t := o.dst, o.dt
	var f instFn
	same := true
	var err error
	switch in.Op { // each leaf's value has its own source
	case ir.OpConst:
		bits, ok := ir.ImmBits(in.Imm, t)
		if !ok {
			return nil, c.errf(ctx, in.Pos, "const has immediate %T", in.Imm)
		}
		f = func(fr *frame, m mask) error { fillBits(fr, m, t, d, bits); return nil }
	case ir.OpParam:
		f, same, err = c.param(ctx, in, d, t)
	case ir.OpTid:
		return c.tid(ctx, in, d, t)
	case ir.OpShape:
		f, err = c.shape(ctx, in, d, t)
	case ir.OpThreadId, ir.OpBlockId, ir.OpBlockDim, ir.OpGridDim, ir.OpLaneId, ir.OpWarpId:
		f, same, err = c.blockIndex(ctx, in, d, t)
	}
	if err != nil {
		return nil, err
	}
	if same && ctx.single(in.Dst) {
		c.p.setup = append(c.p.setup, f)
		c.hoisted[d] = true
		return nil, nil
	}
	return f, nil
}

// tid compiles OpTid: a flat kernel's launch index, or a block kernel's
// block_id*block_dim + thread_id.
func (c *compiler) tid(ctx *fnCtx, in *ir.Inst, d int, t ir.Type) (instFn, error) {
	ax, ok := immInt(in.Imm)
	if !ok || ax < 0 || ax >= 4 || (c.k.TidDims > 0 && ax >= c.k.TidDims) || t != ir.I32 ||
		(c.p.blk != nil && ax >= len(c.p.blk.dims)) {
		return nil, c.errf(ctx, in.Pos, "tid axis %v into %s is invalid", in.Imm, t)
	}
	if c.p.blk != nil {
		return blockTidFn(d, ax, c.p.blk), nil
	}
	return tidFn(d, ax), nil
}

// param reads scalar parameter in.Param: a launch argument in the kernel
// (uniform), the caller's register in a func instance.
func (c *compiler) param(ctx *fnCtx, in *ir.Inst, d int, t ir.Type) (instFn, bool, error) {
	p := in.Param
	if p < 0 || p >= len(ctx.f.Params) || ctx.f.Params[p].IsArray() || ctx.f.Params[p].Elem != t {
		return nil, false, c.errf(ctx, in.Pos, "param %d is not a scalar %s parameter", p, t)
	}
	if !ctx.kernel {
		return mkMov(t, d, ctx.scalars[p]), false, nil
	}
	return func(fr *frame, m mask) error { fillBits(fr, m, t, d, fr.ln.bits[p]); return nil }, true, nil
}

// shape compiles OpShape: a launch argument's extent, or a shared or
// local array's static one.
func (c *compiler) shape(ctx *fnCtx, in *ir.Inst, d int, t ir.Type) (instFn, error) {
	prm, ref, err := c.arrayOf(ctx, in)
	if err != nil {
		return nil, err
	}
	ax, ok := immInt(in.Imm)
	if !ok || ax < 0 || ax >= prm.NDim || t != ir.I32 {
		return nil, c.errf(ctx, in.Pos, "shape of %s axis %v into %s is invalid", prm.Name, in.Imm, t)
	}
	if ref.buf >= 0 {
		ext := uint32(c.p.bufs[ref.buf].buf.Dims[ax])
		return func(fr *frame, m mask) error { kFill(fr, m, d, ext); return nil }, nil
	}
	kp := ref.kp
	return func(fr *frame, m mask) error {
		kFill(fr, m, d, uint32(int32(fr.ln.arrays[kp].shape[ax])))
		return nil
	}, nil
}

// tidFn writes the thread index along axis ax (C order: the last axis is
// fastest). A 1-D launch is base+lane; otherwise an odometer avoids a
// division per lane in the unmasked case.
func tidFn(d, ax int) instFn {
	return func(fr *frame, m mask) error {
		D := vec[int32](fr, d)
		ln := fr.ln
		if ln.nd == 1 {
			base := int32(fr.base)
			if m.all {
				for i := range D[:fr.n] {
					D[i] = base + int32(i)
				}
				return nil
			}
			for _, i := range m.idx {
				D[i] = base + i
			}
			return nil
		}
		inner, ext := ln.inner[ax], ln.dims[ax]
		if !m.all {
			for _, i := range m.idx {
				D[i] = int32((fr.base + int(i)) / inner % ext)
			}
			return nil
		}
		v, r := fr.base/inner%ext, fr.base%inner
		for i := range D[:fr.n] {
			D[i] = int32(v)
			if r++; r == inner {
				r = 0
				if v++; v == ext {
					v = 0
				}
			}
		}
		return nil
	}
}

// kIdiv divides (or takes the remainder) after checking the active lanes
// for a zero divisor. Go's / and % truncate toward zero and wrap MinInt/-1,
// as C on two's complement hardware.
func kIdiv[T integer](fr *frame, m mask, d, a, b int, rem bool) bool {
	D, A, B := vec[T](fr, d), vec[T](fr, a), vec[T](fr, b)
	if m.all {
		D, A, B = D[:fr.n], A[:fr.n], B[:fr.n]
		for _, v := range B {
			if v == 0 {
				return false
			}
		}
		if rem {
			for i := range D {
				D[i] = A[i] % B[i]
			}
		} else {
			for i := range D {
				D[i] = A[i] / B[i]
			}
		}
		return true
	}
	for _, i := range m.idx {
		if B[i] == 0 {
			return false
		}
	}
	for _, i := range m.idx {
		if rem {
			D[i] = A[i] % B[i]
		} else {
			D[i] = A[i] / B[i]
		}
	}
	return true
}

func mkIdiv(t ir.Type, in *ir.Inst, d, a, b int, fn string) instFn {
	rem := in.Op == ir.OpRem
	var k func(*frame, mask, int, int, int, bool) bool
	switch t {
	case ir.U8:
		k = kIdiv[uint8]
	case ir.I32:
		k = kIdiv[int32]
	case ir.I64:
		k = kIdiv[int64]
	case ir.U32:
		k = kIdiv[uint32]
	default:
		k = kIdiv[uint64]
	}
	pos := in.Pos
	return func(fr *frame, m mask) error {
		if !k(fr, m, d, a, b, rem) {
			return &KernelError{Pos: pos, Kernel: fr.ln.p.k.Entry.Name, Msg: "integer division by zero"}
		}
		return nil
	}
}

// kCount converts shift counts to uint64; a negative count becomes huge,
// so it shifts everything out like any count >= the width.
func kCount[C integer](fr *frame, m mask, b int) {
	B := vec[C](fr, b)
	if m.all {
		for i, v := range B[:fr.n] {
			fr.cnt[i] = uint64(v)
		}
		return
	}
	for _, i := range m.idx {
		fr.cnt[i] = uint64(B[i])
	}
}

func kShift[T integer](fr *frame, m mask, d, a int, left bool) {
	D, A, S := vec[T](fr, d), vec[T](fr, a), fr.cnt
	switch {
	case m.all && left:
		for i := range D[:fr.n] {
			D[i] = A[i] << S[i]
		}
	case m.all:
		for i := range D[:fr.n] {
			D[i] = A[i] >> S[i]
		}
	case left:
		for _, i := range m.idx {
			D[i] = A[i] << S[i]
		}
	default:
		for _, i := range m.idx {
			D[i] = A[i] >> S[i]
		}
	}
}

func (c *compiler) shift(ctx *fnCtx, in *ir.Inst, o operands) (instFn, error) {
	if len(o.args) != 2 || o.dst < 0 || !o.dt.IsInt() || o.types[0] != o.dt || !o.types[1].IsInt() {
		return nil, c.errf(ctx, in.Pos, "%s needs (int, int) operands, has %v -> %s", in.Op, o.types, o.dt)
	}
	left := in.Op == ir.OpShl
	count, sh := countFor(o.types[1]), shiftFor(o.dt)
	d, a, b := o.dst, o.args[0], o.args[1]
	return func(fr *frame, m mask) error {
		count(fr, m, b)
		sh(fr, m, d, a, left)
		return nil
	}, nil
}

func countFor(t ir.Type) func(*frame, mask, int) {
	switch t {
	case ir.U8:
		return kCount[uint8]
	case ir.I32:
		return kCount[int32]
	case ir.I64:
		return kCount[int64]
	case ir.U32:
		return kCount[uint32]
	}
	return kCount[uint64]
}

func shiftFor(t ir.Type) func(*frame, mask, int, int, bool) {
	switch t {
	case ir.U8:
		return kShift[uint8]
	case ir.I32:
		return kShift[int32]
	case ir.I64:
		return kShift[int64]
	case ir.U32:
		return kShift[uint32]
	}
	return kShift[uint64]
}
