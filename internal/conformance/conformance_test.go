package conformance

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/gscript-lang/gscript/internal/scripttest"
	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// usesDevice picks the interpreter's chunks whose result depends on the
// backend: they launch a kernel or make an array.
var usesDevice = regexp.MustCompile(`(?m)\blaunch\b|^\s*array\s`)

// scripts returns the conformance chunks: the device-dependent chunks of
// interp's script tests, stdlibScripts, and all of this package's.
func scripts(t *testing.T) []*scripttest.Chunk {
	interpChunks, err := scripttest.Glob("../../interp/testdata/*.gs")
	if err != nil {
		t.Fatal(err)
	}
	own, err := scripttest.Glob("testdata/*.gs")
	if err != nil {
		t.Fatal(err)
	}
	var chunks []*scripttest.Chunk
	for _, c := range interpChunks {
		if usesDevice.MatchString(c.Source) {
			chunks = append(chunks, c)
		}
	}
	for _, f := range stdlibScripts {
		cs, err := scripttest.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, cs...)
	}
	return append(chunks, own...)
}

// stdlibScripts are the standard library's script tests of work done on
// the array's device (constructors, ranges, reductions, scans): all their chunks
// run here.
var stdlibScripts = []string{"../../stdlib/testdata/construct.gs", "../../stdlib/testdata/ranges.gs",
	"../../stdlib/testdata/reduce.gs", "../../stdlib/testdata/expr.gs", "../../stdlib/testdata/scan.gs",
	"../../stdlib/testdata/matmul.gs", "../../stdlib/testdata/reduce_expr.gs", "../../stdlib/testdata/rand.gs",
	"../../stdlib/testdata/index.gs",
	"../../stdlib/testdata/shape.gs", "../../stdlib/testdata/nan.gs",
	"../../stdlib/testdata/sort.gs", "../../stdlib/testdata/search.gs",
	"../../stdlib/testdata/power.gs", "../../stdlib/testdata/permutation.gs"}

// backends lists the devices present: the cpu, then every CUDA device.
func backends() []string {
	devs := []string{"cpu"}
	for i := range mem.CUDADeviceCount() {
		devs = append(devs, fmt.Sprintf("cuda:%d", i))
	}
	return devs
}

func TestConformance(t *testing.T) {
	chunks := scripts(t)
	n := mem.CUDADeviceCount()
	if n == 0 {
		t.Log("no CUDA device: the cpu backend only")
	}
	for _, dev := range backends() {
		t.Run(dev, func(t *testing.T) {
			env := scripttest.Env{Device: dev, CUDADevices: n, DeviceOnly: true}
			passed, skipped := 0, 0
			for _, c := range chunks {
				why := c.Skip(env)
				ok := t.Run(c.Name(), func(t *testing.T) {
					if why != "" {
						t.Skip(why)
					}
					// tmpdir: a fresh directory, for the file chunks.
					Exec(t, c, dev, map[string]interp.Value{"tmpdir": interp.String(t.TempDir())})
				})
				switch {
				case why != "":
					skipped++
				case ok:
					passed++
				}
			}
			t.Logf("%s: %d of %d chunks passed, %d skipped", dev, passed, len(chunks), skipped)
		})
	}
}
