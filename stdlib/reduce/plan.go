package reduce

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// Layout is an array's shape and strides, in elements.
type Layout struct{ Shape, Strides []int }

// View is how a kernel sees an array: its axes permuted by Perm, then each
// group [lo, hi) of the permuted axes merged into one (mem.Array's
// Permute and MergeAxes, applied in that order).
type View struct {
	Perm   []int
	Groups [][2]int
}

// Extents is the viewed shape of an array of the given shape.
func (v View) Extents(shape []int) []int {
	ext := make([]int, len(v.Groups))
	for g, gr := range v.Groups {
		ext[g] = 1
		for _, ax := range v.Perm[gr[0]:gr[1]] {
			ext[g] *= shape[ax]
		}
	}
	return ext
}

// narrowMax bounds the element counts of kernels with i32 indices: their
// loops compute an index plus one grid stride (at most MaxBlocks*256 =
// 2^20 elements) past the end, which stays below 2^31.
const narrowMax = 1<<31 - 1<<22

// Wide reports whether n elements need kernels with 64-bit indices.
func Wide(n int) bool { return n >= narrowMax }

// MaxBlocks bounds the grids of pass 1 and of elementwise kernels, and so
// the partials of a full reduction; minPerThread is the fewest elements a
// thread of pass 1 gets (16 iterations of the unrolled loop) before the
// grid grows.
const (
	MaxBlocks    = 4096
	minPerThread = 16 * unroll
)

// ElementwiseBlocks is the grid of an elementwise kernel over n elements
// (its threads stride over the rest).
func ElementwiseBlocks(n int) int {
	return min(max((n+blockThreads-1)/blockThreads, 1), MaxBlocks)
}

// Blocks is pass 1's grid for n elements. It depends on n alone, not on
// the device, so that every device sums in the same order and gives the
// same bits (package doc). Up to 4096 blocks of 256 threads: on an H200
// (132 SMs of at most 8 such blocks) that is four waves or more, whatever
// the kernel's occupancy, so the last wave's imbalance costs little; on
// the cpu a block's merge costs about as much as 4 elements per lane, so
// 64 per lane keep it small.
func Blocks(n int) int {
	g := (n + blockThreads*minPerThread - 1) / (blockThreads * minPerThread)
	return min(max(g, 1), MaxBlocks)
}

// FullPlan is the reduction of every element: the inputs are seen through
// View, as arrays of extents Shape in C order, N elements.
type FullPlan struct {
	View  View
	Shape []int
	N     int
}

// PlanFull plans the full reduction k of inputs of one shape. Reductions
// whose result does not depend on the visiting order (all but argmin and
// argmax, whose index is the C-order one) visit one input in memory order
// (axes by decreasing stride), so that a transposed view reads memory
// as it lies; then every run of axes that steps through memory as one
// axis (for every input) becomes one axis, down to 1-D for a contiguous
// array.
func PlanFull(k Kind, ins []Layout) FullPlan {
	perm := identity(len(ins[0].Shape))
	if !k.IsArg() && len(ins) == 1 {
		byStride(perm, ins[0])
	}
	return planFull(ins, perm)
}

// PlanFused plans the full reduction of an expression over the leaves
// ins (broadcast to one shape): in C order, the order of the
// materialised expression's elements, so the result has the bits of
// reducing the materialised array (package doc).
func PlanFused(ins []Layout) FullPlan { return planFull(ins, identity(len(ins[0].Shape))) }

func planFull(ins []Layout, perm []int) FullPlan {
	shape := ins[0].Shape
	v := View{Perm: perm, Groups: groups(ins, perm, 0, len(perm))}
	n := 1
	for _, d := range shape {
		n *= d
	}
	return FullPlan{View: v, Shape: v.Extents(shape), N: n}
}

// Target is what planning knows of the device: CUDA or the cpu, with its
// worker count.
type Target struct {
	CUDA    bool
	Workers int
}

// AxisPlan is a reduction along axes: the input is seen through View as
// its Kept kept axes (in their order, so output element m is the m-th in
// C order) then its reduced axes (by decreasing stride), extents Ext; M
// outputs of K elements each, reduced by Strategy over Grid blocks. Out
// is the output's shape.
type AxisPlan struct {
	View     View
	Kept     int
	Ext      []int
	M, K     int
	Strategy Strategy
	Grid     int
	Out      []int
}

// Wide reports whether the plan needs 64-bit indices.
func (p AxisPlan) Wide() bool { return Wide(p.M * p.K) }

// PlanAxis plans the reduction of l along axes (each in 0..ndim-1, none
// twice; an empty list reduces nothing, K = 1). keepdims keeps the
// reduced axes in Out with extent 1.
func PlanAxis(l Layout, axes []int, keepdims bool, t Target) (AxisPlan, error) {
	return planAxis([]Layout{l}, l, axes, keepdims, t)
}

