package lsp

import (
	"bytes"
	"reflect"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// parser parses a document one top-level statement at a time and keeps
// each statement's tree by its text, so that an edit re-parses only the
// statements it touched: participle costs about 40 µs a line, too slow
// to parse a 5000-line file on every keystroke, and the scanner that
// finds the statements' ends costs a tenth of that.
type parser struct {
	name  string // the file name the cached positions carry
	cache map[string][]*chunk
}

// chunk is the parse of one run of whole lines holding top-level
// statements; base is where its positions now count from.
type chunk struct {
	stmts        []ast.Stmt
	errs         ast.ErrorList
	offset, line int // the offset and line (0-based) its positions are shifted by
}

func newParser() *parser { return &parser{cache: map[string][]*chunk{}} }

// parse is syntax.Parse of src, the same tree and errors, from the cache
// where it can. A source the scanner finds an error in (an unterminated
// string, a bad character), one with a byte-order mark or one over the
// size limit is parsed whole: its statements' ends are not to be trusted.
func (p *parser) parse(name string, src []byte) (*ast.File, ast.ErrorList) {
	if name != p.name {
		p.name, p.cache = name, map[string][]*chunk{}
	}
	bounds, ok := split(name, src)
	if !ok {
		p.cache = map[string][]*chunk{}
		f, err := syntax.Parse(name, src)
		return f, asErrors(err)
	}
	f := &ast.File{Name: name}
	var errs ast.ErrorList
	next := map[string][]*chunk{}
	line := 0
	for i, start := range bounds {
		end := len(src)
		if i+1 < len(bounds) {
			end = bounds[i+1]
		}
		part := src[start:end]
		c := p.take(name, string(part))
		c.rebase(start, line)
		next[string(part)] = append(next[string(part)], c)
		f.Stmts = append(f.Stmts, c.stmts...)
		errs = append(errs, c.errs...)
		line += bytes.Count(part, []byte{'\n'})
	}
	p.cache = next // statements no longer in the document are forgotten
	errs.Sort()
	errs.Truncate(ast.MaxErrors)
	return f, errs
}

// take is a cached chunk of this text, taken out of the cache so that a
// text twice in the document gets two chunks, or a new parse of it
// (positions from the start of the file).
func (p *parser) take(name, part string) *chunk {
	if cs := p.cache[part]; len(cs) > 0 {
		p.cache[part] = cs[1:]
		return cs[0]
	}
	f, err := syntax.Parse(name, []byte(part))
	return &chunk{stmts: f.Stmts, errs: asErrors(err)}
}

// rebase moves c's positions to a chunk starting at offset and line.
func (c *chunk) rebase(offset, line int) {
	dOff, dLine := offset-c.offset, line-c.line
	if dOff == 0 && dLine == 0 {
		return
	}
	for _, s := range c.stmts {
		shift(reflect.ValueOf(s), dOff, dLine)
	}
	for i, e := range c.errs {
		moved := *e // errors are shared with no one, but stay values
		moved.Pos = shifted(e.Pos, dOff, dLine)
		c.errs[i] = &moved
	}
	c.offset, c.line = offset, line
}

var posType = reflect.TypeFor[ast.Pos]()

// shift adds dOff and dLine to every valid position in the tree v.
func shift(v reflect.Value, dOff, dLine int) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			shift(v.Elem(), dOff, dLine)
		}
	case reflect.Struct:
		if v.Type() == posType {
			if v.CanSet() {
				v.Set(reflect.ValueOf(shifted(v.Interface().(ast.Pos), dOff, dLine)))
			}
			return
		}
		for i := range v.NumField() {
			shift(v.Field(i), dOff, dLine)
		}
	case reflect.Slice:
		for i := range v.Len() {
			shift(v.Index(i), dOff, dLine)
		}
	}
}

func shifted(p ast.Pos, dOff, dLine int) ast.Pos {
	if p.IsValid() {
		p.Offset += dOff
		p.Line += dLine
	}
	return p
}

// split finds where top-level statements start: after each newline that
// ends a statement outside all brackets, as the scanner inserts them.
// It reports false where the scanner found an error or the source is one
// the parser treats specially as a whole.
func split(name string, src []byte) ([]int, bool) {
	if bytes.HasPrefix(src, []byte("\uFEFF")) || len(src) > syntax.MaxSourceBytes {
		return nil, false
	}
	toks, err := syntax.Tokens(name, src)
	if err != nil {
		return nil, false
	}
	bounds := []int{0}
	var open []string // the closing brackets expected, innermost last
	for _, t := range toks {
		switch {
		case t.Kind == syntax.DictOpen || t.Kind == syntax.Punct && (t.Text == "(" || t.Text == "[" || t.Text == "{"):
			open = append(open, closing[t.Text])
		case t.Kind == syntax.Punct && (t.Text == ")" || t.Text == "]" || t.Text == "}"):
			if len(open) == 0 || open[len(open)-1] != t.Text {
				// Where brackets do not match, the parser's recovery decides
				// where statements end: the rest is one chunk.
				return bounds, true
			}
			open = open[:len(open)-1]
		case t.Kind == syntax.Term && t.Text == "\n" && len(open) == 0:
			if off := t.Pos.Offset; off < len(src) && src[off] == '\n' && off+1 < len(src) {
				bounds = append(bounds, off+1)
			}
		}
	}
	return bounds, true
}

var closing = map[string]string{"(": ")", "[": "]", "{": "}"}

// asErrors is Parse's or Check's error as a list.
func asErrors(err error) ast.ErrorList {
	if err == nil {
		return nil
	}
	if l, ok := err.(ast.ErrorList); ok {
		return l
	}
	return ast.ErrorList{{Msg: err.Error()}}
}
