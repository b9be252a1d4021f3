package stdlib

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// matmul is matmul(a, b[, out=c]) (ARRAYS.md section 4, NumPy's rules):
// f32 and f64 through the device's BLAS, the int types (and floats on a
// GPU without cuBLAS) through a generated tiled kernel.
func matmul(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "out"); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	b, err := arrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	p, err := planMatmul(a, b, operandNames(args))
	if err != nil {
		return nil, err
	}
	if len(p.shape) == 0 {
		if th.Records(a, b) {
			return nil, fmt.Errorf("matmul of two vectors is a host number, which carries no gradient: write sum(a * b) inside a tape")
		}
		return p.scalar(th, args.Kwarg("out"))
	}
	out, err := p.output(th, args.Kwarg("out"))
	if err != nil {
		return nil, err
	}
	if args.Kwarg("out") != nil {
		if err := tapedWrite(th, "matmul out=", out); err != nil {
			return nil, err
		}
	}
	if slices.Contains(p.shape, 0) {
		return &interp.Array{A: out}, nil
	}
	if err := p.run(th, out); err != nil {
		return nil, err
	}
	return &interp.Array{A: out}, recordMatmul(th, p, a, b, out)
}

// operandNames are the names of matmul's operands in messages: the
// script's variables where it passed variables.
func operandNames(args *interp.Args) [2]string {
	names := [2]string{"a", "b"}
	for i := range names {
		if n := args.ArgName(i); n != "" {
			names[i] = n
		}
	}
	return names
}

// matmulPlan is a checked product: both operands seen as stacks of
// matrices [batch, rows, cols] (3-D views) and the result's shape.
type matmulPlan struct {
	a, b    *mem.Array // 3-D views
	m, n, k int
	batch   int
	shape   []int   // the result's shape (NumPy's: vector axes dropped)
	kept    [3]bool // whether the result has the batch, row and column axes
	dtype   ir.Type
	dev     mem.Device
}

// planMatmul checks a @ b and sees both as 3-D stacks: a vector a is a
// row [1, k], a vector b a column [k, 1] (NumPy), a matrix a stack of one.
func planMatmul(a, b *mem.Array, names [2]string) (*matmulPlan, error) {
	as, bs := a.Shape(), b.Shape()
	pair := fmt.Sprintf("matmul: %s @ %s", interp.ShapeString(as), interp.ShapeString(bs))
	for i, x := range []*mem.Array{a, b} {
		if x.NDim() == 0 || x.NDim() > 3 {
			return nil, fmt.Errorf("%s: %s is %d-D: matmul takes 1-D, 2-D and 3-D (batched) arrays", pair, names[i], x.NDim())
		}
	}
	if err := matmulTypes(a, b, names); err != nil {
		return nil, err
	}
	a3, err := stack(a, 0)
	if err != nil {
		return nil, err
	}
	b3, err := stack(b, 1)
	if err != nil {
		return nil, err
	}
	p := &matmulPlan{a: a3, b: b3, m: a3.Shape()[1], k: a3.Shape()[2], n: b3.Shape()[2], dtype: a.DType(), dev: a.Device()}
	if kb := b3.Shape()[1]; kb != p.k {
		return nil, fmt.Errorf("%s: inner dimensions %d and %d differ", pair, p.k, kb)
	}
	ba, bb := a3.Shape()[0], b3.Shape()[0]
	if ba != bb && ba != 1 && bb != 1 {
		return nil, fmt.Errorf("%s: batch dimensions %d and %d differ (they must be equal, or one of them 1)", pair, ba, bb)
	}
	p.batch = max(ba, bb)
	p.kept = [3]bool{a.NDim() == 3 || b.NDim() == 3, a.NDim() > 1, b.NDim() > 1}
	for i, ext := range []int{p.batch, p.m, p.n} {
		if p.kept[i] {
			p.shape = append(p.shape, ext)
		}
	}
	return p, nil
}

