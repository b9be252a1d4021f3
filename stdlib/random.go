package stdlib

import (
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/rng"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// rand, randn and randint fill an array on its device with Warp's
// generator (package rng), as the kernel builtins draw: element i (in
// row-major order) is one draw from rand_init(seed, i), so that an array
// is the same on every device for one seed, and equal to what a kernel
// computes with rand_init(seed, i). The index is taken as u32, as Warp's
// int offset: streams repeat every 2^32 elements. The seed is Warp's u32:
// seedArg refuses one outside it.

// randDraw names the draw of a fill kernel.
type randDraw string

const (
	drawUniform randDraw = "randf"
	drawNormal  randDraw = "randn"
	drawInt     randDraw = "randi"
)

var randKwargs = []string{"seed", "dtype", "device", "allocator"}

func randUniform(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	return randFloat(th, args, drawUniform)
}

func randNormal(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	return randFloat(th, args, drawNormal)
}

// randFloat is rand(shape) and randn(shape): f32 draws, converted to the
// dtype (f32 by default; an f64 array holds the same f32 values).
func randFloat(th *interp.Thread, args *interp.Args, draw randDraw) (interp.Value, error) {
	if err := args.Check(1, 1, randKwargs...); err != nil {
		return nil, err
	}
	dt, err := dtypeArg(args, ir.F32)
	if err == nil && !dt.IsFloat() {
		err = fmt.Errorf("%s: dtype must be a float type, not %s", args.Fn, dt)
	}
	if err != nil {
		return nil, err
	}
	return randArray(th, args, args.Positional[0], dt, draw, 0, 0)
}

// randInt is randint(lo, hi, shape): ints in [lo, hi), Warp's randi(state,
// lo, hi), of an int dtype (i32 by default). Warp's bounds are ints, so
// lo and hi must fit an i32.
func randInt(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(3, 3, randKwargs...); err != nil {
		return nil, err
	}
	dt, err := dtypeArg(args, ir.I32)
	if err != nil {
		return nil, err
	}
	lo, hi, err := randIntBounds(args.Positional[0], args.Positional[1], dt)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	return randArray(th, args, args.Positional[2], dt, drawInt, lo, hi)
}

func randIntBounds(lv, hv interp.Value, dt ir.Type) (lo, hi int, err error) {
	if !dt.IsInt() {
		return 0, 0, fmt.Errorf("dtype must be an int type, not %s", dt)
	}
	if !isInt(lv) || !isInt(hv) {
		return 0, 0, fmt.Errorf("the bounds must be ints, not %s and %s", lv.Type(), hv.Type())
	}
	lo, _ = interp.ToInt(lv)
	hi, _ = interp.ToInt(hv)
	switch {
	case lo >= hi:
		return 0, 0, fmt.Errorf("the range [%d, %d) is empty", lo, hi)
	case lo < math.MinInt32 || hi > math.MaxInt32:
		return 0, 0, fmt.Errorf("the bounds %d and %d must fit an i32", lo, hi)
	}
	return lo, hi, checkFits(dt, interp.Int(lo), interp.Int(hi-1))
}

// randArray makes the array of shape sv and fills it with draw.
func randArray(th *interp.Thread, args *interp.Args, sv interp.Value, dt ir.Type, draw randDraw, lo, hi int) (interp.Value, error) {
	shape, err := interp.ShapeArg([]interp.Value{sv})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	seed, err := seedArg(args)
	if err != nil {
		return nil, err
	}
	a, err := newArray(th, args, dt, shape)
	if err != nil {
		return nil, err
	}
	if err := randFill(th, a, draw, seed, lo, hi); err != nil {
		a.Free()
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	return &interp.Array{A: a}, nil
}

// seedArg reads seed=, an int (0 by default, so that a script without
// one is reproducible) in the u32 range of Warp's seed. A seed outside it
// is refused rather than cut to its low 32 bits, where seed=2^32 would
// silently be seed=0's stream (docs/decisions.md).
func seedArg(args *interp.Args) (int, error) {
	v := args.Kwarg("seed")
	if v == nil {
		return 0, nil
	}
	if !isInt(v) {
		return 0, fmt.Errorf("%s: seed must be an int, not %s", args.Fn, v.Type())
	}
	seed, err := interp.ToInt(v)
	if err != nil {
		return 0, err
	}
	if seed < 0 || seed > math.MaxUint32 {
		return 0, fmt.Errorf("%s: seed=%d is outside 0 to %d (Warp's generator has a u32 seed)", args.Fn, seed, uint32(math.MaxUint32))
	}
	return seed, nil
}

func randFill(th *interp.Thread, a *mem.Array, draw randDraw, seed, lo, hi int) error {
	flat, err := a.Reshape([]int{a.Size()})
	if err != nil {
		return err
	}
	t := a.DType()
	name := fmt.Sprintf("gscript_%s_%s", draw, t)
	k, err := interp.GeneratedKernel(name, func() (*ir.Kernel, error) { return randKernel(name, draw, t), nil })
	if err != nil {
		return err
	}
	return launchChunks(th, k, flat, func(args *interp.KernelArgs) { args.Ints(seed, lo, hi) })
}

// randKernel writes T(draw(rand_init(seed, i))) to element i; lo and hi
// bound randi.
func randKernel(name string, draw randDraw, t ir.Type) *ir.Kernel {
	f := newIRFunc(&ir.Func{Name: name, Params: []ir.Param{{Name: "x", Elem: t, NDim: 1},
		{Name: "seed", Elem: ir.I64}, {Name: "lo", Elem: ir.I64}, {Name: "hi", Elem: ir.I64}, {Name: "offset", Elem: ir.I64}}})
	tid, i := f.index(4)
	s := rng.EmitInit(f, f.Conv(ir.U32, f.Param(1)), f.Conv(ir.U32, i))
	var v ir.Reg
	switch draw {
	case drawUniform:
		_, v = rng.EmitRandf(f, s)
	case drawNormal:
		_, v = rng.EmitRandn(f, s)
	case drawInt:
		_, v = rng.EmitRandiRange(f, s, f.Conv(ir.I32, f.Param(2)), f.Conv(ir.I32, f.Param(3)))
	}
	f.store(tid, f.Conv(t, v))
	return &ir.Kernel{Entry: f.F, TidDims: 1}
}
