package repl

import (
	"sort"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/lang/words"
)

// complete returns the completions of the word that ends the text before
// the cursor, as suffixes to insert, and the length of that word.
func (s *session) complete(before string, _ int) ([]string, int) {
	c := nameSource{in: s.in, last: s.last, pending: s.pendingText()}
	word, names := c.candidates(before)
	return suffixes(names, word), len([]rune(word))
}

// Complete returns the REPL's completions at byte offset cursor of text,
// an entry of several lines being written in a session over in (a
// notebook's cell: tools/jupyter), whose last value is last: the whole
// names, sorted, and the byte offset where the word they replace starts.
func Complete(in *interp.Interp, last interp.Value, text string, cursor int) (names []string, start int) {
	cursor = min(max(cursor, 0), len(text))
	nl := strings.LastIndexByte(text[:cursor], '\n') + 1
	c := nameSource{in: in, last: last, pending: text[:nl]}
	word, cands := c.candidates(text[nl:cursor])
	for _, suf := range suffixes(cands, word) {
		names = append(names, word+suf)
	}
	return names, cursor - len(word)
}

// nameSource finds the names to offer in a session: its interpreter, its
// last value (`_`) and the lines of the unfinished entry before the
// cursor's.
type nameSource struct {
	in      *interp.Interp
	last    interp.Value
	pending string
}

// candidates is the word that ends the line before the cursor and the
// names that may complete it (unsorted, unfiltered).
func (s nameSource) candidates(before string) (word string, names []string) {
	word = trailingIdent(before)
	head := before[:len(before)-len(word)]
	switch {
	case strings.HasPrefix(strings.TrimLeft(head, " \t"), ":") && !strings.ContainsAny(strings.TrimLeft(head, " \t"), " \t"):
		names, word = metaNames(), strings.TrimLeft(before, " \t")
	case strings.HasSuffix(head, "."):
		names = s.attrNames(trailingIdent(head[:len(head)-1]))
	case inKernelBody(s.pending + head):
		names = s.kernelNames()
	default:
		names = s.topNames()
	}
	return word, names
}

func (s *session) pendingText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pending
}

// kernelNames are the names inside a kernel or func body: its builtins
// and keywords, and the script's device funcs (host names are not
// visible there).
func (s nameSource) kernelNames() []string {
	names := words.Kernel()
	for _, g := range s.in.Globals() {
		if _, ok := g.Value.(*interp.DeviceFunc); ok {
			names = append(names, g.Name)
		}
	}
	return names
}

// inKernelBody reports whether the end of text (the unfinished entry up
// to the cursor) is inside the body of a kernel or func: it follows the
// braces, skipping strings and comments, and a brace opened after the
// keyword kernel or func (or inside such a body) is a kernel brace.
func inKernelBody(text string) bool {
	var open []bool // per open brace: whether it is in a kernel
	decl := false   // kernel or func seen, its body's brace not yet
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '/' && strings.HasPrefix(text[i:], "//"):
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i // a comment up to the cursor
			}
			i += j
		case c == '"':
			i = words.StringEnd(text, i)
		case c == '{':
			open = append(open, decl || (len(open) > 0 && open[len(open)-1]))
			decl = false
		case c == '}' && len(open) > 0:
			open = open[:len(open)-1]
		case isIdentByte(c) && (i == 0 || !isIdentByte(text[i-1])):
			word := trailingIdent(text[:i+identLen(text[i:])])
			if word == "kernel" || word == "func" {
				decl = true
			}
			i += len(word) - 1
		}
	}
	return len(open) > 0 && open[len(open)-1]
}

// identLen is the length of the identifier that s starts with.
func identLen(s string) int {
	n := 0
	for n < len(s) && isIdentByte(s[n]) {
		n++
	}
	return n
}

// topNames are the names a statement can start with or refer to.
func (s nameSource) topNames() []string {
	names := syntax.Keywords()
	names = append(names, s.in.PredeclaredNames()...)
	for _, g := range s.in.Globals() {
		names = append(names, g.Name)
	}
	return names
}

// attrNames are the attributes of the value named name: array attributes
// for an array, settings for config, field names for a record or a struct
// value, top-level names for an import, methods for a list, a string or a
// dict (interp.AttrNames).
func (s nameSource) attrNames(name string) []string {
	if name == "config" {
		return interp.ConfigNames()
	}
	v := s.lookup(name)
	switch v := v.(type) {
	case *interp.Array:
		return interp.ArrayAttrNames()
	case *interp.Record:
		return v.Names
	case *interp.Module:
		return v.Names()
	case *interp.Vector:
		if v.T.St != nil { // a struct value
			names := make([]string, len(v.T.St.Fields))
			for i, f := range v.T.St.Fields {
				names[i] = f.Name
			}
			return names
		}
	}
	if v == nil {
		return nil
	}
	return interp.AttrNames(v)
}

// lookup finds a global (or the last value, `_`) by name.
func (s nameSource) lookup(name string) interp.Value {
	if name == "_" {
		return s.last
	}
	for _, g := range s.in.Globals() {
		if g.Name == name {
			return g.Value
		}
	}
	return nil
}

// suffixes keeps the names that start with prefix (sorted, unique) and
// returns what each adds after it.
func suffixes(names []string, prefix string) []string {
	sort.Strings(names)
	var out []string
	for i, n := range names {
		if (i > 0 && n == names[i-1]) || !strings.HasPrefix(n, prefix) || n == prefix && prefix == "" {
			continue
		}
		out = append(out, n[len(prefix):])
	}
	return out
}

// trailingIdent is the identifier (possibly empty) that s ends with.
func trailingIdent(s string) string {
	i := len(s)
	for i > 0 && isIdentByte(s[i-1]) {
		i--
	}
	return s[i:]
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
