package ir

import "fmt"

// TypeSet is a set of Types, one bit per Type.
type TypeSet uint16

// Type sets of the op table.
const (
	Bools   TypeSet = 1 << Bool
	Ints    TypeSet = 1<<U8 | 1<<I32 | 1<<I64 | 1<<U32 | 1<<U64
	Floats  TypeSet = 1<<F32 | 1<<F64
	Nums            = Ints | Floats
	Scalars         = Bools | Nums
	// Atomics are the element types atomic read-modify-writes apply to
	// (CUDA has no 1-byte atomics).
	Atomics TypeSet = 1<<I32 | 1<<I64 | 1<<U32 | 1<<U64 | 1<<F32 | 1<<F64
)

// Has reports whether t is in s.
func (s TypeSet) Has(t Type) bool { return t != Invalid && t < 16 && s&(1<<t) != 0 }

// Types lists the members of s in Type order.
func (s TypeSet) Types() []Type {
	var ts []Type
	for t := Bool; t <= F64; t++ {
		if s.Has(t) {
			ts = append(ts, t)
		}
	}
	return ts
}

// Form is the operand shape of an op: which registers it reads and how
// their types relate. Verify checks an instruction against its op's Form,
// Arity, Types and Result.
type Form uint8

const (
	FormLeaf    Form = iota // no register operands: an immediate, a parameter, tid or a shape
	FormSame                // Arity operands of one type T (in Types)
	FormConvert             // one operand of a type in Types; Dst of any type in Types
	FormShift               // A of type T (in Types), B of any integer type
	FormSelect              // A bool, B and C of one type T (in Types)
	FormAccess              // array parameter Param, one integer index per dimension, then Arity values of its element type (in Types)
	FormCall                // one Arg per callee parameter (NoReg at array positions, see Inst.ArrayArgs)
	FormPrint               // any number of scalar operands, one per "{}" of Format
	FormLane                // A of type T (in Types), B of type i32 (a lane, offset or mask)
	FormField               // array Param of u8, one integer index per dimension but the last, then Arity values of a type T in Types; Imm is a byte offset
)

// Result is the rule giving the type of an instruction's Dst.
type Result uint8

const (
	ResultNone    Result = iota // no Dst (NoReg)
	ResultSame                  // T, the operand type
	ResultBool                  // Bool
	ResultI32                   // I32
	ResultImm                   // any type in Types: the immediate converts to it (OpConst)
	ResultParam                 // the scalar parameter's type (OpParam)
	ResultAny                   // any type in Types (OpConvert, OpLoadField)
	ResultElem                  // the array's element type
	ResultOldElem               // the array's element type, or NoReg (atomics: the old value)
	ResultCallee                // no Dst (NoReg); Dsts: one per callee result, its type or NoReg (OpCall)
	ResultU32                   // U32
)

// Axis says what an op's immediate axis counts.
type Axis uint8

const (
	AxisNone   Axis = iota // no axis
	AxisLaunch             // an axis of the launch (tid): below max(TidDims, 1)
	AxisArray              // an axis of the array Param (shape)
	AxisBlock              // an axis of the block shape (block kernels' index ops)
)

// OpInfo is one row of the op table: everything about an op that does not
// depend on a backend. The checker, the IR dump, Verify and both backends
// read it; a backend's exhaustiveness test iterates it.
type OpInfo struct {
	Name   string
	Form   Form
	Arity  int     // register operands (FormAccess: values after the indices); -1 when variable
	Types  TypeSet // the types T the op is defined for
	Result Result
	Atomic bool // a read-modify-write of array memory
	Axis   Axis // what Imm counts, for ops with an axis
	// Block ops exist only in the entry func of a block kernel; Warp ops
	// also need the block's thread count to be a multiple of WarpSize;
	// Barrier ops must be reached by every thread of the block (the
	// checker's uniformity rule, a run-time error on the cpu).
	Block   bool
	Warp    bool
	Barrier bool
	// Builtin is the name kernels call the op by as a math builtin
	// (sqrt(x), clamp(x, lo, hi), at the types in Types); "" for an op
	// that is not one. The checker's math builtins, the host array
	// functions (Elementwise) and the docs read it.
	Builtin string
	// Diff is how reverse-mode differentiation treats the op, and
	// Adjoint, set exactly when Diff is DiffRule, its partials (adjoint.go;
	// lang/ad differentiates kernels with them, stdlib/fuse array
	// expressions).
	Diff    DiffKind
	Adjoint AdjointRule
	// Elementwise: the host applies the builtin to arrays element by
	// element under the same name (stdlib/fuse; ints compute in f64 where
	// Types has only floats). fma, min, max and clamp are not: on arrays
	// they are NumPy's minimum, maximum and clip, with NaN rules of their own.
	Elementwise bool
}

