package lsp

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gscript-lang/gscript/lang/ast"
)

// text is a document's contents with the offsets its lines start at, for
// turning LSP positions (line, UTF-16 column) into byte offsets and back.
type text struct {
	src   string
	lines []int // lines[i] is the offset of line i's first byte
}

func newText(src string) *text {
	t := &text{src: src, lines: []int{0}}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// line is line i's text without its newline.
func (t *text) line(i int) string {
	end := len(t.src)
	if i+1 < len(t.lines) {
		end = t.lines[i+1] - 1
	}
	return strings.TrimSuffix(t.src[t.lines[i]:end], "\r")
}

// offset is the byte offset of p. A position past the end of its line
// is the line's end, and one past the last line the document's end, as
// the specification says for a character past the line.
func (t *text) offset(p Position) int {
	switch {
	case p.Line < 0:
		return 0
	case p.Line >= len(t.lines):
		return len(t.src)
	}
	line := t.line(p.Line)
	units := 0
	for i, r := range line {
		if units >= p.Character {
			return t.lines[p.Line] + i
		}
		units += utf16Len(r)
	}
	return t.lines[p.Line] + len(line)
}

// position is the LSP position of byte offset off.
func (t *text) position(off int) Position {
	off = max(0, min(off, len(t.src)))
	i := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	return Position{Line: i, Character: utf16Count(t.src[t.lines[i]:off])}
}

// pos is the LSP position of a source position (1-based line, byte
// column).
func (t *text) pos(p ast.Pos) Position {
	if p.Line < 1 || p.Line > len(t.lines) {
		return t.position(len(t.src))
	}
	return t.position(min(t.lines[p.Line-1]+p.Col-1, t.lineEnd(p.Line-1)))
}

// lineEnd is the offset of line i's end (its newline, or the document's end).
func (t *text) lineEnd(i int) int { return t.lines[i] + len(t.line(i)) }

// span is the range of n bytes from source position p.
func (t *text) span(p ast.Pos, n int) Range {
	start := t.pos(p)
	off := t.offset(start)
	return Range{Start: start, End: t.position(min(off+n, t.lineEnd(start.Line)))}
}

// tokenRange is the range of the token at p, for a diagnostic: a name,
// number or string when one starts there, else one character.
func (t *text) tokenRange(p ast.Pos) Range {
	start := t.pos(p)
	off := t.offset(start)
	rest := t.src[off:t.lineEnd(start.Line)]
	return t.span(p, tokenLen(rest))
}

// tokenLen is the length of the token rest starts with.
func tokenLen(rest string) int {
	if rest == "" {
		return 0
	}
	if rest[0] == '"' {
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return len(rest)
	}
	if n := identLen(rest); n > 0 {
		return n
	}
	_, n := utf8.DecodeRuneInString(rest)
	return n
}

// identLen is the length of the name (or number) s starts with.
func identLen(s string) int {
	n := 0
	for n < len(s) && isIdentByte(s[n]) {
		n++
	}
	return n
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// edit applies one change of didChange: Text replaces Range, or the
// whole document when Range is nil. A range ending before it starts is
// taken in order, so a confused client cannot make the server slice out
// of bounds.
func (t *text) edit(c TextDocumentContentChangeEvent) *text {
	if c.Range == nil {
		return newText(c.Text)
	}
	a, b := t.offset(c.Range.Start), t.offset(c.Range.End)
	if b < a {
		a, b = b, a
	}
	return newText(t.src[:a] + c.Text + t.src[b:])
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// utf16Count is how many UTF-16 code units s takes (an invalid byte, which
// editors show as U+FFFD, takes one).
func utf16Count(s string) int {
	n := 0
	for _, r := range s {
		n += utf16Len(r)
	}
	return n
}
