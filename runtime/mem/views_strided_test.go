package mem

import (
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

func ip(i int) *int { return &i }

func TestSliceBoundsClamping(t *testing.T) {
	for _, tt := range []struct {
		n            int
		lo, hi       *int
		step         int
		start, count int
	}{
		{10, nil, nil, 1, 0, 10},
		{10, ip(2), ip(8), 2, 2, 3},   // 2 4 6
		{10, ip(2), ip(99), 3, 2, 3},  // hi clamped: 2 5 8
		{10, ip(12), nil, 1, 10, 0},   // lo past the end: empty
		{10, ip(7), ip(3), 1, 0, 0},   // lo > hi: empty
		{10, nil, nil, -1, 9, 10},     // a[::-1]
		{10, ip(8), ip(2), -2, 8, 3},  // 8 6 4
		{10, ip(99), nil, -3, 9, 4},   // lo clamped to 9: 9 6 3 0
		{10, ip(3), ip(3), -1, 0, 0},  // empty
		{10, nil, ip(0), -1, 9, 9},    // down to 1, 0 excluded
		{0, nil, nil, -1, 0, 0},       // empty axis
		{5, ip(0), ip(5), 10, 0, 1},   // one step past everything
		{4, ip(-1), nil, 1, 3, 1},     // a[-1:]
		{4, ip(1), ip(-1), 1, 1, 2},   // a[1:-1]
		{4, ip(-3), nil, 1, 1, 3},     // a[-3:]
		{4, ip(-9), ip(-3), 1, 0, 1},  // lo clamped to 0
		{4, ip(-9), ip(-5), 1, 0, 0},  // both before the start: empty
		{4, ip(-1), nil, -1, 3, 4},    // a[-1::-1]
		{4, nil, ip(-6), -1, 3, 4},    // a[:-6:-1]: hi clamped past index 0
		{4, nil, ip(-2), -1, 3, 1},    // a[:-2:-1] stops before index 2
		{4, ip(-5), nil, -1, 0, 0},    // lo before the start going down: empty
		{4, ip(-2), ip(-4), -1, 2, 2}, // 2 1
	} {
		start, count, err := SliceBounds(tt.n, tt.lo, tt.hi, tt.step)
		if err != nil || count != tt.count || count > 0 && start != tt.start {
			t.Errorf("SliceBounds(%d, %v, %v, %d) = %d, %d, %v; want %d, %d", tt.n, tt.lo, tt.hi, tt.step, start, count, err, tt.start, tt.count)
		}
	}
	if _, _, err := SliceBounds(5, nil, nil, 0); err == nil || !strings.Contains(err.Error(), "zero") {
		t.Errorf("step 0: %v", err)
	}
}

func TestWrapIndexAndAxis(t *testing.T) {
	for _, tt := range []struct{ i, n, want int }{{0, 4, 0}, {3, 4, 3}, {-1, 4, 3}, {-4, 4, 0}} {
		if got, err := WrapIndex(tt.i, 0, tt.n); err != nil || got != tt.want {
			t.Errorf("WrapIndex(%d, 0, %d) = %d, %v; want %d", tt.i, tt.n, got, err, tt.want)
		}
		if got, err := WrapAxis(tt.i, tt.n); err != nil || got != tt.want {
			t.Errorf("WrapAxis(%d, %d) = %d, %v; want %d", tt.i, tt.n, got, err, tt.want)
		}
	}
	if _, err := WrapIndex(-5, 1, 4); err == nil || err.Error() != "index -5 out of bounds for axis 1 with size 4" {
		t.Errorf("WrapIndex(-5): %v", err)
	}
	if _, err := WrapIndex(0, 0, 0); err == nil {
		t.Errorf("WrapIndex into an empty axis: no error")
	}
	if _, err := WrapAxis(-3, 2); err == nil || err.Error() != "axis -3 is out of range for a 2-D array" {
		t.Errorf("WrapAxis(-3, 2): %v", err)
	}
	if _, err := WrapAxis(2, 2); err == nil {
		t.Errorf("WrapAxis(2, 2): no error")
	}
}

func newF32(t *testing.T, shape ...int) *Array {
	t.Helper()
	a, err := NewTracker(nil).New(HostAllocator{}, CPUDevice, ir.F32, shape)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Free() })
	return a
}

