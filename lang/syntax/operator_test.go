package syntax

import (
	"fmt"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/token"
)

// Every operator of the enum parses, in each of its roles, to itself: the
// grammar's spellings and token's agree.
func TestEveryOperatorParses(t *testing.T) {
	for _, op := range token.All() {
		if op.IsBinary() {
			got := mustParse(t, "x = a "+op.String()+" b").Stmts[0].(*ast.AssignStmt).Value
			if b, ok := got.(*ast.BinaryExpr); !ok || b.Op != op || b.OpPos.Col != 7 {
				t.Errorf("a %s b parsed as %s", op, dump(got))
			}
		}
		if op.IsUnary() {
			got := mustParse(t, "x = "+op.String()+"a").Stmts[0].(*ast.AssignStmt).Value
			if u, ok := got.(*ast.UnaryExpr); !ok || u.Op != op {
				t.Errorf("%sa parsed as %s", op, dump(got))
			}
		}
		if op.IsAssign() {
			got := mustParse(t, "a "+op.String()+" b").Stmts[0]
			if s, ok := got.(*ast.AssignStmt); !ok || s.Op != op {
				t.Errorf("a %s b parsed as %s", op, dump(got))
			}
		}
	}
}

// Every pair of binary operators nests by token's precedence, equal
// precedence to the left except "**", which associates to the right.
func TestBinaryPrecedence(t *testing.T) {
	for _, p := range token.All() {
		for _, q := range token.All() {
			if !p.IsBinary() || !q.IsBinary() {
				continue
			}
			src := fmt.Sprintf("x = a %s b %s c", p, q)
			want := fmt.Sprintf("(%s (%s a b) c)", q, p)
			if q.Precedence() > p.Precedence() || p == token.Pow && q == token.Pow {
				want = fmt.Sprintf("(%s a (%s b c))", p, q)
			}
			if got := dump(mustParse(t, src).Stmts[0].(*ast.AssignStmt).Value); got != want {
				t.Errorf("%s: got %s, want %s", src, got, want)
			}
		}
	}
}

// A spelling the grammar would capture but token does not know is an
// error at its position, never a panic.
func TestUnknownOperatorSpelling(t *testing.T) {
	c := &converter{errs: &ast.ErrorList{}}
	tok := lexer.Token{Value: "***", Pos: lexer.Position{Filename: "t.gs", Line: 2, Column: 5}}
	if op := c.op(tok, token.Op.IsBinary, "binary"); op != token.Invalid {
		t.Errorf("op(***) = %s, want Invalid", op)
	}
	if err := c.errs.Err(); err == nil || err.Error() != `t.gs:2:5: unknown binary operator "***"` {
		t.Errorf("error = %v", err)
	}
	tok.Value = "!"
	if op := c.op(tok, token.Op.IsBinary, "binary"); op != token.Invalid || len(*c.errs) != 2 {
		t.Errorf("op(!) as binary = %s with %d errors, want Invalid and a second error", op, len(*c.errs))
	}
}
