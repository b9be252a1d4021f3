package format

import (
	"bytes"
	"strings"

	"github.com/gscript-lang/gscript/lang/syntax"
)

// indentWidth is the one indentation step: four spaces, as every script
// in the repository is written.
const indentWidth = 4

// frameKind says what an open bracket opened, which decides spacing, the
// indentation of its lines and whether it takes a trailing comma.
type frameKind uint8

const (
	fBlock  frameKind = iota // a block's {: one statement per line
	fStruct                  // a struct declaration's {: fields, separated by commas
	fCall                    // the ( of a call, a parameter list or launch arguments
	fList                    // the [ of a list literal
	fDict                    // the { of a dict literal
	fParen                   // the ( of a parenthesized expression
	fShape                   // the ( of block(...) or grid(...)
	fIndex                   // the [ of an index, a launch's or array's extents, a type
)

// commas reports whether the grammar allows a trailing comma in the
// bracket, so that a multi-line one gets it.
func (k frameKind) commas() bool { return k == fCall || k == fList || k == fDict }

// braced reports whether the bracket holds statements or fields, indented
// by nesting depth rather than as a continuation.
func (k frameKind) braced() bool { return k == fBlock || k == fStruct }

type frame struct {
	kind    frameKind
	indent  int  // the indentation of the line the bracket was opened on
	multi   bool // a struct whose } is on a later line than its {
	hasCode bool // a token other than a comment was printed inside
	hasAny  bool // anything, a comment included, was printed inside
}

// printer lays out a token stream line by line. Line breaks come from the
// source (kept, blank-line runs collapsed) and from the statement
// structure (terminators, braces); spacing comes from the tokens alone.
type printer struct {
	toks      []syntax.Token
	lines     [][]byte // the output; the last one is being written
	stack     []frame
	depth     int          // open blocks and structs
	prev      syntax.Token // the last code token (or terminator) printed
	prevUnary bool         // prev is a prefix operator
	lastLine  int          // source line of the last token or comment printed
	codeLine  int          // output line holding the end of the last code token
	codeCol   int          // and the column just after it, where a trailing comma goes
	stmtStart bool         // at block level, the next token starts a statement
	printed   bool         // anything was printed
	// asWritten: the line being written starts with a token that started
	// its source line, so a trailing comment can keep its source column.
	asWritten bool
	// srcOut is where the trailing comment of the last source line
	// printed goes: the output line of the last statement that started on
	// it at its outermost depth, srcDepth (or of its first token, where
	// none did).
	srcOut, srcDepth int
	// outLine is the output line (0-based) of each token printed, by index.
	outLine []int
}

func newPrinter(toks []syntax.Token) *printer {
	p := &printer{toks: toks, lines: [][]byte{nil}, stmtStart: true, outLine: make([]int, len(toks))}
	for i := range p.outLine {
		p.outLine[i] = -1
	}
	return p
}

func (p *printer) run() {
	for i, t := range p.toks {
		switch t.Kind {
		case syntax.EOF:
		case syntax.Comment:
			p.comment(i, t)
		case syntax.Term:
			p.term(t)
		default:
			p.code(i, t)
		}
	}
}

func (p *printer) top() *frame {
	if len(p.stack) == 0 {
		return nil
	}
	return &p.stack[len(p.stack)-1]
}

// isBlock reports whether f is nil (the top level) or a block.
func (f *frame) isBlock() bool { return f == nil || f.kind == fBlock }

func (p *printer) cur() []byte { return p.lines[len(p.lines)-1] }

func (p *printer) write(s string) {
	p.lines[len(p.lines)-1] = append(p.cur(), s...)
	p.printed = true
	if f := p.top(); f != nil {
		f.hasAny = true
	}
}

// newLine ends the current line, after one blank line if blank.
func (p *printer) newLine(blank bool, indent int) {
	if !p.printed {
		return // nothing above: no line to end, no indentation at the top level
	}
	if blank {
		p.lines = append(p.lines, nil)
	}
	p.lines = append(p.lines, bytes.Repeat([]byte{' '}, indent))
}

