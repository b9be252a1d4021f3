package cpu

import (
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/internal/repr"
	"github.com/gscript-lang/gscript/lang/ir"
)

// call compiles OpCall by compiling the callee anew for this call site: its
// array parameters become the caller's kernel arguments and its scalar
// parameters the caller's argument registers. The callee body runs with the
// caller's mask; lanes that return leave the body, and all of them resume
// after the call, which moves each result the caller keeps from its slot
// into its Dst.
func (c *compiler) call(ctx *fnCtx, in *ir.Inst, o operands) (instFn, error) {
	if in.Callee < 0 || in.Callee >= len(c.k.Funcs) || c.k.Funcs[in.Callee] == nil {
		return nil, c.errf(ctx, in.Pos, "call of unknown func %d", in.Callee)
	}
	f := c.k.Funcs[in.Callee]
	if c.active[f] {
		return nil, c.errf(ctx, in.Pos, "recursive call of func %s", f.Name)
	}
	if c.instances++; c.instances > maxInstances {
		return nil, c.errf(ctx, in.Pos, "too many inlined calls (more than %d)", maxInstances)
	}
	if len(in.Args) != len(f.Params) || len(in.ArrayArgs) != len(f.Params) {
		return nil, c.errf(ctx, in.Pos, "call of %s with %d arguments, want %d", f.Name, len(in.Args), len(f.Params))
	}
	callee := c.instance(f, false)
	for i, prm := range f.Params {
		if err := c.bindParam(ctx, callee, in, o, i, prm); err != nil {
			return nil, err
		}
	}
	// A result slot for each result the caller keeps (ir.Verify checked
	// Dsts against the callee's results): Returns skip the dropped ones.
	callee.results = make([]int, len(f.Results))
	var movs []instFn
	for i, t := range f.Results {
		callee.results[i] = -1
		if i >= len(in.Dsts) || in.Dsts[i] == ir.NoReg {
			continue
		}
		d, _, err := c.reg(ctx, in.Dsts[i], in.Pos)
		if err != nil {
			return nil, err
		}
		callee.results[i] = len(c.p.regs)
		c.p.regs = append(c.p.regs, t)
		movs = append(movs, mkMov(t, d, callee.results[i]))
	}
	c.active[f] = true
	body, err := c.stmts(callee, f.Body)
	delete(c.active, f)
	if err != nil {
		return nil, err
	}
	if len(callee.locals) > 0 {
		body = withLocals(body, callee.locals)
	}
	if len(movs) == 0 {
		return func(fr *frame, m mask) error { _, err := body(fr, m); return err }, nil
	}
	return func(fr *frame, m mask) error {
		if _, err := body(fr, m); err != nil {
			return err
		}
		for _, mov := range movs {
			if err := mov(fr, m); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// withLocals zeroes a func's local arrays for the calling lanes before
// its body: each call starts with zeros.
func withLocals(body stmtFn, locals []int) stmtFn {
	return func(fr *frame, m mask) (mask, error) {
		if !zeroLocals(fr, m, locals) {
			return m, errStopped
		}
		return body(fr, m)
	}
}

func (c *compiler) bindParam(ctx, callee *fnCtx, in *ir.Inst, o operands, i int, prm ir.Param) error {
	if !prm.IsArray() {
		if o.args[i] < 0 || o.types[i] != prm.Elem {
			return c.errf(ctx, in.Pos, "argument %d of %s has type %s, want %s", i, callee.f.Name, o.types[i], prm.Elem)
		}
		callee.scalars[i] = o.args[i]
		return nil
	}
	cp := in.ArrayArgs[i]
	if cp < 0 || cp >= len(ctx.f.Params) || !ctx.f.Params[cp].IsArray() ||
		ctx.f.Params[cp].Elem != prm.Elem || ctx.f.Params[cp].NDim != prm.NDim {
		return c.errf(ctx, in.Pos, "argument %d of %s is not a matching array parameter", i, callee.f.Name)
	}
	callee.arrays[i] = ctx.arrays[cp]
	return nil
}

// print compiles device print: each active lane, in lane order, appends
// its line to the block's buffer, flushed to Options.Out after the block.
func (c *compiler) print(ctx *fnCtx, in *ir.Inst, o operands) (instFn, error) {
	parts := strings.Split(in.Format, "{}")
	if len(parts) != len(o.args)+1 {
		return nil, c.errf(ctx, in.Pos, "print format %q has %d placeholders for %d values", in.Format, len(parts)-1, len(o.args))
	}
	for i, r := range o.args {
		if r < 0 {
			return nil, c.errf(ctx, in.Pos, "print argument %d is missing", i)
		}
	}
	regs, types := o.args, o.types
	return func(fr *frame, m mask) error {
		if fr.ln.out == nil {
			return nil
		}
		lanesDo(fr, m, func(lane int) {
			fr.out = append(fr.out, parts[0]...)
			for k, r := range regs {
				fr.out = appendValue(fr.out, fr, r, types[k], lane)
				fr.out = append(fr.out, parts[k+1]...)
			}
		})
		return nil
	}, nil
}

// appendValue formats one lane of a register as the host prints scalars.
func appendValue(b []byte, fr *frame, r int, t ir.Type, lane int) []byte {
	switch t {
	case ir.Bool:
		return strconv.AppendBool(b, vec[bool](fr, r)[lane])
	case ir.U8:
		return strconv.AppendUint(b, uint64(vec[uint8](fr, r)[lane]), 10)
	case ir.I32:
		return strconv.AppendInt(b, int64(vec[int32](fr, r)[lane]), 10)
	case ir.I64:
		return strconv.AppendInt(b, vec[int64](fr, r)[lane], 10)
	case ir.U32:
		return strconv.AppendUint(b, uint64(vec[uint32](fr, r)[lane]), 10)
	case ir.U64:
		return strconv.AppendUint(b, vec[uint64](fr, r)[lane], 10)
	case ir.F32:
		return append(b, repr.FormatFloat(float64(vec[float32](fr, r)[lane]), 32)...)
	}
	return append(b, repr.FormatFloat(vec[float64](fr, r)[lane], 64)...)
}
