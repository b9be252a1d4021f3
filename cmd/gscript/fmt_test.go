package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	untidy = "let a=1\nfn f(){return a}\n"
	tidy   = "let a = 1\nfn f() {\n    return a\n}\n"
)

// fmtTree writes files (name -> content) into a temporary directory.
func fmtTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFmtStdin(t *testing.T) {
	code, out, errOut := gscript(t, untidy, "fmt")
	if code != 0 || out != tidy || errOut != "" {
		t.Errorf("gscript fmt < untidy = %d, %q, %q", code, out, errOut)
	}
	code, out, _ = gscript(t, untidy, "fmt", "-l")
	if code != 0 || out != "<stdin>\n" {
		t.Errorf("gscript fmt -l < untidy = %d, %q", code, out)
	}
}

// TestFmtList: -l lists the files that differ, a DIR means every .gs
// under it (hidden directories aside), and the status stays 0.
func TestFmtList(t *testing.T) {
	dir := fmtTree(t, map[string]string{
		"a.gs": untidy, "ok.gs": tidy, "sub/b.gs": untidy, "sub/notes.txt": untidy, ".git/c.gs": untidy,
	})
	code, out, errOut := gscript(t, "", "fmt", "-l", dir)
	want := filepath.Join(dir, "a.gs") + "\n" + filepath.Join(dir, "sub", "b.gs") + "\n"
	if code != 0 || out != want || errOut != "" {
		t.Errorf("gscript fmt -l DIR = %d, %q, %q; want 0, %q", code, out, errOut, want)
	}
	if got := readFile(t, filepath.Join(dir, "a.gs")); got != untidy {
		t.Errorf("-l changed a file: %q", got)
	}
}

// TestFmtWrite: -w rewrites the files that differ, keeps their mode, and
// leaves no temporary file behind.
func TestFmtWrite(t *testing.T) {
	dir := fmtTree(t, map[string]string{"a.gs": untidy, "ok.gs": tidy})
	a := filepath.Join(dir, "a.gs")
	if code, out, errOut := gscript(t, "", "fmt", "-w", a, filepath.Join(dir, "ok.gs")); code != 0 || out != "" || errOut != "" {
		t.Fatalf("gscript fmt -w = %d, %q, %q", code, out, errOut)
	}
	if got := readFile(t, a); got != tidy {
		t.Errorf("after -w: %q, want %q", got, tidy)
	}
	if st, err := os.Stat(a); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("mode after -w: %v, %v; want 0640", st.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("directory after -w holds %d entries, want 2", len(entries))
	}
	if code, _, _ := gscript(t, "", "fmt", "-w"); code != 2 {
		t.Errorf("gscript fmt -w on stdin: exit %d, want 2", code)
	}
}

// TestFmtWriteSymlink: -w on a symbolic link rewrites the file it points
// to, in another directory, and leaves the link a link.
func TestFmtWriteSymlink(t *testing.T) {
	dir := fmtTree(t, map[string]string{"real/a.gs": untidy})
	target := filepath.Join(dir, "real", "a.gs")
	link := filepath.Join(dir, "link.gs")
	if err := os.Symlink(filepath.Join("real", "a.gs"), link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if code, out, errOut := gscript(t, "", "fmt", "-w", link); code != 0 || out != "" || errOut != "" {
		t.Fatalf("gscript fmt -w LINK = %d, %q, %q", code, out, errOut)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after -w the link is %v (%v), want a symbolic link", st.Mode(), err)
	}
	if got := readFile(t, target); got != tidy {
		t.Errorf("the link's target after -w: %q, want %q", got, tidy)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "real")); len(entries) != 1 {
		t.Errorf("the target's directory holds %d entries, want 1 (no temporary file left)", len(entries))
	}
}

// TestFmtTestdata: a file in a testdata directory is a chunked script
// test, formatted chunk by chunk with its markers kept; the same text
// elsewhere is one script, which does not parse.
func TestFmtTestdata(t *testing.T) {
	test := "let a=1 ### \"e\"\n---\nlet b=2\n"
	dir := fmtTree(t, map[string]string{"testdata/t.gs": test, "t.gs": test})
	code, _, errOut := gscript(t, "", "fmt", "-w", dir)
	want := "let a = 1 ### \"e\"\n---\nlet b = 2\n"
	if got := readFile(t, filepath.Join(dir, "testdata", "t.gs")); got != want {
		t.Errorf("testdata/t.gs after -w: %q, want %q", got, want)
	}
	if code != 1 || !strings.HasPrefix(errOut, filepath.Join(dir, "t.gs")+":1:") {
		t.Errorf("gscript fmt -w on t.gs outside testdata = %d, %q; want 1 and its syntax error", code, errOut)
	}
}

func TestFmtDiff(t *testing.T) {
	dir := fmtTree(t, map[string]string{"a.gs": untidy})
	a := filepath.Join(dir, "a.gs")
	code, out, _ := gscript(t, "", "fmt", "-d", a)
	for _, want := range []string{"--- " + a + ".orig\n", "+++ " + a + "\n", "-let a=1\n", "+let a = 1\n", "+    return a\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("gscript fmt -d: no %q in\n%s", want, out)
		}
	}
	if code != 0 || readFile(t, a) != untidy {
		t.Errorf("gscript fmt -d: exit %d, or the file changed", code)
	}
}

// TestFmtSyntaxError: a file that does not parse is left alone, its
// errors are printed as check prints them, the other files are still
// formatted, and the status is 1.
func TestFmtSyntaxError(t *testing.T) {
	bad := "let a = (1\nlet b=2\n"
	dir := fmtTree(t, map[string]string{"bad.gs": bad, "good.gs": untidy})
	badPath := filepath.Join(dir, "bad.gs")
	code, out, errOut := gscript(t, "", "fmt", "-w", dir)
	_, _, checkErr := gscript(t, "", "check", badPath)
	if code != 1 || out != "" || errOut != checkErr || !strings.HasPrefix(errOut, badPath+":2:1: ") {
		t.Errorf("gscript fmt -w DIR = %d, %q, stderr %q; want 1 and check's %q", code, out, errOut, checkErr)
	}
	if readFile(t, badPath) != bad || readFile(t, filepath.Join(dir, "good.gs")) != tidy {
		t.Errorf("after -w: bad.gs changed, or good.gs was not formatted")
	}
}

func TestFmtUsage(t *testing.T) {
	if code, out, _ := gscript(t, "", "fmt", "-h"); code != 0 || out != fmtUsage {
		t.Errorf("gscript fmt -h = %d, %.40q", code, out)
	}
	if code, _, errOut := gscript(t, "", "fmt", "-x"); code != 2 || !strings.Contains(errOut, "-x") {
		t.Errorf("gscript fmt -x = %d, %q", code, errOut)
	}
	if code, _, errOut := gscript(t, "", "fmt", "missing.gs"); code != 1 || !strings.Contains(errOut, "missing.gs") {
		t.Errorf("gscript fmt missing.gs = %d, %q", code, errOut)
	}
	if !strings.Contains(usage, "gscript fmt [-w] [-d] [-l]") {
		t.Error("the usage does not mention gscript fmt")
	}
}
