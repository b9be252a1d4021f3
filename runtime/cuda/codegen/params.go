package codegen

import (
	"encoding/binary"

	"github.com/gscript-lang/gscript/lang/ir"
)

// ArrayParam describes an array argument: the address of element [0, ...]
// and the shape and strides in elements. The generated code takes it as
// struct gs_arrayN (N the rank): Data, then Shape[:N], then Strides[:N];
// PackArray writes exactly those bytes.
type ArrayParam struct {
	Data    uint64
	Shape   [4]int64
	Strides [4]int64
}

// ArrayParamSize is the size of struct gs_arrayN for rank n.
func ArrayParamSize(n int) int { return 8 + 16*n }

// MaxParamSize is the largest struct parameter, struct gs_array4.
const MaxParamSize = 8 + 16*4

// PackArray writes a's struct gs_arrayN for rank n into dst (at least
// ArrayParamSize(n) bytes, little-endian as the GPU reads it).
func PackArray(dst []byte, a *ArrayParam, n int) {
	binary.LittleEndian.PutUint64(dst, a.Data)
	for k := 0; k < n; k++ {
		binary.LittleEndian.PutUint64(dst[8+8*k:], uint64(a.Shape[k]))
		binary.LittleEndian.PutUint64(dst[8+8*n+8*k:], uint64(a.Strides[k]))
	}
}

// LaunchParamSize is the size of struct gs_launch: extents n[4] (1 past the
// launch's rank), the thread count, and the launch threads each CUDA
// thread runs.
const LaunchParamSize = 48

// PackLaunch writes struct gs_launch for dims into dst: total is the
// product of dims, per the launch threads each CUDA thread runs (at least 1).
func PackLaunch(dst []byte, dims []int, total, per int) {
	for k := 0; k < 4; k++ {
		n := 1
		if k < len(dims) {
			n = dims[k]
		}
		binary.LittleEndian.PutUint64(dst[8*k:], uint64(n))
	}
	binary.LittleEndian.PutUint64(dst[32:], uint64(total))
	binary.LittleEndian.PutUint64(dst[40:], uint64(per))
}

// ParamClass says what one kernel parameter of the generated entry holds.
type ParamClass uint8

const (
	// ParamArray is the struct gs_arrayN of entry parameter Index.
	ParamArray ParamClass = iota + 1
	// ParamScalar is the C value of entry parameter Index (Type's size:
	// bool and u8 one byte, i32/u32/f32 four, i64/u64/f64 eight).
	ParamScalar
	// ParamLaunch is struct gs_launch: the launch extents and thread count.
	ParamLaunch
)

func (c ParamClass) String() string {
	switch c {
	case ParamArray:
		return "array"
	case ParamScalar:
		return "scalar"
	case ParamLaunch:
		return "launch"
	}
	return "invalid"
}

// ParamKind describes one parameter of the generated entry, in order.
type ParamKind struct {
	Class ParamClass
	Index int     // entry parameter index (array, scalar); 0 for the launch struct
	Type  ir.Type // scalar type or array element type; Invalid for the launch struct
	NDim  int     // array rank
	Size  int     // bytes the launcher packs for it
}

// ParamLayout lists the parameters of EntryName(k), in order:
//
//	one per k.Entry.Params: struct gs_arrayN (see ArrayParam) or the scalar's C type
//	struct gs_launch { long long n[4]; long long total; long long per; } (flat kernels)
//
// In a flat kernel, CUDA thread c = blockIdx.x*blockDim.x + threadIdx.x
// runs the launch threads blockIdx.x*blockDim.x*per + threadIdx.x +
// k*blockDim.x for k in [0, per), stopping at total: ceil(total /
// (blockDim.x*per)) blocks cover the launch. A block kernel has no
// gs_launch: it runs one CUDA thread per script thread, and CUDA's grid
// is the launch.
func ParamLayout(k *ir.Kernel) []ParamKind {
	var out []ParamKind
	if k != nil && k.Entry != nil {
		for i, p := range k.Entry.Params {
			if p.IsArray() {
				out = append(out, ParamKind{ParamArray, i, p.Elem, p.NDim, ArrayParamSize(p.NDim)})
			} else {
				out = append(out, ParamKind{ParamScalar, i, p.Elem, 0, p.Elem.Size()})
			}
		}
	}
	if k != nil && k.IsBlock() {
		return out
	}
	return append(out, ParamKind{Class: ParamLaunch, Size: LaunchParamSize})
}
