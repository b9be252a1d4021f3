package interp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/stdlib"
)

// writeTree writes files (name -> source) under a new temporary directory
// and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func newImportInterp(t *testing.T, files *interp.FileAccess, out *strings.Builder) *interp.Interp {
	t.Helper()
	in, err := interp.New(interp.Options{Stdout: out, Device: "cpu", Predeclared: stdlib.Universe(), Files: files})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// runMain runs dir/main.gs with every file readable and returns its output.
func runMain(t *testing.T, dir string) (string, error) {
	t.Helper()
	var out strings.Builder
	in := newImportInterp(t, interp.AllFiles(), &out)
	name := filepath.Join(dir, "main.gs")
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	err = in.Exec(context.Background(), name, src)
	return out.String(), err
}

const utilSrc = `let factor = 3
fn scale(x) { return x * factor }
fn set_factor(f) { factor = f }
func sq(v: f32) -> f32 { return v * v }
kernel square(a: array[f32]) {
    let i = tid()
    a[i] = sq(a[i])
}
`

func TestImportFnAndKernel(t *testing.T) {
	dir := writeTree(t, map[string]string{"util.gs": utilSrc, "main.gs": `import "util.gs"
let a = array([1, 2, 3], dtype=f32)
launch util.square[3](a)
let k = util.square
launch k[3](a)
util.set_factor(10)
print(util.scale(2), util.factor, a, type(util))
`})
	out, err := runMain(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := "20 10 [1.0, 16.0, 81.0] module\n"; out != want {
		t.Fatalf("got %q, want %q", out, want)
	}
}

// TestImportLoadOnce: a file imported by two files, and again by a later
// REPL entry, runs its top level once and is one module.
func TestImportLoadOnce(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"lib/counter.gs": "print(\"loading\")\nlet n = 0\nfn bump() { n += 1; return n }\n",
		"lib/user.gs":    "import \"counter.gs\"\nfn use() { return counter.bump() }\n",
		"main.gs":        "import \"lib/counter.gs\"\nimport \"lib/user.gs\"\nprint(counter.bump(), user.use())\n",
	})
	out, err := runMain(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if out != "loading\n1 2\n" {
		t.Fatalf("got %q, want the file loaded once and its state shared", out)
	}
	var rout strings.Builder
	in := newImportInterp(t, interp.AllFiles(), &rout)
	entry := []byte(`import "` + filepath.Join(dir, "lib/counter.gs") + `"; print(counter.bump())`)
	for range 2 {
		if _, err := in.ExecREPL(context.Background(), "<repl>", entry); err != nil {
			t.Fatal(err)
		}
	}
	if rout.String() != "loading\n1\n2\n" {
		t.Fatalf("REPL: got %q, want one load across entries", rout.String())
	}
}

// TestImportRelativeNested: each path is relative to the importing file.
func TestImportRelativeNested(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"lib/a.gs":     "import \"sub/b.gs\"\nfn f() { return b.g() + 1 }\n",
		"lib/sub/b.gs": "import \"../c.gs\"\nfn g() { return c.h() * 10 }\n",
		"lib/c.gs":     "fn h() { return 4 }\n",
		"main.gs":      "import \"lib/a.gs\"\nprint(a.f())\n",
	})
	out, err := runMain(t, dir)
	if err != nil || out != "41\n" {
		t.Fatalf("got %q, %v; want 41", out, err)
	}
	// An absolute path is used as is; ./ and .. spell the same file.
	abs := filepath.Join(dir, "lib", "c.gs")
	main := "import \"" + abs + "\"\nimport \"lib/sub/../a.gs\"\nprint(c.h(), a.f())\n"
	if err := os.WriteFile(filepath.Join(dir, "main.gs"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runMain(t, dir); err != nil || out != "4 41\n" {
		t.Fatalf("absolute path: got %q, %v", out, err)
	}
}

// compileErr runs dir/main.gs and returns its compile errors.
func compileErr(t *testing.T, dir string) ast.ErrorList {
	t.Helper()
	_, err := runMain(t, dir)
	var list ast.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %v (%T), want compile errors", err, err)
	}
	return list
}