// ResultType is the type of the result for operands of type t, for the
// result rules that depend on t alone (Same, Bool, I32, U32): what the
// backends give a warp op's or a collective's destination.
func (info OpInfo) ResultType(t Type) Type {
	switch info.Result {
	case ResultBool:
		return Bool
	case ResultI32:
		return I32
	case ResultU32:
		return U32
	}
	return t
}

func same(name string, arity int, ts TypeSet) OpInfo {
	return OpInfo{Name: name, Form: FormSame, Arity: arity, Types: ts, Result: ResultSame}
}

// test is a predicate: a bool result carries no gradient.
func test(name string, arity int, ts TypeSet) OpInfo {
	return OpInfo{Name: name, Form: FormSame, Arity: arity, Types: ts, Result: ResultBool, Diff: DiffNone}
}

// kernelMath makes info a math builtin of kernels under its name.
func kernelMath(info OpInfo) OpInfo {
	info.Builtin = info.Name
	return info
}

// arrayMath makes info a math builtin of kernels and of host arrays.
func arrayMath(info OpInfo) OpInfo {
	info = kernelMath(info)
	info.Elementwise = true
	return info
}

func atomic(name string, values int) OpInfo {
	return OpInfo{Name: name, Form: FormAccess, Arity: values, Types: Atomics, Result: ResultOldElem, Atomic: true, Diff: DiffStructural}
}

// index is a block kernel's i32 index op; per-axis ones take an AxisBlock.
func index(name string, axis Axis) OpInfo {
	return OpInfo{Name: name, Form: FormLeaf, Types: 1 << I32, Result: ResultI32, Axis: axis, Block: true, Diff: DiffRefused}
}

// warp is a warp-level op of Form, operand types ts and result r.
func warp(name string, form Form, arity int, ts TypeSet, r Result) OpInfo {
	return OpInfo{Name: name, Form: form, Arity: arity, Types: ts, Result: r, Block: true, Warp: true, Diff: DiffRefused}
}

// collective is a block collective: a warp op that every thread reaches.
func collective(name string, ts TypeSet, r Result) OpInfo {
	info := warp(name, FormSame, 1, ts, r)
	info.Barrier = true
	return info
}

