package stdlib

import (
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/rng"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// permutation(n, seed=0, device=, allocator=) is a random permutation of
// 0..n-1 (i64) from Warp's generator: element i gets the 64-bit key of
// two randi draws from rand_init(seed, i), and the permutation is the
// (stable) argsort of the keys, the same on every device for one seed.
func permutation(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, "seed", "device", "allocator"); err != nil {
		return nil, err
	}
	n, err := populationArg(args)
	if err != nil {
		return nil, err
	}
	seed, err := seedArg(args)
	if err != nil {
		return nil, err
	}
	p, err := randomPermutation(th, args, n, seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", args.Fn, err)
	}
	return &interp.Array{A: p}, nil
}

// populationArg is the n of permutation(n) and choice(n, ...).
func populationArg(args *interp.Args) (int, error) {
	v := args.Positional[0]
	if _, ok := v.(*interp.Array); ok {
		return 0, fmt.Errorf("%s of an array is not supported yet: give its length (take the elements with a[p] once index arrays land)", args.Fn)
	}
	n, err := interp.ToInt(v)
	if err != nil || !isInt(v) {
		return 0, fmt.Errorf("%s: n must be an int, not %s", args.Fn, v.Type())
	}
	if n < 0 {
		return 0, fmt.Errorf("%s: n must be non-negative, not %d", args.Fn, n)
	}
	return n, nil
}

// randomPermutation sorts n random keys and returns their argsort.
func randomPermutation(th *interp.Thread, args *interp.Args, n, seed int) (*mem.Array, error) {
	keys, err := newArray(th, args, ir.U64, []int{n})
	if err != nil {
		return nil, err
	}
	defer keys.Free()
	if n > 0 {
		k, err := interp.GeneratedKernel("gscript_randkey_u64", func() (*ir.Kernel, error) { return randKeyKernel(), nil })
		if err != nil {
			return nil, err
		}
		if err := launchChunks(th, k, keys, func(a *interp.KernelArgs) { a.Ints(seed) }); err != nil {
			return nil, err
		}
	}
	return radixSort(th, keys, max(n, 1), true)
}

// randKeyKernel writes (a << 32) | b to element i, a and b the first two
// randi draws of rand_init(seed, i).
func randKeyKernel() *ir.Kernel {
	f := newIRFunc(&ir.Func{Name: "gscript_randkey_u64", Params: []ir.Param{{Name: "x", Elem: ir.U64, NDim: 1},
		{Name: "seed", Elem: ir.I64}, {Name: "offset", Elem: ir.I64}}})
	tid, i := f.index(2)
	s := rng.EmitInit(f, f.Conv(ir.U32, f.Param(1)), f.Conv(ir.U32, i))
	a := rng.EmitPCG(f, s)
	b := rng.EmitPCG(f, a)
	hi := f.Op(ir.OpShl, ir.U64, f.Conv(ir.U64, a), f.Const(ir.I32, int64(32)))
	f.store(tid, f.Op(ir.OpOr, ir.U64, hi, f.Conv(ir.U64, b)))
	return &ir.Kernel{Entry: f.F, TidDims: 1}
}

// choice(n, size, replace=true, seed=0, device=, allocator=) draws size
// (an int or a shape) ints from 0..n-1 (i64): with replacement element i
// is randi(rand_init(seed, i), 0, n), as randint; without, the first
// elements of permutation(n, seed) (a sort of n random keys), so size
// may not pass n.
func choice(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "replace", "seed", "device", "allocator"); err != nil {
		return nil, err
	}
	n, err := populationArg(args)
	if err != nil {
		return nil, err
	}
	shape, err := interp.ShapeArg([]interp.Value{args.Positional[1]})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	replace, err := boolArg(args, "replace", true)
	if err != nil {
		return nil, err
	}
	seed, err := seedArg(args)
	if err != nil {
		return nil, err
	}
	size := 1
	for _, d := range shape {
		size *= d
	}
	switch {
	case n == 0 && size > 0:
		return nil, fmt.Errorf("%s: a cannot be empty unless no samples are taken", args.Fn)
	case !replace && size > n:
		return nil, fmt.Errorf("%s: cannot take a larger sample (%d) than the population (%d) when replace=false", args.Fn, size, n)
	case replace && n > math.MaxInt32:
		return nil, fmt.Errorf("%s: with replacement n must fit an i32 (Warp's randi), not %d", args.Fn, n)
	}
	out, err := newArray(th, args, ir.I64, shape)
	if err != nil || size == 0 {
		return &interp.Array{A: out}, err
	}
	if replace {
		err = randFill(th, out, drawInt, seed, 0, n)
	} else {
		err = firstOfPermutation(th, args, out, n, seed)
	}
	if err != nil {
		out.Free()
		return nil, fmt.Errorf("%s: %w", args.Fn, err)
	}
	return &interp.Array{A: out}, nil
}

// firstOfPermutation fills out with the first elements of
// permutation(n, seed).
func firstOfPermutation(th *interp.Thread, args *interp.Args, out *mem.Array, n, seed int) error {
	p, err := randomPermutation(th, args, n, seed)
	if err != nil {
		return err
	}
	defer p.Free()
	head, err := p.Slice(0, out.Size())
	if err != nil {
		return err
	}
	dst, err := out.Reshape([]int{out.Size()})
	if err != nil {
		return err
	}
	return th.CopyArray(dst, head)
}
