package ir

import (
	"fmt"
	"iter"

	"github.com/gscript-lang/gscript/lang/pos"
)

// Type is a scalar type of kernel values.
type Type uint8

const (
	Invalid Type = iota
	Bool
	U8
	I32
	I64
	U32
	U64
	F32
	F64
)

var typeNames = [...]string{"invalid", "bool", "u8", "i32", "i64", "u32", "u64", "f32", "f64"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", t)
}

// Size is the type's size in bytes (bool is one byte).
func (t Type) Size() int {
	switch t {
	case Bool, U8:
		return 1
	case I32, U32, F32:
		return 4
	case I64, U64, F64:
		return 8
	}
	return 0
}

// IsInt reports whether t is an integer type.
func (t Type) IsInt() bool { return t >= U8 && t <= U64 }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t == I32 || t == I64 }

// IsFloat reports whether t is f32 or f64.
func (t Type) IsFloat() bool { return t == F32 || t == F64 }

// IsNumeric reports whether t is an integer or float type.
func (t Type) IsNumeric() bool { return t.IsInt() || t.IsFloat() }

// TypeByName maps "f32" etc. to a Type (Invalid when unknown).
func TypeByName(name string) Type {
	for i, n := range typeNames {
		if i > 0 && n == name {
			return Type(i)
		}
	}
	return Invalid
}

// Reg names a virtual register of a Func. Registers are typed (Func.Regs)
// and hold one value per thread. NoReg marks an absent operand.
type Reg int32

// NoReg is the absent register.
const NoReg Reg = -1

// Op is an instruction opcode.
type Op uint8

const (
	OpConst   Op = iota // Dst = Imm (as Dst's type)
	OpMov               // Dst = A (same type)
	OpConvert           // Dst = T(A): as Convert (float->int truncates; NaN and out of range give the minimum int)
	OpParam             // Dst = scalar parameter Param

	// unary (A)
	OpNeg    // -A
	OpNot    // !A on bool
	OpBitNot // ^A on ints

	// binary (A, B), both of Dst's type unless noted
	OpAdd
	OpSub
	OpMul
	OpDiv // ints truncate toward zero; int division by zero is a run-time error on cpu
	OpRem // ints only: sign of the dividend; by zero is an error on cpu
	OpShl // B is any int type; shift counts >= width give 0 (or -1 for >> of negative), as in Go
	OpShr
	OpAnd
	OpOr
	OpXor
	OpEq // comparisons: A, B of one type; Dst is Bool
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe

	// math: Dst and operands of one type (float unless noted)
	OpSqrt
	OpRsqrt
	OpSin
	OpCos
	OpTan
	OpAsin
	OpAcos
	OpAtan
	OpSinh
	OpCosh
	OpTanh
	OpExp
	OpExp2
	OpLog
	OpLog2
	OpLog10
	OpFloor
	OpCeil
	OpRound // half away from zero, as C round()
	OpTrunc
	OpAbs   // also ints
	OpSign  // also ints: -1, 0 or 1 (float: NaN stays NaN)
	OpIsNan // Dst Bool
	OpIsInf // Dst Bool
	OpIsFinite
	OpAtan2
	OpPow
	OpMin // also ints; float: as fminf/fmin (a NaN operand yields the other)
	OpMax
	OpClamp  // clamp(A, B=lo, C=hi) = min(max(A, lo), hi); also ints
	OpFma    // A*B + C, one rounding
	OpSelect // Dst = A(bool) ? B : C  (both B and C are evaluated)

	// threads and arrays
	OpTid   // Dst(i32) = thread index along axis Imm (0-based)
	OpShape // Dst(i32) = extent of axis Imm of array parameter Param
	OpLoad  // Dst = Param[Args...] (bounds-checked on cpu; on cuda when debug)
	OpStore // Param[Args[:n-1]...] = Args[n-1]
	// atomics: Dst = old value; Param[Args[:k]] op= value. Dst may be NoReg.
	OpAtomicAdd // Args = indices..., value
	OpAtomicSub
	OpAtomicMin
	OpAtomicMax
	OpAtomicCAS // Args = indices..., compare, value: stores value if old == compare

	OpCall  // Dsts = Funcs[Callee](Args...), one per callee result (see Inst.Dsts); Dst is NoReg
	OpPrint // device print: Format with %v-style verbs filled from Args

	// Block kernels (Kernel.Block set), entry func only; see "Block
	// kernels" in doc.go for the exact semantics both backends share.
	OpThreadId // Dst(i32) = index of the thread in its block along axis Imm
	OpBlockId  // Dst(i32) = index of the block in the grid along axis Imm
	OpBlockDim // Dst(i32) = Kernel.Block[Imm]
	OpGridDim  // Dst(i32) = blocks of the launch along axis Imm
	OpLaneId   // Dst(i32) = linear thread index in the block % 32
	OpWarpId   // Dst(i32) = linear thread index in the block / 32
	OpSync     // barrier of every thread of the block (__syncthreads)
	OpSyncWarp // barrier of the threads of the warp (__syncwarp)
	// shuffles: Dst = A as held by another lane of the warp, chosen by B (i32)
	OpShfl     // lane B & 31
	OpShflDown // lane + B; the own value when B is outside 0..31 or lane+B > 31
	OpShflUp   // lane - B; the own value when B is outside 0..31 or lane-B < 0
	OpShflXor  // lane ^ (B & 31)
	OpBallot   // Dst(u32): bit k set where lane k's A (bool) holds
	OpWarpAll  // Dst(bool): A holds on every lane of the warp
	OpWarpAny  // Dst(bool): A holds on some lane of the warp
	OpWarpSum  // Dst = sum of A over the warp, in the butterfly order of doc.go
	OpWarpMin  // as OpMin over the warp
	OpWarpMax
	// block collectives: reached by every thread of the block, as OpSync
	OpBlockSum      // sum of A over the block (doc.go: the order)
	OpBlockMin      // as OpMin over the block
	OpBlockMax      // as OpMax over the block
	OpBlockScan     // inclusive prefix sum of A in linear thread order
	OpBlockScanExcl // exclusive prefix sum (thread 0 gets 0)
	OpBlockCount    // Dst(i32): threads of the block where A (bool) holds
	OpBlockAny      // Dst(bool): A holds on some thread of the block
	OpBlockAll      // Dst(bool): A holds on every thread of the block

	// Field accesses (structs, TYPES.md section 2): Param is an array of
	// u8 whose last axis holds each element's bytes and is not indexed;
	// Args start with one index per other axis; Imm (an int) is the
	// field's byte offset in the element, a multiple of the accessed
	// type's size. See "Field accesses" in doc.go for the launch rule.
	OpLoadField  // Dst = the Dst-typed value at byte Imm of element [Args...]
	OpStoreField // Args = indices..., value: stores value (its type) at byte Imm of the element

	// A new op gets a row in opTable (optab.go), which Verify, the checker
	// and both backends read; their exhaustiveness tests fail until each
	// implements it.
)

