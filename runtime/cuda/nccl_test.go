package cuda

import (
	"errors"
	"strings"
	"testing"
)

// TestLoadNCCLError: without a usable library the error wraps ErrNoNCCL,
// says what to install and lists a library that lacks a symbol.
func TestLoadNCCLError(t *testing.T) {
	_, err := loadNCCL([]string{"/nonexistent/libnccl.so.2"})
	if !errors.Is(err, ErrNoNCCL) || !strings.Contains(err.Error(), "apt-get install libnccl2, or pip install nvidia-nccl-cu12") {
		t.Errorf("got %v", err)
	}
	libc := "libc.so.6" // loads, and has no NCCL symbol
	if _, err := loadNCCL([]string{libc}); err == nil || !strings.Contains(err.Error(), libc+" (lacks ncclGetVersion)") {
		t.Errorf("libc: %v", err)
	}
}

// TestLoadNCCL: where NCCL is installed (the GPU machines), its version
// is one with ncclCommInitRankScalable (2.23 and later).
func TestLoadNCCL(t *testing.T) {
	n, err := LoadNCCL()
	if err != nil {
		t.Skip(err)
	}
	if n.Version() < 22300 || n.ncclCommInitRankScalable.addr == 0 {
		t.Errorf("NCCL %s at %s: gscript needs 2.23 or newer", n.VersionString(), n.Path())
	}
	t.Logf("NCCL %s (%s)", n.VersionString(), n.Path())
}
