package interp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// Host values have size caps so that a script cannot build a value that
// exhausts the process (doubling a string 33 times reaches 8 GiB): every
// concatenation, range() list and formatted string is sized before it is
// built. Under Options.MemoryLimit a value must also fit in what the live
// arrays leave of the limit.
const (
	// MaxStringBytes is the longest host string: 256 MiB.
	MaxStringBytes = 1 << 28
	// MaxListLen is the longest host list: 2^24 elements (256 MiB of
	// element slots).
	MaxListLen = 1 << 24
	// listElemBytes is what one generic list element costs (an interface
	// value; an unboxed int or float costs numElemBytes).
	listElemBytes = 16
	// maxFormatDepth bounds the nesting of lists that formatting writes
	// out (deeper ones print as [...], as a list inside itself does) and
	// that == compares.
	maxFormatDepth = 64
	// PollEvery is how many elements a long builtin handles between polls
	// of Thread.Canceled: rare enough to cost nothing, often enough to stop
	// within a millisecond.
	PollEvery = 1 << 14
)

// hostBudget is the most bytes a string or list of want bytes may take
// now: the caps, and under MemoryLimit what the live arrays and large
// host values leave (after a collection when that is less than want). th
// may be nil (no interpreter: the caps alone).
func (th *Thread) hostBudget(want int64) int64 {
	budget := int64(MaxStringBytes)
	if th != nil && th.Tracker != nil {
		budget = min(budget, th.Tracker.Room(want))
	}
	return budget
}

// checkStringLen refuses a string of n bytes before it is built.
func (th *Thread) checkStringLen(n int) error {
	if n > MaxStringBytes {
		return fmt.Errorf("string of %d bytes is longer than the limit of %d bytes", n, MaxStringBytes)
	}
	if b := th.hostBudget(int64(n)); int64(n) > b {
		return fmt.Errorf("string of %d bytes does not fit in the memory limit (%d bytes left)", n, max(b, 0))
	}
	return nil
}

// CheckHostBytes refuses a host buffer of n bytes that a builtin is about
// to build (an image, the values of a text file) when it does not fit in
// what Options.MemoryLimit leaves. Such buffers live for one call, so,
// unlike strings, they have no cap of their own.
func (th *Thread) CheckHostBytes(n int) error {
	if room := th.Tracker.Room(int64(n)); int64(n) > room {
		return fmt.Errorf("a buffer of %d bytes does not fit in the memory limit (%d bytes left)", n, max(room, 0))
	}
	return nil
}

// NewString checks a string a builtin built (read_file, format) against
// the caps and counts it toward the memory limit while it lives.
func (th *Thread) NewString(s string) (Value, error) {
	if err := th.checkStringLen(len(s)); err != nil {
		return nil, err
	}
	return th.holdString(s)
}

// CheckStringLen refuses a string of n bytes before it is built.
func (th *Thread) CheckStringLen(n int) error { return th.checkStringLen(n) }

// CheckListLen refuses a list of n elements before it is built, counting
// each as a generic element (an int or float list costs half that).
func (th *Thread) CheckListLen(n int) error {
	return th.checkList(n, listElemBytes)
}

// formatter writes a value into one builder, so nested lists cost their
// length, not their length times their depth. It stops with an error past
// limit bytes or when the run is cancelled.
type formatter struct {
	b      strings.Builder
	th     *Thread // polled for cancellation; nil: no polling
	limit  int64
	strict bool    // an unreadable array is an error (print), not text (str)
	open   []Value // the lists and dicts being written, outermost first
	nodes  int
	err    error
}

func newFormatter(th *Thread, strict bool) *formatter {
	return &formatter{th: th, limit: th.hostBudget(0), strict: strict}
}

// format writes v as print does (strings unquoted at the top level).
func (th *Thread) format(v Value, strict bool) (string, error) {
	f := newFormatter(th, strict)
	f.value(v, false)
	if f.err != nil {
		return "", f.err
	}
	s, err := th.holdString(f.b.String())
	return string(s), err
}

