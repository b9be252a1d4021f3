package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunImportsAHelper: `gscript run` reads an import relative to the
// script (not the working directory), and `gscript check` reports an error
// in the imported file at its own position and runs nothing.
func TestRunImportsAHelper(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("lib/h.gs", "print(\"h loaded\")\nfn double(x) { return 2 * x }\nkernel fill(a: array[i32], v: i32) { a[tid()] = v }\n")
	main := write("main.gs", "import \"lib/h.gs\"\narray a: i32[2] = 0\nlaunch h.fill[2](a, 7)\nprint(h.double(21), a)\n")
	t.Chdir(t.TempDir())
	code, out, errOut := gscript(t, "", "run", "--device", "cpu", main)
	if code != 0 || out != "h loaded\n42 [7, 7]\n" {
		t.Fatalf("run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	bad := write("lib/h.gs", "print(\"h loaded\")\nfn double(x) { return 2 * y }\n")
	code, out, errOut = gscript(t, "", "check", main)
	if code != 1 || out != "" || !strings.HasPrefix(errOut, bad+":2:27: undefined: y") {
		t.Fatalf("check: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
