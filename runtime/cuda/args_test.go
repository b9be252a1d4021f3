package cuda

import (
	"math"
	"testing"
	"unsafe"
)

func TestArgsPacking(t *testing.T) {
	a := NewArgs(2)
	type desc struct {
		ptr   uint64
		shape [3]int32
	}
	d := desc{ptr: 0xdead0000, shape: [3]int32{4, 5, 6}}
	db := unsafe.Slice((*byte)(unsafe.Pointer(&d)), unsafe.Sizeof(d))
	a.Ptr(0x1000).F32(2.5).I32(-7).U64(1 << 40).F64(math.Pi).Bytes(db).I64(-1).U32(9)
	p := a.Params()
	if len(p) != 8 || a.Len() != 8 {
		t.Fatalf("%d params, want 8", len(p))
	}
	if v := *(*uint64)(p[0]); v != 0x1000 {
		t.Errorf("ptr %#x", v)
	}
	if v := *(*float32)(p[1]); v != 2.5 {
		t.Errorf("f32 %v", v)
	}
	if v := *(*int32)(p[2]); v != -7 {
		t.Errorf("i32 %v", v)
	}
	if v := *(*uint64)(p[3]); v != 1<<40 {
		t.Errorf("u64 %v", v)
	}
	if v := *(*float64)(p[4]); v != math.Pi {
		t.Errorf("f64 %v", v)
	}
	if v := *(*desc)(p[5]); v != d {
		t.Errorf("struct %+v", v)
	}
	if v := *(*int64)(p[6]); v != -1 {
		t.Errorf("i64 %v", v)
	}
	if v := *(*uint32)(p[7]); v != 9 {
		t.Errorf("u32 %v", v)
	}
	for i, q := range p {
		if uintptr(q)%8 != 0 {
			t.Errorf("param %d not 8-byte aligned", i)
		}
	}
	// The struct took two slots: the argument after it starts after both.
	if uintptr(p[6])-uintptr(p[5]) != 24 {
		t.Errorf("16-byte struct spans %d bytes of slots", uintptr(p[6])-uintptr(p[5]))
	}
	a.Reset().I32(3)
	if p := a.Params(); len(p) != 1 || *(*int32)(p[0]) != 3 {
		t.Error("Reset did not empty the list")
	}
}

// TestLaunchPathAllocs runs the whole launch path (Reset, packing, Params,
// LaunchKernel through purego.SyscallN) against the libc stand-in and
// checks that a steady-state launch allocates nothing.
func TestLaunchPathAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates: allocation counts are meaningless under -race")
	}
	d := fakeDriver(t)
	a := NewArgs(3)
	launch := func() {
		a.Reset().Ptr(0x1000).Ptr(0x2000).Ptr(0x3000)
		if err := d.LaunchKernel(0, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, a.Params()); err != nil {
			t.Fatal(err)
		}
	}
	launch()
	if n := testing.AllocsPerRun(200, launch); n != 0 {
		t.Errorf("launch path allocates %v times per launch", n)
	}
	// The other hot calls go through Driver.call: no allocation either.
	sync := func() {
		if err := d.StreamSynchronize(0); err != nil {
			t.Fatal(err)
		}
		if err := d.MemcpyDtoDAsync(0, 0, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(200, sync); n != 0 {
		t.Errorf("synchronize/copy allocate %v times per call", n)
	}
}

// TestDoAllocs: making a context current (cuCtxGetCurrent, compare, skip
// the set) and running fn allocates nothing.
func TestDoAllocs(t *testing.T) {
	d := fakeDriver(t)
	c := &Context{drv: d} // handle 0: the fake cuCtxGetCurrent reports 0
	n := 0
	fn := func() error { n++; return nil }
	if err := c.Do(fn); err != nil || n != 1 {
		t.Fatalf("Do: %v, fn ran %d times", err, n)
	}
	if allocs := testing.AllocsPerRun(200, func() { _ = c.Do(fn) }); allocs != 0 {
		t.Errorf("Do allocates %v times", allocs)
	}
	// When another context is current, Do sets c (the fake set fails with
	// |handle| as its code, which proves the call was made).
	c2 := &Context{drv: d, handle: 201}
	if err := c2.Do(fn); !IsCode(err, CodeInvalidContext) {
		t.Errorf("Do did not set the context: %v", err)
	}
}

func BenchmarkLaunchPathFake(b *testing.B) {
	d := fakeDriver(b)
	a := NewArgs(3)
	b.ReportAllocs()
	for b.Loop() {
		a.Reset().Ptr(0x1000).Ptr(0x2000).Ptr(0x3000)
		_ = d.LaunchKernel(0, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, a.Params())
	}
}
