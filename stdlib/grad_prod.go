package stdlib

import (
	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/stdlib/fuse"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// prodShare is prod's gradient, exact where x has zeros (as PyTorch's):
// the product of the other elements of x's group times g. Per group of
// the reduction, with z the count of zeros and p the product of the
// nonzero elements (two axis reductions on the device):
//
//	z == 0: g * out / x
//	z == 1: g * p at the zero, 0 elsewhere
//	z >= 2: 0
func (o *reduceOp) prodShare(th *interp.Thread, g interp.Value) (interp.Value, error) {
	x := o.operand()
	isZero, err := fuse.Binary(token.Eql, x, interp.Int(0))
	if err != nil {
		return nil, err
	}
	zeros, err := o.keptReduce(th, reduce.Sum, isZero, true)
	if err != nil {
		return nil, err
	}
	nonzero, err := fuse.Where(isZero, interp.Int(1), x)
	if err != nil {
		return nil, err
	}
	p, err := o.keptReduce(th, reduce.Prod, nonzero, false)
	if err != nil {
		return nil, err
	}
	out, err := o.out.Reshape(o.kept)
	if err != nil {
		return nil, err
	}
	none, err := divided(g, &interp.Array{A: out}, nonzero) // z == 0 (nonzero is x there)
	if err != nil {
		return nil, err
	}
	one, err := oneZeroShare(g, p, isZero)
	if err != nil {
		return nil, err
	}
	z0, err := fuse.Binary(token.Eql, zeros, interp.Int(0))
	if err != nil {
		return nil, err
	}
	z1, err := fuse.Binary(token.Eql, zeros, interp.Int(1))
	if err != nil {
		return nil, err
	}
	rest, err := fuse.Where(z1, one, interp.Int(0))
	if err != nil {
		return nil, err
	}
	return fuse.Where(z0, none, rest)
}

// keptReduce reduces v (cast to the operand's dtype when cast, for a
// count of a bool) along the op's axes, the axes kept.
func (o *reduceOp) keptReduce(th *interp.Thread, k reduce.Kind, v interp.Value, cast bool) (interp.Value, error) {
	var err error
	if cast {
		if v, err = fuse.AsType(v, o.out.DType()); err != nil {
			return nil, err
		}
	}
	e, err := fuse.Leaf(v)
	if err != nil {
		return nil, err
	}
	return fusedAxisReduce(th, o.name, k, e, o.axes, true)
}

// divided is g * out / x.
func divided(g, out, x interp.Value) (interp.Value, error) {
	v, err := fuse.Binary(token.Mul, g, out)
	if err != nil {
		return nil, err
	}
	return fuse.Binary(token.Quo, v, x)
}

// oneZeroShare is g * p where x is the group's one zero, else 0.
func oneZeroShare(g, p, isZero interp.Value) (interp.Value, error) {
	v, err := fuse.Binary(token.Mul, g, p)
	if err != nil {
		return nil, err
	}
	return fuse.Where(isZero, v, interp.Int(0))
}
