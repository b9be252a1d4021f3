package lsp

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

// TestPositions: LSP positions count UTF-16 units, sources bytes; past
// a line's end is its end, past the last line the document's end.
func TestPositions(t *testing.T) {
	tx := newText("ab\n\"é𝔸\" x\r\nlast")
	for _, tc := range []struct {
		p   Position
		off int
	}{
		{Position{0, 0}, 0}, {Position{0, 2}, 2}, {Position{0, 99}, 2},
		{Position{1, 1}, 4}, {Position{1, 2}, 6}, {Position{1, 4}, 10}, {Position{1, 6}, 12},
		{Position{1, 99}, 13}, // before the \r
		{Position{2, 4}, 19}, {Position{9, 0}, 19}, {Position{-1, 5}, 0},
	} {
		if got := tx.offset(tc.p); got != tc.off {
			t.Errorf("offset(%v) = %d, want %d", tc.p, got, tc.off)
		}
	}
	if got := tx.pos(ast.Pos{Line: 2, Col: 11}); got != (Position{1, 7}) {
		t.Errorf("pos of 2:11 = %v, want 1:7 (UTF-16)", got)
	}
	if got := tx.tokenRange(ast.Pos{Line: 2, Col: 1}); got != (Range{Position{1, 0}, Position{1, 5}}) {
		t.Errorf("the string's range: %v", got)
	}
	edited := tx.edit(TextDocumentContentChangeEvent{Range: &Range{Position{1, 4}, Position{1, 1}}, Text: "Z"})
	if edited.src != "ab\n\"Z\" x\r\nlast" {
		t.Errorf("a reversed range edit: %q", edited.src)
	}
}

func TestURIs(t *testing.T) {
	path := "/tmp/a b/c#1.gs"
	uri := pathURI(path)
	if uri != "file:///tmp/a%20b/c%231.gs" || uriPath(uri) != path {
		t.Errorf("pathURI %q, back %q", uri, uriPath(uri))
	}
	if got := uriPath("untitled:Untitled-1"); got != "untitled:Untitled-1" {
		t.Errorf("a URI of no file: %q", got)
	}
}
