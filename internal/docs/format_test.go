package docs_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/internal/diff"
	"github.com/gscript-lang/gscript/lang/format"
	"github.com/gscript-lang/gscript/lang/syntax"
)

var rewrite = flag.Bool("fmt", false, "TestSnippetsFormatted rewrites the docs' unformatted blocks as gscript fmt lays them out")

// TestSnippetsFormatted: every ```gscript and ```gscript-norun block of
// the docs is laid out as gscript fmt lays out a script, or the test
// names the block and shows the diff; -fmt rewrites such blocks in place.
// A ```gscript-nocheck block (a syntax summary with placeholders) is not
// checked, nor a block that does not parse: one that shows a syntax
// error, which TestSnippets compares with its ```error block.
func TestSnippetsFormatted(t *testing.T) {
	checked := 0
	for _, path := range docFiles(t) {
		name := docName(path)
		var fixes []fix
		for _, b := range fences(t, path) {
			if b.lang != fenceRun && b.lang != fenceNoRun {
				continue
			}
			if _, err := syntax.Parse(name, []byte(b.text)); err != nil {
				continue
			}
			checked++
			out, err := format.Source(name, []byte(b.text))
			switch {
			case err != nil:
				t.Errorf("%s:%d: gscript fmt fails on the block: %v", name, b.line, err)
			case string(out) != b.text && *rewrite:
				fixes = append(fixes, fix{b, string(out)})
			case string(out) != b.text:
				t.Errorf("%s:%d: the block is not formatted (go test ./internal/docs -run TestSnippetsFormatted -fmt rewrites it):\n%s",
					name, b.line, diff.Diff("block", []byte(b.text), "formatted", out))
			}
		}
		if len(fixes) > 0 {
			rewriteBlocks(t, path, fixes)
		}
	}
	if checked < 20 {
		t.Fatalf("only %d blocks checked; the extractor has likely broken", checked)
	}
}

// fix is a block and its formatted text.
type fix struct {
	b    block
	text string
}

// rewriteBlocks replaces the bodies of the blocks of the Markdown file at
// path with their formatted text.
func rewriteBlocks(t *testing.T, path string, fixes []fix) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	var out []string
	next := 0 // the first line of lines not yet copied, from 0
	for _, f := range fixes {
		body := f.b.line // the body's first line, from 0: the line after the fence
		out = append(append(out, lines[next:body]...), f.text)
		next = body + strings.Count(f.b.text, "\n")
	}
	out = append(out, lines[next:]...)
	if err := os.WriteFile(path, []byte(strings.Join(out, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: rewrote %d blocks", docName(path), len(fixes))
}
