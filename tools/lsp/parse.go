package lsp

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// parser parses a document one top-level statement at a time and keeps
// each statement's tree by its text, so that an edit re-parses only the
// statements it touched: participle costs about 40 µs a line, too slow
// to parse a 5000-line file on every keystroke, and the scanner that
// finds the statements' ends costs a tenth of that.
type parser struct {
	name   string // the file name the cached positions carry
	cache  map[string][]*chunk
	src    []byte // the source last split, and where its chunks start
	bounds []int
}

// chunk is the parse of one run of whole lines holding top-level
// statements, its positions shifted to where it now stands.
type chunk struct {
	stmts        []ast.Stmt
	errs         ast.ErrorList
	offset, line int // the offset and line (0-based) its positions are shifted by
}

func newParser() *parser { return &parser{cache: map[string][]*chunk{}} }

// parse is syntax.Parse of src, the same tree and errors, from the cache
// where it can. A source with a byte-order mark, or one the scanner
// stops in (a size or nesting limit), is parsed whole.
func (p *parser) parse(name string, src []byte) (*ast.File, ast.ErrorList) {
	if name != p.name {
		p.name, p.cache, p.src = name, map[string][]*chunk{}, nil
	}
	bounds, ok := p.split(src)
	if !ok {
		f, err := syntax.Parse(name, src)
		return f, asErrors(err)
	}
	f := &ast.File{Name: name}
	var lists []ast.ErrorList
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
		lists = append(lists, c.errs)
		line += bytes.Count(part, []byte{'\n'})
	}
	p.cache = next // statements no longer in the document are forgotten
	return f, mergeErrors(lists)
}

// mergeErrors is the error list of the whole file from its chunks'
// lists, in file order: the first MaxErrors errors and "too many
// errors: N more" at the first one dropped, as Parse truncates. A chunk's
// own list may end in such an entry (it had more errors than the
// limit); its N counts too.
func mergeErrors(lists []ast.ErrorList) ast.ErrorList {
	var out ast.ErrorList
	total := 0
	var dropped *ast.Error // the first error past the limit, or the entry standing for it
	for _, l := range lists {
		for _, e := range l {
			n := 1
			if more, ok := moreErrors(e); ok {
				n = more
			}
			switch {
			case n == 1 && len(out) < ast.MaxErrors && dropped == nil:
				out = append(out, e)
			case dropped == nil:
				dropped = e
			}
			total += n
		}
	}
	if dropped != nil {
		out = append(out, &ast.Error{Pos: dropped.Pos, Msg: fmt.Sprintf("too many errors: %d more", total-len(out))})
	}
	return out
}

