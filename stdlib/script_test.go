package stdlib_test

import (
	"testing"

	"github.com/gscript-lang/gscript/internal/conformance"
	"github.com/gscript-lang/gscript/internal/scripttest"
	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// TestScripts runs testdata/*.gs (the chunked format of
// internal/scripttest) with the standard library on the cpu (chunks tagged //!cuda only where
// a CUDA device is present). Each chunk
// gets tmpdir, a fresh directory, for the .npy tests.
func TestScripts(t *testing.T) {
	chunks, err := scripttest.Glob("testdata/*.gs")
	if err != nil {
		t.Fatal(err)
	}
	env := scripttest.Env{Device: "cpu", CUDADevices: mem.CUDADeviceCount()}
	for _, c := range chunks {
		t.Run(c.Name(), func(t *testing.T) {
			if why := c.Skip(env); why != "" {
				t.Skip(why)
			}
			conformance.Exec(t, c, "cpu", map[string]interp.Value{"tmpdir": interp.String(t.TempDir())})
		})
	}
}
