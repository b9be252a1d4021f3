package linalg_test

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg/linalgtest"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cpu"
)

// input draws one input lane of type e (linalgtest.Input).
func input(r *rand.Rand, e ir.Type) uint64 { return linalgtest.Input(r, e) }

// kernel compiles c's one-thread kernel (linalgtest.Kernel) for the cpu.
func kernel(t *testing.T, c linalgtest.Combo) (*cpu.Program, dtype.Type) {
	k, rt, err := linalgtest.Kernel(c)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := cpu.Compile(k, backend.Options{})
	if err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	return prog, rt
}

// The host (ir.Host) and a cpu kernel (ir.Emit) give the same bits for
// every operation at every accepted type, on random and special inputs.
func TestHostMatchesCPU(t *testing.T) {
	cs := linalgtest.Combos()
	t.Logf("%d combinations", len(cs))
	if len(cs) < 300 {
		t.Fatalf("only %d combinations", len(cs))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cs {
		prog, rt := kernel(t, c)
		for range 12 {
			check(t, r, c, prog, rt)
		}
	}
}

func check(t *testing.T, r *rand.Rand, c linalgtest.Combo, prog *cpu.Program, rt dtype.Type) {
	t.Helper()
	args := linalgtest.Inputs(r, c)
	var launch []cpu.Arg
	for i, u := range c.Ts {
		for _, x := range args[i] {
			if u.Elem == ir.I32 {
				x = uint64(int64(int32(x))) // launch arguments sign-extend
			}
			launch = append(launch, cpu.Arg{Bits: x})
		}
	}
	_, want, ok := linalgtest.Want(c, args)
	if !ok {
		return // an integer division by zero: the kernel fails too
	}
	// Pinned, so on the heap: a small make may live on the goroutine's
	// stack, which moves while the kernel writes through the uintptr.
	buf := make([]uint64, len(want))
	var pin runtime.Pinner
	pin.Pin(&buf[0])
	defer pin.Unpin()
	launch = append(launch, cpu.Arg{Array: cpu.ArrayArg{Data: uintptr(unsafe.Pointer(&buf[0])), Shape: [4]int{len(buf)}, Strides: [4]int{1}}})
	if err := prog.Launch([]int{1}, launch, cpu.Options{}); err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	for k, w := range want {
		if got := lane(buf, rt.Elem, k); got != w {
			t.Errorf("%v (of %#x): lane %d is %#x on the cpu, %#x on the host", c, args, k, got, w)
			return
		}
	}
}

// lane reads element k of an out array of type e held in buf.
func lane(buf []uint64, e ir.Type, k int) uint64 {
	p := unsafe.Pointer(&buf[0])
	switch e.Size() {
	case 1:
		return uint64(unsafe.Slice((*uint8)(p), len(buf))[k])
	case 4:
		return uint64(unsafe.Slice((*uint32)(p), len(buf))[k])
	}
	return buf[k]
}
