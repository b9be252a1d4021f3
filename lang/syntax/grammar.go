package syntax

import (
	"errors"
	"io"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar structs below mirror the syntax (binary operators as flat
// chains, see pExpr); convert.go turns them into lang/ast nodes, so the AST
// carries no participle tags. The grammar is LL(1) (lookahead 0 below: a branch that consumed a token and
// then failed is an error, never a silent backtrack), which keeps error
// positions exact. Lists that allow a trailing comma peek at ", )" with a
// negative lookahead before consuming the comma.

// pTop is one top-level statement; Parse calls the parser once per
// statement so it can resynchronise after an error.
type pTop struct {
	Stmt *pStmt `parser:"@@ Term"`
}

type pStmt struct {
	Simple *pSimple     `parser:"  @@"`
	Let    *pLet        `parser:"| @@"`
	Const  *pConst      `parser:"| @@"`
	Struct *pStruct     `parser:"| @@"`
	If     *pIf         `parser:"| @@"`
	For    *pFor        `parser:"| @@"`
	While  *pWhile      `parser:"| @@"`
	Branch *lexer.Token `parser:"| @(\"break\" | \"continue\")"`
	Return *pReturn     `parser:"| @@"`
	Assert *pAssert     `parser:"| @@"`
	Import *pImport     `parser:"| @@"`
	Decl   *pDecl       `parser:"| @@"`
	Array  *pArray      `parser:"| @@"`
	Buffer *pBuffer     `parser:"| @@"`
	Launch *pLaunch     `parser:"| @@"`
	Scope  *pScope      `parser:"| @@"`
	Try    *pTry        `parser:"| @@"`
	Block  *pBlock      `parser:"| @@"`
}

// pTry is `try { } catch [name] { }`; catch follows "}" on its line, as
// else does.
type pTry struct {
	Kw      lexer.Token `parser:"@\"try\""`
	Body    *pBlock     `parser:"@@"`
	Catch   lexer.Token `parser:"@\"catch\""`
	Var     *pIdent     `parser:"@@?"`
	Handler *pBlock     `parser:"@@"`
}

type pBlock struct {
	Lbrace lexer.Token `parser:"@\"{\""`
	Stmts  []*pStmt    `parser:"( @@ Term )*"`
	Rbrace lexer.Token `parser:"@\"}\""`
}

type pIdent struct {
	Tok lexer.Token `parser:"@Ident"`
}

type pType struct {
	Name *pIdent      `parser:"@@"`
	Elem *pType       `parser:"( \"[\" @@"`
	NDim *lexer.Token `parser:"  ( \",\" @Int )? \"]\" )?"`
}

type pLet struct {
	Kw    lexer.Token `parser:"@\"let\""`
	Names []*pIdent   `parser:"@@ ( \",\" @@ )*"`
	Type  *pType      `parser:"( \":\" @@ )?"`
	Value *pTuple     `parser:"\"=\" @@"`
}

type pConst struct {
	Kw    lexer.Token `parser:"@\"const\""`
	Name  *pIdent     `parser:"@@"`
	Type  *pType      `parser:"( \":\" @@ )?"`
	Value *pExpr      `parser:"\"=\" @@"`
}

// pStruct is `struct Name { field: T, ... }`. Each field ends with a comma
// or a terminator: a newline after a field's type is one, and so is the
// one the scanner implies before "}"; so fields may be separated by
// commas, newlines or both, with a trailing comma allowed.
type pStruct struct {
	Kw     lexer.Token `parser:"@\"struct\""`
	Name   *pIdent     `parser:"@@ \"{\""`
	Fields []*pField   `parser:"@@*"`
	Rbrace lexer.Token `parser:"@\"}\""`
}

// pField is a struct field; its type is optional here so that convert
// can say that it is missing.
type pField struct {
	Name *pIdent    `parser:"@@"`
	Type *pType     `parser:"( \":\" @@ )?"`
	End  *pFieldEnd `parser:"@@"`
}

// pFieldEnd is its own production so that a missing separator reads
// `expected "," or newline` (productionNames), not grammar text.
type pFieldEnd struct {
	Comma *lexer.Token `parser:"  @\",\" Term?"`
	Term  *lexer.Token `parser:"| @Term"`
}

type pIf struct {
	Kw     lexer.Token `parser:"@\"if\""`
	Cond   *pExpr      `parser:"@@"`
	Then   *pBlock     `parser:"@@"`
	ElseIf *pIf        `parser:"( \"else\" ( @@"`
	Else   *pBlock     `parser:"        | @@ ) )?"`
}

type pFor struct {
	Kw   lexer.Token `parser:"@\"for\""`
	Vars []*pIdent   `parser:"@@ ( \",\" @@ )* \"in\""`
	Iter *pExpr      `parser:"@@"`
	Body *pBlock     `parser:"@@"`
}

type pWhile struct {
	Kw   lexer.Token `parser:"@\"while\""`
	Cond *pExpr      `parser:"@@"`
	Body *pBlock     `parser:"@@"`
}

type pReturn struct {
	Kw    lexer.Token `parser:"@\"return\""`
	Value *pTuple     `parser:"@@?"`
}

// pTuple is a value, or the bare list `a, b` of an assignment's, let's
// or return's value (no trailing comma).
type pTuple struct {
	X    *pExpr   `parser:"@@"`
	More []*pExpr `parser:"( \",\" @@ )*"`
}

type pAssert struct {
	Kw   lexer.Token `parser:"@\"assert\""`
	Cond *pExpr      `parser:"@@"`
	Msg  *pExpr      `parser:"( \",\" @@ )?"`
}

type pImport struct {
	Kw   lexer.Token `parser:"@\"import\""`
	Path lexer.Token `parser:"@String"`
}

// pDecl is fn, kernel or func; convert checks what each kind allows.
type pDecl struct {
	Kw      lexer.Token  `parser:"@(\"fn\" | \"kernel\" | \"func\")"`
	Name    *pIdent      `parser:"@@ \"(\""`
	Params  []*pParam    `parser:"( @@ ( (?! \",\" \")\") \",\" @@ )* \",\"? )? \")\""`
	Arrow   *lexer.Token `parser:"( @\"->\""`
	Result  *pType       `parser:"  @@ )?"`
	Shape   *pShape      `parser:"@@?"`
	Adjoint *pAdjoint    `parser:"@@?"`
	Fast    *lexer.Token `parser:"@\"fast\":Keyword?"`
	Body    *pBlock      `parser:"@@"`
}

// pAdjoint is the `adjoint NAME` of a kernel with a custom adjoint;
// adjoint is a contextual keyword (lexer.go).
type pAdjoint struct {
	Kw   lexer.Token `parser:"@\"adjoint\":Keyword"`
	Name *pIdent     `parser:"@@"`
}

// pShape is the block(...) of a block kernel, or the grid(...) of a
// launch over blocks; both words are contextual keywords (lexer.go).
type pShape struct {
	Kw   lexer.Token `parser:"@(\"block\":Keyword | \"grid\":Keyword) \"(\""`
	Dims []*pExpr    `parser:"@@ ( \",\" @@ )* \")\""`
}

type pParam struct {
	Name *pIdent `parser:"@@"`
	Type *pType  `parser:"( \":\" @@ )?"`
}

type pArray struct {
	Kw        lexer.Token  `parser:"@\"array\":Keyword"`
	Name      *pIdent      `parser:"@@ \":\""`
	DType     *pIdent      `parser:"@@ \"[\""`
	Dims      []*pExpr     `parser:"@@ ( \",\" @@ )* \"]\""`
	Init      *pExpr       `parser:"( \"=\" @@ )?"`
	Device    *pExpr       `parser:"( \"on\" @@ )?"`
	Allocator *pExpr       `parser:"( \"using\" @@ )?"`
	Grad      *lexer.Token `parser:"@\"requires_grad\":Keyword?"`
}

// pBuffer is a shared or local array declaration; the checker says where
// each may appear.
type pBuffer struct {
	Kw   lexer.Token `parser:"@(\"shared\" | \"local\")"`
	Name *pIdent     `parser:"@@ \":\""`
	Elem *pIdent     `parser:"@@ \"[\""`
	Dims []*pExpr    `parser:"@@ ( \",\" @@ )* \"]\""`
}

type pLaunch struct {
	Kw     lexer.Token `parser:"@\"launch\""`
	Kernel *pIdent     `parser:"@@"`
	Member *pIdent     `parser:"( \".\" @@ )? \"[\""`
	Grid   *pShape     `parser:"( @@"`
	Dims   []*pExpr    `parser:"| @@ ( \",\" @@ )* ) \"]\" \"(\""`
	Args   []*pArg     `parser:"( @@ ( (?! \",\" \")\") \",\" @@ )* \",\"? )? \")\""`
	Device *pExpr      `parser:"( \"on\" @@ )?"`
}

// pScope is device, allocator, capture or tape; convert checks the name
// and that device and tape have no on clause.
type pScope struct {
	Kw     lexer.Token `parser:"@(\"device\":Keyword | \"allocator\":Keyword | \"capture\" | \"tape\":Keyword)"`
	Target *pExpr      `parser:"@@"`
	Device *pExpr      `parser:"( \"on\" @@ )?"`
	Body   *pBlock     `parser:"@@"`
}

// pSimple is an expression statement or an assignment, with one target
// or several (a, b = ...; convert refuses several without "=").
type pSimple struct {
	X     *pExpr       `parser:"@@"`
	More  []*pExpr     `parser:"( \",\" @@ )*"`
	Op    *lexer.Token `parser:"( @(\"=\" | \"+=\" | \"-=\" | \"*=\" | \"/=\" | \"%=\" | \"**=\")"`
	Value *pTuple      `parser:"  @@ )?"`
}

// ---- expressions ----

// pExpr is a flat chain of operands and binary operators; convert builds
// the tree by precedence climbing. One grammar level instead of five keeps
// participle's per-level reflection cost (the bulk of parse time) low.
type pExpr struct {
	X    *pUnary `parser:"@@"`
	Rest []*pBin `parser:"( @@ )*"`
}

type pBin struct {
	Op lexer.Token `parser:"@(\"||\" | \"&&\" | \"==\" | \"!=\" | \"<\" | \"<=\" | \">\" | \">=\" | \"in\" | \"not in\" | \"+\" | \"-\" | \"|\" | \"^\" | \"*\" | \"@\" | \"/\" | \"%\" | \"<<\" | \">>\" | \"&\")"`
	Y  *pUnary     `parser:"@@"`
}

// pUnary is a prefix operator and its operand, or an operand with its
// suffixes (calls, indexing, attributes), which bind tighter than any
// prefix operator, and a power: as in Python, "**" binds tighter than a
// prefix operator on its left (-a ** b is -(a ** b)) and its right
// operand may be one (a ** -b); the recursion makes it right-associative.
type pUnary struct {
	P      *pPrimary    `parser:"  @@"`
	Sufs   []*pSuffix   `parser:"  ( @@ )*"`
	PowTok *lexer.Token `parser:"  ( @\"**\""`
	Pow    *pUnary      `parser:"    @@ )?"`
	Op     *lexer.Token `parser:"| @(\"-\" | \"+\" | \"!\" | \"~\")"`
	X      *pUnary      `parser:"  @@"`
}

// pSuffix is a call f(args), an index a[i, j, lo:hi:step] (components
// see pComp), or an attribute x.name. The three share one struct so that
// trying them after every operand costs one allocation, not three.
type pSuffix struct {
	Lparen *lexer.Token `parser:"  @\"(\""`
	Args   []*pArg      `parser:"  ( @@ ( (?! \",\" \")\") \",\" @@ )* \",\"? )? \")\""`
	Lbrack *lexer.Token `parser:"| @\"[\""`
	Comps  []*pComp     `parser:"  @@ ( \",\" @@ )* \"]\""`
	Attr   *pIdent      `parser:"| \".\" @@"`
}

// pComp is an index, or a slice lo:hi:step with any part missing; both
// branches start with a token, so the grammar stays LL(1).
type pComp struct {
	X     *pExpr      `parser:"  @@"`
	Tail  *pSliceTail `parser:"  @@?"`
	Tail0 *pSliceTail `parser:"| @@"`
}

type pSliceTail struct {
	Colon lexer.Token `parser:"@\":\""`
	Hi    *pExpr      `parser:"@@?"`
	Step  *pExpr      `parser:"( \":\" @@? )?"`
}

// pArg is a positional argument or, with "=", a keyword argument whose
// name convert checks is a plain identifier. Parsing the name as an
// expression first avoids backtracking.
type pArg struct {
	X     *pExpr       `parser:"@@"`
	Eq    *lexer.Token `parser:"( @\"=\""`
	Value *pExpr       `parser:"  @@ )?"`
}

type pPrimary struct {
	Tok   *lexer.Token `parser:"  @(Int | Float | String | \"true\" | \"false\" | \"nil\" | Ident)"`
	Paren *pParen      `parser:"| @@"`
	List  *pList       `parser:"| @@"`
	Dict  *pDict       `parser:"| @@"`
}

// pDict is a dict literal; its "{" is a Dict token, which the scanner
// gives a "{" in operand position, so a block is never read as one.
type pDict struct {
	Lbrace  lexer.Token `parser:"@\"{\":Dict"`
	Entries []*pEntry   `parser:"( @@ ( (?! \",\" \"}\") \",\" @@ )* \",\"? )? \"}\""`
}

// pEntry is one key: value of a dict.
type pEntry struct {
	Key   *pExpr `parser:"@@ \":\""`
	Value *pExpr `parser:"@@"`
}

type pParen struct {
	Lparen lexer.Token `parser:"@\"(\""`
	X      *pExpr      `parser:"@@ \")\""`
}

type pList struct {
	Lbrack lexer.Token `parser:"@\"[\""`
	Elems  []*pExpr    `parser:"( @@ ( (?! \",\" \"]\") \",\" @@ )* \",\"? )? \"]\""`
}

// lexDef adapts the token slice built by scan to participle.
type lexDef struct{}

func (lexDef) Symbols() map[string]lexer.TokenType { return symbols() }

// Lex is never called: Parse feeds participle the tokens from scan.
func (lexDef) Lex(string, io.Reader) (lexer.Lexer, error) {
	return nil, errors.New("syntax: tokens come from scan, not from participle's lexer")
}

type sliceLexer struct {
	toks []lexer.Token
	i    int
}

func (l *sliceLexer) Next() (lexer.Token, error) {
	t := l.toks[l.i]
	if l.i < len(l.toks)-1 {
		l.i++
	}
	return t, nil
}

// parser is built once: building it reflects over every grammar struct.
var parser = participle.MustBuild[pTop](
	participle.Lexer(lexDef{}),
	participle.UseLookahead(0),
)
