package cuda

import (
	"bytes"
	"runtime"
	"testing"
	"unsafe"
)

// TestCLayouts pins the Go mirrors of C structs to cuda.h's layout.
func TestCLayouts(t *testing.T) {
	var p cMemPoolProps
	checks := []struct {
		name      string
		got, want uintptr
	}{
		{"sizeof CUmemPoolProps", unsafe.Sizeof(p), 88},
		{"location", unsafe.Offsetof(p.locType), 8},
		{"win32SecurityAttributes", unsafe.Offsetof(p.win32), 16},
		{"maxSize", unsafe.Offsetof(p.maxSize), 24},
		{"usage", unsafe.Offsetof(p.usage), 32},
		{"reserved", unsafe.Offsetof(p.reserved), 34},
		{"sizeof CUmemAccessDesc", unsafe.Sizeof(cMemAccessDesc{}), 12},
		{"sizeof CUmemLocation", unsafe.Sizeof(MemLocation{}), 8},
		{"sizeof CUipcMemHandle", unsafe.Sizeof(IpcMemHandle{}), 64},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	c := MemPoolProps{AllocType: MemAllocationManaged, Location: DeviceLocation(3), MaxSize: 1 << 20, Usage: 1}.c()
	if c.allocType != 2 || c.locType != 1 || c.locID != 3 || c.maxSize != 1<<20 || c.usage != 1 || c.handleTypes != 0 {
		t.Errorf("props %+v", c)
	}
}

func TestMemLocationWord(t *testing.T) {
	// {type, id} by value in one register: type in the low half.
	if w := DeviceLocation(1).word(); w != 1|1<<32 {
		t.Errorf("device 1 = %#x", w)
	}
	if w := HostLocation.word(); w != 2 {
		t.Errorf("host = %#x", w)
	}
	if w := (MemLocation{Type: MemLocationDevice, ID: -1}).word(); w != 1|0xffffffff<<32 {
		t.Errorf("id -1 = %#x", w)
	}
}

func TestIpcOpenArgs(t *testing.T) {
	var h IpcMemHandle
	for i := range h {
		h[i] = byte(i)
	}
	args := ipcOpenArgs(0x1111, &h, 1)
	switch runtime.GOARCH {
	case "amd64":
		// pdptr and flags in the first two registers; the handle's 8 words
		// are arguments 7-14, the first stack slots.
		if len(args) != 14 || args[0] != 0x1111 || args[1] != 1 || args[2]|args[3]|args[4]|args[5] != 0 {
			t.Fatalf("register arguments %#x", args[:6])
		}
		for i := 0; i < 8; i++ {
			want := uintptr(0)
			for b := 7; b >= 0; b-- {
				want = want<<8 | uintptr(8*i+b)
			}
			if args[6+i] != want {
				t.Errorf("stack word %d = %#x, want %#x", i, args[6+i], want)
			}
		}
	case "arm64":
		if len(args) != 3 || args[1] != uintptr(unsafe.Pointer(&h)) || args[2] != 1 {
			t.Errorf("arm64 arguments %#x", args)
		}
	}
	if s := h.String(); len(s) != 128 || s[:6] != "000102" {
		t.Errorf("hex %q", s)
	}
}

func TestTerminated(t *testing.T) {
	ptx := []byte(".version 9.0\n")
	got := terminated(ptx)
	if !bytes.Equal(got, append(ptx, 0)) || len(ptx) != 13 {
		t.Errorf("PTX not NUL-terminated (or the input was changed): %q", got)
	}
	if withNUL := []byte("x\x00"); &terminated(withNUL)[0] != &withNUL[0] {
		t.Error("terminated PTX was copied")
	}
	elf := []byte("\x7fELF\x02\x01")
	if &terminated(elf)[0] != &elf[0] || len(terminated(elf)) != len(elf) {
		t.Error("a cubin was changed")
	}
}
