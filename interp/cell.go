package interp

import "math"

// cell is a host value as the compiled engine holds it in slots, frames
// and temporaries: an int or a float unboxed in n (v is intTag or
// floatTag), a string being built as a buffer and its length (v is a
// *strBuf, strs.go), or any value in v. The zero cell is an unset slot.
//
// Boxing an int64 into a Value allocates (past 255), and a loop such as
// `s += i` would allocate twice per iteration; cells keep the results of
// host arithmetic, loop counters and call results unboxed. Values leave
// the engine boxed (box): builtins, lists and the Go API see Values. A
// number that arrived boxed (a literal, boxed once at compile time; a
// builtin's result) stays boxed, so that passing it on again (a launch
// argument in a loop) allocates nothing: asInt and asFloat read both.
type cell struct {
	v Value
	n uint64
}

// intMark and floatMark mark a cell whose number is unboxed; they are
// never a script's value. They are zero-size types, so that the test is a
// type assertion (one word compared) and the mark allocates nothing.
type (
	intMark   struct{}
	floatMark struct{}
)

func (intMark) Type() string     { return "int" }
func (intMark) String() string   { return "<unboxed int>" }
func (floatMark) Type() string   { return "float" }
func (floatMark) String() string { return "<unboxed float>" }

var (
	intTag   Value = intMark{}
	floatTag Value = floatMark{}
)

func intCell(i int64) cell     { return cell{intTag, uint64(i)} }
func floatCell(f float64) cell { return cell{floatTag, math.Float64bits(f)} }

// valCell holds v as it is (a boxed number stays boxed).
func valCell(v Value) cell { return cell{v: v} }

// box is the cell's Value (nil for an unset slot).
func (c cell) box() Value {
	switch x := c.v.(type) {
	case intMark:
		return Int(int64(c.n))
	case floatMark:
		return Float(math.Float64frombits(c.n))
	case *strBuf:
		return x.prefix(int(c.n))
	}
	return c.v
}

// asInt is the cell's int, unboxed or boxed (a literal's cell keeps the
// Value made at compile time, so that passing it on allocates nothing).
func (c cell) asInt() (int64, bool) {
	switch x := c.v.(type) {
	case intMark:
		return int64(c.n), true
	case Int:
		return int64(x), true
	}
	return 0, false
}

// asFloat is the cell's float, unboxed or boxed.
func (c cell) asFloat() (float64, bool) {
	switch x := c.v.(type) {
	case floatMark:
		return math.Float64frombits(c.n), true
	case Float:
		return float64(x), true
	}
	return 0, false
}

// asReal is the cell's float, or its int as a float.
func (c cell) asReal() (float64, bool) {
	if i, ok := c.asInt(); ok {
		return float64(i), true
	}
	return c.asFloat()
}

// number reports whether the cell holds an unboxed number: a test
// cheaper than a type assertion to an interface (Deferred), which the
// values that fn calls pass most often skip with it.
func (c cell) number() bool {
	switch c.v.(type) {
	case intMark, floatMark:
		return true
	}
	return false
}

func boolCell(b bool) cell { return cell{v: Bool(b)} }

// set reports whether the cell holds a value (a slot that was assigned).
func (c cell) set() bool { return c.v != nil }
