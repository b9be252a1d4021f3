package reduce

import (
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/cache"
)

// key names a kernel in the process cache (lang/ir/cache) by what it
// depends on: a loop of reductions builds each once, and interp compiles
// each once per device (it keys programs by the *ir.Kernel).
type key struct {
	what     string // "full", "partials" (pass 2), "axis", "isclose", "scan_..."
	spec     Spec
	scan     ScanSpec // of scan kernels
	sort     SortSpec // of sort kernels
	strategy Strategy
	r1, r2   int // ranks: of the inputs; for axis kernels kept and reduced
	wide     bool
	producer string // Producer.Key of a fused reduction
}

func cached[T any](k key, build func() (T, error)) (T, error) { return cache.Get(k, build) }

// FullKernels returns the two passes of the full reduction s of inputs
// seen with rank axes: the inputs are arrays of types s.In, or, with a
// Producer, its leaves, whose values it computes (s.In are then the types
// of its results).
func FullKernels(s Spec, pr Producer, rank int, wide bool) (*Full, error) {
	k := key{what: "full", spec: s, r1: rank, wide: wide}
	if pr != nil {
		k.producer = pr.Key()
	}
	return cached(k, func() (*Full, error) { return newFull(s, pr, rank, wide) })
}

// AxisKernel returns the kernel of the reduction s along axes, with
// strategy st, for inputs (or a Producer's leaves, as FullKernels) seen
// as kept then red axes.
func AxisKernel(s Spec, pr Producer, st Strategy, kept, red int, wide bool) (*ir.Kernel, error) {
	k := key{what: "axis", spec: s, strategy: st, r1: kept, r2: red, wide: wide}
	if pr != nil {
		k.producer = pr.Key()
	}
	return cached(k, func() (*ir.Kernel, error) { return axisKernel(s, pr, st, kept, red, indexType(wide)) })
}

// IsCloseKernel returns the elementwise isclose kernel of inputs of types
// in, seen with rank axes.
func IsCloseKernel(in [2]ir.Type, rank int, wide bool) (*ir.Kernel, error) {
	return cached(key{what: "isclose", spec: Spec{Kind: AllClose, In: in}, r1: rank, wide: wide}, func() (*ir.Kernel, error) {
		return isCloseKernel(in, rank, indexType(wide))
	})
}