// Stmt is one IR statement: *Inst, *If, *Loop, *Break, *Continue or *Return.
type Stmt interface{ irStmt() }

// Inst is one instruction. Operands are registers; Imm holds constants
// (int64, uint64, float64 or bool, converted to Dst's type), the axis of
// OpTid/OpShape and the block index ops, and the byte offset of field
// accesses; Param is the parameter index for OpParam, and for OpShape,
// OpLoad, OpStore, atomics and field accesses the index of the array in
// Space; Callee indexes Kernel.Funcs for OpCall.
//
// Every op but OpCall writes at most one register, Dst. OpCall writes
// Dsts instead (its Dst is NoReg), because a func may return several
// values (a vector lowers to one register per lane).
type Inst struct {
	Op   Op
	Dst  Reg
	Args []Reg
	// Dsts, for OpCall, has one register per result of the callee, in
	// order; an entry is NoReg where the caller drops that result, and
	// the slice may be empty when the call is a statement. Nil for every
	// other op.
	Dsts   []Reg
	Imm    any
	Param  int
	Space  Space // which arrays Param indexes, for array accesses and OpShape
	Callee int
	// ArrayArgs, for OpCall, has one entry per callee parameter: the
	// caller's parameter index passed for an array parameter, -1 for a
	// scalar one (whose register is in Args at the same position; Args
	// holds NoReg at array positions).
	ArrayArgs []int
	Format    string  // OpPrint: text with one "{}" per argument
	Pos       pos.Pos // source position, for run-time errors (bounds, division)
}

// Defs yields the registers in writes: Dst, or the Dsts of OpCall, less
// NoReg.
func (in *Inst) Defs() iter.Seq[Reg] {
	return func(yield func(Reg) bool) {
		if in.Dst != NoReg {
			yield(in.Dst)
			return
		}
		for _, r := range in.Dsts {
			if r != NoReg && !yield(r) {
				return
			}
		}
	}
}

// If runs Then where Cond (a Bool register) holds, else Else.
type If struct {
	Cond Reg
	Then []Stmt
	Else []Stmt
}

// Loop repeats: run Cond statements, leave when CondReg is false (CondReg
// NoReg means loop forever, until break/return), run Body, then Post.
// `continue` jumps to Post; `break` leaves the loop.
type Loop struct {
	Cond    []Stmt
	CondReg Reg
	Body    []Stmt
	Post    []Stmt
}

// Break leaves the innermost Loop.
type Break struct{}

// Continue goes to the innermost Loop's Post.
type Continue struct{}

// Return ends the thread (in a kernel) or the call (in a func). Values
// holds one register per result of the func, in order (none in a kernel
// or a func without results).
type Return struct{ Values []Reg }

