package interp

import (
	"fmt"
	"strings"
	"unicode"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// byteStrings are the 1-byte strings s[i] gives, made once: indexing a
// string in a loop allocates nothing.
var byteStrings = func() (t [256]String) {
	for i := range t {
		t[i] = String([]byte{byte(i)})
	}
	return t
}()

// stringIndex is s[i]: the byte at i (from the end when negative) as a
// 1-byte string.
func stringIndex(s String, idx []Value) (Value, error) {
	if len(idx) != 1 {
		return nil, fmt.Errorf("a string takes one index, got %d", len(idx))
	}
	i, err := seqIndex("string", idx[0], len(s))
	if err != nil {
		return nil, err
	}
	return byteStrings[s[i]], nil
}

// stringMethods are the methods of strings (HOST.md section 2).
var stringMethods []*method

func init() {
	stringMethods = named("string", []*method{
		{"split", "split([sep])", "the parts between each sep; without sep, the words between runs of whitespace", strSplit, ""},
		{"join", "join(list)", "the list's strings with the string between each two", strJoin, ""},
		{"strip", "strip([chars])", "without leading and trailing whitespace (or any of chars)", strTrim(strings.Trim, strings.TrimSpace), ""},
		{"lstrip", "lstrip([chars])", "without leading whitespace (or any of chars)", strTrim(strings.TrimLeft, func(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) }), ""},
		{"rstrip", "rstrip([chars])", "without trailing whitespace (or any of chars)", strTrim(strings.TrimRight, func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }), ""},
		{"replace", "replace(old, new)", "every old replaced by new", strReplace, ""},
		{"find", "find(sub)", "the index of the first sub, or -1", strFind, ""},
		{"startswith", "startswith(prefix)", "whether the string begins with prefix", strTest(strings.HasPrefix), ""},
		{"endswith", "endswith(suffix)", "whether the string ends with suffix", strTest(strings.HasSuffix), ""},
		{"upper", "upper()", "the string in upper case", strMap(strings.ToUpper), ""},
		{"lower", "lower()", "the string in lower case", strMap(strings.ToLower), ""},
		{"count", "count(sub)", "how many non-overlapping sub it holds", strCount, ""},
	})
}

// strArg is string argument i of a string method.
func strArg(args *Args, i int) (string, error) {
	s, ok := args.Positional[i].(String)
	if !ok {
		return "", fmt.Errorf("%s: want a string, got %s", args.Fn, describe(args.Positional[i]))
	}
	return string(s), nil
}

func strSplit(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	s := string(recv.(String))
	var parts []string
	if len(args.Positional) == 0 {
		parts = strings.Fields(s)
	} else {
		sep, err := strArg(args, 0)
		if err != nil {
			return nil, err
		}
		if sep == "" {
			return nil, fmt.Errorf("%s: empty separator", args.Fn)
		}
		if err := th.CheckListLen(strings.Count(s, sep) + 1); err != nil {
			return nil, err
		}
		parts = strings.Split(s, sep)
	}
	l := &List{vals: make([]Value, len(parts)), kind: listValues}
	for i, p := range parts {
		l.vals[i] = String(p)
	}
	return th.HoldList(l)
}

func strJoin(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	sep := string(recv.(String))
	var elems []Value
	if l, ok := args.Positional[0].(*List); ok {
		elems = l.view() // read in place: nothing below runs script code
	} else {
		var err error
		if elems, err = th.collect(args.Positional[0]); err != nil {
			return nil, fmt.Errorf("%s: %v", args.Fn, err)
		}
	}
	n := len(sep) * max(len(elems)-1, 0)
	for i, e := range elems {
		s, ok := e.(String)
		if !ok {
			return nil, fmt.Errorf("%s: element %d is %s, not a string (convert with str())", args.Fn, i, describe(e))
		}
		if n += len(s); n > MaxStringBytes {
			break // checkStringLen reports it
		}
	}
	if err := th.checkStringLen(n); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.Grow(n)
	for i, e := range elems {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(string(e.(String)))
	}
	return th.holdString(b.String())
}

