package stdlib

import (
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// matmul on a tape (docs/autodiff.md): C = A @ B seen as stacks of
// matrices (the plan's 3-D views) has dA = dC @ B^T and dB = A^T @ dC,
// each one GEMM through the device's BLAS with the transposes as
// transposed views (no copies), summed over the batch axis where the
// operand was broadcast along it. A gradient that does not exist yet and
// covers its buffer (an intermediate's) is written by the GEMM directly;
// an existing one (a parameter's, which accumulates) gets the product
// added by one elementwise kernel.

// recordMatmul records p's product out of a and b when a tape records.
func recordMatmul(th *interp.Thread, p *matmulPlan, a, b, out *mem.Array) error {
	if !th.Records(a, b) || !p.dtype.IsFloat() {
		return nil
	}
	return th.Record(&matmulOp{p: p, a: a, b: b, out: out})
}

type matmulOp struct {
	p         *matmulPlan
	a, b, out *mem.Array
}

func (o *matmulOp) Name() string { return "matmul" }

func (o *matmulOp) Inputs() []*mem.Array {
	var in []*mem.Array
	for _, x := range []*mem.Array{o.a, o.b} {
		if x.RequiresGrad() {
			in = append(in, x)
		}
	}
	return in
}

func (o *matmulOp) Outputs() []*mem.Array { return []*mem.Array{o.out} }

func (o *matmulOp) Backward(th *interp.Thread) error {
	dc, err := o.p.outStack(o.out.Grad())
	if err != nil {
		return err
	}
	if o.a.RequiresGrad() {
		bt, err := o.p.b.Permute([]int{0, 2, 1})
		if err != nil {
			return err
		}
		if err := gradProduct(th, o.a, o.p.a, dc, bt); err != nil {
			return err
		}
	}
	if o.b.RequiresGrad() {
		at, err := o.p.a.Permute([]int{0, 2, 1})
		if err != nil {
			return err
		}
		return gradProduct(th, o.b, o.p.b, at, dc)
	}
	return nil
}

// gradProduct adds x @ y (stacks of matrices) into the gradient of
// operand v, whose 3-D view is v3: summed over the batch where v3 has
// one matrix and the product several.
func gradProduct(th *interp.Thread, v, v3, x, y *mem.Array) error {
	p, err := planMatmul(x, y, [2]string{"gradient", "operand"})
	if err != nil {
		return err
	}
	reduced := v3.Shape()[0] == 1 && p.batch > 1
	if !reduced && v.Grad() == nil && v.IsContiguous() && v.NBytes() == v.BufferBytes() {
		g, err := freshGrad(th, v)
		if err != nil {
			return err
		}
		g3, err := g.Reshape(p.shape)
		if err != nil {
			return err
		}
		return p.run(th, g3)
	}
	prod, err := th.NewArrayUninit(p.dtype, p.shape, interp.String(p.dev.String()), nil)
	if err != nil {
		return err
	}
	if err := p.run(th, prod); err != nil {
		return err
	}
	var sum interp.Value = &interp.Array{A: prod}
	if reduced {
		if sum, err = axisReduce(th, "matmul", reduce.Sum, axisInput{t: p.dtype, arrays: []*mem.Array{prod}}, []int{0}, true); err != nil {
			return err
		}
	}
	s, err := sum.(*interp.Array).A.Reshape(v.Shape())
	if err != nil {
		return fmt.Errorf("internal error: matmul's gradient of shape %v for an operand of shape %v", sum.(*interp.Array).A.Shape(), v.Shape())
	}
	return th.AccumulateGrad(v, &interp.Array{A: s})
}

// freshGrad gives v, contiguous over its whole buffer and without a
// gradient, an uninitialised one that the caller writes entirely: no
// zero fill for a GEMM to overwrite.
func freshGrad(th *interp.Thread, v *mem.Array) (*mem.Array, error) {
	g, err := th.NewArrayUninit(v.DType(), v.Shape(), interp.String(v.Device().String()), nil)
	if err != nil {
		return nil, err
	}
	if err := v.SetGrad(g); err != nil { // a buffer of another size: the zero-filled one
		g.Free()
		return th.GradArray(v)
	}
	return v.Grad(), nil
}