// opTable is indexed by Op; every Op constant has a row (TestOpTable).
var opTable = [...]OpInfo{
	OpConst:   diff(OpInfo{Name: "const", Form: FormLeaf, Types: Scalars, Result: ResultImm}, DiffStructural),
	OpMov:     diff(same("mov", 1, Scalars), DiffStructural),
	OpConvert: diff(OpInfo{Name: "convert", Form: FormConvert, Arity: 1, Types: Scalars, Result: ResultAny}, DiffStructural),
	OpParam:   diff(OpInfo{Name: "param", Form: FormLeaf, Types: Scalars, Result: ResultParam}, DiffStructural),

	OpNeg:    rule(same("neg", 1, Nums), adjNeg),
	OpNot:    diff(same("not", 1, Bools), DiffNone),
	OpBitNot: diff(same("bitnot", 1, Ints), DiffNone),

	OpAdd: rule(same("add", 2, Nums), adjAdd),
	OpSub: rule(same("sub", 2, Nums), adjSub),
	OpMul: rule(same("mul", 2, Nums), adjMul),
	OpDiv: rule(same("div", 2, Nums), adjDiv),
	OpRem: diff(same("rem", 2, Ints), DiffNone),
	OpShl: diff(OpInfo{Name: "shl", Form: FormShift, Arity: 2, Types: Ints, Result: ResultSame}, DiffNone),
	OpShr: diff(OpInfo{Name: "shr", Form: FormShift, Arity: 2, Types: Ints, Result: ResultSame}, DiffNone),
	OpAnd: diff(same("and", 2, Ints|Bools), DiffNone),
	OpOr:  diff(same("or", 2, Ints|Bools), DiffNone),
	OpXor: diff(same("xor", 2, Ints|Bools), DiffNone),
	OpEq:  test("eq", 2, Scalars),
	OpNe:  test("ne", 2, Scalars),
	OpLt:  test("lt", 2, Nums),
	OpLe:  test("le", 2, Nums),
	OpGt:  test("gt", 2, Nums),
	OpGe:  test("ge", 2, Nums),

	OpSqrt:     rule(arrayMath(same("sqrt", 1, Floats)), adjSqrt),
	OpRsqrt:    rule(arrayMath(same("rsqrt", 1, Floats)), adjRsqrt),
	OpSin:      rule(arrayMath(same("sin", 1, Floats)), adjSin),
	OpCos:      rule(arrayMath(same("cos", 1, Floats)), adjCos),
	OpTan:      rule(arrayMath(same("tan", 1, Floats)), adjTan),
	OpAsin:     rule(arrayMath(same("asin", 1, Floats)), adjAsin),
	OpAcos:     rule(arrayMath(same("acos", 1, Floats)), adjAcos),
	OpAtan:     rule(arrayMath(same("atan", 1, Floats)), adjAtan),
	OpSinh:     rule(arrayMath(same("sinh", 1, Floats)), adjSinh),
	OpCosh:     rule(arrayMath(same("cosh", 1, Floats)), adjCosh),
	OpTanh:     rule(arrayMath(same("tanh", 1, Floats)), adjTanh),
	OpExp:      rule(arrayMath(same("exp", 1, Floats)), adjExp),
	OpExp2:     rule(arrayMath(same("exp2", 1, Floats)), adjExp2),
	OpLog:      rule(arrayMath(same("log", 1, Floats)), adjLog),
	OpLog2:     rule(arrayMath(same("log2", 1, Floats)), adjLog2),
	OpLog10:    rule(arrayMath(same("log10", 1, Floats)), adjLg10),
	OpFloor:    diff(arrayMath(same("floor", 1, Floats)), DiffNone),
	OpCeil:     diff(arrayMath(same("ceil", 1, Floats)), DiffNone),
	OpRound:    diff(arrayMath(same("round", 1, Floats)), DiffNone),
	OpTrunc:    diff(arrayMath(same("trunc", 1, Floats)), DiffNone),
	OpAbs:      rule(arrayMath(same("abs", 1, Nums)), adjAbs),
	OpSign:     diff(arrayMath(same("sign", 1, Nums)), DiffNone),
	OpIsNan:    arrayMath(test("isnan", 1, Floats)),
	OpIsInf:    arrayMath(test("isinf", 1, Floats)),
	OpIsFinite: arrayMath(test("isfinite", 1, Floats)),
	OpAtan2:    rule(arrayMath(same("atan2", 2, Floats)), adjAtan2),
	OpPow:      rule(arrayMath(same("pow", 2, Floats)), adjPow),
	OpMin:      rule(kernelMath(same("min", 2, Nums)), adjMinMax),
	OpMax:      rule(kernelMath(same("max", 2, Nums)), adjMinMax),
	OpClamp:    rule(kernelMath(same("clamp", 3, Nums)), adjClamp),
	OpFma:      rule(kernelMath(same("fma", 3, Floats)), adjFma),
	OpSelect:   rule(OpInfo{Name: "select", Form: FormSelect, Arity: 3, Types: Scalars, Result: ResultSame}, adjSelect),

	OpTid:   diff(OpInfo{Name: "tid", Form: FormLeaf, Types: 1 << I32, Result: ResultI32, Axis: AxisLaunch}, DiffNone),
	OpShape: diff(OpInfo{Name: "shape", Form: FormLeaf, Types: 1 << I32, Result: ResultI32, Axis: AxisArray}, DiffNone),
	OpLoad:  diff(OpInfo{Name: "load", Form: FormAccess, Types: Scalars, Result: ResultElem}, DiffStructural),
	OpStore: diff(OpInfo{Name: "store", Form: FormAccess, Arity: 1, Types: Scalars, Result: ResultNone}, DiffStructural),

	OpAtomicAdd: atomic("atomic_add", 1),
	OpAtomicSub: atomic("atomic_sub", 1),
	OpAtomicMin: atomic("atomic_min", 1),
	OpAtomicMax: atomic("atomic_max", 1),
	OpAtomicCAS: atomic("atomic_cas", 2),

	OpCall:  diff(OpInfo{Name: "call", Form: FormCall, Arity: -1, Types: Scalars, Result: ResultCallee}, DiffStructural),
	OpPrint: diff(OpInfo{Name: "print", Form: FormPrint, Arity: -1, Types: Scalars, Result: ResultNone}, DiffStructural),

	OpThreadId: index("thread_id", AxisBlock),
	OpBlockId:  index("block_id", AxisBlock),
	OpBlockDim: index("block_dim", AxisBlock),
	OpGridDim:  index("grid_dim", AxisBlock),
	OpLaneId:   index("lane_id", AxisNone),
	OpWarpId:   index("warp_id", AxisNone),
	OpSync:     diff(OpInfo{Name: "sync", Form: FormLeaf, Result: ResultNone, Block: true, Barrier: true}, DiffRefused),
	OpSyncWarp: diff(OpInfo{Name: "sync_warp", Form: FormLeaf, Result: ResultNone, Block: true, Warp: true}, DiffRefused),

	OpShfl:     warp("shfl", FormLane, 2, Scalars, ResultSame),
	OpShflDown: warp("shfl_down", FormLane, 2, Scalars, ResultSame),
	OpShflUp:   warp("shfl_up", FormLane, 2, Scalars, ResultSame),
	OpShflXor:  warp("shfl_xor", FormLane, 2, Scalars, ResultSame),
	OpBallot:   warp("ballot", FormSame, 1, Bools, ResultU32),
	OpWarpAll:  warp("warp_all", FormSame, 1, Bools, ResultBool),
	OpWarpAny:  warp("warp_any", FormSame, 1, Bools, ResultBool),
	OpWarpSum:  warp("warp_sum", FormSame, 1, Nums, ResultSame),
	OpWarpMin:  warp("warp_min", FormSame, 1, Nums, ResultSame),
	OpWarpMax:  warp("warp_max", FormSame, 1, Nums, ResultSame),

	OpBlockSum:      collective("block_sum", Nums, ResultSame),
	OpBlockMin:      collective("block_min", Nums, ResultSame),
	OpBlockMax:      collective("block_max", Nums, ResultSame),
	OpBlockScan:     collective("block_scan", Nums, ResultSame),
	OpBlockScanExcl: collective("block_scan_exclusive", Nums, ResultSame),
	OpBlockCount:    collective("block_count", Bools, ResultI32),
	OpBlockAny:      collective("block_any", Bools, ResultBool),
	OpBlockAll:      collective("block_all", Bools, ResultBool),

	// Field accesses read and write any scalar type inside an element of
	// a byte array (bool as one byte, 0 or 1; a load reads any nonzero
	// byte as true).
	OpLoadField:  diff(OpInfo{Name: "load_field", Form: FormField, Types: Scalars, Result: ResultAny}, DiffStructural),
	OpStoreField: diff(OpInfo{Name: "store_field", Form: FormField, Arity: 1, Types: Scalars, Result: ResultNone}, DiffStructural),
}

