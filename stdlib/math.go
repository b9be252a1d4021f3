package stdlib

import (
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/interp"
)

// mathFuncs are host versions of the kernel math builtins that take and
// return host floats (abs keeps ints).
func mathFuncs() map[string]fn {
	unary := map[string]func(float64) float64{
		"sqrt": math.Sqrt, "sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "asin": math.Asin,
		"acos": math.Acos, "atan": math.Atan, "sinh": math.Sinh, "cosh": math.Cosh, "tanh": math.Tanh,
		"exp": math.Exp, "exp2": math.Exp2, "log": math.Log, "log2": math.Log2, "log10": math.Log10,
		"floor": math.Floor, "ceil": math.Ceil, "round": math.Round, "trunc": math.Trunc,
	}
	out := map[string]fn{}
	for name, f := range unary {
		f := f
		out[name] = func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
			if err := args.Check(1, 1); err != nil {
				return nil, err
			}
			x, err := interp.ToFloat(args.Positional[0])
			if err != nil {
				return nil, fmt.Errorf("%s: %v", args.Fn, err)
			}
			return interp.Float(f(x)), nil
		}
	}
	out["pow"] = func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := args.Check(2, 2); err != nil {
			return nil, err
		}
		x, err := interp.ToFloat(args.Positional[0])
		if err != nil {
			return nil, fmt.Errorf("pow: %v", err)
		}
		y, err := interp.ToFloat(args.Positional[1])
		if err != nil {
			return nil, fmt.Errorf("pow: %v", err)
		}
		return interp.Float(math.Pow(x, y)), nil
	}
	out["abs"] = func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := args.Check(1, 1); err != nil {
			return nil, err
		}
		v := args.Positional[0]
		neg, err := interp.Less(v, interp.Int(0))
		if err != nil {
			return nil, fmt.Errorf("abs: %v", err)
		}
		if neg {
			return interp.Negate(v)
		}
		return v, nil
	}
	return out
}

// cdiv(a, b) is the ceiling of the exact quotient of two ints, as in
// kernels: cdiv(7, 2) == 4, cdiv(-7, 2) == -3, cdiv(7, -2) == -3. The
// usual use is a grid that covers n threads: grid(cdiv(n, 256)).
func cdiv(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	var ab [2]int
	for i, v := range args.Positional {
		n, err := interp.ToInt(v)
		if err != nil {
			return nil, fmt.Errorf("cdiv: %v", err)
		}
		ab[i] = n
	}
	a, b := ab[0], ab[1]
	switch {
	case b == 0:
		return nil, fmt.Errorf("cdiv: division by zero")
	case a == math.MinInt64 && b == -1:
		return nil, fmt.Errorf("cdiv: integer overflow")
	}
	q, r := a/b, a%b
	if r != 0 && (r < 0) == (b < 0) {
		q++
	}
	return interp.Int(q), nil
}
