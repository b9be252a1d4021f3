package stdlib

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/stdlib/fuse"
)

// mathFuncs are host versions of the kernel math builtins that take and
// return host floats (abs keeps ints); given an array or an array
// expression they build an elementwise expression (stdlib/fuse), so
// sqrt(a * a + b * b) is one kernel.
func mathFuncs() map[string]fn {
	out := scalarMath()
	for name, f := range out {
		if !fuse.IsMath(name) {
			continue
		}
		out[name] = func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
			if !anyArray(args.Positional) {
				return f(th, args)
			}
			if err := args.Check(1, 2); err != nil {
				return nil, err
			}
			return fuse.Math(args.Fn, args.Positional...)
		}
	}
	out["minimum"] = extremum
	out["maximum"] = extremum
	out["clip"] = clipArray
	out["where"] = where
	return out
}

// operandBuiltins take array expressions unmaterialised
// (interp.Builtin.Operands): they fuse them.
func operandBuiltins() map[string]bool {
	m := map[string]bool{"minimum": true, "maximum": true, "clip": true, "where": true, "power": true}
	for name := range scalarMath() {
		m[name] = fuse.IsMath(name)
	}
	// reductions fuse an expression into their pass 1 (stdlib/reduce.Producer)
	for _, name := range []string{"sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all",
		"count_nonzero", "norm", "dot", "allclose", "equal", "array_equal",
		"nansum", "nanmean", "nanmin", "nanmax", "nanargmin", "nanargmax"} {
		m[name] = true
	}
	return m
}

func anyArray(vs []interp.Value) bool {
	for _, v := range vs {
		if interp.IsArrayOperand(v) {
			return true
		}
	}
	return false
}

// extremum is minimum(a, b) / maximum(a, b), elementwise with NumPy's
// broadcasting; a NaN operand gives NaN.
func extremum(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	if !anyArray(args.Positional) {
		return nil, fmt.Errorf("%s: takes arrays (for two numbers use min or max)", args.Fn)
	}
	return fuse.Extremum(args.Fn, args.Positional[0], args.Positional[1])
}

// clipArray is clip(a, lo, hi): it bounds every element: minimum(maximum(a, lo), hi).
func clipArray(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(3, 3); err != nil {
		return nil, err
	}
	if !anyArray(args.Positional[:1]) {
		return nil, fmt.Errorf("clip: the first argument must be an array, not %s", args.Positional[0].Type())
	}
	return fuse.Clip(args.Positional[0], args.Positional[1], args.Positional[2])
}

// where(cond, a, b) picks a where the bool array cond holds, else b;
// where(cond) is nonzero(cond), as NumPy's.
func where(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if len(args.Positional) == 1 && len(args.Names) == 0 {
		return nonzero(th, args)
	}
	if err := args.Check(3, 3); err != nil {
		return nil, err
	}
	if !anyArray(args.Positional) {
		return nil, fmt.Errorf("where: takes arrays (for scalars use if)")
	}
	return fuse.Where(args.Positional[0], args.Positional[1], args.Positional[2])
}

// hostFloatMath are the kernel math builtins that the host also has on
// numbers, as f64 functions (round is Python's, abs keeps ints; rsqrt,
// atan2, isnan ... exist in kernels and on arrays only).
var hostFloatMath = []string{"sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
	"exp", "exp2", "log", "log2", "log10", "floor", "ceil", "trunc", "pow"}

// scalarMath are the math builtins on host numbers. The float functions
// are the kernels' f64 ops evaluated by ir.Eval, so a host result is a
// kernel's.
func scalarMath() map[string]fn {
	out := map[string]fn{}
	for _, name := range hostFloatMath {
		op, _ := ir.OpByBuiltin(name)
		info, _ := op.Info()
		out[name] = func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
			if err := scalarArgs(args, info.Arity, info.Arity); err != nil {
				return nil, err
			}
			var xs [2]uint64
			for i, v := range args.Positional {
				x, err := interp.ToFloat(v)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", args.Fn, err)
				}
				xs[i] = math.Float64bits(x)
			}
			r, err := ir.Eval(op, ir.F64, xs[:info.Arity]...)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", args.Fn, err)
			}
			return interp.Float(math.Float64frombits(r)), nil
		}
	}
	out["round"] = round
	out["abs"] = func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := scalarArgs(args, 1, 1); err != nil {
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

// scalarArgs checks the count of a host math call's arguments and refuses
// arrays with a message that says what to do: element-wise math on arrays
// is the array expressions' work (ARRAYS.md), not these scalar functions'.
func scalarArgs(args *interp.Args, min, max int) error {
	if err := args.Check(min, max); err != nil {
		return err
	}
	for _, v := range args.Positional {
		if interp.IsArrayOperand(v) {
			return fmt.Errorf("%s: not supported on arrays", args.Fn)
		}
	}
	return nil
}

// round is round(x) (the kernel's round: halves away from zero, a float)
// and round(x, ndigits), Python's: the nearest multiple of 10^-ndigits,
// ties to even, of x's exact binary value (so round(2.675, 2) is 2.67, as
// in Python and as format's %.2f prints it). An int stays an int.
func round(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := scalarArgs(args, 1, 2); err != nil {
		return nil, err
	}
	x := args.Positional[0]
	if len(args.Positional) == 1 {
		f, err := interp.ToFloat(x)
		if err != nil {
			return nil, fmt.Errorf("round: %v", err)
		}
		return interp.Float(math.Round(f)), nil
	}
	n, ok := args.Positional[1].(interp.Int)
	if !ok {
		return nil, fmt.Errorf("round: ndigits must be an int, not %s", args.Positional[1].Type())
	}
	if i, ok := x.(interp.Int); ok {
		return roundInt(int64(i), int64(n))
	}
	f, err := interp.ToFloat(x)
	if err != nil {
		return nil, fmt.Errorf("round: %v", err)
	}
	return interp.Float(roundFloat(f, int64(n))), nil
}

// roundFloat rounds f to n decimal places. strconv rounds the exact
// binary value correctly, ties to even; past 340 places nothing changes,
// and below -340 every float rounds to zero.
func roundFloat(f float64, n int64) float64 {
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f) || n > 340:
		return f
	case n >= 0:
		r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', int(n), 64), 64)
		return r
	case n < -340:
		return math.Copysign(0, f)
	}
	p := math.Pow(10, float64(-n))
	return math.RoundToEven(f/p) * p
}

// roundInt rounds i to a multiple of 10^-n, ties to even; n >= 0 keeps it.
func roundInt(i, n int64) (interp.Value, error) {
	if n >= 0 {
		return interp.Int(i), nil
	}
	if n < -18 { // 10^19 is past int64: only the rounding to 0 is possible
		if i > -5e18 && i < 5e18 {
			return interp.Int(0), nil
		}
		return nil, fmt.Errorf("round: %d rounded to %d digits overflows int", i, n)
	}
	p := int64(1)
	for range -n {
		p *= 10
	}
	q, r := i/p, i%p
	if r < 0 {
		q, r = q-1, r+p // floor division: 0 <= r < p
	}
	if 2*r > p || (2*r == p && q%2 != 0) {
		q++
	}
	if q > math.MaxInt64/p || q < math.MinInt64/p {
		return nil, fmt.Errorf("round: %d rounded to %d digits overflows int", i, n)
	}
	return interp.Int(q * p), nil
}
