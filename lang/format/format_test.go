package format

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/internal/scripttest"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/syntax"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the formatter's output")

// TestGolden formats each testdata/*.input, compares it with its .golden
// file, and formats the result again, which must change nothing.
func TestGolden(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/*.input")
	if len(inputs) == 0 {
		t.Fatal("no testdata/*.input")
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			layout := Source
			if strings.HasSuffix(in, ".chunks.input") {
				layout = Chunked // a chunked script test, as in testdata/*.gs
			}
			got, err := layout(in, src)
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(in, ".input") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("formatted %s differs from %s:\n%s", in, golden, got)
			}
			checkIdempotent(t, layout, golden, want)
		})
	}
}

func checkIdempotent(t *testing.T, layout func(string, []byte) ([]byte, error), name string, formatted []byte) {
	t.Helper()
	again, err := layout(name, formatted)
	if err != nil {
		t.Fatalf("formatting the formatted %s: %v", name, err)
	}
	if !bytes.Equal(again, formatted) {
		t.Errorf("formatting %s again changes it:\n%s", name, again)
	}
}

// TestRepoScripts formats every script of the repository (each chunk of a
// chunked test file): the tree must stay the same, and a second pass
// change nothing. Chunks that do not parse (tests of syntax errors) must
// get Parse's errors back.
func TestRepoScripts(t *testing.T) {
	n := 0
	for name, src := range repoScripts(t) {
		n++
		want, perr := syntax.Parse(name, src)
		got, err := Source(name, src)
		if perr != nil {
			if err == nil || err.Error() != perr.Error() {
				t.Errorf("%s: Source error %v, want Parse's %v", name, err, perr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		after, err := syntax.Parse(name, got)
		if err != nil {
			t.Errorf("%s: formatted script does not parse: %v", name, err)
			continue
		}
		if d := (&treeDiff{}); !d.equal(reflect.ValueOf(want), reflect.ValueOf(after)) {
			t.Errorf("%s: the tree changed near %v", name, d.at)
		}
		checkIdempotent(t, Source, name, got)
	}
	if n < 100 {
		t.Errorf("only %d scripts found in the repository", n)
	}
}

// TestRepoTests formats every chunked script test of the repository (the
// testdata/*.gs files) as gscript fmt does: no error, and a second pass
// changes nothing.
func TestRepoTests(t *testing.T) {
	files := repoFiles(t)
	n := 0
	for _, path := range files {
		if filepath.Base(filepath.Dir(path)) != "testdata" {
			continue
		}
		n++
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Chunked(path, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		checkIdempotent(t, Chunked, path, got)
	}
	if n < 50 {
		t.Errorf("only %d chunked tests found in the repository", n)
	}
}

// TestChunkedRefuses: a formatting that would change what a chunk
// expects is an error, and a file the harness rejects is not formatted.
func TestChunkedRefuses(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"print(\"a \")  //> a \n", "t.gs:1:1: internal error in gscript fmt, script left unformatted: formatting would change the output"},
		{"x = 1\n---\ny ### \"(\"\n", "t.gs:3: bad error marker"},
		{"x = 1 //!gpu\n", "unknown condition //!gpu"},
	} {
		out, err := Chunked("t.gs", []byte(tc.src))
		if out != nil || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Chunked(%q) = %q, %v; want no output and %q", tc.src, out, err, tc.want)
		}
	}
}

// repoScripts maps a name to each script of the repository: whole files,
// and each chunk (markers cut) of the chunked tests in testdata folders.
func repoScripts(tb testing.TB) map[string][]byte {
	root, err := filepath.Abs("../..")
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string][]byte{}
	for _, path := range repoFiles(tb) {
		rel, _ := filepath.Rel(root, path)
		if err := addScripts(out, rel, path); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// repoFiles lists the .gs files of the repository, hidden directories
// aside.
func repoFiles(tb testing.TB) []string {
	root, err := filepath.Abs("../..")
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root:
			return filepath.SkipDir
		case !d.IsDir() && filepath.Ext(path) == ".gs":
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func addScripts(out map[string][]byte, rel, path string) error {
	if filepath.Base(filepath.Dir(path)) != "testdata" {
		src, err := os.ReadFile(path)
		out[rel] = src
		return err
	}
	chunks, err := scripttest.ReadFile(path)
	if err != nil {
		return err
	}
	for _, c := range chunks {
		out[rel+":"+c.Name()] = []byte(c.Source)
	}
	return nil
}

// TestSyntaxErrorUntouched: a script that does not parse gets no output
// and Parse's positioned errors.
func TestSyntaxErrorUntouched(t *testing.T) {
	out, err := Source("bad.gs", []byte("let a = 1\nlet = 2\nfn f( {\n"))
	var list ast.ErrorList
	if out != nil || !errors.As(err, &list) || len(list) != 2 || list[0].Pos.Line != 2 || list[1].Pos.Line != 3 {
		t.Fatalf("Source = %q, %v; want no output and errors on lines 2 and 3", out, err)
	}
}

// TestVerifyRefuses: the safety net refuses an output whose tree or
// comments differ from the input's, with a position.
func TestVerifyRefuses(t *testing.T) {
	src := []byte("let a = 1\nlet b = a - 1 // c\n")
	before, _ := syntax.Parse("v.gs", src)
	toks, _ := syntax.Tokens("v.gs", src)
	for _, tc := range []struct{ out, want string }{
		{"let a = 1\nlet b = a + 1 // c\n", "v.gs:2:"},
		{"let a = 1\nlet b = a - 1\n", "lose or change a comment"},
		{"let a = 1\nlet b = a -\n", "does not parse"},
		{"let a = 1\nlet b = a - 1 // c\n", ""},
	} {
		err := verify("v.gs", before, toks, []byte(tc.out))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("verify(%q) = %v, want nil", tc.out, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("verify(%q) = %v, want an error with %q", tc.out, err, tc.want)
		}
	}
}

func TestEmptyAndBlank(t *testing.T) {
	for _, src := range []string{"", "\n\n", "  \n\t\n"} {
		if out, err := Source("e.gs", []byte(src)); err != nil || len(out) != 0 {
			t.Errorf("Source(%q) = %q, %v; want empty", src, out, err)
		}
	}
}

func TestCases(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"f(a,\n  b,)\n", "f(a,\n    b)\n"},
		{"x = [1, 2,]\n", "x = [1, 2]\n"},
		{"x = f(\n1)\n", "x = f(\n    1)\n"},
		{"x = f(\n1\n)\n", "x = f(\n    1,\n)\n"},
		{"x = (a +\n b\n)\n", "x = (a +\n    b\n)\n"},
		{"x = a[i,\n j\n]\n", "x = a[i,\n    j\n]\n"},
		{"x = 1\r\ny = 2 // c\r\n", "x = 1\ny = 2 // c\n"},
		{"\uFEFFx=1", "x = 1\n"},
		{"if a { b }\nelse_ = 1", "if a {\n    b\n}\nelse_ = 1\n"},
		{"x = - -a - -1", "x = - -a - -1\n"},
		{"x = -(a) + !(b) - -[1][0] + ~ a", "x = -(a) + !(b) - -[1][0] + ~a\n"},
		{"struct P {\n}\nd = {\n}\nf(\n)\nfn g() {\n}\n", "struct P {}\nd = {}\nf()\nfn g() {}\n"},
		{"0 .A00\n1.5 .x\n", "0 .A00\n1.5 .x\n"},
		{"x = 1 // no newline at the end", "x = 1 // no newline at the end\n"},
		{"for i in l { f(i) }   // c\n", "for i in l { // c\n    f(i)\n}\n"},
		{"f(axis = [0, 1], seed = (1 << 2) - 1, k = -1)\n", "f(axis=[0, 1], seed=(1 << 2) - 1, k=-1)\n"},
		{"a = 1;  b = 2   // c\n", "a = 1\nb = 2 // c\n"},
		{"if a {\n    b } else { c }  // c\n", "if a {\n    b // c\n} else {\n    c\n}\n"},
	} {
		got, err := Source("c.gs", []byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("Source(%q) =\n%s(err %v), want\n%s", tc.in, got, err, tc.want)
		}
	}
}
