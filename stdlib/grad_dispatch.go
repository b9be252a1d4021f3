package stdlib

import (
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib/fuse"
)

// Which builtins a tape may call on arrays that require gradients
// (docs/autodiff.md, "Library functions"). Every builtin is one of three
// kinds: it records its own backward (gradBuiltins), its result carries
// no gradient (noGradBuiltins: ints, bools, output, queries), or it is
// refused while a tape records and one of its array arguments requires a
// gradient. The refusal is the default so that a builtin added later
// without a backward fails loudly instead of giving wrong gradients.

// gradBuiltins record a TapeOp (grad_*.go), return views (transpose,
// flip, split: a view's gradient is the same view of the gradient), or
// build an array expression whose gradient the expression engine gives
// (the math family, where, clip, minimum, maximum, power, take: a gather
// leaf).
var gradBuiltins = map[string]bool{
	"sum": true, "mean": true, "max": true, "min": true, "norm": true, "prod": true, "dot": true, "matmul": true,
	"array": true, "copy": true, "to": true, "reshape": true, "transpose": true, "flip": true, "split": true,
	"concatenate": true, "stack": true, "take": true, "add_at": true, "cumsum": true,
	"where": true, "clip": true, "minimum": true, "maximum": true, "power": true,
}

// noGradBuiltins read arrays without giving a result a gradient could
// flow through: integer and bool results, printing and saving, memory
// and device queries, and the tape's own calls.
var noGradBuiltins = []string{
	"print", "len", "type", "str", "format", "show", "help", "save", "save_text", "save_image",
	"argmin", "argmax", "nanargmin", "nanargmax", "any", "all", "count_nonzero", "allclose", "isclose",
	"equal", "array_equal", "argsort", "searchsorted", "nonzero", "argwhere", "bincount", "histogram",
	"free", "synchronize", "prefetch", "advise", "explain_access", "mem_info", "can_access", "ipc_handle",
	"backward", "zero_grad", "requires_grad",
}

// guardTaped wraps every builtin of fns that is neither differentiable
// nor gradient-free with the refusal.
func guardTaped(fns map[string]fn) {
	free := map[string]bool{}
	for _, name := range noGradBuiltins {
		free[name] = true
	}
	for name := range scalarMath() {
		if fuse.IsMath(name) {
			free[name] = true // builds an expression: the expression engine differentiates it
		}
	}
	for name, f := range fns {
		switch {
		case gradRecorders[name] != nil:
			fns[name] = gradRecorders[name](f)
		case !gradBuiltins[name] && !free[name]:
			fns[name] = refuseTaped(f)
		}
	}
}

// refuseTaped fails f, while a tape records, when one of its arguments
// is an array (or an array expression, or a list of arrays) that
// requires a gradient. Outside a tape it costs one pointer test.
func refuseTaped(f fn) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if th.Taping() && argsRequireGrad(args) {
			return nil, fmt.Errorf("%s is not differentiable yet: it reads an array that requires a gradient inside a tape (see docs/autodiff.md for the functions with gradients)", args.Fn)
		}
		return f(th, args)
	}
}

func argsRequireGrad(args *interp.Args) bool {
	for _, group := range [][]interp.Value{args.Positional, args.Kw} {
		for _, v := range group {
			if valueRequiresGrad(v) {
				return true
			}
		}
	}
	return false
}

// valueRequiresGrad reports whether v is, or a list holds, a float array
// or array expression that requires a gradient.
func valueRequiresGrad(v interp.Value) bool {
	switch v := v.(type) {
	case *interp.Array:
		return v.A.DType().IsFloat() && v.A.RequiresGrad()
	case fuse.Value:
		return fuse.RequiresGrad(v.E)
	case *interp.List:
		if _, ok := v.Ints(); ok {
			return false // a list of numbers, stored unboxed: nothing to box and test
		}
		if _, ok := v.Floats(); ok {
			return false
		}
		for _, x := range v.Values() {
			if valueRequiresGrad(x) {
				return true
			}
		}
	}
	return false
}
