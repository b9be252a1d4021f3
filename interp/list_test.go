package interp

import (
	"context"
	"io"
	"testing"
	"unsafe"
)

// runGlobal runs src in a fresh interpreter (no stdlib) and returns its
// global name.
func runGlobal(t *testing.T, src, name string) Value {
	t.Helper()
	in, err := New(Options{Stdout: io.Discard, Device: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := in.Exec(context.Background(), "list.gs", []byte(src)); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	v, ok := in.Global(name)
	if !ok {
		t.Fatalf("%s: no global %s", src, name)
	}
	return v
}

// TestListStrategies: each way of building or changing a list leaves it
// in the storage its elements allow (the script tests, lists.gs, show
// the elements keep their types; this shows they stay unboxed).
func TestListStrategies(t *testing.T) {
	for _, c := range []struct {
		src  string
		kind listKind
		want string
	}{
		{"let l = []", listEmpty, "[]"},
		{"let l = [1, 2, 3]", listInts, "[1, 2, 3]"},
		{"let l = [1.5, 2.0]", listFloats, "[1.5, 2.0]"},
		{"let l = [1, 2.0]", listValues, "[1, 2.0]"},
		{"let l = []\nl.append(1)", listInts, "[1]"},
		{"let l = []\nl.append(1.5)", listFloats, "[1.5]"},
		{"let l = []\nl.append(\"a\")", listValues, `["a"]`},
		{"let l = []\nl.append(nil)", listValues, "[nil]"},
		{"let l = []\nl.append([])", listValues, "[[]]"},
		{"let l = [1, 2]\nl.append(\"x\")", listValues, `[1, 2, "x"]`},
		{"let l = [1, 2]\nl.append(2.5)", listValues, "[1, 2, 2.5]"},
		{"let l = [1, 2]\nl[0] = 2.5", listValues, "[2.5, 2]"},
		{"let l = [1, 2]\nl[1] = [3]", listValues, "[1, [3]]"},
		{"let l = [1, 2]\nl[-1] = nil", listValues, "[1, nil]"},
		{"let l = [1, 2]\nl[-1] = 7", listInts, "[1, 7]"},
		{"let l = [1.5]\nl.append(2)", listValues, "[1.5, 2]"},
		{"let l = [1.5]\nl[0] = 2.5", listFloats, "[2.5]"},
		{"let l = [\"a\"]\nl.pop()\nl.append(1)", listValues, "[1]"},
		{"let l = [1, 2] + [3]", listInts, "[1, 2, 3]"},
		{"let l = [1] + [2.5]", listValues, "[1, 2.5]"},
		{"let l = [] + [2.5]", listFloats, "[2.5]"},
		{"let l = [1, 2] * 2", listInts, "[1, 2, 1, 2]"},
		{"let l = [1.5] * 2", listFloats, "[1.5, 1.5]"},
		{"let l = [1, 2, 3][1:]", listInts, "[2, 3]"},
		{"let l = [1.5, 2.5][::-1]", listFloats, "[2.5, 1.5]"},
		{"let l = [1]\nl.extend([2, 3])", listInts, "[1, 2, 3]"},
		{"let l = [1]\nl.extend([\"a\"])", listValues, `[1, "a"]`},
		{"let l = [1]\nl += [2]", listInts, "[1, 2]"},
		{"let l = [3, 1, 2]\nl.sort()", listInts, "[1, 2, 3]"},
		{"let l = [2.5, 1.5]\nl.sort()", listFloats, "[1.5, 2.5]"},
		{"let l = [1, 2]\nl.insert(0, 5)", listInts, "[5, 1, 2]"},
		{"let l = [1, 2]\nl.insert(1, \"a\")", listValues, `[1, "a", 2]`},
		{"let l = [1, 2, 3]\nl.pop(0)\nl.remove(3)", listInts, "[2]"},
		{"let l = [1, 2]\nl.reverse()\nlet m = l.copy()\nl = m", listInts, "[2, 1]"},
		{"let l = [1, 2]\nl.clear()", listInts, "[]"},
		{"let l = []\nlet i = 0\nwhile i < 100 { l.append(i * 0.5); i += 1 }\nl = l[:3]", listFloats, "[0.0, 0.5, 1.0]"},
	} {
		l, ok := runGlobal(t, c.src, "l").(*List)
		if !ok {
			t.Fatalf("%s: l is not a list", c.src)
		}
		if l.kind != c.kind || l.String() != c.want {
			t.Errorf("%q: kind %d %s, want kind %d %s", c.src, l.kind, l, c.kind, c.want)
		}
	}
}

// TestListAPI: the Go API keeps each element's type, and SetElem
// converts the storage when it must.
func TestListAPI(t *testing.T) {
	l := NewList(Int(1), Int(2))
	if l.kind != listInts || l.Len() != 2 || l.At(1) != Int(2) {
		t.Fatalf("NewList(1, 2): kind %d %s", l.kind, l)
	}
	vs := l.Values()
	vs[0] = String("changed") // a copy
	if xs, ok := l.Ints(); !ok || xs[0] != 1 {
		t.Errorf("Values is not a copy: %s", l)
	}
	if err := (*Thread)(nil).SetElem(l, 0, Float(0.5)); err != nil || l.kind != listValues || l.String() != "[0.5, 2]" {
		t.Errorf("SetElem(0, 0.5): %v, kind %d %s", err, l.kind, l)
	}
	if _, ok := l.Ints(); ok {
		t.Errorf("Ints of a generic list")
	}
	wantErr(t, "SetElem(2)", (*Thread)(nil).SetElem(l, 2, Nil), "out of range")
	if f := NewFloatList([]float64{1.5}); f.kind != listFloats || f.At(0) != Float(1.5) {
		t.Errorf("NewFloatList: %d %s", f.kind, f)
	}
	if e := NewIntList(nil); e.kind != listEmpty || e.Len() != 0 {
		t.Errorf("NewIntList(nil): %d %s", e.kind, e)
	}
	if m := NewList(Int(1), String("a")); m.kind != listValues || m.String() != `[1, "a"]` {
		t.Errorf("NewList(1, \"a\"): %d %s", m.kind, m)
	}
	if xs, ok := NewIntList([]int64{-1, 2}).Ints(); !ok || xs[0] != -1 || xs[1] != 2 {
		t.Errorf("NewIntList([-1, 2]).Ints() = %v %v", xs, ok)
	}
	if xs, ok := NewFloatList([]float64{-0.5}).Floats(); !ok || xs[0] != -0.5 {
		t.Errorf("NewFloatList([-0.5]).Floats() = %v %v", xs, ok)
	}
	// d.items(), enumerate and zip make a List per pair: it stays small.
	if size := unsafe.Sizeof(List{}); size > 64 {
		t.Errorf("a List is %d bytes", size)
	}
}

// TestListEngineAllocs: 10^4 int appends and 10^4 int index reads and
// stores through the engine allocate only the list's growths.
func TestListEngineAllocs(t *testing.T) {
	in, err := New(Options{Stdout: io.Discard, Device: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx := context.Background()
	for _, src := range []string{
		"let l = []\nlet i = 0\nwhile i < 10000 { l.append(i); i += 1 }",
		"let l = []\nlet x = 0.0\nwhile x < 5000.0 { l.append(x); x += 0.5 }",
		"let s = 0\nlet i = 0\nwhile i < 10000 { s += k[i % 8] + k[-1]; k[i % 8] = i; i += 1 }",
		"let s = 0\nfor v in k { s += v }",
	} {
		prog, err := Compile("allocs.gs", []byte("let k = [1, 2, 3, 4, 5, 6, 7, 8]\n"+src), nil)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(5, func() {
			if err := in.Run(ctx, prog); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 100 { // the run's own few, the list, about 11 growths
			t.Errorf("%s: %v allocations", src, allocs)
		}
	}
}
