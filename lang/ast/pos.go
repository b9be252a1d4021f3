// Package ast holds gscript's syntax tree: every node carries the position of
// its first token. Operators (AssignStmt, UnaryExpr and BinaryExpr's Op) are
// lang/token's enum, not their spelling: a consumer switches on constants the
// compiler checks and prints an operator with its one spelling, Op.String.
package ast

import "github.com/gscript-lang/gscript/lang/pos"

// The position types live in lang/pos so that the kernel IR and the runtime
// need not import the syntax tree; the tree's code names them through these
// aliases.
type (
	Pos       = pos.Pos
	Error     = pos.Error
	ErrorList = pos.ErrorList
)

// MaxErrors is how many errors a list keeps when truncated (pos.MaxErrors).
const MaxErrors = pos.MaxErrors
