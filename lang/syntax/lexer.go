package syntax

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/token"
)

// Token types handed to participle. Keywords have their own type so that a
// contextual word (array, device, allocator) can be a keyword at the start of
// a statement and an ordinary Ident everywhere else.
const (
	tIdent lexer.TokenType = iota + 1
	tKeyword
	tInt
	tFloat
	tString
	tPunct
	tTerm    // statement terminator: ";", an inserted newline, or one implied before "}" or at EOF
	tDict    // a "{" in operand position: it opens a dict literal, not a block
	tComment // a comment, only in the stream Tokens returns; participle never sees one
)

// symbols is a function, not a package var: the parser var is built during
// package initialisation, possibly before such a var would be.
func symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":     lexer.EOF,
		"Ident":   tIdent,
		"Keyword": tKeyword,
		"Int":     tInt,
		"Float":   tFloat,
		"String":  tString,
		"Punct":   tPunct,
		"Term":    tTerm,
		"Dict":    tDict,
	}
}

var keywords = map[string]bool{
	"let": true, "fn": true, "func": true, "kernel": true, "return": true, "if": true, "else": true,
	"for": true, "in": true, "while": true, "break": true, "continue": true, "launch": true,
	"capture": true, "on": true, "using": true, "true": true, "false": true, "nil": true, "assert": true,
	"shared": true, "local": true, "import": true, "const": true, "struct": true,
	"try": true, "catch": true,
}

// contextualKeywords are keywords only where promoteContextual makes them so.
var contextualKeywords = []string{"array", "device", "allocator", "block", "grid", "fast", "tape", "adjoint", "requires_grad"}

