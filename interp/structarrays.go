package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Arrays of structs (TYPES.md section 2). Underneath, an array of a
// struct is a u8 array with one trailing byte axis of the struct's Size
// (dtype's layout), its byte axis contiguous as every view keeps it; the
// interpreter keeps the struct type beside it as for vectors. A lane is
// not one u8 element but LaneType's bytes at LaneOffset, so element reads
// and writes go through the bytes of the element.
//
//   - Padding bytes are zero in every element the host writes (a store,
//     a fill, array(list)), so two equal values are equal bytes and a
//     saved .npy does not leak memory contents.
//   - A struct element takes only a value of exactly its struct type: no
//     number fills a struct (write the constructor).

// isStructArray reports whether x is an array of a struct type.
func isStructArray(x *Array) bool { return x.Elem.Kind == dtype.StructKind }

// structBytes is the bytes of a value of t (a struct type) with lanes.
func structBytes(t dtype.Type, lanes []uint64) []byte {
	b := make([]byte, t.Size())
	for k, bits := range lanes {
		mem.StoreBits(b[t.LaneOffset(k):], t.LaneType(k), 0, bits)
	}
	return b
}

// structLanes is the lanes of a value of t (a struct type) from its bytes.
func structLanes(t dtype.Type, b []byte) []uint64 {
	lanes := make([]uint64, t.Lanes())
	for k := range lanes {
		lanes[k] = mem.LoadBits(b[t.LaneOffset(k):], t.LaneType(k), 0)
	}
	return lanes
}

// structValue checks that v is a value of t (a struct type) and returns
// its bytes.
func structValue(v Value, t dtype.Type) ([]byte, error) {
	if s, ok := v.(*Vector); ok && s.T == t {
		return structBytes(t, s.Lanes), nil
	}
	return nil, fmt.Errorf("cannot use %s as %s (an element of an array of %s takes a %s value: %s(...))", describe(v), t, t, t, t)
}

// loadStruct reads the element of x (an array of a struct) at offset off
// of its memory: its bytes, through loads (Array.LoadElems, one copy from
// device memory, or a host copy's reader).
func loadStruct(x *Array, off int, loads func(offs []int) ([]uint64, error)) (*Vector, error) {
	bits, err := loads(structOffsets(x, off))
	if err != nil {
		return nil, err
	}
	b := make([]byte, len(bits))
	for j, v := range bits {
		b[j] = byte(v)
	}
	return &Vector{T: x.Elem, Lanes: structLanes(x.Elem, b)}, nil
}

// structOffsets are the offsets of the bytes of x's element at off.
func structOffsets(x *Array, off int) []int {
	st := x.A.Strides()[x.A.NDim()-1]
	offs := make([]int, x.Elem.Size())
	for j := range offs {
		offs[j] = off + j*st
	}
	return offs
}

// storeStruct writes v, a value of x's struct type, into the element of x
// at off (one copy to device memory when its bytes are contiguous).
func storeStruct(x *Array, off int, v Value) error {
	b, err := structValue(v, x.Elem)
	if err != nil {
		return err
	}
	bits := make([]uint64, len(b))
	for j, c := range b {
		bits[j] = uint64(c)
	}
	return x.A.StoreElems(structOffsets(x, off), bits)
}

// fillStruct sets every element of x (an array of a struct) to v: one u8
// fill per byte of the element, on x's device.
func (th *Thread) fillStruct(x *Array, v Value) error {
	b, err := structValue(v, x.Elem)
	if err != nil {
		return err
	}
	for j, c := range b {
		lane, err := laneView(x, j)
		if err != nil {
			return err
		}
		if err := th.FillArray(lane, Scalar{T: x.Elem.Elem, Bits: uint64(c)}); err != nil {
			return err
		}
	}
	return nil
}
