package syntax

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/pos"
)

// Parse parses src. On failure it returns a non-nil *ast.File as far as it
// got (may be partial or empty) and an ast.ErrorList (sorted) as the error.
// Positions use filename, 1-based line and column (bytes).
func Parse(filename string, src []byte) (file *ast.File, err error) {
	file = &ast.File{Name: filename}
	var errs ast.ErrorList
	defer func() {
		// A safety net only: the fuzz target keeps this path unused.
		if r := recover(); r != nil {
			errs.Add(ast.Pos{File: filename, Line: 1, Col: 1}, "internal error in the parser: %v", r)
		}
		errs.Sort()
		errs.Truncate(pos.MaxErrors)
		err = errs.Err()
	}()
	sc := scan(filename, src)
	errs = append(errs, sc.errs...)
	if sc.tooBig {
		return file, nil // a size limit: parsing would only cost memory
	}
	p := &fileParser{sc: sc, errs: &errs, lexErrs: sc.errs}
	p.conv.errs = &errs
	file.Stmts = p.parseFile()
	return file, nil
}

// IsIncomplete reports whether err (from Parse) only says the input ended
// too early: an open ( [ { or string, or a statement cut off at EOF (e.g.
// "if x {" or "let a =" or "1 +"). The REPL uses it to ask for more lines.
func IsIncomplete(err error) bool {
	var list ast.ErrorList
	var one *ast.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = ast.ErrorList{one}
	}
	if len(list) == 0 {
		return false
	}
	for _, e := range list {
		if !strings.HasPrefix(e.Msg, incompleteMsg) {
			return false
		}
	}
	return true
}

type fileParser struct {
	sc      *scanner
	errs    *ast.ErrorList
	lexErrs ast.ErrorList // sorted by position, as scanned
	conv    converter
}

// parseFile parses one top-level statement at a time. After a syntax error
// it skips to the next terminator outside all brackets, so one mistake
// costs one statement (a whole fn at worst) and the rest is still checked.
func (p *fileParser) parseFile() []ast.Stmt {
	var stmts []ast.Stmt
	pl, err := lexer.Upgrade(&sliceLexer{toks: p.sc.toks})
	if err != nil {
		p.errs.Add(ast.Pos{File: p.sc.file, Line: 1, Col: 1}, "%v", err)
		return nil
	}
	for !pl.Peek().EOF() {
		start, cp := pl.Cursor(), pl.Checkpoint
		top, err := parser.ParseFromLexer(pl, participle.AllowTrailing(true))
		if err == nil && top.Stmt != nil {
			if st := p.conv.stmt(top.Stmt); st != nil {
				stmts = append(stmts, st)
			}
			continue
		}
		idx := p.report(err, start)
		pl.Checkpoint = cp
		if !p.skipTo(pl, p.resyncPoint(idx)) {
			break
		}
	}
	return stmts
}

// resyncPoint is the first top-level terminator at or after token idx, or
// -1 when there is none.
func (p *fileParser) resyncPoint(idx int) int {
	terms := p.sc.topTerms
	i := sort.SearchInts(terms, idx)
	if i == len(terms) {
		return -1
	}
	return terms[i]
}

// skipTo moves pl just past token index t; false means nothing is left.
func (p *fileParser) skipTo(pl *lexer.PeekingLexer, t int) bool {
	if t < 0 {
		return false
	}
	for pl.Cursor() <= t && !pl.Peek().EOF() {
		pl.Next()
	}
	return !pl.Peek().EOF()
}

// report records a participle error in gscript's words and returns the
// index of the offending token.
func (p *fileParser) report(err error, start int) int {
	var perr participle.Error
	if !errors.As(err, &perr) {
		tok := p.sc.toks[start]
		p.errs.Add(astPos(tok.Pos), "%v", err)
		return start
	}
	idx := p.tokenIndex(perr.Position(), start)
	if p.causedByLexError(start, idx) {
		return idx
	}
	// Only the expected-token part of participle's message is used, and
	// only in gscript's words (wanted): the rest is grammar text.
	expect := ""
	if u, ok := err.(*participle.UnexpectedTokenError); ok {
		expect = expectedText(u.Message())
	}
	msg := p.unexpected(idx, expect)
	p.errs.Add(astPos(p.sc.toks[idx].Pos), "%s", msg)
	if p.catchOnNextLine(idx) {
		return idx + 1 // resume after the catch block, which belongs to this try
	}
	return idx
}

