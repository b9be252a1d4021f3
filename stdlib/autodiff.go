package stdlib

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
)

// Autodiff builtins (docs/autodiff.md): the tape itself is interpreter
// state (interp/tape.go); these are its script-facing calls.

func autodiffFuncs() map[string]fn {
	return map[string]fn{"backward": backward, "zero_grad": zeroGrad, "requires_grad": requiresGrad}
}

// gradConstructors are the constructors that take requires_grad=.
var gradConstructors = []string{"zeros", "ones", "full", "empty", "arange", "linspace", "array", "load", "rand", "randn"}

// withGradOption wraps constructor f with requires_grad=: a true value
// gives the new array a zero-filled gradient (as torch's requires_grad=).
func withGradOption(f fn) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		i := slices.Index(args.Names, "requires_grad")
		if i < 0 {
			return f(th, args)
		}
		want, ok := args.Kw[i].(interp.Bool)
		if !ok {
			return nil, fmt.Errorf("%s: requires_grad= takes true or false, not %s", args.Fn, args.Kw[i].Type())
		}
		rest := *args
		rest.Names = slices.Delete(slices.Clone(args.Names), i, i+1)
		rest.Kw = slices.Delete(slices.Clone(args.Kw), i, i+1)
		v, err := f(th, &rest)
		if err != nil || !want {
			return v, err
		}
		a, ok := v.(*interp.Array)
		if !ok {
			return v, nil
		}
		if err := th.RequireGrad(a.A); err != nil {
			a.A.Free()
			return nil, fmt.Errorf("%s: %v", args.Fn, err)
		}
		return v, nil
	}
}

// requiresGrad is requires_grad(a): a gets a zero-filled gradient (when
// it has none) and is returned, as torch's a.requires_grad_().
func requiresGrad(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	a, ok := args.Positional[0].(*interp.Array)
	if !ok {
		return nil, fmt.Errorf("requires_grad: want an array, not %s", args.Positional[0].Type())
	}
	if err := th.RequireGrad(a.A); err != nil {
		return nil, fmt.Errorf("requires_grad: %v", err)
	}
	return a, nil
}

func tapeArg(args *interp.Args) (*interp.Tape, error) {
	t, ok := args.Positional[0].(*interp.Tape)
	if !ok {
		return nil, fmt.Errorf("%s: want a tape (tape t { ... }), not %s", args.Fn, args.Positional[0].Type())
	}
	return t, nil
}

// backward is backward(t, out[, grads=g]): out a 1-element array (its
// gradient seeded with 1) or, with grads=, an array whose gradient starts
// from g (an array of its shape or a number); out and g may be lists of
// as many arrays.
func backward(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "grads"); err != nil {
		return nil, err
	}
	t, err := tapeArg(args)
	if err != nil {
		return nil, err
	}
	seeds, err := backwardSeeds(args.Positional[1], args.Kwarg("grads"))
	if err != nil {
		return nil, fmt.Errorf("backward: %v", err)
	}
	return interp.Nil, th.Backward(t, seeds)
}

func backwardSeeds(out, grads interp.Value) ([]interp.Seed, error) {
	outs, gs := []interp.Value{out}, []interp.Value{grads}
	if l, ok := out.(*interp.List); ok {
		outs = l.Values()
		gl, ok := grads.(*interp.List)
		if !ok || gl.Len() != len(outs) {
			return nil, fmt.Errorf("a list of %d outputs takes grads= with a list of as many seeds", len(outs))
		}
		gs = gl.Values()
	}
	seeds := make([]interp.Seed, len(outs))
	for i, o := range outs {
		a, ok := o.(*interp.Array)
		if !ok {
			return nil, fmt.Errorf("want an array output, not %s", o.Type())
		}
		g := gs[i]
		if g == nil {
			if a.Size() != 1 {
				return nil, fmt.Errorf("the output has %d elements: a loss has one, or give its gradient with grads=", a.Size())
			}
			g = interp.Int(1)
		}
		seeds[i] = interp.Seed{Out: a.A, Grad: g}
	}
	return seeds, nil
}

func zeroGrad(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	t, err := tapeArg(args)
	if err != nil {
		return nil, err
	}
	return interp.Nil, th.ZeroGrad(t)
}
