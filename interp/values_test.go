package interp

import (
	"io"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// newTestThread is a cpu interpreter's thread with opts' limits.
func newTestThread(t *testing.T, opts Options) *Thread {
	t.Helper()
	opts.Stdout, opts.Device = io.Discard, "cpu"
	in, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in.Thread()
}

func wantErr(t *testing.T, what string, err error, sub string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), sub) {
		t.Errorf("%s: error %v, want one containing %q", what, err, sub)
	}
}

// Equal numbers are one key (as in Python), bools are not numbers, and
// the first key set is the one kept.
func TestDictKeys(t *testing.T) {
	d := NewDict()
	for _, k := range []Value{Int(1), Float(1), Scalar{T: ir.I32, Bits: 1}, Scalar{T: ir.F32, Bits: 0x3f800000}} {
		if err := d.Set(nil, k, k); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []Value{Bool(true), Float(1.5), Nil, String("1"), Scalar{T: ir.U64, Bits: 1 << 63}, Float(1 << 63)} {
		if err := d.Set(nil, k, Int(0)); err != nil {
			t.Fatal(err)
		}
	}
	if d.Len() != 6 || d.String() != `{1: 1.0, true: 0, 1.5: 0, nil: 0, "1": 0, 9223372036854775808: 0}` {
		t.Errorf("dict %s of length %d", d, d.Len())
	}
	if v, ok, err := d.Get(Float(1)); !ok || err != nil || v != Scalar(Scalar{T: ir.F32, Bits: 0x3f800000}) {
		t.Errorf("d[1.0] = %v, %v, %v", v, ok, err)
	}
	for _, k := range []Value{&List{}, NewDict(), Float(nanValue())} {
		_, _, err := d.Get(k)
		wantErr(t, "key "+k.Type(), err, "key")
	}
	_, err := index(nil, d, []Value{&List{}})
	wantErr(t, "d[[]]", err, "unhashable type list")
	_, err = index(nil, d, []Value{String("nope")})
	wantErr(t, "d[\"nope\"]", err, `key "nope" not in dict`)
}

func nanValue() float64 { return math.NaN() }

// Deletes leave tombstones that compaction drops, keeping the order and
// every remaining key findable.
func TestDictDeleteCompacts(t *testing.T) {
	d := NewDict()
	for i := range 1000 {
		if err := d.Set(nil, Int(i), Int(i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 990 {
		if _, ok, _ := d.Delete(Int(i)); !ok {
			t.Fatalf("delete %d: not found", i)
		}
	}
	for i := range 2000 { // insertions after deletes reuse the slots
		if err := d.Set(nil, Int(10000+i), Int(i)); err != nil {
			t.Fatal(err)
		}
		d.Delete(Int(10000 + i))
	}
	if cap(d.entries) > 1024 {
		t.Errorf("entries grew to %d for at most 1010 live", cap(d.entries))
	}
	if got := NewList(d.Keys()...).String(); got != "[990, 991, 992, 993, 994, 995, 996, 997, 998, 999]" {
		t.Errorf("keys %s", got)
	}
	for i := 990; i < 1000; i++ {
		if v, ok, _ := d.Get(Int(i)); !ok || v != Int(i) {
			t.Errorf("d[%d] = %v, %v", i, v, ok)
		}
	}
}

// 10^7 entries under a 64 MiB limit fail with an error, not an OOM.
func TestDictUnderMemoryLimit(t *testing.T) {
	th := newTestThread(t, Options{MemoryLimit: 64 << 20})
	d := NewDict()
	var err error
	for i := 0; i < 10_000_000 && err == nil; i++ {
		err = d.Set(th, Int(i), Nil)
	}
	wantErr(t, "10^7 entries", err, "memory limit")
}

// A size change while iterating is an error at the next step; changes
// of values are not.
func TestIterSizeChange(t *testing.T) {
	l := NewList(Int(1), Int(2))
	d := NewDict()
	d.Set(nil, String("a"), Int(1))
	d.Set(nil, String("b"), Int(2))
	for _, c := range []struct {
		x      Value
		change func()
		want   string
	}{
		{l, func() { (*Thread)(nil).Append(l, Int(3)) }, "list changed size during iteration"},
		{l, func() { l.deleteAt(0) }, "list changed size during iteration"},
		{d, func() { d.Set(nil, String("c"), Int(3)) }, "dict changed size during iteration"},
		{d, func() { d.Delete(String("a")) }, "dict changed size during iteration"},
	} {
		it, err := (*Thread)(nil).Iter(c.x)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok, err := it.Next(); !ok || err != nil {
			t.Fatalf("first Next: %v %v", ok, err)
		}
		c.change()
		_, _, err = it.Next()
		wantErr(t, "Next after a change", err, c.want)
	}
	d.Set(nil, String("b"), Int(20)) // a new value, same size
	it, _ := (*Thread)(nil).Iter(d)
	var keys []string
	for {
		k, ok, err := it.Next()
		if err != nil || !ok {
			break
		}
		keys = append(keys, string(k.(String)))
		d.Set(nil, k, Int(0))
	}
	if strings.Join(keys, ",") != "b,c" {
		t.Errorf("keys %v", keys)
	}
	it, _ = (*Thread)(nil).Iter(String("hé"))
	n := 0
	for _, ok, _ := it.Next(); ok; _, ok, _ = it.Next() {
		n++
	}
	if n != 3 {
		t.Errorf("%d bytes iterated, want 3", n)
	}
	_, err := (*Thread)(nil).Iter(Int(1))
	wantErr(t, "Iter(1)", err, "cannot iterate over int")
}

// append grows by doubling: 10^4 appends allocate only the growths.
func TestAppendAllocs(t *testing.T) {
	th := newTestThread(t, Options{})
	var v Value = Int(7)
	allocs := testing.AllocsPerRun(10, func() {
		l := &List{}
		for range 10000 {
			if err := th.Append(l, v); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs > 20 { // the list and about log2(10^4 / 8) growths
		t.Errorf("10^4 appends: %v allocations", allocs)
	}
	args := &Args{Positional: []Value{v}}
	allocs = testing.AllocsPerRun(10, func() {
		l := &List{}
		for range 10000 {
			if _, err := th.CallMethod(l, "append", args); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs > 20 {
		t.Errorf("10^4 l.append(x) through CallMethod: %v allocations", allocs)
	}
}

// s += t appends into the thread's buffer: strings handed out before
// keep their bytes, and interleaved builders both stay right.
func TestInPlaceStrings(t *testing.T) {
	th := newTestThread(t, Options{})
	var a, b Value = String(""), String("")
	var old []Value
	for i := range 500 {
		var err error
		if a, _, err = th.InPlace(token.Add, a, String("ab")); err != nil {
			t.Fatal(err)
		}
		if b, _, err = th.InPlace(token.Add, b, String("c")); err != nil {
			t.Fatal(err)
		}
		if i == 100 {
			old = []Value{a, b}
		}
	}
	if a != String(strings.Repeat("ab", 500)) || b != String(strings.Repeat("c", 500)) {
		t.Fatalf("built %q and %q", a, b)
	}
	branch, err := binary(th, token.Add, old[0], String("X")) // a copy: old[0] is not a buffer's end
	if err != nil {
		t.Fatal(err)
	}
	if old[0] != String(strings.Repeat("ab", 101)) || branch != String(strings.Repeat("ab", 101)+"X") {
		t.Errorf("old string rewritten: %q, branch %q", old[0], branch)
	}
	if a2, _, _ := th.InPlace(token.Add, a, String("!")); a != String(strings.Repeat("ab", 500)) || !strings.HasSuffix(string(a2.(String)), "b!") {
		t.Errorf("a changed to %q by a later append", a)
	}
	// Linear: the buffer's doublings and a boxed header per result, not
	// a copy of s per append (10^5 appends would copy 10 GB).
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var s Value = String("")
	for range 100000 {
		s, _, _ = th.InPlace(token.Add, s, String("ab"))
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Errorf("10^5 appends of 2 bytes allocated %d bytes", n)
	}
	if len(s.(String)) != 200000 {
		t.Errorf("built %d bytes", len(s.(String)))
	}
}

// l += other extends l itself; other operands are left to binary.
func TestInPlaceList(t *testing.T) {
	l := NewList(Int(1))
	alias := l
	v, ok, err := (*Thread)(nil).InPlace(token.Add, l, NewList(Int(2)))
	if !ok || err != nil || v != Value(alias) || alias.String() != "[1, 2]" {
		t.Errorf("l += [2]: %v %v %v, alias %s", v, ok, err, alias)
	}
	v, _, _ = (*Thread)(nil).InPlace(token.Add, l, l)
	if v.String() != "[1, 2, 1, 2]" {
		t.Errorf("l += l: %s", v)
	}
	if _, ok, _ := (*Thread)(nil).InPlace(token.Add, Int(1), Int(2)); ok {
		t.Errorf("1 += 2 handled in place")
	}
	if _, ok, _ := (*Thread)(nil).InPlace(token.Mul, l, Int(2)); ok {
		t.Errorf("l *= 2 handled in place")
	}
}

func TestPower(t *testing.T) {
	for _, c := range []struct {
		x, y, want Value
	}{
		{Int(2), Int(62), Int(1 << 62)},
		{Int(-2), Int(63), Int(-1 << 63)},
		{Int(3), Int(0), Int(1)},
		{Int(1), Int(1 << 62), Int(1)},
		{Int(2), Int(-2), Float(0.25)},
		{Float(2), Int(3), Float(8)},
		{Float(10), Float(400), Float(posInf())},
		{Scalar{T: ir.I32, Bits: 3}, Int(2), Scalar{T: ir.I32, Bits: 9}},
		{Scalar{T: ir.F32, Bits: 0x40000000}, Int(2), Scalar{T: ir.F32, Bits: 0x40800000}},
	} {
		got, err := binary(nil, token.Pow, c.x, c.y)
		if err != nil || got != c.want {
			t.Errorf("%v ** %v = %v, %v; want %v", c.x, c.y, got, err, c.want)
		}
	}
	for _, c := range []struct {
		x, y Value
		want string
	}{
		{Int(10), Int(100000), "integer overflow"},
		{Int(2), Int(63), "integer overflow"},
		{Int(-2), Int(64), "integer overflow"},
		{Scalar{T: ir.I32, Bits: 2}, Int(31), "overflow"},
		{Scalar{T: ir.I32, Bits: 2}, Int(-1), "negative power"},
		{String("a"), Int(2), "operator ** not defined on string and int"},
	} {
		_, err := binary(nil, token.Pow, c.x, c.y)
		wantErr(t, c.x.String()+" ** "+c.y.String(), err, c.want)
	}
}

func posInf() float64 { return math.Inf(1) }

func TestContains(t *testing.T) {
	d := NewDict()
	d.Set(nil, Int(1), Nil)
	l := NewList(Int(1), String("a"), NewList(Int(2)))
	for _, c := range []struct {
		x, c Value
		want bool
	}{
		{Float(1), l, true}, {String("a"), l, true}, {NewList(Int(2)), l, true}, {Int(5), l, false},
		{Float(1), d, true}, {Int(2), d, false}, {String("ell"), String("hello"), true}, {String("x"), String("hello"), false},
	} {
		got, err := binary(nil, token.In, c.x, c.c)
		if err != nil || got != Bool(c.want) {
			t.Errorf("%v in %v = %v, %v", c.x, c.c, got, err)
		}
		got, err = binary(nil, token.NotIn, c.x, c.c)
		if err != nil || got != Bool(!c.want) {
			t.Errorf("%v not in %v = %v, %v", c.x, c.c, got, err)
		}
	}
	_, err := binary(nil, token.In, &List{}, d)
	wantErr(t, "[] in d", err, "unhashable type list")
	_, err = binary(nil, token.In, Int(1), String("1"))
	wantErr(t, "1 in \"1\"", err, "takes a string on the left")
	_, err = binary(nil, token.In, Int(1), Int(1))
	wantErr(t, "1 in 1", err, "not int")
}

func TestRepeatLimits(t *testing.T) {
	_, err := binary(nil, token.Mul, String("ab"), Int(1<<62))
	wantErr(t, `"ab" * 2^62`, err, "longer than the limit")
	_, err = binary(nil, token.Mul, NewList(Nil), Int(MaxListLen+1))
	wantErr(t, "[nil] * (MaxListLen+1)", err, "longer than the limit")
}

// CallMethod runs methods by name and names the closest one on a typo.
func TestCallMethod(t *testing.T) {
	th := newTestThread(t, Options{})
	l := &List{}
	if _, err := th.CallMethod(l, "append", &Args{Positional: []Value{Int(1)}}); err != nil || l.String() != "[1]" {
		t.Errorf("append: %v, %s", err, l)
	}
	_, err := th.CallMethod(l, "apend", &Args{})
	wantErr(t, "apend", err, "list has no method apend (did you mean append?)")
	_, err = th.CallMethod(String("s"), "zzzzzz", &Args{})
	wantErr(t, "zzzzzz", err, "string has no method zzzzzz (methods: split, join")
	_, err = th.CallMethod(l, "append", &Args{})
	wantErr(t, "append()", err, "list.append takes 1 positional arguments, got 0")
	v, err := th.CallMethod(String("a,b"), "split", &Args{Positional: []Value{String(",")}})
	if err != nil || v.String() != `["a", "b"]` {
		t.Errorf("split: %v %v", v, err)
	}
	if names := AttrNames(NewDict()); len(names) != 8 || names[0] != "get" {
		t.Errorf("AttrNames(dict) = %v", names)
	}
	if len(Methods()) != len(listMethods)+len(stringMethods)+len(dictMethods) {
		t.Errorf("Methods() has %d entries", len(Methods()))
	}
}

// A dict or list inside itself prints elided, and == of nested dicts.
func TestDictFormatAndEqual(t *testing.T) {
	d := NewDict()
	d.Set(nil, String("self"), d)
	if d.String() != `{"self": {...}}` {
		t.Errorf("self-containing dict prints %s", d)
	}
	a, b := NewDict(), NewDict()
	a.Set(nil, Int(1), NewList(String("x")))
	b.Set(nil, Float(1), NewList(String("x")))
	if eq, err := equal(a, b); !eq || err != nil {
		t.Errorf("a == b: %v %v", eq, err)
	}
	b.Set(nil, Int(2), Nil)
	if eq, _ := equal(a, b); eq {
		t.Errorf("dicts of different sizes equal")
	}
}

func TestUnpack(t *testing.T) {
	dst := make([]Value, 2)
	for _, c := range []struct {
		v    Value
		want string
	}{
		{NewList(Int(1), Int(2)), "[1, 2]"},
		{String("ab"), `["a", "b"]`},
	} {
		if err := (*Thread)(nil).Unpack(c.v, dst); err != nil || NewList(dst...).String() != c.want {
			t.Errorf("unpack %v: %v, %v", c.v, dst, err)
		}
	}
	for _, c := range []struct {
		v    Value
		want string
	}{
		{NewList(Int(1)), "cannot unpack 1 value into 2 names"},
		{NewList(Int(1), Int(2), Int(3)), "cannot unpack 3 values into 2 names"},
		{String("abc"), "cannot unpack at least 3 values into 2 names"},
		{Int(1), "cannot unpack int into 2 names"},
	} {
		wantErr(t, "unpack "+c.v.String(), (*Thread)(nil).Unpack(c.v, dst), c.want)
	}
	l := NewList(String("a"), Nil)
	if allocs := testing.AllocsPerRun(10, func() {
		(*Thread)(nil).Unpack(l, dst)
	}); allocs > 0 {
		t.Errorf("unpacking a list: %v allocations", allocs)
	}
}

func TestErrorValue(t *testing.T) {
	e := &ErrorValue{Message: "boom", Position: "f.gs:9:12"}
	if e.String() != "f.gs:9:12: boom" || e.Type() != "error" {
		t.Errorf("%s %s", e, e.Type())
	}
	if v, err := getAttr(nil, e, "message"); err != nil || v != String("boom") {
		t.Errorf("e.message = %v, %v", v, err)
	}
	if v, err := getAttr(nil, e, "position"); err != nil || v != String("f.gs:9:12") {
		t.Errorf("e.position = %v, %v", v, err)
	}
	_, err := getAttr(nil, e, "msg")
	wantErr(t, "e.msg", err, "error has no attribute msg")
}