// moreErrors reads the count of a "too many errors: N more" entry.
func moreErrors(e *ast.Error) (int, bool) {
	var n int
	if _, err := fmt.Sscanf(e.Msg, "too many errors: %d more", &n); err != nil || !strings.HasPrefix(e.Msg, "too many errors: ") {
		return 0, false
	}
	return n, true
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

// split is the chunks' starts in src: the last split's, with only the
// chunks around the edit since scanned again where that is sound, else
// split's of the whole source.
func (p *parser) split(src []byte) ([]int, bool) {
	bounds, ok := p.resplit(src)
	if !ok {
		bounds, ok = split(p.name, src)
	}
	p.src, p.bounds = nil, nil
	if ok {
		p.src, p.bounds = src, bounds
	}
	return bounds, ok
}

// maxResplit bounds the sources resplit takes: scanning a region alone
// cannot see the scanner's limit on a whole file's tokens, which no
// source this size reaches.
const maxResplit = 1 << 20

// resplit scans src from the start of the chunk the edit since p.src
// begins in to a chunk start after the edit, and keeps the other starts
// (shifted past the edit). A chunk start is a newline that ends a
// statement outside all brackets, where the scanner keeps no state, so
// what follows scans as it did. The region grows to the end of the file
// when its scan does not end on such a newline.
func (p *parser) resplit(src []byte) ([]int, bool) {
	old := p.src
	if old == nil || len(src) > maxResplit || bytes.HasPrefix(src, []byte("\uFEFF")) {
		return nil, false
	}
	if bytes.Equal(old, src) {
		return p.bounds, true
	}
	pre := commonPrefix(old, src)
	suf := commonPrefix(reversed(old[pre:]), reversed(src[pre:]))
	delta := len(src) - len(old)
	i := sort.SearchInts(p.bounds, pre+1) - 1 // the last start at or before the edit
	start := p.bounds[i]
	if start > 0 && fileStart(src[start:]) {
		return nil, false
	}
	for j := sort.SearchInts(p.bounds, len(old)-suf); ; j++ {
		end := len(src)
		if j < len(p.bounds) && p.bounds[j] > start {
			end = p.bounds[j] + delta
		} else if j < len(p.bounds) {
			continue
		}
		inner, ok := splitRegion(p.name, src[start:end], start == 0, end == len(src))
		if !ok && end < len(src) {
			continue
		}
		if !ok {
			return nil, false
		}
		out := slices.Clone(p.bounds[:i])
		if start == 0 || start < len(src) {
			out = append(out, start)
		}
		for _, b := range inner {
			out = append(out, start+b)
		}
		for _, b := range p.bounds[min(j, len(p.bounds)):] {
			out = append(out, b+delta)
		}
		return out, true
	}
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func reversed(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[len(b)-1-i] = c
	}
	return out
}

// split finds where top-level statements start: after each newline that
// ends a statement outside all brackets, as the scanner inserts them.
// It reports false where the scanner found an error or the source is one
// the parser treats specially as a whole.
func split(name string, src []byte) ([]int, bool) {
	if bytes.HasPrefix(src, []byte("\uFEFF")) || len(src) > syntax.MaxSourceBytes {
		return nil, false
	}
	inner, ok := splitRegion(name, src, true, true)
	return append([]int{0}, inner...), ok
}

// splitRegion is the chunk starts inside region (its own start aside),
// scanned alone; first says that region starts the file. A region that does not end the file must end on a
// statement's newline outside all brackets, else ok is false; one that
// does ends where brackets stop matching, the parser's recovery
// deciding the statements after.
func splitRegion(name string, region []byte, first, atEOF bool) (bounds []int, ok bool) {
	toks, err := syntax.Tokens(name, region)
	if err != nil && stopsScanner(err) {
		return nil, false
	}
	if !first && joinsPrevious(toks, 0) {
		return nil, false // the edit made the region's start no chunk start
	}
	cut := cutStrings(err)
	var open []string // the closing brackets expected, innermost last
	endsClean := false
	for i, t := range toks {
		endsClean = t.Kind == syntax.EOF && endsClean
		switch {
		case t.Kind == syntax.DictOpen || t.Kind == syntax.Punct && (t.Text == "(" || t.Text == "[" || t.Text == "{"):
			open = append(open, closing[t.Text])
		case t.Kind == syntax.Punct && (t.Text == ")" || t.Text == "]" || t.Text == "}"):
			if len(open) == 0 || open[len(open)-1] != t.Text {
				return bounds, atEOF
			}
			open = open[:len(open)-1]
		case t.Kind == syntax.Term && t.Text == "\n" && len(open) == 0:
			off := t.Pos.Offset
			if cut[t.Pos.Line] {
				continue // no chunk may end right after a cut-off string
			}
			if off < len(region) && region[off] == '\n' && off+1 < len(region) && !joinsPrevious(toks, i+1) && !fileStart(region[off+1:]) {
				bounds = append(bounds, off+1)
			}
			endsClean = off == len(region)-1
		}
	}
	return bounds, atEOF || endsClean
}

// stopsScanner reports whether the scanner stopped at one of its limits
// (size, tokens, list elements, nesting): the rest of the file then has
// no tokens, where a chunk scanned alone would have them. Other scanner
// errors (a bad character, a string cut off by its line's end) leave the
// statements' ends where they were, and each chunk's parse reports them.
func stopsScanner(err error) bool {
	for _, e := range asErrors(err) {
		for _, limit := range []string{"(MaxSourceBytes)", "(MaxTokens)", "(MaxListElems)", "too deeply"} {
			if strings.Contains(e.Msg, limit) {
				return true
			}
		}
	}
	return false
}

// fileStart reports whether b starts with what the scanner reads as
// such only at the start of a file (a #! line, a byte-order mark), so no
// chunk may start with it.
func fileStart(b []byte) bool {
	return bytes.HasPrefix(b, []byte("#!")) || bytes.HasPrefix(b, []byte("\uFEFF"))
}

// cutStrings are the lines where the scanner found a string cut off by
// the line's end. Its message depends on what follows ("not terminated",
// or "end of input" when nothing does), so a chunk must not end there.
func cutStrings(err error) map[int]bool {
	lines := map[int]bool{}
	for _, e := range asErrors(err) {
		if strings.Contains(e.Msg, "string literal") && (strings.Contains(e.Msg, "not terminated") || strings.Contains(e.Msg, "end of input")) {
			lines[e.Pos.Line] = true
		}
	}
	return lines
}

// joinsPrevious reports whether the first token from toks[i] on that is
// no comment is else or catch: the parser words its error by the
// statement before (put else on the line of the closing }), and reads a
// catch after a try's newline as that try's, so no chunk starts there.
func joinsPrevious(toks []syntax.Token, i int) bool {
	for ; i < len(toks) && toks[i].Kind == syntax.Comment; i++ {
	}
	return i < len(toks) && toks[i].Kind == syntax.Keyword && (toks[i].Text == "else" || toks[i].Text == "catch")
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