// Keywords lists the language's keywords, the contextual ones (array,
// device, allocator, block, grid, fast, tape, adjoint) included, sorted:
// for tools such as completion, which must not keep a copy that drifts
// from the lexer's.
func Keywords() []string {
	out := append([]string(nil), contextualKeywords...)
	for k := range keywords {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Terminator values: what the user wrote, or why one was implied.
const (
	termSemi    = ";"
	termNewline = "\n"
	termImplied = "" // before "}" or at end of input
)

// Nesting limits keep participle's recursion (and ours) far from Go's stack
// limit on hostile input; real scripts never come close.
const (
	maxNesting  = 200
	maxUnaryRun = 200
	maxElseRun  = 2000
)

// Size limits bound the parser's memory and time on hostile input. Parsing
// costs about 1 KB of peak memory per token (participle's structs and
// branches), so the token limit, not the byte limit, is what bounds memory;
// the byte limit bounds the scanner's own work on comments and strings.
// Real scripts are a few thousand tokens; data belongs in files (load).
const (
	// MaxSourceBytes is the largest source Parse accepts.
	MaxSourceBytes = 4 << 20
	// MaxTokens is the most tokens (terminators included) in one source.
	MaxTokens = 1 << 18
	// MaxListElems is the most elements of one list literal.
	MaxListElems = 100_000
	// MaxExprDepth is the deepest expression tree: the checker and the
	// evaluator recurse over it. A chain a + b + ... is as deep as it is
	// long, because operators of one precedence associate to the left.
	MaxExprDepth = 1000
)

// incompleteMsg starts every message that only says the input ended too
// early; IsIncomplete relies on it.
const incompleteMsg = "unexpected end of input"

type bracket struct {
	ch     byte
	pos    lexer.Position
	list   bool // a "[" that opens a list literal, not an index, or a "{" that opens a dict
	commas int  // commas directly inside a list or dict literal
}

// scanner turns source into tokens with statement terminators inserted.
type scanner struct {
	src       []byte
	file      string
	off       int
	line      int
	lineStart int

	toks     []lexer.Token
	topTerms []int // indices of terminators outside any bracket
	errs     ast.ErrorList
	stack    []bracket
	unaryRun int
	elseRun  [maxNesting + 1]int // else links since the last terminator, per bracket depth
	powRun   [maxNesting + 1]int // "**" in the current power chain, per bracket depth
	stopped  bool                // a nesting limit was hit; the rest of the input is not scanned
	tooBig   bool                // a size limit was hit: not worth parsing at all
	cutStr   bool                // the input ended inside a string literal

	keepComments bool          // record comments (Tokens); the parser's scan leaves it off
	comments     []lexer.Token // the comments and a #! line, in source order, when keepComments
}

// scan tokenizes src. The token slice always ends with an EOF token.
func scan(filename string, src []byte) *scanner {
	return scanSource(&scanner{src: src, file: filename, line: 1})
}

// scanSource runs s, a fresh scanner, over its whole source.
func scanSource(s *scanner) *scanner {
	if len(s.src) > MaxSourceBytes {
		s.limit(s.posAt(MaxSourceBytes), "source longer than %d bytes (MaxSourceBytes)", MaxSourceBytes)
	}
	s.skipBOM()
	if s.peekAt(0) == '#' && s.peekAt(1) == '!' {
		s.comment()
	}
	s.run()
	s.finish()
	promoteContextual(s.toks)
	s.checkNot()
	return s
}

// checkNot reports Python's `not x`: the name not before an operand,
// where no expression can continue, gets a hint to write !x (a
// call not(x) and an index not[i] stay calls and indexes of a name).
func (s *scanner) checkNot() {
	for i := 0; i+1 < len(s.toks); i++ {
		t := s.toks[i]
		if t.Type != tIdent || t.Value != "not" || i > 0 && endsOperand(s.toks[i-1]) {
			continue
		}
		if next := s.toks[i+1]; endsOperand(next) && !isPunct(next, ")") && !isPunct(next, "]") || next.Type == tDict || isPunct(next, "!") {
			s.errorf(t.Pos, "not is no operator here: write !x for logical not (not only appears in `x not in y`)")
		}
	}
}

func (s *scanner) run() {
	for !s.stopped && s.off < len(s.src) {
		s.next()
	}
}

// skipBOM skips a UTF-8 byte-order mark, which editors on Windows write;
// columns on line 1 count from after it.
func (s *scanner) skipBOM() {
	if bytes.HasPrefix(s.src, []byte("\uFEFF")) {
		s.off, s.lineStart = 3, 3
	}
}

// limit reports a size limit and stops scanning: what follows is not
// worth scanning or parsing.
func (s *scanner) limit(p lexer.Position, format string, args ...any) {
	s.errorf(p, format, args...)
	s.stopped, s.tooBig = true, true
}

// posAt is the position of byte offset off (for the source size limit,
// found before any scanning).
func (s *scanner) posAt(off int) lexer.Position {
	before := s.src[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return lexer.Position{Filename: s.file, Offset: off, Line: line, Column: col}
}

func (s *scanner) pos() lexer.Position {
	return lexer.Position{Filename: s.file, Offset: s.off, Line: s.line, Column: s.off - s.lineStart + 1}
}

func (s *scanner) errorf(p lexer.Position, format string, args ...any) {
	s.errs.Add(astPos(p), format, args...)
}

// comment skips a // comment (or the #! line), recording it when the
// scanner keeps comments; the parser's tokens never include one.
func (s *scanner) comment() {
	p, start := s.pos(), s.off
	s.skipLine()
	if s.keepComments {
		text := strings.TrimRight(string(s.src[start:s.off]), "\r")
		s.comments = append(s.comments, lexer.Token{Type: tComment, Value: text, Pos: p})
	}
}

func (s *scanner) skipLine() {
	for s.off < len(s.src) && s.src[s.off] != '\n' {
		s.off++
	}
}

// finish closes the stream: a terminator if the last statement is
// complete, and EOF.
func (s *scanner) finish() {
	p := s.pos()
	if s.lastEnds() && !s.inParens() {
		s.emit(tTerm, termImplied, p)
	}
	s.toks = append(s.toks, lexer.EOFToken(p))
}

// lastEnds reports whether the previous token can end a statement, so that a
// newline (or the end of input) after it terminates the statement.
func (s *scanner) lastEnds() bool {
	if len(s.toks) == 0 {
		return false
	}
	t := s.toks[len(s.toks)-1]
	switch t.Type {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		switch t.Value {
		case "break", "continue", "return", "true", "false", "nil":
			return true
		}
	case tPunct:
		return t.Value == ")" || t.Value == "]" || t.Value == "}"
	}
	return false
}

func (s *scanner) emit(typ lexer.TokenType, val string, p lexer.Position) {
	if typ == tTerm {
		if len(s.stack) == 0 {
			s.topTerms = append(s.topTerms, len(s.toks))
		}
		s.elseRun[len(s.stack)] = 0
	}
	if s.tooBig {
		return
	}
	if len(s.toks) >= MaxTokens {
		s.limit(p, "more than %d tokens (MaxTokens): split the script, or load data from a file", MaxTokens)
		return
	}
	s.toks = append(s.toks, lexer.Token{Type: typ, Value: val, Pos: p})
}

// next scans one token (or skips whitespace or a comment).
func (s *scanner) next() {
	n := len(s.toks)
	s.token()
	if len(s.toks) > n {
		s.trackNesting()
	}
}

func (s *scanner) token() {
	c := s.src[s.off]
	switch {
	case c == '\n':
		s.newline()
	case c == ' ' || c == '\t' || c == '\r':
		s.off++
	case c == '/' && s.peekAt(1) == '/':
		s.comment()
	case isDigit(c) || (c == '.' && isDigit(s.peekAt(1))):
		s.number()
	case c == '"':
		s.str()
	case c == '_' || c < utf8.RuneSelf && isLetter(rune(c)):
		s.ident()
	case c >= utf8.RuneSelf:
		r, size := utf8.DecodeRune(s.src[s.off:])
		if isLetter(r) {
			s.ident()
			return
		}
		s.illegal(r, size)
	default:
		s.punct()
	}
}

func (s *scanner) peekAt(n int) byte {
	if s.off+n < len(s.src) {
		return s.src[s.off+n]
	}
	return 0
}

func (s *scanner) newline() {
	if s.lastEnds() && !s.inParens() {
		s.emit(tTerm, termNewline, s.pos())
	}
	s.off++
	s.line++
	s.lineStart = s.off
}

// inParens reports whether the innermost open bracket is ( or [ or the
// "{" of a dict, where newlines never end a statement.
func (s *scanner) inParens() bool {
	if len(s.stack) == 0 {
		return false
	}
	b := s.stack[len(s.stack)-1]
	return b.ch != '{' || b.list
}

// inDict reports whether the innermost open bracket is a dict's "{".
func (s *scanner) inDict() bool {
	return len(s.stack) > 0 && s.stack[len(s.stack)-1].ch == '{' && s.stack[len(s.stack)-1].list
}

func (s *scanner) illegal(r rune, size int) {
	p := s.pos()
	switch {
	case r == utf8.RuneError && size == 1:
		s.errorf(p, "invalid UTF-8 byte \\x%02x", s.src[s.off])
	case r == '\'' || r == '`':
		s.errorf(p, "unexpected character %q: strings use double quotes", r)
	default:
		s.errorf(p, "unexpected character %q", r)
	}
	s.off += size
}

func (s *scanner) ident() {
	p := s.pos()
	start := s.off
	for s.off < len(s.src) {
		r, size := utf8.DecodeRune(s.src[s.off:])
		if r != '_' && !isLetter(r) && !unicode.IsDigit(r) {
			break
		}
		s.off += size
	}
	word := string(s.src[start:s.off])
	if word == "not" && s.notIn(p) {
		return
	}
	if keywords[word] {
		s.emit(tKeyword, word, p)
		return
	}
	s.emit(tIdent, word, p)
}

// notIn reads `not in` (spaces or tabs between the words) as one
// operator token; `not` is otherwise a name, so Python's `not x` is two
// operands in a row, which checkNot words as a hint to write !x.
func (s *scanner) notIn(p lexer.Position) bool {
	i := s.off
	for i < len(s.src) && (s.src[i] == ' ' || s.src[i] == '\t') {
		i++
	}
	if i == s.off || !bytes.HasPrefix(s.src[i:], []byte("in")) {
		return false
	}
	if r, _ := utf8.DecodeRune(s.src[i+2:]); i+2 < len(s.src) && (r == '_' || isLetter(r) || unicode.IsDigit(r)) {
		return false // not inside, not in_x: a name follows
	}
	s.off = i + 2
	s.emit(tPunct, "not in", p)
	return true
}

// trackNesting bounds runs of prefix operators, which the grammar parses
// recursively, and chains of else-if, which nest likewise.
func (s *scanner) trackNesting() {
	if s.stopped || len(s.toks) == 0 {
		return
	}
	t := s.toks[len(s.toks)-1]
	if t.Type == tPunct && token.Lookup(t.Value).IsUnary() {
		s.unaryRun++
	} else {
		s.unaryRun = 0
	}
	run := 0
	if t.Type == tKeyword && t.Value == "else" {
		s.elseRun[len(s.stack)]++
		run = s.elseRun[len(s.stack)]
	}
	if s.unaryRun > maxUnaryRun || run > maxElseRun || s.powChain(t) > maxUnaryRun {
		s.errorf(t.Pos, "expression or statement too deeply nested")
		s.stopped = true
	}
}

// powChain counts the "**" of a chain a ** b ** c ... at the current
// bracket depth, which the grammar parses recursively (right to left);
// a terminator, a comma, a colon or a binary operator other than "**"
// ends the chain (a "-" after an operand is binary, after "**" unary).
func (s *scanner) powChain(t lexer.Token) int {
	d := len(s.stack)
	switch {
	case t.Type == tTerm:
		s.powRun[d] = 0
	case t.Type == tDict || t.Type == tPunct && (t.Value == "(" || t.Value == "["):
		s.powRun[d] = 0 // d is the new bracket's depth
	case t.Type != tPunct:
	case t.Value == "**":
		s.powRun[d]++
	case t.Value == "," || t.Value == ":" || t.Value == "=" || s.binaryAt(len(s.toks)-1):
		s.powRun[d] = 0
	}
	return s.powRun[d]
}

// binaryAt reports whether token i is a binary operator: one that is not
// also unary, or a unary spelling right after an operand.
func (s *scanner) binaryAt(i int) bool {
	op := token.Lookup(s.toks[i].Value)
	if !op.IsBinary() {
		return false
	}
	return !op.IsUnary() || i > 0 && endsOperand(s.toks[i-1])
}

// Operators, longest first within each leading byte.
var puncts = []string{
	"**=", "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "->",
	"+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=", "@",
	"(", ")", "[", "]", "{", "}", ",", ":", ";", ".",
}

func (s *scanner) punct() {
	p := s.pos()
	rest := s.src[s.off:]
	for _, op := range puncts {
		if len(rest) >= len(op) && string(rest[:len(op)]) == op {
			s.off += len(op)
			s.operator(op, p)
			return
		}
	}
	r, size := utf8.DecodeRune(rest)
	s.illegal(r, size)
}

func (s *scanner) operator(op string, p lexer.Position) {
	switch op {
	case ",":
		s.countElem(p)
	case ";":
		// Empty statements are dropped so the grammar never sees one.
		if n := len(s.toks); n > 0 && s.toks[n-1].Type != tTerm && !s.lastIs("{") {
			s.emit(tTerm, termSemi, p)
		}
		return
	case "(", "[", "{":
		if len(s.stack) >= maxNesting {
			s.errorf(p, "brackets nested too deeply")
			s.stopped = true
			return
		}
		// A "[" after an operand indexes it; anywhere else it opens a
		// list. A "{" in operand position opens a dict.
		dict := op == "{" && s.dictOpens()
		s.stack = append(s.stack, bracket{ch: op[0], pos: p, list: op == "[" && !s.lastEnds() || dict})
		if dict {
			s.emit(tDict, op, p)
			return
		}
	case ")", "]", "}":
		if op == "}" && s.lastEnds() && !s.inDict() {
			s.emit(tTerm, termImplied, p)
		}
		s.close(op[0])
	}
	s.emit(tPunct, op, p)
}

// dictOpens reports whether a "{" scanned now stands where an operand
// must: after an operator, "(", "[", ",", ":", "=" or the keywords in,
// return and assert. After a name, a literal, ")", "]", "}", "{", a
// terminator or another keyword (else, try, catch) it opens a block.
func (s *scanner) dictOpens() bool {
	n := len(s.toks)
	if n == 0 {
		return false
	}
	t := s.toks[n-1]
	switch t.Type {
	case tPunct:
		return t.Value != ")" && t.Value != "]" && t.Value != "}" && t.Value != "{"
	case tDict:
		return false // {{: a dict key cannot be a dict; the parser says so
	case tKeyword:
		return t.Value == "in" || t.Value == "return" || t.Value == "assert"
	}
	return false
}

// countElem counts a comma directly inside a list literal: comma number
// MaxListElems starts element MaxListElems+1 (or is a trailing comma).
func (s *scanner) countElem(p lexer.Position) {
	// A dict's entries take four tokens each: MaxTokens bounds them.
	if len(s.stack) == 0 || !s.stack[len(s.stack)-1].list || s.stack[len(s.stack)-1].ch != '[' {
		return
	}
	b := &s.stack[len(s.stack)-1]
	if b.commas++; b.commas >= MaxListElems {
		s.limit(p, "list literal with more than %d elements (MaxListElems): load large data from a file", MaxListElems)
	}
}

func (s *scanner) lastIs(v string) bool {
	n := len(s.toks)
	return n > 0 && s.toks[n-1].Type == tPunct && s.toks[n-1].Value == v
}

// close pops the bracket that c closes. A closer with no matching opener
// leaves the stack alone; the parser reports it.
func (s *scanner) close(c byte) {
	open := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]
	for i := len(s.stack) - 1; i >= 0; i-- {
		if s.stack[i].ch == open {
			s.stack = s.stack[:i]
			return
		}
	}
}

// unclosed describes the innermost bracket still open at end of input.
func (s *scanner) unclosed() string {
	if len(s.stack) == 0 {
		return ""
	}
	b := s.stack[len(s.stack)-1]
	return fmt.Sprintf("%q opened at %d:%d is not closed", string(b.ch), b.pos.Line, b.pos.Column)
}

func (s *scanner) str() {
	p := s.pos()
	start := s.off
	s.off++ // opening quote
	for s.off < len(s.src) {
		switch s.src[s.off] {
		case '"':
			s.off++
			s.strValue(p, string(s.src[start:s.off]))
			return
		case '\\':
			if c := s.peekAt(1); c == '\n' || s.off+1 >= len(s.src) {
				s.off++
				s.unterminated(p, string(s.src[start:s.off]))
				return
			}
			s.off += 2
			continue
		case '\n':
			s.unterminated(p, string(s.src[start:s.off]))
			return
		}
		s.off++
	}
	s.unterminated(p, string(s.src[start:s.off]))
}

// unterminated reports a string cut off by a newline or the end of input.
// Only when nothing but white space follows is more input a possible fix.
func (s *scanner) unterminated(p lexer.Position, raw string) {
	s.cutStr = true
	if strings.TrimSpace(string(s.src[s.off:])) == "" {
		s.errorf(p, "%s in string literal", incompleteMsg)
	} else {
		s.errorf(p, "string literal not terminated")
	}
	s.emit(tString, raw+`"`, p)
}

// strValue checks escapes one by one so a bad one is reported at its column.
func (s *scanner) strValue(p lexer.Position, raw string) {
	body := raw[1 : len(raw)-1]
	col := p.Column + 1
	for len(body) > 0 {
		_, _, tail, err := strconv.UnquoteChar(body, '"')
		if err != nil {
			ep := p
			ep.Column, ep.Offset = col, p.Offset+(col-p.Column)
			s.errorf(ep, "invalid escape sequence in string literal")
			break
		}
		col += len(body) - len(tail)
		body = tail
	}
	s.emit(tString, raw, p)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLetter(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= utf8.RuneSelf && unicode.IsLetter(r)
}

// promoteContextual turns array, device, allocator and tape into keywords
// where they start a declaration or scope: at the start of a statement and
// followed by what can only continue a declaration. Anywhere else they stay
// names, so array([1]), device = "cpu" and zeros(3, device="cpu") work.
// block, adjoint, fast and grid are keywords only inside a kernel header
// and a launch (blockShapeAt, adjointAt, fastAt, gridAt); the loop runs
// left to right, so fastAt sees an adjoint before it already promoted.
func promoteContextual(toks []lexer.Token) {
	for i := range toks {
		t := &toks[i]
		if t.Type != tIdent {
			continue
		}
		if blockShapeAt(toks, i) || adjointAt(toks, i) || fastAt(toks, i) || gridAt(toks, i) || requiresGradAt(toks, i) {
			t.Type = tKeyword
			continue
		}
		if !atStmtStart(toks, i) {
			continue
		}
		switch t.Value {
		case "array", "tape":
			if toks[i+1].Type == tIdent {
				t.Type = tKeyword
			}
		case "device", "allocator":
			if opensScope(toks, i+1) {
				t.Type = tKeyword
			}
		}
	}
}

// blockShapeAt reports whether token i is the block of `kernel k(...)
// block(...)`: block( right after a ")", which no expression has (two
// operands in a row), so it can only be a block shape.
func blockShapeAt(toks []lexer.Token, i int) bool {
	return toks[i].Value == "block" && i > 0 && isPunct(toks[i-1], ")") && isPunct(toks[i+1], "(")
}

// adjointAt reports whether token i is the adjoint of `kernel k(...)
// adjoint k_adj` (after a block shape too): adjoint right after a ")" and
// before a name, where an expression would have three operands in a row.
// A fn or func written so is rejected by name (convert).
func adjointAt(toks []lexer.Token, i int) bool {
	return toks[i].Value == "adjoint" && i > 0 && isPunct(toks[i-1], ")") && toks[i+1].Type == tIdent
}

// fastAt reports whether token i is the fast of `kernel k(...) fast {`,
// `kernel k(...) block(...) fast {` or `kernel k(...) adjoint k_adj fast
// {`: fast before a "{", after a ")" or an adjoint's name, where a name
// would be two operands in a row. A fn or func written so is then
// rejected by name (convert), not with a puzzling parse error.
func fastAt(toks []lexer.Token, i int) bool {
	if toks[i].Value != "fast" || i == 0 || !isPunct(toks[i+1], "{") {
		return false
	}
	afterAdjoint := i >= 2 && toks[i-1].Type == tIdent && toks[i-2].Type == tKeyword && toks[i-2].Value == "adjoint"
	return isPunct(toks[i-1], ")") || afterAdjoint
}

// gridAt reports whether token i is the grid of `launch k[grid(...)]` or
// `launch util.k[grid(...)]`: grid( first in the brackets of a launch.
func gridAt(toks []lexer.Token, i int) bool {
	if toks[i].Value != "grid" || i < 3 || !isPunct(toks[i+1], "(") || !isPunct(toks[i-1], "[") || toks[i-2].Type != tIdent {
		return false
	}
	kw := i - 3
	if kw >= 2 && isPunct(toks[kw], ".") && toks[kw-1].Type == tIdent {
		kw -= 2
	}
	return toks[kw].Type == tKeyword && toks[kw].Value == "launch"
}

// requiresGradAt reports whether token i is the requires_grad that ends an
// array declaration (`array x: f32[n] = 0.0 requires_grad`): last in a
// statement that the keyword array starts. Elsewhere requires_grad is a
// name (the builtin requires_grad(a)).
func requiresGradAt(toks []lexer.Token, i int) bool {
	if toks[i].Value != "requires_grad" || i+1 >= len(toks) || toks[i+1].Type != tTerm {
		return false
	}
	for j := i - 1; j >= 0; j-- {
		if atStmtStart(toks, j) {
			return toks[j].Type == tKeyword && toks[j].Value == "array"
		}
	}
	return false
}

func isPunct(t lexer.Token, v string) bool { return t.Type == tPunct && t.Value == v }

func atStmtStart(toks []lexer.Token, i int) bool {
	if i == 0 {
		return true
	}
	prev := toks[i-1]
	return prev.Type == tTerm || prev.Type == tPunct && prev.Value == "{"
}

// opensScope reports whether the tokens from i continue `device`/`allocator`
// as a scope header rather than as an expression or assignment: either an
// operand follows directly (two operands in a row are no expression), or the
// statement reaches a "{" outside brackets, which no expression contains.
func opensScope(toks []lexer.Token, i int) bool {
	switch t := toks[i]; t.Type {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		return t.Value == "true" || t.Value == "false" || t.Value == "nil"
	case tPunct:
		if t.Value == "!" || t.Value == "~" {
			return true
		}
	default:
		return false
	}
	depth := 0
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Type == lexer.EOF, t.Type == tTerm && depth == 0:
			return false
		case t.Type != tPunct:
		case t.Value == "(" || t.Value == "[":
			depth++
		case t.Value == ")" || t.Value == "]":
			depth--
		case t.Value == "{":
			return depth == 0
		}
	}
	return false
}