// indent is the indentation of a new line starting with a token that
// closes the innermost bracket or not: statements and fields by depth, a
// line continued inside brackets (or a statement continued after an
// operator) one step deeper than the line that opened them.
func (p *printer) indent(closing bool) int {
	f := p.top()
	switch {
	case f == nil || f.kind.braced():
		d := p.depth
		if closing {
			d--
		} else if !p.stmtStart && (f == nil || f.kind == fBlock) {
			d++ // a statement continued after an operator
		}
		return d * indentWidth
	case closing:
		return f.indent
	}
	return f.indent + indentWidth
}

// blankBefore reports whether a blank line goes before something that
// starts on source line line: one did in the source, and it neither
// follows an opening bracket nor precedes a closing one.
func (p *printer) blankBefore(line int, closing bool) bool {
	if line <= p.lastLine+1 || closing {
		return false
	}
	if f := p.top(); f != nil {
		return f.hasAny
	}
	return true
}

func (p *printer) comment(i int, t syntax.Token) {
	switch {
	case t.Pos.Line == p.lastLine && p.srcOut < len(p.lines)-1:
		p.moved(t)
	case t.Pos.Line == p.lastLine && len(bytes.TrimSpace(p.cur())) > 0:
		p.trailing(t)
	default:
		p.newLine(p.blankBefore(t.Pos.Line, false), p.indent(false))
		p.write(t.Text)
	}
	p.outLine[i] = p.srcOut
	if t.Pos.Line != p.lastLine {
		p.outLine[i] = len(p.lines) - 1
	}
	p.lastLine = t.Pos.Line
}

// trailing writes a comment at the end of a line of code. It keeps its
// source column when the code leaves room (the scripts align trailing
// comments by hand) and the line starts as its source line did, else one
// space separates it from the code.
func (p *printer) trailing(t syntax.Token) {
	pad := 1
	if col := t.Pos.Col - 1; p.asWritten && col > len(p.cur()) {
		pad = col - len(p.cur())
	}
	p.write(string(bytes.Repeat([]byte{' '}, pad)) + t.Text)
}

// moved writes the trailing comment of a source line that the layout
// split (a one-line block opened, a ";" broken) at the end of the line of
// the last statement that started on it, after one space: `fn f() {
// return x } // c` becomes `fn f() { // c`, the body and "}", and `a = 1;
// print(a) //> 1` puts the comment after print(a). The column is not
// kept: the line lost the code the comment was aligned after.
func (p *printer) moved(t syntax.Token) {
	p.lines[p.srcOut] = append(p.lines[p.srcOut], ' ')
	p.lines[p.srcOut] = append(p.lines[p.srcOut], t.Text...)
}

// term handles a statement terminator: the next statement starts a line.
// Inside a struct a terminator ends a field, which then gets a comma.
func (p *printer) term(t syntax.Token) {
	if f := p.top(); f != nil && f.kind == fStruct {
		if p.prev.Text != "," && (t.Text != "" || f.multi) {
			p.insertComma()
		}
		return
	}
	p.stmtStart = true
	p.prev, p.prevUnary = t, false
}

// insertComma puts a comma right after the last code token, before any
// comment on its line, which keeps its column where a space can go.
func (p *printer) insertComma() {
	line := p.lines[p.codeLine]
	rest := line[p.codeCol:]
	if bytes.HasPrefix(rest, []byte("  ")) {
		rest = rest[1:]
	}
	p.lines[p.codeLine] = append(append(append([]byte(nil), line[:p.codeCol]...), ','), rest...)
	p.codeCol++
	p.prev = syntax.Token{Kind: syntax.Punct, Text: ",", Pos: p.prev.Pos}
}

