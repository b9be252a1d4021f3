package conformance

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestExamplesAgree runs every example of examples/ on each backend and
// requires the output of the cpu's run from every other one: the examples
// print the same results on cpu and CUDA (COOPERATIVE.md section 5). The
// files an example writes go to a scratch directory.
func TestExamplesAgree(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.gs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	devs := backends()
	if len(devs) == 1 {
		t.Skip("no CUDA device: nothing to compare the cpu's output with")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := runExample(t, f, src, devs[0])
			for _, dev := range devs[1:] {
				if got := runExample(t, f, src, dev); got != want {
					t.Errorf("%s prints\n%s\nthe cpu prints\n%s", dev, got, want)
				}
			}
		})
	}
}

// runExample runs an example on dev with its files rooted in a scratch
// directory and an empty environment, and returns what it printed.
func runExample(t *testing.T, file string, src []byte, dev string) string {
	t.Helper()
	dir := t.TempDir()
	// The helpers examples import (examples/lib) go in the root too: the
	// examples name them relative to themselves.
	if err := os.CopyFS(filepath.Join(dir, "lib"), os.DirFS(filepath.Join(filepath.Dir(file), "lib"))); err != nil {
		t.Fatal(err)
	}
	files, err := interp.RootedFiles(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in, err := interp.New(interp.Options{Stdout: &out, Stderr: io.Discard, Device: dev,
		Predeclared: stdlib.Universe(), Files: files, Env: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	if err := in.Exec(ctx, filepath.Base(file), src); err != nil {
		t.Fatalf("%s on %s: %v", filepath.Base(file), dev, err)
	}
	return out.String()
}