// elemAt is the element offset of idx in a's buffer, from the view's
// byte offset.
func elemAt(t *testing.T, a *Array, idx ...int) int {
	t.Helper()
	off, err := a.Offset(idx)
	if err != nil {
		t.Fatal(err)
	}
	return a.off/a.dtype.Size() + off
}

func TestViewStridesAndOffsets(t *testing.T) {
	m := newF32(t, 4, 10)
	// m[1:3, 2:8:2]
	v, err := m.View([]Sel{{Slice: true, Start: 1, Count: 2, Step: 1}, {Slice: true, Start: 2, Count: 3, Step: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Shape(), []int{2, 3}) || !slices.Equal(v.Strides(), []int{10, 2}) || !v.IsView() || v.IsContiguous() {
		t.Fatalf("shape %v strides %v", v.Shape(), v.Strides())
	}
	if got := elemAt(t, v, 1, 2); got != 2*10+6 {
		t.Errorf("v[1, 2] is element %d", got)
	}
	// m[:, 3] drops axis 1
	c, err := m.View([]Sel{{Slice: true, Start: 0, Count: 4, Step: 1}, {Start: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Shape(), []int{4}) || !slices.Equal(c.Strides(), []int{10}) || elemAt(t, c, 2) != 23 {
		t.Errorf("column: shape %v strides %v", c.Shape(), c.Strides())
	}
	// a view of a view: the column reversed
	r, err := c.View([]Sel{{Slice: true, Start: 3, Count: 4, Step: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Strides(), []int{-10}) || elemAt(t, r, 0) != 33 || elemAt(t, r, 3) != 3 {
		t.Errorf("reversed column: strides %v, r[0] at %d", r.Strides(), elemAt(t, r, 0))
	}
	if r.IsContiguous() || r.HostOrigin() != 30 {
		t.Errorf("reversed column: contiguous %v origin %d", r.IsContiguous(), r.HostOrigin())
	}
	if lo, hi := r.span(); lo != -30*4 || hi != 4 {
		t.Errorf("reversed column spans [%d, %d)", lo, hi)
	}
	b, err := r.HostBytes()
	if err != nil || len(b) != 31*4 {
		t.Errorf("HostBytes of the reversed column: %d bytes, %v", len(b), err)
	}
	if _, err := m.View([]Sel{{Start: 1}, {Start: 2}}); err == nil {
		t.Error("a view of no axes accepted")
	}
	if _, err := m.View([]Sel{{Start: 4}}); err == nil || !strings.Contains(err.Error(), "out of bounds") {
		t.Errorf("index past the axis: %v", err)
	}
	if _, err := m.View([]Sel{{Slice: true, Start: 2, Count: 3, Step: 1}}); err == nil {
		t.Error("a slice past the axis accepted")
	}
}

func TestTransposeView(t *testing.T) {
	m := newF32(t, 2, 3)
	tr, err := m.Transpose()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tr.Shape(), []int{3, 2}) || !slices.Equal(tr.Strides(), []int{1, 3}) || !tr.IsView() || !tr.SameBuffer(m) {
		t.Errorf("T: shape %v strides %v", tr.Shape(), tr.Strides())
	}
}

// MayOverlap (broadcast.go) over strided views, negative strides too.
func TestMayOverlapStrided(t *testing.T) {
	x, y := newF32(t, 10), newF32(t, 10)
	sl := func(a *Array, start, count, step int) *Array {
		v, err := a.View([]Sel{{Slice: true, Start: start, Count: count, Step: step}})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tt := range []struct {
		a, b *Array
		want bool
	}{
		{sl(x, 1, 5, 1), sl(x, 0, 5, 1), true},  // x[1:6], x[0:5]
		{sl(x, 0, 5, 1), sl(x, 5, 5, 1), false}, // x[0:5], x[5:10]
		{sl(x, 0, 10, 1), sl(x, 9, 10, -1), true},
		{sl(x, 9, 3, -1), sl(x, 0, 3, 1), false}, // 9 8 7 and 0 1 2
		{sl(x, 0, 5, 1), sl(y, 0, 5, 1), false},  // other buffers
		{sl(x, 0, 0, 1), x, false},               // nothing to share
	} {
		if got := tt.a.MayOverlap(tt.b); got != tt.want {
			t.Errorf("MayOverlap(%v@%d, %v@%d) = %v", tt.a.Strides(), tt.a.off, tt.b.Strides(), tt.b.off, got)
		}
	}
}