func (p *printer) code(i int, t syntax.Token) {
	if t.Kind == syntax.Punct && t.Text == "," && p.droppedComma(i) {
		return
	}
	closing := isCloser(t)
	if p.breaksBefore(t, closing) {
		if f := p.top(); closing && f != nil && f.kind.commas() && f.hasCode && p.prev.Text != "," {
			p.insertComma()
		}
		p.newLine(p.blankBefore(t.Pos.Line, closing), p.indent(closing))
	} else if p.printed && p.spaceBefore(i, t) {
		p.write(" ")
	}
	if len(bytes.TrimSpace(p.cur())) == 0 {
		p.asWritten = p.startsLine(i)
	}
	p.noteStatement(t)
	unary := isUnary(t) && (t.Text == "!" || t.Text == "~" || !endsOperand(p.prev))
	if closing {
		p.close()
		p.srcDepth = min(p.srcDepth, p.depth) // } else { c }: c is no outer statement
	}
	p.write(t.Text)
	if f := p.top(); f != nil {
		f.hasCode = true // the frame around t: an opener's own frame is pushed next
	}
	p.codeLine, p.codeCol = len(p.lines)-1, len(p.cur())
	p.outLine[i] = p.codeLine
	p.stmtStart = false
	if isOpener(t) {
		p.open(i, t)
	}
	p.prev, p.prevUnary, p.lastLine = t, unary, t.Pos.Line
}

// noteStatement moves srcOut to the current line when t starts a source
// line, or a statement at the depth of the line's outermost one.
func (p *printer) noteStatement(t syntax.Token) {
	newLine := t.Pos.Line != p.lastLine || !p.printed
	if newLine || p.stmtStart && !isCloser(t) && p.depth <= p.srcDepth && p.top().isBlock() {
		p.srcOut, p.srcDepth = len(p.lines)-1, p.depth
	}
}

// startsLine reports whether token i is the first on its source line.
func (p *printer) startsLine(i int) bool {
	for j := i - 1; j >= 0; j-- {
		if p.toks[j].Kind != syntax.Term {
			return p.toks[j].Pos.Line < p.toks[i].Pos.Line
		}
	}
	return true
}

// droppedComma reports whether the comma at i is a trailing one before a
// closing bracket on its line, which a one-line list does without.
func (p *printer) droppedComma(i int) bool {
	j := i + 1
	for p.toks[j].Kind == syntax.Term {
		j++
	}
	next := p.toks[j]
	if f := p.top(); f != nil && f.kind == fStruct && f.multi {
		return false // its } goes on its own line, after a comma
	}
	return isCloser(next) && next.Pos.Line == p.toks[i].Pos.Line
}

// breaksBefore reports whether t starts a new line.
func (p *printer) breaksBefore(t syntax.Token, closing bool) bool {
	f := p.top()
	switch {
	case !p.printed:
		return false
	case closing && f != nil && !f.hasAny:
		return false // empty brackets close on their line: {}, f(), []
	case f != nil && f.kind == fBlock && closing:
		return true
	case f != nil && f.kind == fStruct && (closing || !f.hasAny):
		return f.multi
	case f == nil || f.kind == fBlock:
		return p.stmtStart || t.Pos.Line > p.lastLine
	}
	return t.Pos.Line > p.lastLine
}

// open pushes the bracket t (token i) opens, classified by what precedes it.
func (p *printer) open(i int, t syntax.Token) {
	f := frame{kind: p.openKind(i, t), indent: leadingSpaces(p.cur())}
	switch f.kind {
	case fBlock:
		p.depth++
		p.stmtStart = true
	case fStruct:
		p.depth++
		f.multi = p.toks[p.matching(i)].Pos.Line > t.Pos.Line
	}
	p.stack = append(p.stack, f)
}

// close pops the innermost bracket. Source lays out only scripts that
// parse, whose brackets balance; the check keeps a stray one harmless.
func (p *printer) close() {
	f := p.top()
	if f == nil {
		return
	}
	if f.kind.braced() {
		p.depth--
	}
	p.stack = p.stack[:len(p.stack)-1]
}

