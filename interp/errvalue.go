package interp

import (
	"errors"
)

// ErrorValue is the error a catch block binds (HOST.md section 3): the
// message without its position, and the position as text.
type ErrorValue struct {
	Message  string
	Position string
	Err      error // the Go error caught
}

func (*ErrorValue) Type() string { return "error" }

// String is what str(e) and print give: the position, then the message.
func (e *ErrorValue) String() string {
	if e.Position == "" {
		return e.Message
	}
	return e.Position + ": " + e.Message
}

// Unwrap returns the Go error caught.
func (e *ErrorValue) Unwrap() error { return e.Err }

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

// attr reads e.message or e.position.
func (e *ErrorValue) attr(name string) (Value, error) {
	switch name {
	case "message":
		return String(e.Message), nil
	case "position":
		return String(e.Position), nil
	}
	return nil, errors.New("error has no attribute " + name + " (it has message and position)")
}