func TestImportCycle(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.gs":    "import \"b.gs\"\n",
		"b.gs":    "let x = 1\nimport \"a.gs\"\n",
		"main.gs": "import \"a.gs\"\n",
	})
	list := compileErr(t, dir)
	a, b := filepath.Join(dir, "a.gs"), filepath.Join(dir, "b.gs")
	want := "import cycle: " + a + " imports " + b + " imports " + a
	if len(list) != 1 || list[0].Msg != want || list[0].Pos.File != b || list[0].Pos.Line != 2 || list[0].Pos.Col != 8 {
		t.Fatalf("got %v, want %s at %s:2:8", list, want, b)
	}
	self := writeTree(t, map[string]string{"main.gs": "import \"main.gs\"\n"})
	if list := compileErr(t, self); !strings.Contains(list.Error(), "main.gs imports "+filepath.Join(self, "main.gs")) {
		t.Fatalf("self import: got %v", list)
	}
}

func TestImportMissingFile(t *testing.T) {
	dir := writeTree(t, map[string]string{"main.gs": "let x = 1\nimport \"nope.gs\"\n"})
	list := compileErr(t, dir)
	want := filepath.Join(dir, "main.gs") + `:2:8: import "nope.gs": no such file or directory`
	if list.Error() != want {
		t.Fatalf("got %v, want %s", list, want)
	}
}

// TestImportErrorsInImportedFile: syntax, check and run-time errors in an
// imported file carry its name and positions.
func TestImportErrorsInImportedFile(t *testing.T) {
	tests := []struct{ helper, main, want string }{
		{"let x = 1\nlet y = x +* 2\n", "import \"h.gs\"\n", `h.gs:2:12: unexpected "*"`},
		{"kernel k(a: array[f32]) {\n  a[tid()] = nosuch\n}\n", "import \"h.gs\"\n", "h.gs:2:14: undefined: nosuch"},
		{"fn f(x) {\n  return x + \"s\"\n}\n", "import \"h.gs\"\nh.f(1)\n", "h.gs:2:12: "},
		{"fn f() { return 1 }\n", "import \"h.gs\"\nh.g()\n", `main.gs:2:3: undefined: h.g ("h.gs" has no top-level name g)`},
		{"let x = 1\n", "import \"h.gs\"\nh.x = 2\n", "main.gs:2:3: cannot assign to h.x: an import's names are read only"},
		{"let x = 1\n", "import \"h.gs\"\nlaunch h.k[1]()\n", "main.gs:2:10: undefined: h.k"},
		{"let x = 1\n", "import \"h.gs\"\nlet m = h\nprint(m.y)\n", "main.gs:3:9: module h ("},
	}
	for _, tt := range tests {
		dir := writeTree(t, map[string]string{"h.gs": tt.helper, "main.gs": tt.main})
		_, err := runMain(t, dir)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, tt.want)) {
			t.Errorf("%q: got %v, want %s", tt.helper, err, tt.want)
		}
	}
}

// TestImportNoFileAccess: without Options.Files an import is refused at
// compile time, and Compile (which grants none) refuses it too.
func TestImportNoFileAccess(t *testing.T) {
	dir := writeTree(t, map[string]string{"h.gs": "let x = 1\n"})
	src := []byte("import \"h.gs\"\nprint(h.x)\n")
	name := filepath.Join(dir, "main.gs")
	var out strings.Builder
	err := newImportInterp(t, nil, &out).Exec(context.Background(), name, src)
	want := name + `:1:8: import "h.gs": file access is not allowed in this interpreter`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	if _, err := interp.Compile(name, src, stdlib.Universe()); err == nil || err.Error() != want {
		t.Fatalf("Compile: got %v, want %s", err, want)
	}
}

