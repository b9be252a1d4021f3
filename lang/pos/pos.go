// Package pos holds source positions and positioned errors: the leaf that the
// syntax tree, the kernel IR and the runtime share (the go/token of gscript).
// Errors print in the Go toolchain format, file:line:col: message.
package pos

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Pos is a source position. Line and Col are 1-based; Col counts bytes.
// The zero Pos means "no position".
type Pos struct {
	File   string
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether p names a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col (or line:col without a file name).
func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File == "":
		return "-"
	case !p.IsValid():
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Before orders positions by file, then offset in the file.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Error is one syntax, resolve or type error at a position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList collects the errors of one compile, like go/scanner.ErrorList.
// The zero value is an empty list ready to use.
type ErrorList []*Error

// Add appends an error at pos. A message longer than a few hundred bytes
// (one that quotes a huge token) is shortened in the middle.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: clipMsg(fmt.Sprintf(format, args...))})
}

// Sort orders the list by position and drops exact duplicates.
func (l *ErrorList) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool { return s[i].Pos.Before(s[j].Pos) })
	out := s[:0]
	for i, e := range s {
		if i > 0 && *e == *s[i-1] {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Error prints every error, one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// MaxErrors is how many errors Truncate keeps: as in the Go toolchain, ten
// are enough to act on, and hostile input can produce millions.
const MaxErrors = 10

// Truncate keeps the first n errors (in list order, so Sort first) and
// replaces the rest by one "too many errors: N more" error at the first
// dropped one's position.
func (l *ErrorList) Truncate(n int) {
	s := *l
	if len(s) <= n {
		return
	}
	more := &Error{Pos: s[n].Pos, Msg: fmt.Sprintf("too many errors: %d more", len(s)-n)}
	*l = append(s[:n:n], more)
}

// MaxEcho is how many bytes of a token or literal a message quotes.
const MaxEcho = 40

// Clip shortens s to at most MaxEcho bytes, cut at a character boundary,
// with "..." appended, so that a message never echoes a megabyte literal.
func Clip(s string) string {
	if len(s) <= MaxEcho {
		return s
	}
	cut := MaxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// maxMsg bounds a whole message. Producers clip what they echo (Clip);
// this is the safety net for anything they missed: the middle of a longer
// message is elided, keeping its start and end, where the words are.
const maxMsg = 300

func clipMsg(m string) string {
	if len(m) <= maxMsg {
		return m
	}
	head, tail := maxMsg*2/3, maxMsg/3
	for head > 0 && !utf8.RuneStart(m[head]) {
		head--
	}
	start := len(m) - tail
	for start < len(m) && !utf8.RuneStart(m[start]) {
		start++
	}
	return m[:head] + "..." + m[start:]
}
