package ast

import "github.com/gscript-lang/gscript/lang/token"

// Node is any syntax tree node.
type Node interface {
	// Start is the position of the node's first token.
	Start() Pos
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// File is one parsed script.
type File struct {
	Name  string
	Stmts []Stmt
}

// Block is a braced statement list; it opens a lexical scope.
type Block struct {
	Pos   Pos // of '{'
	Stmts []Stmt
	End   Pos // of '}'
}

// Ident is a name use or definition. The resolver fills Scope, Depth and
// Index for names in host code; names inside kernels and funcs are left to
// the kernel checker.
type Ident struct {
	Pos   Pos
	Name  string
	Scope Scope
	Depth int // ScopeLocal: how many enclosing fn frames up (0 = this fn)
	Index int // slot in the frame (ScopeLocal) or global table (ScopeGlobal)
}

// Scope says where a resolved host name lives.
type Scope uint8

const (
	ScopeUnresolved  Scope = iota // not (yet) resolved, or not a variable
	ScopeLocal                    // a slot of a fn call frame
	ScopeGlobal                   // a slot of the interpreter's global table
	ScopePredeclared              // a predeclared value or builtin, looked up by name
)

// TypeExpr is a kernel type: a scalar type name (Elem nil) or
// array[Elem] / array[Elem, NDim].
type TypeExpr struct {
	Pos  Pos
	Name string    // "bool", "f32", ... or "array"
	Elem *TypeExpr // element type when Name == "array"
	NDim int       // array rank (1 when omitted); 0 for scalars
}

// Param is a parameter of a fn, kernel or func. Type is nil for host fn
// parameters.
type Param struct {
	Name *Ident
	Type *TypeExpr
}

// ---- statements ----

// LetStmt is `let a = e`, `let a: T = e` or `let i, j = tid()`.
type LetStmt struct {
	Pos   Pos
	Names []*Ident
	Type  *TypeExpr // optional annotation
	Value Expr
}

// ConstDecl is `const NAME = e` or `const NAME: T = e` (T a scalar type),
// allowed only at top level: e is a constant expression the checker
// evaluates before anything runs.
type ConstDecl struct {
	Pos   Pos
	Name  *Ident
	Type  *TypeExpr // optional
	Value Expr
}

// StructDecl is `struct Name { field: T, ... }`, allowed only at top
// level. Field types are scalar, vector, matrix, quaternion or struct
// names (the checker resolves them); End is the position of '}'.
type StructDecl struct {
	Pos    Pos
	Name   *Ident
	Fields []*StructField
	End    Pos
}

// StructField is one `name: T` of a StructDecl.
type StructField struct {
	Name *Ident
	Type *TypeExpr
}

// AssignStmt is `target op value` where Op is token.Assign or a compound
// assignment (token.AddAssign, ...; Op.Compound is its binary operator).
// Target is an *Ident, *IndexExpr or *AttrExpr. `a, b = value` (two or
// more targets, Op token.Assign) has them in Targets and a nil Target;
// `a, b = b, a` has a Tuple ListLit as its Value.
type AssignStmt struct {
	Pos     Pos
	Target  Expr
	Targets []Expr
	Op      token.Op
	OpPos   Pos
	Value   Expr
}

// ExprStmt is an expression evaluated for its effect (a call).
type ExprStmt struct {
	X Expr
}

// IfStmt is `if Cond Then [else Else]`; Else is nil, a *Block or an *IfStmt.
type IfStmt struct {
	Pos  Pos
	Cond Expr
	Then *Block
	Else Stmt
}

// ForStmt is `for Var in Iter Body`, or `for a, b in Iter Body` with the
// two or more names in Vars and a nil Var (each element is unpacked).
type ForStmt struct {
	Pos  Pos
	Var  *Ident
	Vars []*Ident
	Iter Expr
	Body *Block
	// VarUsed, set by the resolver, says whether any name in the body
	// refers to Var: when none does, the loop need not store it.
	VarUsed bool
}

// WhileStmt is `while Cond Body`.
type WhileStmt struct {
	Pos  Pos
	Cond Expr
	Body *Block
}

// BranchStmt is `break` or `continue` (Tok holds which).
type BranchStmt struct {
	Pos Pos
	Tok string
}

// ReturnStmt is `return [Value]`.
type ReturnStmt struct {
	Pos   Pos
	Value Expr // nil for a bare return
}

// AssertStmt is `assert Cond[, Msg]`.
type AssertStmt struct {
	Pos  Pos
	Cond Expr
	Msg  Expr // optional
}

// ImportStmt is `import "path/util.gs"`: Name (positioned at the path) is
// the binding the file's top-level names are reached through, the path's
// base name without ".gs".
type ImportStmt struct {
	Pos     Pos
	Path    string
	PathPos Pos
	Name    *Ident
}

// FnDecl is a host function `fn name(a, b) { }`.
type FnDecl struct {
	Pos       Pos
	Name      *Ident
	Params    []*Param
	Body      *Block
	NumLocals int // frame size, set by the resolver (params first)
	// Escapes, set by the resolver, says that a fn is declared inside
	// this one: a closure may outlive the call and keep its frame, so
	// the frame cannot be reused after the call returns.
	Escapes bool
}

// KernelDecl is `kernel name(p: T, ...) [block(B0, ...)] [adjoint NAME] [fast] { }`.
// Block holds the block shape's extents (constant expressions) of a block
// kernel, and is nil for a flat kernel. Fast marks a fast-math kernel
// (ir.Kernel.FastMath).
type KernelDecl struct {
	Pos      Pos
	Name     *Ident
	Params   []*Param
	Block    []Expr
	BlockPos Pos // of "block"
	// Adjoint names the kernel declared as this one's custom adjoint
	// (`kernel k(...) adjoint k_adj {`); nil when there is none.
	Adjoint    *Ident
	AdjointPos Pos // of "adjoint"
	Fast       bool
	Body       *Block
}

// FuncDecl is a device function `func name(p: T, ...) -> T { }`.
// Result is nil when the func returns nothing.
type FuncDecl struct {
	Pos    Pos
	Name   *Ident
	Params []*Param
	Result *TypeExpr
	Body   *Block
}

// ArrayDecl is `array NAME: DTYPE[D0, ...] [= Init] [on Device] [using Allocator]`.
type ArrayDecl struct {
	Pos       Pos
	Name      *Ident
	DType     *Ident
	Dims      []Expr
	Init      Expr // optional
	Device    Expr // optional
	Allocator Expr // optional: *Ident (allocator name) or a string expression
	Grad      bool // requires_grad: the array gets a zero-filled gradient
}

// LaunchStmt is `launch Kernel[D0, ...](Args) [on Device]`, or with
// `[grid(D0, ...)]` a launch of a block kernel over a grid of blocks: Dims
// then count blocks, and Grid is the position of "grid" (the zero Pos for a
// launch over threads).
type LaunchStmt struct {
	Pos    Pos
	Module *Ident // the import of `launch util.k[...]`; nil for a plain name
	Kernel *Ident // resolved only when Module is nil
	Grid   Pos
	Dims   []Expr
	Args   []Expr
	Device Expr // optional
}

// BufferDecl is `shared NAME: Elem[D0, ...]` (one array per block of a
// block kernel) or `local NAME: Elem[D0, ...]` (one per thread), with
// constant extents.
type BufferDecl struct {
	Pos    Pos
	Shared bool
	Name   *Ident
	Elem   *Ident
	Dims   []Expr
}

// DeviceBlock is `device DEV { }`.
type DeviceBlock struct {
	Pos    Pos
	Device Expr
	Body   *Block
}

// AllocatorBlock is `allocator NAME [on DEV] { }`. Name is an *Ident (the
// allocator's name, not a variable) or a string expression.
type AllocatorBlock struct {
	Pos    Pos
	Name   Expr
	Device Expr // optional
	Body   *Block
}

// TryStmt is `try Body catch [Var] Catch`: Var (nil for `catch {`) is
// bound to the error value in Catch.
type TryStmt struct {
	Pos      Pos
	Body     *Block
	CatchPos Pos
	Var      *Ident
	Catch    *Block
}

// CaptureBlock is `capture NAME [on DEV] { }`.
type CaptureBlock struct {
	Pos    Pos
	Name   *Ident
	Device Expr // optional
	Body   *Block
}

// TapeBlock is `tape NAME { }`: the body runs while a tape records what
// reverse-mode differentiation needs; NAME is bound to the tape after it.
type TapeBlock struct {
	Pos  Pos
	Name *Ident
	Body *Block
}

func (s *Block) Start() Pos          { return s.Pos }
func (s *LetStmt) Start() Pos        { return s.Pos }
func (s *AssignStmt) Start() Pos     { return s.Pos }
func (s *ConstDecl) Start() Pos      { return s.Pos }
func (s *StructDecl) Start() Pos     { return s.Pos }
func (s *ExprStmt) Start() Pos       { return s.X.Start() }
func (s *IfStmt) Start() Pos         { return s.Pos }
func (s *ForStmt) Start() Pos        { return s.Pos }
func (s *WhileStmt) Start() Pos      { return s.Pos }
func (s *BranchStmt) Start() Pos     { return s.Pos }
func (s *ReturnStmt) Start() Pos     { return s.Pos }
func (s *AssertStmt) Start() Pos     { return s.Pos }
func (s *ImportStmt) Start() Pos     { return s.Pos }
func (s *FnDecl) Start() Pos         { return s.Pos }
func (s *KernelDecl) Start() Pos     { return s.Pos }
func (s *FuncDecl) Start() Pos       { return s.Pos }
func (s *ArrayDecl) Start() Pos      { return s.Pos }
func (s *LaunchStmt) Start() Pos     { return s.Pos }
func (s *BufferDecl) Start() Pos     { return s.Pos }
func (s *DeviceBlock) Start() Pos    { return s.Pos }
func (s *AllocatorBlock) Start() Pos { return s.Pos }
func (s *CaptureBlock) Start() Pos   { return s.Pos }
func (s *TapeBlock) Start() Pos      { return s.Pos }
func (s *TryStmt) Start() Pos        { return s.Pos }

func (*Block) stmtNode()          {}
func (*LetStmt) stmtNode()        {}
func (*AssignStmt) stmtNode()     {}
func (*ConstDecl) stmtNode()      {}
func (*StructDecl) stmtNode()     {}
func (*ExprStmt) stmtNode()       {}
func (*IfStmt) stmtNode()         {}
func (*ForStmt) stmtNode()        {}
func (*WhileStmt) stmtNode()      {}
func (*BranchStmt) stmtNode()     {}
func (*ReturnStmt) stmtNode()     {}
func (*ImportStmt) stmtNode()     {}
func (*AssertStmt) stmtNode()     {}
func (*FnDecl) stmtNode()         {}
func (*KernelDecl) stmtNode()     {}
func (*FuncDecl) stmtNode()       {}
func (*ArrayDecl) stmtNode()      {}
func (*LaunchStmt) stmtNode()     {}
func (*BufferDecl) stmtNode()     {}
func (*DeviceBlock) stmtNode()    {}
func (*AllocatorBlock) stmtNode() {}
func (*CaptureBlock) stmtNode()   {}
func (*TapeBlock) stmtNode()      {}
func (*TryStmt) stmtNode()        {}

// ---- expressions ----

// BasicLit is a literal. Kind is "int", "float" or "string"; Value holds the
// decoded value: uint64 for ints (the literal has no sign), float64 for floats,
// string for strings. Raw is the source text.
type BasicLit struct {
	Pos   Pos
	Kind  string
	Raw   string
	Value any
}

// BoolLit is `true` or `false`.
type BoolLit struct {
	Pos   Pos
	Value bool
}

// NilLit is `nil`.
type NilLit struct {
	Pos Pos
}

// ListLit is `[a, b, ...]`. Tuple marks the bare `a, b` of an
// assignment's, let's or return's value (`a, b = b, a`, `return q, r`):
// a list too, but one the evaluator may unpack without building.
type ListLit struct {
	Pos   Pos
	Elems []Expr
	Tuple bool
}

// DictLit is `{k: v, ...}` (Keys[i] maps to Values[i]); `{}` is an
// empty dict. Pos is the '{'.
type DictLit struct {
	Pos    Pos
	Keys   []Expr
	Values []Expr
}

// UnaryExpr is `Op X` with Op one of token.Sub, Add, Not, BitNot (- + ! ~).
type UnaryExpr struct {
	Pos Pos
	Op  token.Op
	X   Expr
}

// BinaryExpr is `X Op Y` with Op.IsBinary; OpPos is the operator's position.
type BinaryExpr struct {
	X     Expr
	Op    token.Op
	OpPos Pos
	Y     Expr
}

// KwArg is `name=value` in a call.
type KwArg struct {
	Name  *Ident
	Value Expr
}

// CallExpr is `Fun(Args..., Kwargs...)`; Lparen is the '(' position.
type CallExpr struct {
	Fun    Expr
	Lparen Pos
	Args   []Expr
	Kwargs []*KwArg
}

// IndexExpr is `X[I0, I1, ...]`; Lbrack is the '[' position. Each index
// is an expression or, in host code, a *SliceComponent (`a[1:3, j]`).
type IndexExpr struct {
	X       Expr
	Lbrack  Pos
	Indices []Expr
}

// SliceComponent is one `Lo:Hi:Step` component of an IndexExpr; any of
// the three may be nil. Colon is the first ':'. It is an Expr only so
// that it can stand among the indices: it has no value of its own.
type SliceComponent struct {
	Lo       Expr
	Colon    Pos
	Hi, Step Expr
}

// Slices reports whether any index is a SliceComponent.
func (e *IndexExpr) Slices() bool {
	for _, x := range e.Indices {
		if _, ok := x.(*SliceComponent); ok {
			return true
		}
	}
	return false
}

// AttrExpr is `X.Name`.
type AttrExpr struct {
	X    Expr
	Name *Ident
}

// ParenExpr is `(X)`; kept so positions and printing stay faithful.
type ParenExpr struct {
	Pos Pos
	X   Expr
}

func (e *Ident) Start() Pos      { return e.Pos }
func (e *BasicLit) Start() Pos   { return e.Pos }
func (e *BoolLit) Start() Pos    { return e.Pos }
func (e *NilLit) Start() Pos     { return e.Pos }
func (e *ListLit) Start() Pos    { return e.Pos }
func (e *DictLit) Start() Pos    { return e.Pos }
func (e *UnaryExpr) Start() Pos  { return e.Pos }
func (e *BinaryExpr) Start() Pos { return e.X.Start() }
func (e *CallExpr) Start() Pos   { return e.Fun.Start() }
func (e *IndexExpr) Start() Pos  { return e.X.Start() }
func (e *SliceComponent) Start() Pos {
	if e.Lo != nil {
		return e.Lo.Start()
	}
	return e.Colon
}
func (e *AttrExpr) Start() Pos  { return e.X.Start() }
func (e *ParenExpr) Start() Pos { return e.Pos }
func (e *TypeExpr) Start() Pos  { return e.Pos }

func (*Ident) exprNode()          {}
func (*BasicLit) exprNode()       {}
func (*BoolLit) exprNode()        {}
func (*NilLit) exprNode()         {}
func (*ListLit) exprNode()        {}
func (*DictLit) exprNode()        {}
func (*UnaryExpr) exprNode()      {}
func (*BinaryExpr) exprNode()     {}
func (*CallExpr) exprNode()       {}
func (*IndexExpr) exprNode()      {}
func (*SliceComponent) exprNode() {}
func (*AttrExpr) exprNode()       {}
func (*ParenExpr) exprNode()      {}
