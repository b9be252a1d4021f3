package kernel

import (
	"encoding/binary"
	"github.com/gscript-lang/gscript/runtime/backend"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// Parameters are packed once and reused while a loop launches with the
// same arguments; any change repacks.
func TestPackReuse(t *testing.T) {
	ks := kernels(t, `kernel k(x: array[f32, 2], s: i32) { x[0, 0] = f32(s) }`)
	k := &Kernel{src: ks["k"], layout: codegen.ParamLayout(ks["k"]), args: cuda.NewArgs(4)}
	arr := backend.Array{Data: 0x1000, Shape: [4]int{2, 3}, Strides: [4]int{3, 1}}
	args := []backend.Arg{{Array: arr}, {Bits: 7}}
	if k.samePack([]int{1}, args) {
		t.Fatal("nothing packed yet")
	}
	k.pack([]int{1}, args, 1)
	p := k.params
	if len(p) != 3 {
		t.Fatalf("%d params, want 3", len(p))
	}
	word := func(ptr unsafe.Pointer, i int) uint64 {
		return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(ptr), 8*(i+1))[8*i:])
	}
	if got := []uint64{word(p[0], 0), word(p[0], 1), word(p[0], 2), word(p[0], 3), word(p[0], 4)}; got[0] != 0x1000 || got[1] != 2 || got[2] != 3 || got[3] != 3 || got[4] != 1 {
		t.Errorf("array param words %v", got)
	}
	if word(p[1], 0) != 7 || word(p[2], 4) != 1 {
		t.Errorf("scalar %d, total %d", word(p[1], 0), word(p[2], 4))
	}
	if !k.samePack([]int{1}, args) {
		t.Error("same arguments not reused")
	}
	args[1].Bits = 8
	if k.samePack([]int{1}, args) {
		t.Error("a changed scalar was reused")
	}
	args[1].Bits = 7
	if k.samePack([]int{2}, args) || k.samePack([]int{1, 1}, args) {
		t.Error("changed dims were reused")
	}
}

// Relaunch needs a Launch first; repeating a launch of no threads does
// nothing (neither needs the driver).
func TestRelaunchWithoutDriver(t *testing.T) {
	ks := kernels(t, `kernel k(x: array[f32]) { x[0] = 1.0 }`)
	k := &Kernel{src: ks["k"], layout: codegen.ParamLayout(ks["k"]), args: cuda.NewArgs(2)}
	if err := k.Relaunch(0); err == nil {
		t.Error("Relaunch before any Launch succeeded")
	}
	args := []backend.Arg{{Array: backend.Array{Data: 0x1000}}}
	if err := k.Launch(0, []int{0}, args); err != nil {
		t.Fatal(err)
	}
	if err := k.Relaunch(0); err != nil {
		t.Errorf("Relaunch of an empty launch: %v", err)
	}
}

// Launch geometry: blocks of just the warps a small launch needs, 256
// threads otherwise, and codegen.CoarsenPer launch threads per CUDA thread
// from the coarsening threshold on.
func TestGeometry(t *testing.T) {
	const at = 1 << 20
	tests := []struct {
		total, coarsenAt int
		want             backend.Geometry
	}{
		{0, at, backend.Geometry{Block: 0, Blocks: 0, PerThread: 1}},
		{1, at, backend.Geometry{Block: 32, Blocks: 1, PerThread: 1}},
		{33, at, backend.Geometry{Block: 64, Blocks: 1, PerThread: 1}},
		{1000, at, backend.Geometry{Block: 256, Blocks: 4, PerThread: 1}},
		{at - 1, at, backend.Geometry{Block: 256, Blocks: at / 256, PerThread: 1}},
		{at, at, backend.Geometry{Block: 256, Blocks: at / 256 / codegen.CoarsenPer, PerThread: codegen.CoarsenPer}},
		{at + 1, at, backend.Geometry{Block: 256, Blocks: at/256/codegen.CoarsenPer + 1, PerThread: codegen.CoarsenPer}},
		{at, 0, backend.Geometry{Block: 256, Blocks: at / 256, PerThread: 1}},
	}
	for _, tt := range tests {
		if got := geometry(tt.total, tt.coarsenAt); got != tt.want {
			t.Errorf("geometry(%d, %d) = %+v, want %+v", tt.total, tt.coarsenAt, got, tt.want)
		}
	}
}
