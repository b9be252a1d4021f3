package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// TestResplitIsSplit applies a run of edits (characters, newlines,
// brackets, whole lines, deletions, at pseudo-random places) to scripts
// and checks after each that the incremental split and parse are the
// whole file's, scanner errors (a quote, a bad character, a number
// with a leading zero) included. A #! line and a byte order mark, which
// the scanner reads only at the file's start, are inserted at a chunk's
// start at the end.
func TestResplitIsSplit(t *testing.T) {
	inserts := []string{"x", "\n", "(", ")", "{", "}", "]", "\"s\"", "// c\n", "let q = 1\n", "}\nelse {\n", "else {\n}\n", "catch e {\n}\n", "fn f() {\n", " ", ".", "\"", "'", "#", "010"}
	seed := uint32(1)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	scripts := repoScripts(t)
	resplit, sound := 0, 0 // edits that resplit took, and that it could have
	for _, name := range []string{"../../examples/nbody.gs", "../../examples/heat.gs", "../../bench/launch.gs"} {
		src := string(scripts[name])
		p := newParser()
		sameParse(t, p, name, []byte(src))
		for range 150 {
			at := rnd(len(src) + 1)
			if rnd(2) == 0 { // the start of a line, where chunks start
				at = strings.LastIndexByte(src[:at], '\n') + 1
			}
			if cut := min(len(src), at+1+rnd(8)); rnd(3) == 0 && at < len(src) {
				src = src[:at] + src[cut:]
			} else {
				src = src[:at] + inserts[rnd(len(inserts))] + src[at:]
			}
			bounds, ok := p.resplit([]byte(src))
			want, wok := split(name, []byte(src))
			if ok && (!wok || !slices.Equal(bounds, want)) {
				t.Fatalf("%s: resplit %v, split %v %v of\n%s", name, bounds, want, wok, src)
			}
			if ok {
				resplit++
			}
			if wok && p.src != nil {
				sound++ // the edit of a file that scans to one that scans
			}
			sameParse(t, p, name, []byte(src))
		}
	}
	if resplit < sound*9/10 || sound < 100 {
		t.Errorf("resplit took %d of %d edits", resplit, sound)
	}
	for _, start := range []string{"#!x\n", "\uFEFF"} {
		p := newParser()
		src := "let a = 1\nlet b = 2\n"
		sameParse(t, p, "t.gs", []byte(src))
		sameParse(t, p, "t.gs", []byte(strings.Replace(src, "let b", start+"let b", 1)))
	}
}