// matmulTypes requires one dtype that matmul has and one device.
func matmulTypes(a, b *mem.Array, names [2]string) error {
	if a.DType() != b.DType() {
		return fmt.Errorf("matmul: dtypes %s and %s differ: convert one operand to the other's dtype first", a.DType(), b.DType())
	}
	if a.DType() == ir.Bool {
		return fmt.Errorf("matmul: unsupported dtype bool (matmul takes f32, f64 and the integer dtypes)")
	}
	if da, db := a.Device(), b.Device(); da != db {
		return fmt.Errorf("matmul: %s is on %s and %s on %s: move one with %s.to(\"%s\") or %s.to(\"%s\")",
			names[0], da, names[1], db, names[1], da, names[0], db)
	}
	return nil
}

// stack views x as [batch, rows, cols]: a vector becomes a row (side 0,
// the left operand) or a column (side 1).
func stack(x *mem.Array, side int) (*mem.Array, error) {
	var err error
	if x.NDim() == 1 {
		if x, err = x.NewAxis(side); err != nil {
			return nil, err
		}
	}
	if x.NDim() == 2 {
		x, err = x.NewAxis(0)
	}
	return x, err
}

// output returns the result array: out= checked against the product, or
// a new one through the allocator scopes (every element is written).
func (p *matmulPlan) output(th *interp.Thread, outArg interp.Value) (*mem.Array, error) {
	if outArg == nil {
		return th.NewArrayUninit(p.dtype, p.shape, interp.String(p.dev.String()), nil)
	}
	ov, ok := outArg.(*interp.Array)
	if !ok {
		return nil, fmt.Errorf("matmul: out= must be an array, not %s", outArg.Type())
	}
	out, err := ov.Plain("matmul out=")
	switch {
	case err != nil:
		return nil, err
	case !slices.Equal(out.Shape(), p.shape):
		return nil, fmt.Errorf("matmul: out= has shape %s, the product has shape %s", interp.ShapeString(out.Shape()), interp.ShapeString(p.shape))
	case out.DType() != p.dtype:
		return nil, fmt.Errorf("matmul: out= has dtype %s, the product has dtype %s", out.DType(), p.dtype)
	case out.Device() != p.dev:
		return nil, fmt.Errorf("matmul: out= is on %s and the operands on %s: allocate it there or move it with .to(\"%s\")", out.Device(), p.dev, p.dev)
	case out.SameBuffer(p.a) || out.SameBuffer(p.b):
		return nil, fmt.Errorf("matmul: out= shares memory with an operand: write the product to another array")
	}
	return out, nil
}

// scalar is the product of two vectors: a host scalar of the dtype, as
// NumPy's, computed on the device into a one-element array and read back.
func (p *matmulPlan) scalar(th *interp.Thread, outArg interp.Value) (interp.Value, error) {
	if outArg != nil {
		return nil, fmt.Errorf("matmul: the product of two vectors is a scalar: out= cannot receive it")
	}
	if th.Capturing(p.dev) {
		return nil, fmt.Errorf("matmul: the product of two vectors is a host scalar and cannot be read inside a capture block on %s", p.dev)
	}
	p.shape, p.kept = []int{1}, [3]bool{false, false, true}
	out, err := p.output(th, nil)
	if err != nil {
		return nil, err
	}
	if err := p.run(th, out); err != nil {
		return nil, err
	}
	v, err := readBits(th, out, 1)
	if err != nil {
		return nil, err
	}
	return interp.ConvertScalarBits(p.dtype, v[0]), nil
}

// outStack views the result as [batch, m, n], putting back the axes
// that NumPy's rule dropped (no batch, a vector operand).
func (p *matmulPlan) outStack(out *mem.Array) (*mem.Array, error) {
	var err error
	for ax, kept := range p.kept {
		if !kept && err == nil {
			out, err = out.NewAxis(ax)
		}
	}
	return out, err
}
