package dist

import (
	"fmt"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Op is a reduction of the collectives.
type Op int

// The reductions, in NCCL's order (ncclRedOp_t).
const (
	Sum Op = iota
	Prod
	Max
	Min
	Avg
)

var opNames = [...]string{"sum", "prod", "max", "min", "avg"}

func (o Op) String() string { return opNames[o] }

// ParseOp reads an op's name.
func ParseOp(s string) (Op, error) {
	for i, n := range opNames {
		if n == s {
			return Op(i), nil
		}
	}
	return 0, fmt.Errorf("op %q is not one of sum, prod, min, max, avg", s)
}

// CheckOp refuses an op a dtype has no meaning for: avg of integers or
// bools (whose mean is not of their type).
func CheckOp(op Op, t ir.Type) error {
	if op == Avg && !t.IsFloat() {
		return fmt.Errorf(`op="avg" of %s: the mean of integers is not an integer (use op="sum" and divide, or a float array)`, t)
	}
	return nil
}

// combine sets dst[i] = dst[i] op src[i] over elements of t; Avg sums
// (the division by the world size comes last). Bools are 0 or 1: sum and
// max are or, prod and min are and (torch's).
func combine(dst, src []byte, t ir.Type, op Op) {
	if len(dst) == 0 {
		return
	}
	switch t {
	case ir.Bool:
		combineBool(dst, src, op)
	case ir.U8:
		combineNumbers(dst, src, op)
	case ir.I32:
		combineNumbers(as[int32](dst), as[int32](src), op)
	case ir.U32:
		combineNumbers(as[uint32](dst), as[uint32](src), op)
	case ir.I64:
		combineNumbers(as[int64](dst), as[int64](src), op)
	case ir.U64:
		combineNumbers(as[uint64](dst), as[uint64](src), op)
	case ir.F32:
		combineNumbers(as[float32](dst), as[float32](src), op)
	case ir.F64:
		combineNumbers(as[float64](dst), as[float64](src), op)
	}
}

// as views b as elements of T (b's length is a multiple of T's size; Go's
// allocations and arrays' memory are aligned for every dtype).
func as[T any](b []byte) []T {
	var z T
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(z)))
}

func combineBool(dst, src []byte, op Op) {
	or := op == Sum || op == Max
	for i := range dst {
		if or {
			dst[i] |= src[i]
		} else {
			dst[i] &= src[i]
		}
	}
}

type number interface {
	~uint8 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// combineNumbers folds src into dst elementwise. Integers wrap around on
// overflow, as NCCL and NumPy do; min and max of a NaN are NaN (Go's min
// and max, NumPy's minimum and maximum).
func combineNumbers[T number](dst, src []T, op Op) {
	src = src[:len(dst)]
	switch op {
	case Sum, Avg:
		for i := range dst {
			dst[i] += src[i]
		}
	case Prod:
		for i := range dst {
			dst[i] *= src[i]
		}
	case Max:
		for i := range dst {
			dst[i] = max(dst[i], src[i])
		}
	case Min:
		for i := range dst {
			dst[i] = min(dst[i], src[i])
		}
	}
}

// divide ends an Avg: every element over k (floats only: CheckOp).
func divide(buf []byte, t ir.Type, k int) {
	if len(buf) == 0 {
		return
	}
	switch t {
	case ir.F32:
		x := as[float32](buf)
		for i := range x {
			x[i] /= float32(k)
		}
	case ir.F64:
		x := as[float64](buf)
		for i := range x {
			x[i] /= float64(k)
		}
	}
}
