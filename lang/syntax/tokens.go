package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gscript-lang/gscript/lang/ast"
)

// TokenKind classifies a Token of the comment-keeping stream.
type TokenKind uint8

const (
	EOF      TokenKind = iota // the end of input, always the last token
	Ident                     // a name (contextual words where they are names)
	Keyword                   // a reserved word, or a contextual one where it is a keyword
	Int                       // an integer literal
	Float                     // a float literal
	String                    // a string literal, quotes included
	Punct                     // an operator or bracket; "not in" is one
	DictOpen                  // the "{" of a dict literal (a block's "{" is Punct)
	Term                      // a statement terminator (Text ";", "\n", or "" where implied)
	Comment                   // a // comment (or the #! line), without its newline
)

// Token is one token of the stream Tokens returns: what the parser reads,
// terminators included, plus the comments it never sees.
type Token struct {
	Kind TokenKind
	Text string // the source text, as written (a terminator's: see Term)
	Pos  ast.Pos
}

var tokenKinds = map[lexer.TokenType]TokenKind{
	lexer.EOF: EOF, tIdent: Ident, tKeyword: Keyword, tInt: Int, tFloat: Float,
	tString: String, tPunct: Punct, tDict: DictOpen, tTerm: Term, tComment: Comment,
}

// Tokens scans src into the parser's tokens and the comments, merged in
// source order: the stream a formatter or an editor needs. The error is
// the scanner's (an ast.ErrorList), as Parse reports them; the stream is
// still as complete as the scanner got.
func Tokens(filename string, src []byte) ([]Token, error) {
	s := scanSource(&scanner{src: src, file: filename, line: 1, keepComments: true})
	out := make([]Token, 0, len(s.toks)+len(s.comments))
	toks, coms := s.toks, s.comments
	for len(toks) > 0 || len(coms) > 0 {
		var t lexer.Token
		if len(coms) > 0 && (len(toks) == 0 || coms[0].Pos.Offset < toks[0].Pos.Offset) {
			t, coms = coms[0], coms[1:]
		} else {
			t, toks = toks[0], toks[1:]
		}
		out = append(out, Token{Kind: tokenKinds[t.Type], Text: t.Value, Pos: astPos(t.Pos)})
	}
	errs := s.errs
	errs.Sort()
	errs.Truncate(ast.MaxErrors)
	return out, errs.Err()
}
