package syntax

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

var fuzzSeeds = []string{
	"", "x", "let a = 1", "if x {", "f(1,", `"abc`, "let a =", "1 +", "let = 3", "}", "{", "(", "[",
	"array x: f32[3] = 1 on \"cpu\" using managed", "launch k[1, 2](a, b) on d", "device \"cpu\" { }",
	"allocator managed on \"cuda:0\" { }", "capture g { launch k[1](x) }", "fn f(a, b,) { return a[1:], b[:2] }",
	"func f(x: f32) -> f32 { return -x }", "kernel k(a: array[f32, 2]) { let i, j = tid(); a[i, j] = 0 }",
	"x = 0x_1F + 0b1 + 0o7 + 1_0 + 1.5e-3 + .5 + 2.", "x = \"\\x41\\u00e9\\q\"", "#!shebang\nx", "a; ;b\n;",
	"x = 08 # 'a' `b`", "if a {} else if b {} else {}", "f(a=1, 2, a.b=3)", "x = [1,\n2,]\n",
	"device (d) {}", "device = 1", "array(1)", "1 = 2", "\xff\xfe", "x = 1e99999", "é = 1",
}

// FuzzParse checks that Parse never panics (the recover in Parse would
// turn a panic into an "internal error" message, which fails here), that
// every error has a valid position inside the input and no grammar text,
// and that every node
// of the (possibly partial) tree has one too.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, s := range repoSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("f.gs", []byte(src))
		if file == nil {
			t.Fatal("Parse returned a nil file")
		}
		if err != nil {
			list, ok := err.(ast.ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for _, e := range list {
				checkPos(t, src, e.Pos, e.Msg)
				if strings.Contains(e.Msg, "internal error") {
					t.Fatalf("panic inside the parser: %v", e)
				}
				for _, g := range grammarText {
					if strings.Contains(e.Msg, g) {
						t.Fatalf("grammar text in a message: %v", e)
					}
				}
			}
		}
		walk(file, func(n ast.Node) { checkPos(t, src, n.Start(), dump(n)) })
	})
}

func checkPos(t *testing.T, src string, p ast.Pos, what string) {
	t.Helper()
	if !p.IsValid() || p.File != "f.gs" || p.Offset < 0 || p.Offset > len(src) {
		t.Fatalf("%s: bad position %+v (input length %d)", what, p, len(src))
	}
	if lc := lineCol([]byte(src), p.Offset); lc != [2]int{p.Line, p.Col} {
		t.Fatalf("%s: offset %d is %d:%d, position says %d:%d", what, p.Offset, lc[0], lc[1], p.Line, p.Col)
	}
}

// repoSeeds returns every chunk of every testdata/*.gs file in the
// repository, chunks being separated by lines that are exactly "---".
func repoSeeds(tb testing.TB) []string {
	root := repoRoot()
	if root == "" {
		return nil
	}
	var seeds []string
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a directory another package is rewriting is no reason to fail
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(path) != ".gs" || filepath.Base(filepath.Dir(path)) != "testdata" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		seeds = append(seeds, splitChunks(data)...)
		return nil
	})
	return seeds
}

func splitChunks(data []byte) []string {
	var chunks []string
	var cur bytes.Buffer
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if strings.TrimRight(line, "\r\n") == "---" {
			chunks = append(chunks, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line)
	}
	return append(chunks, cur.String())
}

func repoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func TestSplitChunks(t *testing.T) {
	got := splitChunks([]byte("a\n---\nb\n--- \nc\n---\n"))
	want := []string{"a\n", "b\n--- \nc\n", ""}
	if len(got) != len(want) {
		t.Fatalf("splitChunks = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("splitChunks = %q, want %q", got, want)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	sample, err := os.ReadFile("testdata/sample.gs")
	if err != nil {
		b.Fatal(err)
	}
	sample = sample[bytes.IndexByte(sample, '\n')+1:] // a #! line is only allowed first
	src := bytes.Repeat(sample, 200/bytes.Count(sample, []byte("\n"))+1)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench.gs", src); err != nil {
			b.Fatal(err)
		}
	}
}
