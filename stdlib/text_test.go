//go:build unix

package stdlib_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestFileBuiltinsNeedAccess: without Options.Files every file builtin
// fails, and touches nothing.
func TestFileBuiltinsNeedAccess(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	for _, src := range []string{
		`read_file("` + p + `.txt")`, `write_file("` + p + `.txt", "x")`,
		`save_text("` + p + `.csv", zeros(2))`, `load_text("` + p + `.csv")`,
		`save_image("` + p + `.png", zeros([2, 2]))`, `print("x", file="` + p + `.txt")`,
	} {
		in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
		if err != nil {
			t.Fatal(err)
		}
		err = in.Exec(context.Background(), "t.gs", []byte(src))
		in.Close()
		if !errors.Is(err, interp.ErrNoFileAccess) || !strings.HasPrefix(err.Error(), "t.gs:1:") {
			t.Errorf("%s: %v, want a positioned ErrNoFileAccess", src, err)
		}
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("files made without access: %v", names)
	}
}

// TestTextBuiltinsRooted: under RootedFiles the text builtins stay
// beneath their roots like load and save.
func TestTextBuiltinsRooted(t *testing.T) {
	dir := t.TempDir()
	fa, err := interp.RootedFiles(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fa.Close()
	var out strings.Builder
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: stdlib.Universe(), Files: fa})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := `save_text("a.csv", arange(3))
print(load_text("a.csv"))
print("log", file="log.txt")
write_file("../out.txt", "x")`
	err = in.Exec(context.Background(), "t.gs", []byte(src))
	if out.String() != "[0.0, 1.0, 2.0]\n" || err == nil || !strings.Contains(err.Error(), "t.gs:4:") || !strings.Contains(err.Error(), "escapes") {
		t.Errorf("out %q, err %v", out.String(), err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "log.txt")); err != nil || string(b) != "log\n" {
		t.Errorf("log.txt: %q %v", b, err)
	}
}

// TestTextBuiltinsRefuseNonRegular: print(file=), read_file and
// load_text refuse FIFOs and directories as load does (a FIFO would block).
func TestTextBuiltinsRefuseNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, src := range []string{`print("x", file=dir + "/fifo.txt")`, `read_file(dir + "/fifo.txt")`,
		`load_text(dir + "/fifo.txt")`, `print("x", file=dir)`} {
		_, err := exec(t, context.Background(), dir, src, 0)
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: got %v, want a refusal", src, err)
		}
	}
}

// TestLoadTextStreams: load_text parses rows as it reads them into a
// buffer of the array's dtype, so that Go's heap grows by less than 3x the
// array (it once held the text, a string per field and 8 bytes per value:
// 10x). The CSV is ~20 MB of f32 values, 4 per row.
func TestLoadTextStreams(t *testing.T) {
	const rows, cols = 700_000, 4
	path := filepath.Join(t.TempDir(), "big.csv")
	var b strings.Builder
	for i := range rows {
		fmt.Fprintf(&b, "%d.25,%d.5,-%d.125,1e-3\n", i, i%1000, i%77)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := stdlib.Universe()
	env["path"] = interp.String(path)
	var out strings.Builder
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: env, Files: interp.AllFiles()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := `let a = load_text(path)
print(a.shape, a[699999, 0], a[3])`
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := in.Exec(context.Background(), "t.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if want := "[700000, 4] 699999.25 [3.25, 3.5, -3.125, 0.001]\n"; out.String() != want {
		t.Errorf("load_text printed %q, want %q", out.String(), want)
	}
	size := uint64(rows * cols * 4)
	grew := after.TotalAlloc - before.TotalAlloc
	t.Logf("load_text allocated %.2fx the array", float64(grew)/float64(size))
	if grew >= 3*size {
		t.Errorf("load_text of a %d-byte f32 array (a %d-byte CSV) allocated %d bytes (%.1fx)",
			size, b.Len(), grew, float64(grew)/float64(size))
	}
}
