package reduce

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/runtime/mem"
)

func TestBlocksAndWidth(t *testing.T) {
	for _, tt := range []struct{ n, g int }{{1, 1}, {16384, 1}, {16385, 2}, {1 << 24, 1024}, {1 << 28, 4096}, {1 << 30, 4096}} {
		if g := Blocks(tt.n); g != tt.g {
			t.Errorf("Blocks(%d) = %d, want %d", tt.n, g, tt.g)
		}
	}
	if Wide(narrowMax-1) || !Wide(narrowMax) {
		t.Error("Wide's threshold moved")
	}
	// a narrow kernel's indices plus one grid stride stay in i32
	if narrowMax+MaxBlocks*blockThreads >= 1<<31 {
		t.Error("narrowMax leaves no room for a grid stride")
	}
}

func TestPlanFull(t *testing.T) {
	for _, tt := range []struct {
		name  string
		k     Kind
		ins   []Layout
		perm  []int
		shape []int
	}{
		{"contiguous 3-D is 1-D", Sum, []Layout{{[]int{2, 3, 4}, []int{12, 4, 1}}}, []int{0, 1, 2}, []int{24}},
		{"rows of a sliced matrix", Sum, []Layout{{[]int{4, 3}, []int{5, 1}}}, []int{0, 1}, []int{4, 3}},
		{"a transpose reads memory in order", Sum, []Layout{{[]int{4, 3}, []int{1, 4}}}, []int{1, 0}, []int{12}},
		{"argmax keeps C order", ArgMax, []Layout{{[]int{4, 3}, []int{1, 4}}}, []int{0, 1}, []int{4, 3}},
		{"two inputs merge where both do", Dot, []Layout{{[]int{2, 3}, []int{3, 1}}, {[]int{2, 3}, []int{6, 2}}}, []int{0, 1}, []int{6}},
		{"unit axes merge", Sum, []Layout{{[]int{3, 1, 4}, []int{4, 7, 1}}}, []int{0, 2, 1}, []int{12}},
	} {
		p := PlanFull(tt.k, tt.ins)
		if !reflect.DeepEqual(p.View.Perm, tt.perm) || !reflect.DeepEqual(p.Shape, tt.shape) {
			t.Errorf("%s: perm %v shape %v, want %v %v", tt.name, p.View.Perm, p.Shape, tt.perm, tt.shape)
		}
	}
}

func TestPlanAxis(t *testing.T) {
	gpu, cpu := Target{CUDA: true}, Target{Workers: 16}
	m := Layout{Shape: []int{16384, 16384}, Strides: []int{16384, 1}}
	cube := Layout{Shape: []int{2, 3, 4}, Strides: []int{12, 4, 1}}
	for _, tt := range []struct {
		name     string
		l        Layout
		axes     []int
		keep     bool
		t        Target
		st       Strategy
		m, k     int
		out, ext []int
	}{
		{"rows on a GPU: a block each", m, []int{1}, false, gpu, Row, 16384, 16384, []int{16384}, []int{16384, 16384}},
		{"columns on a GPU: few outputs, a block each", m, []int{0}, false, gpu, Row, 16384, 16384, []int{16384}, []int{16384, 16384}},
		{"rows on the cpu: long and contiguous", m, []int{1}, false, cpu, Row, 16384, 16384, []int{16384}, []int{16384, 16384}},
		{"columns on the cpu: a thread each", m, []int{0}, false, cpu, Column, 16384, 16384, []int{16384}, []int{16384, 16384}},
		{"short rows: a thread each", Layout{[]int{1 << 20, 8}, []int{8, 1}}, []int{1}, false, gpu, Column, 1 << 20, 8, []int{1 << 20}, []int{1 << 20, 8}},
		{"outer and inner axes", cube, []int{0, 2}, false, cpu, Column, 3, 8, []int{3}, []int{3, 2, 4}},
		{"keepdims", cube, []int{2, 0}, true, cpu, Column, 3, 8, []int{1, 3, 1}, []int{3, 2, 4}},
		{"every axis, kept", cube, []int{0, 1, 2}, true, gpu, Column, 1, 24, []int{1, 1, 1}, []int{24}},
		{"no axis", cube, []int{}, false, gpu, Column, 24, 1, []int{2, 3, 4}, []int{24}},
	} {
		p, err := PlanAxis(tt.l, tt.axes, tt.keep, tt.t)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if p.Strategy != tt.st || p.M != tt.m || p.K != tt.k || !reflect.DeepEqual(p.Out, tt.out) || !reflect.DeepEqual(p.Ext, tt.ext) {
			t.Errorf("%s: %s M %d K %d out %v ext %v; want %s %d %d %v %v", tt.name, p.Strategy, p.M, p.K, p.Out, p.Ext,
				tt.st, tt.m, tt.k, tt.out, tt.ext)
		}
	}
}

func TestPlanAxisErrors(t *testing.T) {
	l := Layout{Shape: []int{2, 3}, Strides: []int{3, 1}}
	for _, tt := range []struct {
		axes []int
		want string
	}{
		{[]int{2}, "axis 2 is out of range for a 2-D array"},
		{[]int{-1}, "axis -1 is out of range for a 2-D array"}, // the builtins map negative axes first
		{[]int{1, 1}, "axis 1 is repeated"},
	} {
		if _, err := PlanAxis(l, tt.axes, false, Target{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("axes %v: %v, want %q", tt.axes, err, tt.want)
		}
	}
}

// TestPlanFused checks that fused reductions visit the expression's C
// order (the materialised array's) whatever their leaves' layouts, and
// merge axes only where every leaf allows.
func TestPlanFused(t *testing.T) {
	tr := Layout{Shape: []int{4, 3}, Strides: []int{1, 4}}
	row := Layout{Shape: []int{4, 3}, Strides: []int{0, 1}}
	c := Layout{Shape: []int{4, 3}, Strides: []int{3, 1}}
	for _, tt := range []struct {
		name        string
		ins         []Layout
		perm, shape []int
	}{
		{"a transposed leaf keeps C order", []Layout{tr}, []int{0, 1}, []int{4, 3}},
		{"contiguous leaves merge", []Layout{c, c}, []int{0, 1}, []int{12}},
		{"a broadcast row does not merge", []Layout{c, row}, []int{0, 1}, []int{4, 3}},
	} {
		p := PlanFused(tt.ins)
		if !reflect.DeepEqual(p.View.Perm, tt.perm) || !reflect.DeepEqual(p.Shape, tt.shape) {
			t.Errorf("%s: perm %v shape %v, want %v %v", tt.name, p.View.Perm, p.Shape, tt.perm, tt.shape)
		}
	}
	cube := Layout{Shape: []int{2, 3, 4}, Strides: []int{1, 2, 6}} // axes reversed in memory
	p, err := PlanAxisFused([]Layout{cube}, []int{1, 2}, false, Target{CUDA: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2}; !reflect.DeepEqual(p.View.Perm, want) || p.M != 2 || p.K != 12 {
		t.Errorf("axis plan: perm %v M %d K %d, want %v 2 12", p.View.Perm, p.M, p.K, want)
	}
	if plain, _ := PlanAxis(Layout{Shape: cube.Shape, Strides: mem.ContiguousStrides(cube.Shape)}, []int{1, 2}, false, Target{CUDA: true}); plain.Strategy != p.Strategy {
		t.Errorf("strategy %s, want the materialised array's %s", p.Strategy, plain.Strategy)
	}
}