// PlanAxisFused plans the reduction along axes of an expression over the
// leaves ins (broadcast to one shape): the reduced axes' order and the
// strategy are those of the materialised expression (a C-order array), so
// the result has its bits on every device; the leaves are read with their
// own strides.
func PlanAxisFused(ins []Layout, axes []int, keepdims bool, t Target) (AxisPlan, error) {
	shape := ins[0].Shape
	return planAxis(ins, Layout{Shape: shape, Strides: mem.ContiguousStrides(shape)}, axes, keepdims, t)
}

// planAxis plans with the reduced axes ordered, and the strategy chosen,
// by the layout l, and axes merged where every input allows.
func planAxis(ins []Layout, l Layout, axes []int, keepdims bool, t Target) (AxisPlan, error) {
	nd := len(l.Shape)
	if err := CheckAxes(axes, nd); err != nil {
		return AxisPlan{}, err
	}
	reduced := make([]bool, nd)
	for _, ax := range axes {
		reduced[ax] = true
	}
	var kept, red, out []int
	for ax, r := range reduced {
		switch {
		case !r:
			kept = append(kept, ax)
			out = append(out, l.Shape[ax])
		case keepdims:
			out = append(out, 1)
		}
	}
	for ax := range reduced {
		if reduced[ax] {
			red = append(red, ax)
		}
	}
	byStride(red, l)
	perm := slices.Concat(kept, red)
	kg := groups(ins, perm, 0, len(kept))
	v := View{Perm: perm, Groups: append(kg, groups(ins, perm, len(kept), nd)...)}
	p := AxisPlan{View: v, Kept: len(kg), Ext: v.Extents(l.Shape), Out: out, M: 1, K: 1}
	for g, e := range p.Ext {
		if g < p.Kept {
			p.M *= e
		} else {
			p.K *= e
		}
	}
	p.Strategy = strategy(p, innerStride(l, red), t)
	p.Grid = p.M
	if p.Strategy == Column {
		p.Grid = (p.M + blockThreads - 1) / blockThreads
	}
	return p, nil
}

// CheckAxes reports an axis outside 0..ndim-1 or given twice. The
// builtins have mapped negative axes (counted from the last) by then.
func CheckAxes(axes []int, ndim int) error {
	seen := make([]bool, ndim)
	for _, ax := range axes {
		switch {
		case ax < 0 || ax >= ndim:
			return fmt.Errorf("axis %d is out of range for a %d-D array", ax, ndim)
		case seen[ax]:
			return fmt.Errorf("axis %d is repeated", ax)
		}
		seen[ax] = true
	}
	return nil
}

// innerStride is the stride of the innermost reduced axis (0 for none).
func innerStride(l Layout, red []int) int {
	for i := len(red) - 1; i >= 0; i-- {
		if l.Shape[red[i]] > 1 {
			return l.Strides[red[i]]
		}
	}
	return 0
}

// strategy picks Row or Column. On CUDA a block per output pays when its
// threads read contiguous rows, or when there are too few outputs for a
// thread each to fill the GPU (Column keeps about 4 loads in flight per
// thread: 32768 threads are needed for half the bandwidth). On the cpu a
// block's lanes cost the same whichever way they index, and the block
// reduction at the end costs about 20 lane-vector instructions: Column
// wins unless there are too few outputs to give every worker lanes, or
// rows are long and contiguous.
func strategy(p AxisPlan, inner int, t Target) Strategy {
	unit := abs(inner) == 1
	switch {
	case p.M >= narrowMax:
		return Column // more blocks than a grid holds
	case t.CUDA && p.K >= 32 && (unit || p.M < 32768):
		return Row
	case !t.CUDA && p.K >= 256 && (p.M < blockThreads*max(t.Workers, 1) || unit && p.K >= 4096):
		return Row
	}
	return Column
}

// groups merges the permuted axes perm[lo:hi] greedily into runs that
// step through memory as one axis in every input.
func groups(ins []Layout, perm []int, lo, hi int) [][2]int {
	var gs [][2]int
	for p := lo; p < hi; p++ {
		if n := len(gs); n > 0 && mergeable(ins, perm[gs[n-1][0]:p+1]) {
			gs[n-1][1] = p + 1
			continue
		}
		gs = append(gs, [2]int{p, p + 1})
	}
	return gs
}

func mergeable(ins []Layout, axes []int) bool {
	for _, l := range ins {
		shape, strides := make([]int, len(axes)), make([]int, len(axes))
		for i, ax := range axes {
			shape[i], strides[i] = l.Shape[ax], l.Strides[ax]
		}
		if _, ok := mem.MergedStride(shape, strides); !ok {
			return false
		}
	}
	return true
}

// byStride sorts axes of l by decreasing stride (memory order), axes of
// one element last: their stride means nothing.
func byStride(axes []int, l Layout) {
	key := func(ax int) int {
		if l.Shape[ax] == 1 {
			return 0
		}
		return abs(l.Strides[ax])
	}
	slices.SortStableFunc(axes, func(a, b int) int { return cmp.Compare(key(b), key(a)) })
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
