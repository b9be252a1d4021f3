package interp_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

func execFiles(t *testing.T, files *interp.FileAccess, src string) error {
	t.Helper()
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe(), Files: files})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	return in.Exec(context.Background(), "t.gs", []byte(src))
}

// TestNoFileAccess: without Options.Files, load and save fail with a
// positioned error and touch nothing.
func TestNoFileAccess(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.npy")
	for _, src := range []string{`save("` + p + `", zeros(2))`, `let a = load("` + p + `")`} {
		err := execFiles(t, nil, "\n"+src)
		var ee *interp.EvalError
		if !errors.As(err, &ee) || ee.Pos.Line != 2 || !errors.Is(err, interp.ErrNoFileAccess) ||
			!strings.Contains(ee.Msg, p+": file access is not allowed in this interpreter") {
			t.Fatalf("%s: got %v, want a positioned refusal", src, err)
		}
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("save without access made a file: %v", err)
	}
}

// TestRootedFiles: reading and writing stay beneath their roots; names
// and symbolic links leading out are refused, with the same error whether
// or not the outside file exists.
func TestRootedFiles(t *testing.T) {
	base := t.TempDir()
	rd, wr := filepath.Join(base, "in"), filepath.Join(base, "out")
	for _, d := range []string{rd, wr} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(base, "outside.npy")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside.npy", filepath.Join(wr, "escape.npy")); err != nil {
		t.Fatal(err)
	}
	fa, err := interp.RootedFiles(rd, wr)
	if err != nil {
		t.Fatal(err)
	}
	defer fa.Close()

	if err := execFiles(t, fa, `save("a.npy", full(3, 2.0))`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(wr, "a.npy")); err != nil {
		t.Fatalf("save did not write beneath the write root: %v", err)
	}
	if err := os.Rename(filepath.Join(wr, "a.npy"), filepath.Join(rd, "a.npy")); err != nil {
		t.Fatal(err)
	}
	if err := execFiles(t, fa, `if sum(load("a.npy")) != 6.0 { load(1) }`); err != nil {
		t.Fatal(err)
	}

	refused := func(src, name string) string {
		t.Helper()
		err := execFiles(t, fa, src)
		if err == nil {
			t.Fatalf("%s: no error", src)
		}
		return strings.Replace(err.Error(), name, "NAME", 1)
	}
	if a, b := refused(`load("../outside.npy")`, "../outside.npy"), refused(`load("../missing.npy")`, "../missing.npy"); a != b {
		t.Fatalf("errors tell existence apart: %q vs %q", a, b)
	}
	refused(`load("`+outside+`")`, outside)
	refused(`save("../x.npy", zeros(1))`, "../x.npy")
	refused(`save("escape.npy", zeros(1))`, "escape.npy")
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Fatalf("a file outside the root changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(base, "x.npy")); err == nil {
		t.Fatal("save wrote outside the root")
	}
}

// TestReadOnlyFiles: RootedFiles with no write directory refuses save.
func TestReadOnlyFiles(t *testing.T) {
	fa, err := interp.RootedFiles(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer fa.Close()
	if err := execFiles(t, fa, `save("a.npy", zeros(1))`); !errors.Is(err, interp.ErrNoFileAccess) {
		t.Fatalf("got %v, want ErrNoFileAccess", err)
	}
}

// TestWriteFilePreallocates: WriteFile's writer takes the preallocation
// hint, which reserves blocks without growing the file.
func TestWriteFilePreallocates(t *testing.T) {
	dir := t.TempDir()
	fa, err := interp.RootedFiles(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	err = fa.WriteFile("out.npy", false, func(w io.Writer) error {
		p, ok := w.(interp.Preallocator)
		if !ok {
			t.Fatalf("WriteFile's writer %T takes no preallocation hint", w)
		}
		if _, err := w.Write([]byte("head")); err != nil {
			return err
		}
		if err := p.Preallocate(1 << 20); err != nil && !errors.Is(err, errors.ErrUnsupported) {
			t.Logf("preallocate: %v (a hint: the file system may not support it)", err)
		}
		_, err := w.Write([]byte("data"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out.npy"))
	if err != nil || string(b) != "headdata" {
		t.Fatalf("file holds %q (%v), want headdata: the reservation must not change the size", b, err)
	}
}
