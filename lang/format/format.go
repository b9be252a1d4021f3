package format

import (
	"reflect"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// Source formats the script src, named name in positions. A script with
// syntax errors is not formatted: the error is Parse's ast.ErrorList. The
// result always parses to the same tree as src and keeps every comment;
// when it would not, Source returns a positioned error instead (a bug in
// the formatter, which must never cost a script its meaning).
func Source(name string, src []byte) ([]byte, error) {
	out, _, err := source(name, src)
	return out, err
}

// source is Source, which also maps each source line that holds code or
// a comment to the output line (from 1) that holds it, or to -1 where
// the layout split it over several lines.
func source(name string, src []byte) ([]byte, map[int]int, error) {
	before, err := syntax.Parse(name, src)
	if err != nil {
		return nil, nil, err
	}
	toks, err := syntax.Tokens(name, src)
	if err != nil {
		return nil, nil, err
	}
	p := newPrinter(toks)
	p.run()
	out := p.bytes()
	if err := verify(name, before, toks, out); err != nil {
		return nil, nil, err
	}
	return out, p.lineMap(), nil
}

// verify checks that out parses to the tree before and has the comments
// of toks, in order.
func verify(name string, before *ast.File, toks []syntax.Token, out []byte) error {
	after, err := syntax.Parse(name, out)
	if err != nil {
		return internalError(ast.Pos{File: name, Line: 1, Col: 1}, "the formatted script does not parse: %v", err)
	}
	d := &treeDiff{at: ast.Pos{File: name, Line: 1, Col: 1}}
	if !d.equal(reflect.ValueOf(before), reflect.ValueOf(after)) {
		return internalError(d.at, "formatting would change the syntax tree here")
	}
	outToks, _ := syntax.Tokens(name, out)
	if !slices.Equal(comments(toks), comments(outToks)) {
		return internalError(ast.Pos{File: name, Line: 1, Col: 1}, "formatting would lose or change a comment")
	}
	return nil
}

func internalError(p ast.Pos, format string, args ...any) error {
	var errs ast.ErrorList
	errs.Add(p, "internal error in gscript fmt, script left unformatted: "+format, args...)
	return errs.Err()
}

// comments lists the comments of toks, less trailing white space, which
// the formatter removes from every line.
func comments(toks []syntax.Token) []string {
	var out []string
	for _, t := range toks {
		if t.Kind == syntax.Comment {
			out = append(out, strings.TrimRight(t.Text, " \t"))
		}
	}
	return out
}