// strTrim is strip, lstrip or rstrip: cut removes any of chars, space
// whitespace.
func strTrim(cut func(s, chars string) string, space func(string) string) methodFn {
	return func(th *Thread, recv Value, args *Args) (Value, error) {
		if err := args.Check(0, 1); err != nil {
			return nil, err
		}
		s := string(recv.(String))
		if len(args.Positional) == 0 {
			return String(space(s)), nil
		}
		chars, err := strArg(args, 0)
		if err != nil {
			return nil, err
		}
		return String(cut(s, chars)), nil
	}
}

func strReplace(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	s := string(recv.(String))
	old, err := strArg(args, 0)
	if err != nil {
		return nil, err
	}
	repl, err := strArg(args, 1)
	if err != nil {
		return nil, err
	}
	if n := int64(len(s)) + int64(strings.Count(s, old))*int64(len(repl)-len(old)); n > MaxStringBytes {
		return nil, fmt.Errorf("%s: the result of %d bytes is longer than the limit of %d bytes", args.Fn, n, MaxStringBytes)
	} else if err := th.checkStringLen(int(n)); err != nil {
		return nil, err
	}
	return th.holdString(strings.ReplaceAll(s, old, repl))
}

func strFind(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	sub, err := strArg(args, 0)
	if err != nil {
		return nil, err
	}
	return Int(strings.Index(string(recv.(String)), sub)), nil
}

func strCount(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	sub, err := strArg(args, 0)
	if err != nil {
		return nil, err
	}
	return Int(strings.Count(string(recv.(String)), sub)), nil
}

func strTest(test func(s, x string) bool) methodFn {
	return func(th *Thread, recv Value, args *Args) (Value, error) {
		if err := args.Check(1, 1); err != nil {
			return nil, err
		}
		x, err := strArg(args, 0)
		if err != nil {
			return nil, err
		}
		return Bool(test(string(recv.(String)), x)), nil
	}
}

func strMap(f func(string) string) methodFn {
	return func(th *Thread, recv Value, args *Args) (Value, error) {
		if err := args.Check(0, 0); err != nil {
			return nil, err
		}
		return th.holdString(f(string(recv.(String))))
	}
}

// String building. `s += t` in a loop would copy s every time (quadratic);
// instead s grows in an append-only byte buffer (a strBuf): when the left
// operand is exactly a buffer's contents, t is appended in place. Bytes
// already handed out are never written again, so strings stay immutable;
// a string that is not a buffer's whole contents (an older one) is
// copied into a new buffer.
//
// In the compiled engine a variable being built holds a builder cell
// (cell.go): the buffer and the string's length, unboxed, so that the
// loop allocates nothing but the buffer's doublings; the cell becomes a
// String (sharing the bytes) when it leaves the engine (box). A String
// value that is a buffer's contents (a builder boxed, the dict value or
// list element `d[k] += t` builds) is recognised by the thread's few most
// recent buffers (strBuffers), reused round robin, so that interleaved
// builders stay linear.

// strBuf is an append-only string buffer. It is a Value only to sit in a
// cell; box turns it into a String, and no script sees it.
type strBuf struct{ b []byte }

func (*strBuf) Type() string           { return "string" }
func (*strBuf) String() string         { return "<string builder>" }
func (sb *strBuf) prefix(n int) String { return String(unsafe.String(unsafe.SliceData(sb.b), n)) }

// strBuffers are a thread's most recent buffers (Thread.strBufs).
type strBuffers struct {
	bufs [4]*strBuf
	next int
}

// strBufMin is the shortest result a new buffer is started for: below it
// a plain concatenation costs less than the buffer's spare capacity.
const strBufMin = 64

func (th *Thread) strBuffers() *strBuffers {
	if th.strBufs == nil {
		th.strBufs = &strBuffers{}
	}
	return th.strBufs
}

// concat is a + b, appending into a buffer when a is one's contents; start
// begins a buffer otherwise (s += t does; a plain + only extends). th may
// be nil (a plain concatenation).
func (th *Thread) concat(a, b String, start bool) (Value, error) {
	c, err := th.build(cell{v: a}, b, start)
	return c.box(), err
}

