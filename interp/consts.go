package interp

import (
	"errors"
	"fmt"
	"go/constant"
	"math"

	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/lang/ir"
)

// hostConst is the host value of a checked const: an untyped int is an
// Int, an untyped float a Float, and a typed const a Scalar of its type.
func hostConst(c check.Const) (Value, error) {
	if c.Val == nil {
		return nil, errors.New("const was not evaluated")
	}
	var v Value
	switch c.Val.Kind() {
	case constant.Bool:
		v = Bool(constant.BoolVal(c.Val))
	case constant.Int:
		i, exact := constant.Int64Val(c.Val)
		if !exact {
			return nil, fmt.Errorf("constant %s overflows the host int (64 bits)", c.Val.ExactString())
		}
		v = Int(i)
	case constant.Float:
		f, _ := constant.Float64Val(c.Val)
		if math.IsInf(f, 0) {
			return nil, fmt.Errorf("constant %s overflows the host float (64 bits)", c.Val.String())
		}
		v = Float(f)
	default:
		return nil, errors.New("const was not evaluated")
	}
	if c.Type == ir.Invalid {
		return v, nil
	}
	return ConvertScalar(v, c.Type)
}