// TestImportCompileFiles: a program reads its imports once, at compile
// time, and each Run starts them afresh with its fresh globals.
func TestImportCompileFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{"h.gs": "print(\"h\")\nfn f() { return 7 }\n"})
	name := filepath.Join(dir, "main.gs")
	p, err := interp.CompileFiles(name, []byte("import \"h.gs\"\nprint(h.f())\n"), stdlib.Universe(), interp.AllFiles())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "h.gs")); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	in := newImportInterp(t, nil, &out)
	for range 2 {
		if err := in.Run(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if out.String() != "h\n7\nh\n7\n" {
		t.Fatalf("got %q", out.String())
	}
}

// TestImportCollisions: like Go, a file may not declare a name its import
// binds (nor import two files of one base name); the error names both.
func TestImportCollisions(t *testing.T) {
	tests := []struct{ main, want string }{
		{"import \"u.gs\"\nfn u() {}\n", "main.gs:2:4: u redeclared: it is the name of the import at "},
		{"fn u() {}\nimport \"u.gs\"\n", "main.gs:1:4: u redeclared: it is the name of the import at "},
		{"import \"u.gs\"\nlet u = 1\n", "main.gs:2:5: u redeclared: it is the name of the import at "},
		{"import \"u.gs\"\nimport \"lib/u.gs\"\n", "main.gs:2:8: u redeclared: it is the name of the import at "},
		{"fn f() {\n  import \"u.gs\"\n}\n", "main.gs:2:3: import must be at the top level of a file"},
		{"if true {\n  import \"u.gs\"\n}\n", "main.gs:2:3: import must be at the top level of a file"},
	}
	for _, tt := range tests {
		dir := writeTree(t, map[string]string{"u.gs": "let x = 1\n", "lib/u.gs": "let y = 2\n", "main.gs": tt.main})
		list := compileErr(t, dir)
		if !strings.Contains(list.Error(), filepath.Join(dir, tt.want)) {
			t.Errorf("%q: got %v, want %s", tt.main, list, tt.want)
		}
	}
	// A function's own locals may shadow an import, as in Go.
	dir := writeTree(t, map[string]string{"u.gs": "let x = 1\n", "main.gs": "import \"u.gs\"\nfn f(u) { return u }\nprint(f(2), u.x)\n"})
	if out, err := runMain(t, dir); err != nil || out != "2 1\n" {
		t.Fatalf("shadowing in a fn: got %q, %v", out, err)
	}
}

// chainTree is dir/main.gs importing m0.gs, which imports m1.gs, ... to
// m(n-1).gs, each defining one fn.
func chainTree(t *testing.T, n int) string {
	t.Helper()
	files := map[string]string{"main.gs": "import \"m0.gs\"\nprint(m0.f())\n"}
	for i := range n {
		src := fmt.Sprintf("fn f() {\n    return %d\n}\n", i)
		if i+1 < n {
			src = fmt.Sprintf("import \"m%d.gs\"\n", i+1) + src
		}
		files[fmt.Sprintf("m%d.gs", i)] = src
	}
	return writeTree(t, files)
}

// TestImportChain loads a chain of 3000 files once each: the chain of
// imports being loaded is a stack, not copied per file (6 000 files took
// 19 s and 455 MB when each level copied it and scanned it for cycles).
func TestImportChain(t *testing.T) {
	dir := chainTree(t, 3000)
	out, err := runMain(t, dir)
	if err != nil || out != "0\n" {
		t.Fatalf("got %q, %v", out, err)
	}
}

// TestImportChainInterrupted: a cancelled Exec (Ctrl-C, a deadline) stops
// loading imports instead of reading every file first.
func TestImportChainInterrupted(t *testing.T) {
	dir := chainTree(t, 50)
	in := newImportInterp(t, interp.AllFiles(), &strings.Builder{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	name := filepath.Join(dir, "main.gs")
	src, _ := os.ReadFile(name)
	err := in.Exec(ctx, name, src)
	if err == nil || !strings.Contains(err.Error(), `import "m0.gs": interrupted`) {
		t.Fatalf("got %v, want an interrupted import", err)
	}
}

// TestImportChainMemoryLimit: loaded files count toward MemoryLimit, so a
// long import chain cannot grow past it.
func TestImportChainMemoryLimit(t *testing.T) {
	dir := chainTree(t, 400)
	in, err := interp.New(interp.Options{Stdout: &strings.Builder{}, Device: "cpu", Predeclared: stdlib.Universe(), Files: interp.AllFiles(), MemoryLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	name := filepath.Join(dir, "main.gs")
	src, _ := os.ReadFile(name)
	err = in.Exec(context.Background(), name, src)
	if err == nil || !strings.Contains(err.Error(), "memory limit of 1048576 bytes") {
		t.Fatalf("got %v, want the memory limit", err)
	}
}
