package interp

import "errors"

// newErrorValue is the ErrorValue a catch block binds for err.
func newErrorValue(err error) *ErrorValue {
	var ee *EvalError
	if errors.As(err, &ee) {
		pos := ""
		if ee.Pos.IsValid() {
			pos = ee.Pos.String()
		}
		return &ErrorValue{Message: ee.Msg, Position: pos, Err: err}
	}
	return &ErrorValue{Message: err.Error(), Err: err}
}