// tokenIndex finds the token at pos, searching from start.
func (p *fileParser) tokenIndex(pos lexer.Position, start int) int {
	toks := p.sc.toks
	i := start + sort.Search(len(toks)-start, func(i int) bool { return toks[start+i].Pos.Offset >= pos.Offset })
	if i >= len(toks) {
		return len(toks) - 1
	}
	return i
}

// causedByLexError reports whether a scanner error lies in the statement
// before the parse error; the parse error is then most likely its echo
// (a dropped character, a cut-off string) and only adds noise.
func (p *fileParser) causedByLexError(start, idx int) bool {
	from, to := p.sc.toks[start].Pos.Offset, p.sc.toks[idx].Pos.Offset
	errs := p.lexErrs
	i := sort.Search(len(errs), func(i int) bool { return errs[i].Pos.Offset >= from })
	return i < len(errs) && errs[i].Pos.Offset <= to
}

// unexpected words the error for token idx, given what the grammar wanted.
func (p *fileParser) unexpected(idx int, expect string) string {
	tok := p.sc.toks[idx]
	want := p.wanted(idx, expect)
	if tok.EOF() {
		if u := p.sc.unclosed(); u != "" {
			return incompleteMsg + ": " + u
		}
		if want != "" && want != "end of statement" {
			return incompleteMsg + ", expected " + want
		}
		return incompleteMsg
	}
	what := p.describe(idx)
	if tok.Type == tKeyword && tok.Value == "else" && idx > 1 && p.sc.toks[idx-1].Value == termNewline {
		return "unexpected keyword else: put else on the line of the closing }"
	}
	if msg := p.catchMsg(idx, want); msg != "" {
		return msg
	}
	if want == `")"` && what == `","` {
		// (2, 3): a Python tuple, where a shape or a sequence is a list.
		return `unexpected "," in parentheses: gscript has no tuples; write a list, [2, 3] (zeros([2, 3]), not zeros((2, 3)))`
	}
	if (want == `")"` || want == `"]"` || want == `"}"`) && idx > 0 && endsOperand(p.sc.toks[idx-1]) {
		want = `"," or ` + want // a list whose comma is missing
	}
	switch want {
	case "":
		return "unexpected " + what
	case "end of statement":
		return "unexpected " + what + " at end of statement"
	}
	return "unexpected " + what + ", expected " + want
}

// catchMsg words a catch on the line after its try's "}" (the newline
// ended the try), and a catch with no try before it.
func (p *fileParser) catchMsg(idx int, want string) string {
	switch {
	case want == `"catch"` && p.catchOnNextLine(idx):
		return "unexpected newline before catch: put catch on the line of the closing }"
	case want == `"catch"`:
		return "unexpected " + p.describe(idx) + ": try needs a catch block after its }"
	case isCatch(p.sc.toks[idx]):
		return "unexpected keyword catch: catch follows the } of a try block"
	}
	return ""
}

// catchOnNextLine reports whether token idx is a newline terminator
// right before the keyword catch.
func (p *fileParser) catchOnNextLine(idx int) bool {
	tok := p.sc.toks[idx]
	return tok.Type == tTerm && tok.Value == termNewline && isCatch(p.sc.toks[idx+1])
}

func isCatch(t lexer.Token) bool { return t.Type == tKeyword && t.Value == "catch" }

