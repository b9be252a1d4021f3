package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/syntax"
)

// repoScripts are the .gs files of the repository (examples, benchmarks,
// testdata), the corpus the incremental parser is compared on.
func repoScripts(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".gs") {
			return err
		}
		src, err := os.ReadFile(path)
		out[path] = src
		return err
	})
	if err != nil || len(out) < 20 {
		t.Fatalf("reading the scripts: %v (%d found)", err, len(out))
	}
	return out
}

// sameParse fails unless p's parse of src is syntax.Parse's, positions
// and errors included.
func sameParse(t *testing.T, p *parser, name string, src []byte) {
	t.Helper()
	want, werr := syntax.Parse(name, src)
	got, gerrs := p.parse(name, src)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the incremental tree differs from Parse's", name)
	}
	if !reflect.DeepEqual(gerrs, asErrors(werr)) {
		t.Fatalf("%s: errors %v, want %v", name, gerrs, werr)
	}
}

// TestIncrementalParseIsParse parses every script, then each again after
// edits that move its statements (a line inserted at the top, a
// statement broken in the middle), through one cache.
func TestIncrementalParseIsParse(t *testing.T) {
	p := newParser()
	for name, src := range repoScripts(t) {
		sameParse(t, p, name, src)
		sameParse(t, p, name, append([]byte("let inserted = 1\n\n"), src...))
		mid := len(src) / 2
		broken := string(src[:mid]) + "\n)\n" + string(src[mid:])
		sameParse(t, p, name, []byte(broken))
		sameParse(t, p, name, src)
	}
}

// TestIncrementalParseReuses checks that an edit re-parses only the
// statement it touched: the other statements' trees are the same nodes.
func TestIncrementalParseReuses(t *testing.T) {
	p := newParser()
	src := "fn a() {\n    return 1\n}\nlet b = 2\nfn c() {\n    return 3\n}\n"
	f1, _ := p.parse("t.gs", []byte(src))
	f2, _ := p.parse("t.gs", []byte(strings.Replace(src, "let b = 2", "let b = [\n2]", 1)))
	if len(f1.Stmts) != 3 || len(f2.Stmts) != 3 {
		t.Fatalf("statements: %d and %d, want 3", len(f1.Stmts), len(f2.Stmts))
	}
	if f1.Stmts[0] != f2.Stmts[0] || f1.Stmts[2] != f2.Stmts[2] || f1.Stmts[1] == f2.Stmts[1] {
		t.Error("want the first and last statements reused and the edited one parsed again")
	}
	if got := f2.Stmts[2].Start(); got.Line != 6 || got.Offset != strings.Index(src, "fn c")+3 {
		t.Errorf("the moved statement starts at %v (offset %d)", got, got.Offset)
	}
}
