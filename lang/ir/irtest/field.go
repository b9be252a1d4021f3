package irtest

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Layout is the element of a struct-like array (TYPES.md section 2: an
// array of u8 with a trailing axis of Size bytes) that field cases access.
type Layout struct {
	Name string
	Size int
}

// FieldLayouts are the elements of the field cases, as NumPy's
// align=True lays them out: rec40 is {u8 a; f64 b[3]; i32 c} (a at 0, b
// at 8, 16 and 24, c at 32, padded to 40) and particle is {f32 pos[3],
// vel[3], mass} (28 bytes).
var FieldLayouts = []Layout{{"rec40", 40}, {"particle", 28}}

// fieldCases are the cases of load_field and store_field: for every type
// and every layout whose size is a multiple of the type's, a kernel that
// copies each thread's element of a into out through the type's fields,
// at every aligned offset (so every lane of the layouts, and the padding,
// at every type). load_field's kernels copy between 1-D arrays of
// elements, store_field's between 2-D ones; on a shared or local array
// they copy a into the buffer, then the buffer into out.
func fieldCases(op ir.Op, info ir.OpInfo) []Case {
	var cs []Case
	for _, t := range info.Types.Types() {
		for _, l := range FieldLayouts {
			if l.Size%t.Size() != 0 {
				continue
			}
			for _, sp := range []ir.Space{ir.SpaceParam, ir.SpaceShared, ir.SpaceLocal} {
				k, shapes := FieldCopy(t, l.Size, op == ir.OpStoreField, sp)
				cs = append(cs, Case{Op: op, T: t, Space: sp, Kernel: k, Shapes: shapes, Layout: l.Name})
			}
		}
	}
	return cs
}

// FieldCopy builds `out[e] = a[e]` for the elements of size bytes of byte
// arrays a and out (parameters 0 and 1), copied through fields of type t
// at every multiple of t's size: with twoD, over 2-D arrays of [32][2]
// elements (thread i copies [i/2, i%2]), else over 1-D arrays of 64; in
// a shared or local space through a buffer of 64 (shared) or 2 (local,
// element 1) elements. It returns the kernel and its parameters' shapes
// for 64 threads (a flat launch of 64, or one block).
func FieldCopy(t ir.Type, size int, twoD bool, sp ir.Space) (*ir.Kernel, [][]int) {
	ndim, shape := 2, []int{BlockShape[0], size}
	if twoD {
		ndim, shape = 3, []int{BlockShape[0] / 2, 2, size}
	}
	b := newBuilder(ir.Param{Name: "a", Elem: ir.U8, NDim: ndim}, ir.Param{Name: "out", Elem: ir.U8, NDim: ndim})
	idx := []ir.Reg{b.i}
	if twoD {
		two := b.emit(ir.OpConst, ir.I32, nil, int64(2))
		idx = []ir.Reg{b.emit(ir.OpDiv, ir.I32, []ir.Reg{b.i, two}, nil), b.emit(ir.OpRem, ir.I32, []ir.Reg{b.i, two}, nil)}
	}
	from, to := ir.SpaceParam, ir.SpaceParam
	bufIdx := idx
	var buf ir.Buffer
	switch sp {
	case ir.SpaceShared:
		buf = ir.Buffer{Name: "s", Elem: ir.U8, Dims: []int{BlockShape[0], size}}
		bufIdx = []ir.Reg{b.i}
	case ir.SpaceLocal:
		buf = ir.Buffer{Name: "l", Elem: ir.U8, Dims: []int{2, size}}
		bufIdx = []ir.Reg{b.emit(ir.OpConst, ir.I32, nil, int64(1))}
	}
	copyAll := func(fromSp ir.Space, fromP int, fromIdx []ir.Reg, toSp ir.Space, toP int, toIdx []ir.Reg) {
		for off := 0; off < size; off += t.Size() {
			v := b.field(ir.OpLoadField, t, fromSp, fromP, off, fromIdx...)
			b.field(ir.OpStoreField, ir.Invalid, toSp, toP, off, append(append([]ir.Reg(nil), toIdx...), v)...)
		}
	}
	if sp == ir.SpaceParam {
		copyAll(from, 0, idx, to, 1, idx)
	} else {
		copyAll(ir.SpaceParam, 0, idx, sp, 0, bufIdx)
		copyAll(sp, 0, bufIdx, ir.SpaceParam, 1, idx)
	}
	k := b.kernel()
	switch sp {
	case ir.SpaceShared:
		k.Shared = []ir.Buffer{buf}
		block(k)
	case ir.SpaceLocal:
		k.Entry.Locals = []ir.Buffer{buf}
	}
	return k, [][]int{shape, shape}
}

// field emits a field access at byte off; t is a load's type (Invalid
// for a store, whose value is the last of args).
func (b *builder) field(op ir.Op, t ir.Type, sp ir.Space, param, off int, args ...ir.Reg) ir.Reg {
	r := b.emit(op, t, args, off)
	in := b.f.Body[len(b.f.Body)-1].(*ir.Inst)
	in.Param, in.Space = param, sp
	return r
}

// String is the layout's name and size, for messages.
func (l Layout) String() string { return fmt.Sprintf("%s (%d bytes)", l.Name, l.Size) }
