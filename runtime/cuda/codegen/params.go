package codegen

import (
	"github.com/gscript-lang/gscript/lang/ir"
)

// ArrayParam is the by-value struct layout of an array argument in the
// generated code (struct gs_array): the address of element [0, ...], then
// the shape and the strides in elements, unused axes included. 72 bytes,
// 8-byte aligned; the launcher packs exactly this.
type ArrayParam struct {
	Data    uint64
	Shape   [4]int64
	Strides [4]int64
}

// ArrayParamSize is the size of ArrayParam in bytes.
const ArrayParamSize = 72

// ParamClass says what one kernel parameter of the generated entry holds.
type ParamClass uint8

const (
	// ParamArray is an ArrayParam for entry parameter Index.
	ParamArray ParamClass = iota + 1
	// ParamScalar is the C value of entry parameter Index (Type's size:
	// bool and u8 one byte, i32/u32/f32 four, i64/u64/f64 eight).
	ParamScalar
	// ParamExtent is launch extent n<Index> (long long; 1 for axes past the
	// launch's dimensions).
	ParamExtent
	// ParamTotal is the thread count n0*n1*n2*n3 (long long).
	ParamTotal
)

func (c ParamClass) String() string {
	switch c {
	case ParamArray:
		return "array"
	case ParamScalar:
		return "scalar"
	case ParamExtent:
		return "extent"
	case ParamTotal:
		return "total"
	}
	return "invalid"
}

// ParamKind describes one parameter of the generated entry, in order.
type ParamKind struct {
	Class ParamClass
	Index int     // entry parameter index (array, scalar) or axis (extent); 0 for total
	Type  ir.Type // scalar type, array element type, or I64 for extents and total
	Size  int     // bytes the launcher packs for it
}

// ParamLayout lists the parameters of EntryName(k), in order:
//
//	one per k.Entry.Params: struct gs_array (ArrayParam) or the scalar's C type
//	long long n0, long long n1, long long n2, long long n3   launch extents (1 past the launch's rank)
//	long long total                                          n0*n1*n2*n3
//
// Thread t = blockIdx.x*blockDim.x + threadIdx.x (64-bit) returns at once
// when t >= total, so any grid covering total threads works.
func ParamLayout(k *ir.Kernel) []ParamKind {
	var out []ParamKind
	if k != nil && k.Entry != nil {
		for i, p := range k.Entry.Params {
			if p.IsArray() {
				out = append(out, ParamKind{ParamArray, i, p.Elem, ArrayParamSize})
			} else {
				out = append(out, ParamKind{ParamScalar, i, p.Elem, p.Elem.Size()})
			}
		}
	}
	for axis := 0; axis < 4; axis++ {
		out = append(out, ParamKind{ParamExtent, axis, ir.I64, 8})
	}
	return append(out, ParamKind{ParamTotal, 0, ir.I64, 8})
}