func (*Inst) irStmt()     {}
func (*If) irStmt()       {}
func (*Loop) irStmt()     {}
func (*Break) irStmt()    {}
func (*Continue) irStmt() {}
func (*Return) irStmt()   {}

// Param describes a kernel or func parameter: a scalar (NDim 0) or an
// array of Elem with NDim dimensions (1-4).
type Param struct {
	Name string
	Elem Type
	NDim int
}

// IsArray reports whether the parameter is an array.
func (p Param) IsArray() bool { return p.NDim > 0 }

// Space is where the array of an access lives: Inst.Param indexes the
// parameters, the kernel's shared arrays or the func's local arrays.
type Space uint8

const (
	SpaceParam  Space = iota // Func.Params (an array parameter)
	SpaceShared              // Kernel.Shared (in a block kernel's entry func)
	SpaceLocal               // Func.Locals of the func that runs the access
)

var spaceNames = [...]string{"param", "shared", "local"}

func (s Space) String() string {
	if int(s) < len(spaceNames) {
		return spaceNames[s]
	}
	return fmt.Sprintf("Space(%d)", s)
}

// Buffer is a fixed-shape array a kernel declares: Kernel.Shared (one per
// block, not initialised: a script must write before it reads) or
// Func.Locals (one per thread, zeroed each time the func starts). Dims are
// static extents (1-4 of them, each at least 1), C order.
type Buffer struct {
	Name string
	Elem Type
	Dims []int
	Pos  pos.Pos
}

// Len is the number of elements.
func (b Buffer) Len() int {
	n := 1
	for _, d := range b.Dims {
		n *= d
	}
	return n
}

// Bytes is the buffer's size in bytes.
func (b Buffer) Bytes() int { return b.Len() * b.Elem.Size() }

// Func is a kernel or a device func. Registers 0..len(Params)-1 are not
// special: scalar parameters are read with OpParam, arrays are named by
// parameter index.
type Func struct {
	Name   string
	Pos    pos.Pos
	Params []Param
	// Results are the types of the values a func returns, in order
	// (empty for kernels and funcs without a result).
	Results []Type
	Regs    []Type
	Locals  []Buffer // per-thread arrays (SpaceLocal)
	Body    []Stmt
}

// NewReg adds a register of type t.
func (f *Func) NewReg(t Type) Reg {
	f.Regs = append(f.Regs, t)
	return Reg(len(f.Regs) - 1)
}

// Kernel is a launchable kernel: its entry Func plus the device funcs it
// calls (transitively), referenced by OpCall's Callee index into Funcs.
type Kernel struct {
	Entry *Func
	Funcs []*Func
	// TidDims is the number of names tid() is unpacked into (1-4), or 0 when
	// the kernel never calls tid(); a launch must have that many dimensions.
	TidDims int
	// Uses* summarise the body so backends can skip work.
	UsesAtomics bool
	UsesPrint   bool
	// Block is the block shape of a block kernel (COOPERATIVE.md): 1-3
	// extents in C order (the last axis is the fastest, CUDA's x), their
	// product at most MaxBlockThreads; nil for a flat kernel. A block
	// kernel is launched over a grid: a launch's extents count blocks per
	// axis, as many as len(Block), and are never coarsened. TidDims is 0
	// or len(Block).
	Block []int
	// MinBlocks, for a block kernel, asks that each multiprocessor hold
	// that many of its blocks at once: CUDA's __launch_bounds__ second
	// argument, which caps a thread's registers at the register file
	// over MinBlocks*BlockThreads (64 for 4 blocks of 256). 0 leaves the
	// compiler its choice; the cpu has no registers to budget and ignores
	// it.
	MinBlocks int
	// Shared are the block-scoped arrays of a block kernel (SpaceShared).
	Shared []Buffer
	// FastMath allows the float shortcuts of doc.go's "Fast math"; false
	// asks for the strict, bit-identical rules.
	FastMath bool
}

// MaxBlockThreads bounds the threads of one block (CUDA's limit).
const MaxBlockThreads = 1024

// WarpSize is the number of lanes of a warp on every backend.
const WarpSize = 32

// IsBlock reports whether k is a block kernel.
func (k *Kernel) IsBlock() bool { return len(k.Block) > 0 }

// BlockThreads is the number of threads of one block of a block kernel
// (0 for a flat kernel).
func (k *Kernel) BlockThreads() int {
	if !k.IsBlock() {
		return 0
	}
	n := 1
	for _, d := range k.Block {
		n *= d
	}
	return n
}

// SharedBytes is the shared memory one block of k uses: its buffers in
// order, each at an offset aligned to 16 bytes.
func (k *Kernel) SharedBytes() int {
	n := 0
	for _, b := range k.Shared {
		n = (n+15)&^15 + b.Bytes()
	}
	return n
}