// NumOps is the number of ops; every Op below it has a row in the table.
const NumOps = Op(len(opTable))

// Ops lists every op, in Op order.
func Ops() []Op {
	ops := make([]Op, NumOps)
	for i := range ops {
		ops[i] = Op(i)
	}
	return ops
}

// Info returns op's row of the table; ok is false for an unknown op.
func (o Op) Info() (info OpInfo, ok bool) {
	if o >= NumOps {
		return OpInfo{}, false
	}
	return opTable[o], true
}

func (o Op) String() string {
	if o < NumOps {
		return opTable[o].Name
	}
	return fmt.Sprintf("Op(%d)", o)
}

// MathOps lists the math builtins (the ops with a Builtin name), in Op
// order.
func MathOps() []Op {
	var ops []Op
	for i, info := range opTable {
		if info.Builtin != "" {
			ops = append(ops, Op(i))
		}
	}
	return ops
}

// OpByBuiltin maps a math builtin's name ("sqrt", "clamp") to its Op.
func OpByBuiltin(name string) (Op, bool) {
	for i, info := range opTable {
		if info.Builtin != "" && info.Builtin == name {
			return Op(i), true
		}
	}
	return 0, false
}

// OpByName maps an op's name ("add", "atomic_cas") to the Op.
func OpByName(name string) (Op, bool) {
	for i, info := range opTable {
		if info.Name == name {
			return Op(i), true
		}
	}
	return 0, false
}
