package stdlib_test

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// countingAlloc is a host allocator that counts its zero-filled
// allocations.
type countingAlloc struct {
	mem.HostAllocator
	zeroed, uninit int
}

func (c *countingAlloc) Name() string { return "counting" }

func (c *countingAlloc) Alloc(dev mem.Device, n int) (uintptr, error) {
	c.zeroed++
	return c.HostAllocator.Alloc(dev, n)
}

// uninitAlloc also serves memory without zero-fill (mem.UninitAllocator).
type uninitAlloc struct{ countingAlloc }

func (u *uninitAlloc) AllocUninit(dev mem.Device, n int) (uintptr, error) {
	u.uninit++
	return u.HostAllocator.Alloc(dev, n)
}

// Constructors that write every element ask the allocator for memory
// without zero-fill when it offers that, and for zero-filled memory when it
// does not; zeros always asks for zeros.
func TestConstructorsSkipZeroFill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.npy")
	writes := []string{`empty(4, allocator="a")`, `load(path, allocator="a")`, `ones(4, allocator="a")`,
		`full(4, 2, allocator="a")`, `arange(4, allocator="a")`, `linspace(0, 1, 4, allocator="a")`,
		`array([1, 2], allocator="a")`, `array(arange(3), allocator="a")`}
	uninit := &uninitAlloc{}
	plain := &countingAlloc{}
	for _, alloc := range []mem.Allocator{uninit, plain} {
		env := stdlib.Universe()
		env["path"] = interp.String(path)
		in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: env, Files: interp.AllFiles()})
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		if err := in.RegisterAllocator("a", alloc); err != nil {
			t.Fatal(err)
		}
		run := func(src string) {
			t.Helper()
			if err := in.Exec(context.Background(), "t.gs", []byte(src)); err != nil {
				t.Fatalf("%s: %v", src, err)
			}
		}
		run(`save(path, arange(4))`)
		for _, src := range writes {
			run("print(" + src + ")")
		}
		run(`print(zeros(4, allocator="a"))`)
	}
	if uninit.uninit != len(writes) || uninit.zeroed != 1 {
		t.Errorf("an allocator with AllocUninit: %d uninitialised and %d zero-filled allocations, want %d and 1",
			uninit.uninit, uninit.zeroed, len(writes))
	}
	if plain.zeroed != len(writes)+1 {
		t.Errorf("an allocator without AllocUninit: %d zero-filled allocations, want %d", plain.zeroed, len(writes)+1)
	}
}