// describe names token idx for a message.
func (p *fileParser) describe(idx int) string {
	t := p.sc.toks[idx]
	switch t.Type {
	case lexer.EOF:
		return "end of input"
	case tTerm:
		switch {
		case t.Value == termSemi:
			return `";"`
		case t.Value == termImplied && !p.sc.toks[idx+1].EOF():
			return `"}"`
		}
		return "newline"
	case tIdent:
		return "name " + pos.Clip(t.Value)
	case tKeyword:
		return "keyword " + t.Value
	case tInt, tFloat:
		return "number " + pos.Clip(t.Value)
	case tString:
		return "string literal"
	}
	return fmt.Sprintf("%q", t.Value)
}

// expectedText pulls the grammar fragment out of participle's
// `unexpected token "x" (expected FRAGMENT)` message.
func expectedText(msg string) string {
	i := strings.Index(msg, " (expected ")
	if i < 0 {
		return ""
	}
	return strings.TrimSuffix(msg[i+len(" (expected "):], ")")
}

// Struct names (as participle prints them) for what the user would call them.
var productionNames = map[string]string{
	"PExpr": "expression", "PAnd": "expression", "PCmp": "expression", "PAdd": "expression",
	"PMul": "expression", "PUnary": "expression", "PPostfix": "expression", "PPrimary": "expression",
	"PArg": "expression", "PTuple": "expression", "PEntry": "expression", "PIdent": "name", "PType": "type", "PParam": "parameter name",
	"PStmt": "statement", "PBlock": `"{"`, "PComp": "index or slice", "PFieldEnd": `"," or newline`,
}

// wanted turns the grammar fragment participle expected into words,
// adding where a "{" was due ("after if condition", ...).
func (p *fileParser) wanted(idx int, frag string) string {
	first := firstElement(frag)
	if idx > 0 && p.sc.toks[idx-1].Type == tKeyword && p.sc.toks[idx-1].Value == "else" {
		return `"if" or "{" after else`
	}
	switch {
	case first == "":
		return ""
	case first == "<term>":
		return "end of statement"
	case first == "<ident>":
		return "name"
	case first == "<int>":
		return "integer"
	case first[0] == '(':
		return "expression"
	}
	if w, ok := productionNames[first]; ok {
		first = w
	} else if first[0] != '"' {
		return "" // another production or token class: grammar text, not words
	}
	if first == `"{"` {
		if ctx := braceContext[p.stmtKeyword(idx)]; ctx != "" {
			return first + " after " + ctx
		}
	}
	return first
}

var braceContext = map[string]string{
	"if": "if condition", "for": "for clause", "while": "while condition",
	"fn": "fn signature", "kernel": "kernel signature", "func": "func signature",
	"device": "device expression", "allocator": "allocator name", "capture": "capture name",
	"tape": "tape name",
}

// firstElement is the first item of an EBNF fragment: a quoted literal,
// a <token>, a production name, or "(" for a group.
func firstElement(frag string) string {
	frag = strings.TrimSpace(frag)
	switch {
	case frag == "":
		return ""
	case frag[0] == '"':
		if j := strings.Index(frag[1:], `"`); j >= 0 {
			return frag[:j+2]
		}
	case frag[0] == '(':
		return "("
	}
	if j := strings.IndexAny(frag, " ?*+|)"); j >= 0 {
		return frag[:j]
	}
	return frag
}

// stmtKeyword returns the first token of the statement holding token idx,
// walking back over balanced brackets.
func (p *fileParser) stmtKeyword(idx int) string {
	toks := p.sc.toks
	depth := 0
	for i := idx - 1; i >= 0; i-- {
		t := toks[i]
		switch {
		case t.Type == tTerm && depth == 0:
			return toks[i+1].Value
		case t.Type != tPunct && t.Type != tDict:
		case t.Value == ")" || t.Value == "]" || t.Value == "}":
			depth++
		case t.Value == "(" || t.Value == "[" || t.Value == "{":
			if depth == 0 {
				return toks[i+1].Value
			}
			depth--
		}
	}
	return toks[0].Value
}

func endsOperand(t lexer.Token) bool {
	switch t.Type {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		return t.Value == "true" || t.Value == "false" || t.Value == "nil"
	case tPunct:
		return t.Value == ")" || t.Value == "]"
	}
	return false
}
