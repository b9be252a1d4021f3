package check

import (
	gotoken "go/token"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// The kernel checker's operator tables. TestOperatorTables ranges over
// token.All and fails when an operator of a table's role has no row, so
// a lookup here never meets a missing operator.

// binOps is the ir op of each scalar binary operator; && and || lower to
// control flow (logical) and @ is host-only, so they have none.
var binOps = map[token.Op]ir.Op{
	token.Add: ir.OpAdd, token.Sub: ir.OpSub, token.Mul: ir.OpMul, token.Quo: ir.OpDiv, token.Rem: ir.OpRem,
	token.Shl: ir.OpShl, token.Shr: ir.OpShr, token.And: ir.OpAnd, token.Or: ir.OpOr, token.Xor: ir.OpXor,
	token.Eql: ir.OpEq, token.Neq: ir.OpNe, token.Lss: ir.OpLt, token.Leq: ir.OpLe, token.Gtr: ir.OpGt, token.Geq: ir.OpGe,
}

// binTokens is go/constant's token for folding each binary operator but
// the shifts (constant.Shift) and @.
var binTokens = map[token.Op]gotoken.Token{
	token.Add: gotoken.ADD, token.Sub: gotoken.SUB, token.Mul: gotoken.MUL, token.Quo: gotoken.QUO, token.Rem: gotoken.REM,
	token.And: gotoken.AND, token.Or: gotoken.OR, token.Xor: gotoken.XOR,
	token.Eql: gotoken.EQL, token.Neq: gotoken.NEQ, token.Lss: gotoken.LSS, token.Leq: gotoken.LEQ, token.Gtr: gotoken.GTR, token.Geq: gotoken.GEQ,
	token.LAnd: gotoken.LAND, token.LOr: gotoken.LOR,
}

// unaryKinds says which operands each unary operator takes.
var unaryKinds = map[token.Op]func(operand) bool{
	token.Sub: isNumeric, token.Add: isNumeric, token.Not: isBool, token.BitNot: isInteger,
}

// unaryOps is the ir op of each unary operator but +, which is the operand.
var unaryOps = map[token.Op]ir.Op{token.Sub: ir.OpNeg, token.Not: ir.OpNot, token.BitNot: ir.OpBitNot}

// unaryTokens is go/constant's token for folding each unary operator.
var unaryTokens = map[token.Op]gotoken.Token{
	token.Sub: gotoken.SUB, token.Add: gotoken.ADD, token.Not: gotoken.NOT, token.BitNot: gotoken.XOR,
}
