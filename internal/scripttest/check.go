package scripttest

import (
	"errors"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/pos"
)

// Positioned flattens err into positioned errors: the entries of a
// pos.ErrorList, or one *pos.Error. Any other error is one error without
// a position (line 0), which no marker can expect. Callers whose errors
// carry a position in another type (interp's *EvalError) convert them to
// *pos.Error first: this package must not import the interpreter.
func Positioned(err error) []*pos.Error {
	if err == nil {
		return nil
	}
	var list pos.ErrorList
	if errors.As(err, &list) {
		return list
	}
	var e *pos.Error
	if errors.As(err, &e) {
		return []*pos.Error{e}
	}
	return []*pos.Error{{Msg: err.Error()}}
}

// CheckErrors reports every error of err (see Positioned) that no marker
// of its line expects, and every marker that no error matched.
func (c *Chunk) CheckErrors(r Reporter, err error) {
	r.Helper()
	matched := map[*regexp.Regexp]bool{}
	errs := Positioned(err)
	for _, e := range errs {
		ok := false
		for _, re := range c.WantErrs[e.Pos.Line] {
			if re.MatchString(e.Msg) {
				matched[re], ok = true, true
			}
		}
		if !ok {
			r.Errorf("%s: unexpected error: %s", c.errLine(e.Pos), e.Msg)
		}
	}
	for _, line := range slices.Sorted(maps.Keys(c.WantErrs)) {
		for _, re := range c.WantErrs[line] {
			if !matched[re] {
				r.Errorf("%s: expected error %q did not occur (got %s)", c.fileLine(line), re, c.summary(errs))
			}
		}
	}
}

// summary lists errs at their file lines, for a report.
func (c *Chunk) summary(errs []*pos.Error) string {
	if len(errs) == 0 {
		return "no error"
	}
	var b strings.Builder
	for i, e := range errs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c.errLine(e.Pos) + ": " + e.Msg)
	}
	return b.String()
}

// errLine names where an error was: its file line, or the chunk for an
// error without a position.
func (c *Chunk) errLine(p pos.Pos) string {
	if !p.IsValid() {
		return c.Name() + " (no position)"
	}
	return c.fileLine(p.Line)
}

// CheckOutput compares out, the chunk's whole output, with its //> lines
// and reports the first line that differs and any missing or extra lines.
func (c *Chunk) CheckOutput(r Reporter, out string) {
	r.Helper()
	var got []string
	if out != "" {
		got = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	}
	for i := 0; i < len(got) && i < len(c.Want); i++ {
		if got[i] != c.Want[i] {
			r.Errorf("%s: output line %d differs\n got: %s\nwant: %s", c.fileLine(c.wantLines[i]), i+1, got[i], c.Want[i])
			return
		}
	}
	switch {
	case len(got) > len(c.Want):
		r.Errorf("%s: unexpected output after %d lines:\n%s", c.Name(), len(c.Want), strings.Join(got[len(c.Want):], "\n"))
	case len(got) < len(c.Want):
		n := len(got)
		r.Errorf("%s: output ended after %d lines; want %s", c.fileLine(c.wantLines[n]), n, strings.Join(c.Want[n:], "\n"))
	}
}