// holdString counts a large string just built toward the memory limit
// while it lives (mem.HoldHost), so that many of them cannot add up past
// it; th may be nil.
func (th *Thread) holdString(s string) (String, error) {
	if th != nil && len(s) >= mem.HostHoldMin {
		if err := mem.HoldHost(th.Tracker, unsafe.StringData(s), len(s)); err != nil {
			return "", err
		}
	}
	return String(s), nil
}

// HoldList counts a large list just built toward the memory limit while
// it lives, like holdString.
func (th *Thread) HoldList(l *List) (Value, error) {
	if th != nil && th.Tracker != nil {
		if err := mem.HoldHost(th.Tracker, l, l.bytes()); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// value writes v; quote quotes strings (elements of lists and records).
func (f *formatter) value(v Value, quote bool) {
	if !f.node() {
		return
	}
	switch v := v.(type) {
	case String:
		if quote {
			f.write(strconv.Quote(string(v)))
		} else {
			f.write(string(v))
		}
	case *List:
		f.list(v)
	case *Dict:
		f.dict(v)
	case *Record:
		f.record(v)
	case *Array:
		s, err := formatArray(v)
		if err != nil && f.strict {
			f.err = err
			return
		}
		if err != nil {
			s = "<array: " + err.Error() + ">"
		}
		f.write(s)
	default:
		f.write(v.String())
	}
}

// node counts one value written, polling cancellation; false when
// writing has stopped.
func (f *formatter) node() bool {
	if f.err != nil {
		return false
	}
	if f.nodes++; f.th != nil && f.nodes%PollEvery == 0 && f.th.Canceled() {
		f.err = ErrInterrupted
		return false
	}
	return true
}

// number writes s, a number's text, as one value.
func (f *formatter) number(s string) {
	if f.node() {
		f.write(s)
	}
}

// enter starts writing container c; false (having written elided) when c
// is being written already (a list inside itself) or nests too deep.
func (f *formatter) enter(c Value, elided string) bool {
	for _, o := range f.open {
		if o == c {
			f.write(elided)
			return false
		}
	}
	if len(f.open) >= maxFormatDepth {
		f.write(elided)
		return false
	}
	f.open = append(f.open, c)
	return true
}

func (f *formatter) list(l *List) {
	if !f.enter(l, "[...]") {
		return
	}
	f.write("[")
	for i := range l.Len() {
		if i > 0 {
			f.write(", ")
		}
		switch l.kind {
		case listInts: // unboxed: formatted without boxing
			f.number(Int(l.nums[i]).String())
		case listFloats:
			f.number(Float(math.Float64frombits(l.nums[i])).String())
		default:
			f.value(l.vals[i], true)
		}
	}
	f.write("]")
	f.open = f.open[:len(f.open)-1]
}

// dict writes d as {"a": 1, 2: "b"}, keys and values as in a list.
func (f *formatter) dict(d *Dict) {
	if !f.enter(d, "{...}") {
		return
	}
	f.write("{")
	first := true
	for _, e := range d.entries {
		if e.key == nil {
			continue
		}
		if !first {
			f.write(", ")
		}
		first = false
		f.value(e.key, true)
		f.write(": ")
		f.value(e.val, true)
	}
	f.write("}")
	f.open = f.open[:len(f.open)-1]
}

// record writes r's fields. Records are made by builtins and hold no
// records of their own, but may hold lists: those nest as above.
func (f *formatter) record(r *Record) {
	f.write("{")
	for i, n := range r.Names {
		if i > 0 {
			f.write(", ")
		}
		f.write(n)
		f.write(": ")
		f.value(r.Values[i], true)
	}
	f.write("}")
}

func (f *formatter) write(s string) {
	if f.err != nil {
		return
	}
	if int64(f.b.Len()+len(s)) > f.limit {
		f.err = fmt.Errorf("formatted value is longer than the limit of %d bytes", max(f.limit, 0))
		return
	}
	f.b.WriteString(s)
}

// Str formats v as str() does: within the size caps, polling cancellation.
func (th *Thread) Str(v Value) (Value, error) {
	if s, ok := v.(String); ok {
		return s, nil
	}
	s, err := th.format(v, false)
	if err != nil {
		return nil, err
	}
	return String(s), nil
}

// Format formats v as print does: an unreadable array is an error.
func (th *Thread) Format(v Value) (string, error) { return th.format(v, true) }