// build is a + b for a String or builder cell a: a builder cell when a
// is a buffer's contents or start begins one, else a String cell.
func (th *Thread) build(a cell, b String, start bool) (cell, error) {
	if sb, ok := a.v.(*strBuf); ok && int(a.n) == len(sb.b) && len(sb.b)+len(b) <= cap(sb.b) {
		// The loop's case: room in the buffer, whose whole capacity was
		// counted (and checked) when it was allocated.
		sb.b = append(sb.b, b...)
		return cell{v: sb, n: uint64(len(sb.b))}, nil
	}
	sb, n := th.builderOf(a)
	total := n + len(b)
	if err := th.checkStringLen(total); err != nil {
		return cell{}, err
	}
	switch {
	case sb != nil && len(b) == 0:
		return a, nil
	case sb != nil && n == len(sb.b):
		return sb.extend(th, b)
	case th == nil || !start || total < strBufMin:
		s := a.box().(String)
		v, err := th.holdString(string(s + b))
		return cell{v: v}, err
	}
	s := a.box().(String)
	nb, err := th.newStrBuf(string(s), total)
	if err != nil {
		return cell{}, err
	}
	return nb.extend(th, b)
}

// appendCell is old += x for a string (or builder cell) old and x, the
// engine's way for a variable: the result is a builder cell. ok is false
// for other operands.
func (th *Thread) appendCell(old, x cell) (r cell, ok bool, err error) {
	switch old.v.(type) {
	case String, *strBuf:
	default:
		return cell{}, false, nil
	}
	var b String
	switch xv := x.v.(type) {
	case String:
		b = xv
	case *strBuf:
		b = xv.prefix(int(x.n))
	default:
		return cell{}, false, nil
	}
	r, err = th.build(old, b, true)
	return r, true, err
}

// builderOf is the buffer a's string is a prefix of (or nil), and the
// string's length.
func (th *Thread) builderOf(a cell) (*strBuf, int) {
	if sb, ok := a.v.(*strBuf); ok {
		return sb, int(a.n)
	}
	s := a.v.(String)
	if th == nil || len(s) < strBufMin {
		return nil, len(s)
	}
	for _, sb := range th.strBuffers().bufs {
		if sb != nil && len(sb.b) == len(s) && unsafe.StringData(string(s)) == unsafe.SliceData(sb.b) {
			return sb, len(s)
		}
	}
	return nil, len(s)
}

// extend appends b to the buffer, moving it to an array twice the size
// when it is full, and returns the whole contents as a builder cell.
func (sb *strBuf) extend(th *Thread, b String) (cell, error) {
	if len(sb.b)+len(b) > cap(sb.b) {
		if err := sb.alloc(th, string(sb.prefix(len(sb.b))), len(sb.b)+len(b)); err != nil {
			return cell{}, err
		}
	}
	sb.b = append(sb.b, b...)
	return cell{v: sb, n: uint64(len(sb.b))}, nil
}

// newStrBuf starts a buffer holding s with room for n bytes, one of the
// thread's recent buffers.
func (th *Thread) newStrBuf(s string, n int) (*strBuf, error) {
	sb := &strBuf{}
	if err := sb.alloc(th, s, n); err != nil {
		return nil, err
	}
	bufs := th.strBuffers()
	bufs.bufs[bufs.next] = sb
	bufs.next = (bufs.next + 1) % len(bufs.bufs)
	return sb, nil
}

// alloc gives the buffer a new array holding s with room for at least n
// bytes (twice that, up to the cap), counted under the memory limit.
func (sb *strBuf) alloc(th *Thread, s string, n int) error {
	size := min(2*n, MaxStringBytes)
	if b := th.hostBudget(int64(size)); int64(size) > b {
		size = n // room for this string alone, which checkStringLen allowed
	}
	buf := make([]byte, len(s), size)
	copy(buf, s)
	if err := mem.HoldHost(th.Tracker, unsafe.SliceData(buf), size); err != nil {
		return err
	}
	sb.b = buf
	return nil
}
