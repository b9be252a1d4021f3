package repl

import (
	"sort"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// complete returns the completions of the word that ends the text before
// the cursor, as suffixes to insert, and the length of that word.
func (s *session) complete(before string, _ int) ([]string, int) {
	word := trailingIdent(before)
	head := before[:len(before)-len(word)]
	var names []string
	switch {
	case strings.HasPrefix(strings.TrimLeft(head, " \t"), ":") && !strings.ContainsAny(strings.TrimLeft(head, " \t"), " \t"):
		names, word = metaNames(), strings.TrimLeft(before, " \t")
	case strings.HasSuffix(head, "."):
		names = s.attrNames(trailingIdent(head[:len(head)-1]))
	default:
		names = s.topNames()
	}
	return suffixes(names, word), len([]rune(word))
}

// topNames are the names a statement can start with or refer to.
func (s *session) topNames() []string {
	names := syntax.Keywords()
	names = append(names, s.in.PredeclaredNames()...)
	for _, g := range s.in.Globals() {
		names = append(names, g.Name)
	}
	return names
}

// attrNames are the attributes of the value named name: array attributes
// for an array, settings for config, field names for a record.
func (s *session) attrNames(name string) []string {
	if name == "config" {
		return interp.ConfigNames()
	}
	v := s.lookup(name)
	switch v := v.(type) {
	case *interp.Array:
		return interp.ArrayAttrNames()
	case *interp.Record:
		return v.Names
	}
	return nil
}

// lookup finds a global (or the last value, `_`) by name.
func (s *session) lookup(name string) interp.Value {
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
