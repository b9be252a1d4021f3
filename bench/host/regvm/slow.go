package regvm

import (
	"fmt"
	"math"
)

// The general paths of + - and <: anything but two ints (which the
// instructions handle inline), and int overflow, which is an error.

// number is a cell's number: ok false for anything else.
func number(c cell) (i int64, f float64, isFloat, ok bool) {
	switch c.v.(type) {
	case intMark:
		return int64(c.n), 0, false, true
	case floatMark:
		return 0, math.Float64frombits(c.n), true, true
	}
	return 0, 0, false, false
}

func asFloat(i int64, f float64, isFloat bool) float64 {
	if isFloat {
		return f
	}
	return float64(i)
}

// arith is x + y (sub false) or x - y.
func arith(sub bool, x, y cell) (cell, error) {
	sym := "+"
	if sub {
		sym = "-"
	}
	xi, xf, xFloat, xok := number(x)
	yi, yf, yFloat, yok := number(y)
	switch {
	case xok && yok && !xFloat && !yFloat:
		if sub {
			yi = -yi
			if yi == math.MinInt64 {
				return cell{}, fmt.Errorf("integer overflow in -")
			}
		}
		r := xi + yi
		if (r > xi) != (yi > 0) {
			return cell{}, fmt.Errorf("integer overflow in %s", sym)
		}
		return intCell(r), nil
	case xok && yok:
		a, b := asFloat(xi, xf, xFloat), asFloat(yi, yf, yFloat)
		if sub {
			return floatCell(a - b), nil
		}
		return floatCell(a + b), nil
	}
	if s, ok := x.v.(String); ok && !sub {
		if t, ok := y.v.(String); ok {
			return cell{v: s + t}, nil
		}
	}
	return cell{}, fmt.Errorf("unsupported operands for %s: %s and %s", sym, x.typeName(), y.typeName())
}

// less is x < y for two numbers or two strings.
func less(x, y cell) (bool, error) {
	xi, xf, xFloat, xok := number(x)
	yi, yf, yFloat, yok := number(y)
	switch {
	case xok && yok && !xFloat && !yFloat:
		return xi < yi, nil
	case xok && yok:
		return asFloat(xi, xf, xFloat) < asFloat(yi, yf, yFloat), nil
	}
	if s, ok := x.v.(String); ok {
		if t, ok := y.v.(String); ok {
			return s < t, nil
		}
	}
	return false, fmt.Errorf("cannot compare %s < %s", x.typeName(), y.typeName())
}

// truth is a condition's value: only a bool is one.
func truth(c cell) (bool, error) {
	b, ok := c.v.(Bool)
	if !ok {
		return false, fmt.Errorf("condition must be a bool, not %s", c.typeName())
	}
	return bool(b), nil
}

// rangeCount checks range's three ints (stop, start, step, as FORPREP
// holds them) and counts its values without overflow.
func rangeCount(stop, start, step cell) (uint64, error) {
	var v [3]int64
	for i, c := range [3]cell{start, stop, step} {
		n, _, isFloat, ok := number(c)
		if !ok || isFloat {
			return 0, fmt.Errorf("range argument must be an int, not %s", c.typeName())
		}
		v[i] = n
	}
	lo, hi, st := v[0], v[1], v[2]
	switch {
	case st == 0:
		return 0, fmt.Errorf("range step must not be zero")
	case st > 0 && lo < hi:
		return (uint64(hi)-uint64(lo)-1)/uint64(st) + 1, nil
	case st < 0 && lo > hi:
		return (uint64(lo)-uint64(hi)-1)/(-uint64(st)) + 1, nil
	}
	return 0, nil
}
