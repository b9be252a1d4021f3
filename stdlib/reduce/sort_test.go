package reduce

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// sortKernels builds every kernel of the sorts and searches of t.
func sortKernels(t ir.Type, wide bool) ([]*ir.Kernel, error) {
	var ks []*ir.Kernel
	add := func(k *ir.Kernel, err error) error {
		ks = append(ks, k)
		return err
	}
	for _, arg := range []bool{false, true} {
		s := SortSpec{In: t, Arg: arg}
		for _, p := range []SortPass{{}, {First: true}, {Last: true}, {First: true, Last: true}} {
			if err := add(SortOnesweepKernel(s, p, wide)); err != nil {
				return nil, err
			}
		}
		if err := add(SortCountKernel(s, wide)); err != nil {
			return nil, err
		}
		if err := add(SortSmallKernel(s, wide)); err != nil {
			return nil, err
		}
		if err := add(SearchKernel(t, arg, wide)); err != nil {
			return nil, err
		}
	}
	for _, build := range []func() (*ir.Kernel, error){
		func() (*ir.Kernel, error) { return UniqueFlagsKernel(t, wide) },
		func() (*ir.Kernel, error) { return CompactKernel(t, wide) },
		func() (*ir.Kernel, error) { return HistogramKernel(t, wide) },
		func() (*ir.Kernel, error) { return RepeatKernel(t, wide) },
	} {
		if err := add(build()); err != nil {
			return nil, err
		}
	}
	if t.IsInt() || t == ir.Bool {
		for _, w := range []bool{false, true} {
			if err := add(BincountKernel(t, w, wide)); err != nil {
				return nil, err
			}
		}
	}
	return ks, nil
}

// TestSortKernelsPrintAsCUDA builds the sort and search kernels of every
// dtype and width, prints each as CUDA C (what a GPU run compiles) and
// keeps each block's shared memory within CUDA's 48 KiB without an opt-in.
func TestSortKernelsPrintAsCUDA(t *testing.T) {
	for _, dt := range dtypes {
		for _, wide := range []bool{false, true} {
			ks, err := sortKernels(dt, wide)
			if err != nil {
				t.Fatalf("%s wide %v: %v", dt, wide, err)
			}
			for _, k := range ks {
				if _, err := codegen.Source(k, codegen.Options{}); err != nil {
					t.Errorf("%s: %v", k.Entry.Name, err)
				}
				if n := codegen.SharedBytes(k); n > 48<<10 {
					t.Errorf("%s: %d bytes of shared memory", k.Entry.Name, n)
				}
			}
		}
	}
}