func (p *printer) openKind(i int, t syntax.Token) frameKind {
	prev := p.prev
	switch {
	case t.Kind == syntax.DictOpen:
		return fDict
	case t.Text == "{" && i >= 2 && p.toks[i-2].Kind == syntax.Keyword && p.toks[i-2].Text == "struct":
		return fStruct
	case t.Text == "{":
		return fBlock
	case t.Text == "[" && endsOperand(prev):
		return fIndex
	case t.Text == "[":
		return fList
	case prev.Kind == syntax.Keyword && (prev.Text == "block" || prev.Text == "grid"):
		return fShape
	case endsOperand(prev):
		return fCall
	}
	return fParen
}

// matching is the index of the token that closes the bracket at i.
func (p *printer) matching(i int) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		switch t := p.toks[j]; {
		case isOpener(t):
			depth++
		case isCloser(t):
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return len(p.toks) - 1
}

// spaceBefore reports whether one space separates t (token i) from the
// code token before it on the line.
func (p *printer) spaceBefore(i int, t syntax.Token) bool {
	prev, f := p.prev, p.top()
	switch {
	case isOpener(prev):
		return f.kind == fStruct && !isCloser(t) // { a: f32 }, but {} and no space inside other brackets
	case isCloser(t):
		return f != nil && f.kind == fStruct
	case t.Text == "." && (prev.Kind == syntax.Int || prev.Kind == syntax.Float):
		return true // 0 .x: 0.x would be a float literal (and 1.5.x reads as one)
	case t.Text == "," || t.Text == "." || prev.Text == ".":
		return false
	case t.Text == ":":
		return prev.Text == "," // a[i, :]
	case prev.Text == ":":
		return f == nil || f.kind != fIndex // slices are tight: a[1:n], a[::-1]
	case p.prevUnary:
		return isUnary(t) && t.Text == p.prev.Text // - -a, not --a; -(a), !ok
	case (t.Text == "=" || prev.Text == "=") && f != nil && f.kind == fCall:
		return false // keyword arguments: axis=0, axis=[0, 1]
	case t.Text == "(" || t.Text == "[":
		k := p.openKind(i, t)
		return k == fParen || k == fList
	}
	return true
}

// lineMap maps each source line a printed token lies on (a token with
// line breaks, such as a long string, lies on several) to the output
// line that holds it, from 1, or to -1 when it went to several.
func (p *printer) lineMap() map[int]int {
	m := map[int]int{}
	for i, t := range p.toks {
		if p.outLine[i] < 0 {
			continue
		}
		for k := range strings.Count(t.Text, "\n") + 1 {
			line, out := t.Pos.Line+k, p.outLine[i]+1+k
			if o, ok := m[line]; ok && o != out {
				out = -1
			}
			m[line] = out
		}
	}
	return m
}

func (p *printer) bytes() []byte {
	var out []byte
	for _, l := range p.lines {
		out = append(append(out, bytes.TrimRight(l, " \t")...), '\n')
	}
	out = bytes.TrimRight(out, "\n")
	if len(out) == 0 {
		return nil
	}
	return append(out, '\n')
}

func leadingSpaces(line []byte) int { return len(line) - len(bytes.TrimLeft(line, " ")) }

func isOpener(t syntax.Token) bool {
	return t.Kind == syntax.DictOpen || t.Kind == syntax.Punct && (t.Text == "(" || t.Text == "[" || t.Text == "{")
}

func isCloser(t syntax.Token) bool {
	return t.Kind == syntax.Punct && (t.Text == ")" || t.Text == "]" || t.Text == "}")
}

func isUnary(t syntax.Token) bool {
	return t.Kind == syntax.Punct && (t.Text == "-" || t.Text == "+" || t.Text == "!" || t.Text == "~")
}

// endsOperand reports whether t can end an operand, so that a "-" after
// it is binary, a "(" calls and a "[" indexes.
func endsOperand(t syntax.Token) bool {
	switch t.Kind {
	case syntax.Ident, syntax.Int, syntax.Float, syntax.String:
		return true
	case syntax.Keyword:
		return t.Text == "true" || t.Text == "false" || t.Text == "nil"
	case syntax.Punct:
		return t.Text == ")" || t.Text == "]" || t.Text == "}"
	}
	return false
}
