package cpu

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/gscript-lang/gscript/runtime/openblas"
)

// BLASEnv is the environment variable that picks the cpu's BLAS library
// for a process: "gonum" or "openblas" (SetBLAS's names); unset, OpenBLAS
// where it loads and gonum otherwise.
const BLASEnv = "GSCRIPT_BLAS"

// blasChoice is the library of the cpu's matrix products.
type blasChoice struct {
	lib *openblas.Lib // nil: gonum
	why string        // gonum's reason, for BLASName
}

func (c *blasChoice) String() string {
	if c.lib == nil {
		return "gonum (pure Go; " + c.why + ")"
	}
	s := "OpenBLAS (" + c.lib.Path()
	if cfg := c.lib.Config(); cfg != "" {
		s += ": " + cfg
	}
	if n := c.lib.NumThreads(); n > 0 {
		s += fmt.Sprintf("; %d threads", n)
	}
	return s + ")"
}

var (
	override atomic.Pointer[blasChoice] // SetBLAS's; nil: the default

	defaultOnce sync.Once
	defaultBLAS *blasChoice
	defaultErr  error
)

// currentBLAS is the library SetBLAS chose, else BLASEnv's, else the
// default, which is decided once per process.
func currentBLAS() (*blasChoice, error) {
	if c := override.Load(); c != nil {
		return c, nil
	}
	defaultOnce.Do(func() {
		defaultBLAS, defaultErr = chooseBLAS(os.Getenv(BLASEnv), true, openblas.Load)
	})
	return defaultBLAS, defaultErr
}

// SetBLAS chooses the library of the cpu's matrix products for the whole
// process (the library is loaded once per process, so the choice cannot
// be per interpreter): "openblas" (an error when it does not load),
// "gonum", or "" to go back to the default (BLASEnv, else OpenBLAS where it
// loads, else gonum). Tests and benchmarks use it to compare the two.
func SetBLAS(name string) error {
	if name == "" {
		override.Store(nil)
		return nil
	}
	c, err := chooseBLAS(name, false, openblas.Load)
	if err != nil {
		return err
	}
	override.Store(c)
	return nil
}

// chooseBLAS resolves a name ("" picks OpenBLAS where load succeeds)
// given to BLASEnv (fromEnv) or to SetBLAS, which messages name.
func chooseBLAS(name string, fromEnv bool, load func() (*openblas.Lib, error)) (*blasChoice, error) {
	source := fmt.Sprintf("SetBLAS(%q)", name)
	if fromEnv {
		source = BLASEnv + "=" + name
	}
	switch name {
	case "gonum":
		return &blasChoice{why: "chosen by " + source}, nil
	case "", "openblas":
		lib, err := load()
		switch {
		case err == nil:
			return &blasChoice{lib: lib}, nil
		case name == "":
			return &blasChoice{why: err.Error()}, nil
		}
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return nil, fmt.Errorf("%s: the cpu's BLAS is \"openblas\" or \"gonum\"", source)
}
