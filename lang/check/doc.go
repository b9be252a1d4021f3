// Package check resolves host names, type-checks kernels and device funcs,
// and lowers each kernel to the kernel IR (package ir) that both backends
// consume.
//
// A Checker persists across the chunks of one interpreter (REPL entries):
// the global table and the device funcs grow with every successful Check,
// and a failed Check changes nothing.
//
// Host names are resolved in one pass over the chunk (resolve.go). Kernel
// and func bodies are checked and lowered in a second, single pass per body
// (body.go, expr.go, binary.go, call.go, index.go, loop.go): every
// expression yields an operand that is either an untyped or typed constant
// (kept symbolic with go/constant until a context needs a register), a
// value in a register, or an array (a parameter, or a shared or local
// array).
//
// # Consts
//
// A const (consts.go, TYPES.md section 3) is declared at top level only
// and hoisted like a fn: the resolver gives it a global slot, so host
// code reads it as a global the interpreter binds before the chunk runs
// (Info.Consts), and kernels find it by name.
//
//   - The value is a constant expression of literals, other consts and
//     operators, evaluated exactly with go/constant after the chunk is
//     resolved, each const on first use (so order does not matter) with
//     a cycle reported at the const that closes it. No calls: a
//     conversion would need the kernel checker's rules on the host side.
//   - Untyped unless declared `const N: T = e` (a scalar T, the value
//     checked to fit). In a kernel a const is an operand of modeConst,
//     exactly as its literal would be, so every place that needs a
//     constant (block shapes, shared and local extents, range bounds,
//     .shape axes) takes it with no code of its own; a kernel's own
//     names hide it.
//   - Consts persist across REPL entries by global slot (constVals): a
//     later entry cannot assign one, and a later top-level let of the
//     name makes a new slot, which is not a const.
//   - inf and nan are predeclared host floats. go/constant cannot hold
//     them, so a const may not use them. In a kernel they are f32 values
//     marked nonFinite (an OpConst, negation re-emits one) that
//     convertTo, unify and unifyMany let another float type claim, so
//     they act as untyped float constants; a claimed one leaves its f32
//     OpConst unused.
//
// # Structs
//
// A struct (structs.go, TYPES.md section 2) is declared at top level only
// and hoisted like a const: its name takes a global slot, which host code
// reads as the struct type the interpreter binds before the chunk runs
// (Info.Structs), and kernels and funcs name it as a type.
//
//   - Field types are scalar, vector, matrix, quaternion or struct names;
//     arrays are not fields (an array of structs is array[S]). The chunk's
//     structs are laid out (dtype.NewStruct, NumPy's align=True) after it
//     is resolved, each on first use, so they may name each other in any
//     order; a struct that contains itself, directly or through others,
//     is reported once at the struct the cycle starts from, with the path
//     ("recursive struct type: A -> B -> A"), and every struct of the
//     cycle, and any struct that contains a broken one, is poisoned (nil)
//     without further reports. A struct has at least one field (an empty
//     one would be a zero-size array element) and may not take the name
//     of a predeclared type (vec3, f32).
//   - Structs persist across REPL entries by global slot (structs), as
//     consts do: a later entry cannot assign the name, and may declare a
//     struct of the same name again, a new type: earlier values keep theirs.
//   - Kernels and funcs find a struct by name through
//     kernelChecker.structType (types live apart from a body's names), so
//     parameters p: S and ps: array[S] are declared and flattened
//     (dtype.FlattenParams: a by-value struct is one IR parameter per
//     lane, of that lane's type).
//   - In bodies a struct value is a compound operand as a vector is
//     (vec.go): one register per lane, each of its field's scalar type.
//     p.f selects a field's lanes (a nested struct's too), assignments
//     store parts through the place resolver (place.go), and an array of
//     structs, a u8 array with a trailing byte axis in the IR, is read and
//     written lane by lane with OpLoadField/OpStoreField at the lane's
//     byte offset (dtype's LaneOffset). P(a, b=...) constructs one,
//     positional then keyword arguments, omitted fields zero as on the
//     host; structs have no operators (work on their fields), and atomics
//     refuse arrays of structs.
//
// # Vectors
//
// Vector, matrix and quaternion values (TYPES.md section 1; vec.go) are
// lowered to one register per lane, in dtype's C order, and every
// operation on them to scalar IR written by lang/linalg, which the host
// evaluates through the same code: the IR and both backends stay scalar,
// and a kernel's dot(a, b) has the bits of the host's.
//
//   - An operand of modeVec holds a compound type (ct) and its lanes
//     (regs); a variable of such a type owns lane registers that
//     assignments move into. Untyped constants beside a compound operand
//     take its lane type (v * 2.0 scales a vec3; vec3(1, 2, 3) is f32).
//   - Parameters: a vector by value is Lanes scalar IR parameters, an
//     array[vec3] one f32 IR array with the lanes as a trailing axis
//     (dtype.FlattenParams); Info.Signatures keeps the source form for
//     the interpreter. An array of vectors has at most 3 axes of its own
//     (2 for matrices): arrays have 4 in all.
//   - a[i] loads every lane; a[i] = v and a[i] op= v store every lane;
//     a[i].x = s and a[i][k] = s store one. Atomics on compound arrays
//     are lane by lane (as Warp's), so the element is not updated as a
//     whole atomically; atomic_cas is refused there.
//   - Components: v.x .y .z .w on vectors and quaternions; v[k], m[i, j]
//     and m[i] (a row). Constant indices pick lanes (checked against the
//     type). A run-time index (for i in range(3) { v[i] ... }, as Warp
//     code writes) cannot pick a register, so the value goes through a
//     local scratch array of its type, one per func: its lanes stored,
//     the selection loaded (or stored, and every lane loaded back), and
//     the index bounds-checked as any array's (on the cpu always, on
//     CUDA with config.debug). Component stores work on variables (v.x =
//     s, m[i] = row) and on array elements; one run-time index per
//     assignment target (m[i, j], not m[i][j]).
//   - Shared and local arrays of compound types hold the lanes as
//     trailing axes too; their extents count elements.
//   - print of a compound value prints its constructor form,
//     vec3(1.0, 2.0, 3.0), as the host does (CUDA's printf formats the
//     lanes with its own float format, as for scalars).
//   - Funcs take compound parameters by value and return compound
//     results as one IR result per lane (ir.Func.Results), so a
//     func spring(a: vec3, b: vec3) -> vec3 costs no memory traffic.
//
// # Block kernels
//
// A kernel declared with block(B0[, B1[, B2]]) is a block kernel
// (COOPERATIVE.md sections 1-3, lang/ir doc.go "Block kernels"); block.go
// checks its shape, its shared and local arrays and its builtins, and
// uniform.go its barriers.
//
//   - The block extents are integer constant expressions (literals,
//     consts and constant arithmetic), 1 to 3 of them, each within CUDA's per-axis
//     limits (x, the last, and y at most 1024, z at most 64) and at most
//     1024 threads in all: the same checks as ir.Verify, reported at the
//     extent. A bad shape is reported once; the body's block builtins and
//     shared arrays then say nothing more.
//   - thread_id(), block_id(), block_dim(), grid_dim() and tid() unpack
//     into one name per block axis (`let ty, tx = thread_id()`), and are
//     single values only in a 1-D block. tid() in a block kernel is
//     block_id * block_dim + thread_id per axis. All are i32.
//   - Block builtins (the ops with the Block flag of the op table, under
//     their names) are errors in flat kernels (`thread_id() is only
//     available in a block kernel`) and in funcs: the IR has block ops in
//     a block kernel's entry only, so a func that needs thread_id() takes
//     it as an argument. Warp ops and block collectives need a block of
//     whole warps (a multiple of 32 threads), as Verify does.
//   - warp_size() is the i32 constant 32 everywhere in device code (a
//     flat kernel or func may use it too: it is the same on every
//     backend). cdiv(a, b) works in every kernel and func: both ints of
//     one type, the ceiling of the exact quotient (cdiv(-7, 2) == -3),
//     folded for constants; a constant zero divisor is an error, a zero at
//     run time is the division's error at the call.
//   - shfl, shfl_down, shfl_up, shfl_xor take a scalar of any type
//     (untyped constants take their default type) and an i32; ballot,
//     warp_all/any, block_count/any/all a bool; warp_sum/min/max and
//     block_sum/min/max/scan/scan_exclusive a number. A collective may
//     stand as a statement (its result is dropped, its barrier is not).
//   - shared NAME: T[D0, ...] stands at the top level of a block kernel's
//     body, local NAME: T[D0, ...] at the top level of any kernel or func
//     body. Top level only: the IR zeroes a func's local arrays once, when
//     the func starts, so a local declared in a loop body would not start
//     at zero in each iteration as a let does; and a shared array is one
//     per block, not per pass through a branch. Extents are integer
//     constants of at least 1, 1 to 4 of them. The name is visible from
//     the declaration on, like a let's.
//   - A block's shared arrays take at most 232448 bytes (the opt-in limit
//     of sm_90 devices), counted as ir.Kernel.SharedBytes does (each
//     array aligned to 16 bytes): `shared arrays need N bytes per block, at
//     most 232448`, at the declaration that goes over. Backends check the
//     device's own limit at launch. A func's or kernel's local arrays take
//     at most 512 KiB per thread (CUDA's limit).
//   - len and .shape of a shared or local array are i32 constants.
//     Indexing, stores, compound assignment and atomics work as on array
//     parameters (Inst.Space names the array's space). Shared and local
//     arrays cannot be passed to funcs (funcs take array parameters
//     only), stored in variables or printed; host code never sees them.
//
// # Uniformity
//
// sync() and the block collectives (the ops with the Barrier flag) must
// be reached by every thread of the block, so the checker refuses one
// under a condition that is not block-uniform (COOPERATIVE.md section 2).
//
//   - Uniform: constants, scalar parameters, block_id(), block_dim(),
//     grid_dim(), shapes and len, the results of block_sum/min/max,
//     block_count/any/all (every thread gets the block's result),
//     results of funcs called with uniform arguments that read no array
//     parameter (themselves or through the funcs they call), loop
//     variables of uniform loops, and expressions of these.
//   - Divergent: thread_id(), tid(), lane_id(), warp_id(), every load
//     (array parameters, shared and local arrays: another thread may have
//     written the cell) and atomic, shuffles, ballot, warp_* and
//     block_scan(_exclusive), results of funcs that read memory, and
//     anything computed from them.
//   - The rule is flow-insensitive, on the registers of the kernel: a
//     variable assigned a divergent value anywhere in the body (before or
//     after the barrier, in a branch or a loop) is divergent everywhere,
//     and so is a variable assigned anything under a divergent condition
//     (threads that skip the assignment keep the old value).
//   - Conditions are those of if/else if, while, for-range (its bounds
//     and step), and the left operand of && and || for what the right
//     operand computes. select(c, a, b) evaluates both sides: no condition.
//   - break and continue under a divergent condition make their loop
//     divergent: the threads that leave an iteration early are not at the
//     loop's next barrier when the others are (break: no longer in the
//     loop at all; continue: not at a barrier after it in the iteration).
//     A barrier anywhere in that loop is then refused, and so is one under
//     a condition on a variable assigned in it; after the loop all threads
//     meet again, so a barrier there is fine. A break of an inner loop
//     does not make the outer loop divergent.
//   - A return under a thread-dependent condition is refused when a
//     barrier or block collective may run after it (later in the body, or
//     in a loop around the return): the threads that returned never
//     arrive. `if i >= n { return }` before a sync() is an error that says
//     to guard the work with `if i < n { ... }`; a return after the last
//     barrier, or under a uniform condition, is fine. Returns in funcs do
//     not matter (funcs have no barriers). The cpu still checks every
//     barrier at run time.
//   - Warp ops (shuffles, ballot, warp_*, sync_warp) need no block
//     uniformity: they involve one warp, whose lanes run them together on
//     the cpu and under full-warp masks on CUDA.
//   - The error stands at the condition and names the barrier (with its
//     position when it is on another line), the value that makes the
//     condition divergent (the variable nearest to the condition on the
//     path from its source) and that source: `sync() at 6:9 under a
//     condition that differs between threads of a block: i (from
//     thread_id() at 4:13)`. For a loop left early it names the break or
//     continue and its condition. Each divergent condition is reported
//     once, the outermost around a barrier.
//
// # Decisions where the design was silent
//
//   - A `capture NAME` block binds NAME after its body, so the body still
//     sees an earlier NAME. Array declarations and lets bind after their
//     initializers.
//   - Two fn/kernel/func declarations of one name in the same block are an
//     error (`f redeclared in this block`): with hoisting it would be
//     unclear which one earlier uses mean. Across REPL chunks a new
//     declaration gets a new slot as usual.
//   - Assigning to a predeclared name at host level is an error.
//   - An import's name is hoisted at the top level like a fn's; a
//     top-level let, fn, kernel or func of that name, or a second import
//     of it, is an error naming the import (Go's rule, no shadowing). Its
//     file's names come from Checker.SetExports: `util.name` of a name the
//     file lacks, and any assignment to `util.name`, are resolve errors.
//     Each imported file is checked by a Module of the importing checker:
//     its own namespace and funcs, slots of the one global table.
//   - Device funcs live in their own namespace: a later host `let f = 1`
//     does not hide `func f` from kernels. Inside a kernel, locals shadow
//     device funcs, which shadow builtins and conversions. A func body sees
//     the funcs visible where it was declared (its chunk and earlier ones),
//     so a later redeclaration does not change an already checked func.
//   - Untyped float constants are never implicitly converted to an integer
//     type, even when integral (`let x: i32 = 2.0` is an error); an explicit
//     conversion `i32(2.0)` is fine when exact, `i32(2.5)` is an error
//     (truncated), as in Go.
//   - An untyped constant shifted by a non-constant count becomes i32.
//     Negative constant shift counts and shift counts above 1024 in
//     constant shifts are errors.
//   - Division (and %) by a constant zero is an error for every type,
//     including floats (as in Go).
//   - A negative constant array index is an error. Index registers keep
//     their own integer type (u8 i32 i64 u32 u64); untyped constant indices
//     are i32.
//   - for-range loops: a hidden counter drives the loop and is copied into
//     the loop variable at the top of each iteration, so assigning to the
//     variable inside the body does not change the iteration. stop and step
//     are evaluated once, before the loop. Bounds that are all untyped
//     constants make the variable i32.
//   - `while true` (a literal) lowers to an ir.Loop with CondReg NoReg; it
//     counts as a terminating statement for the missing-return rule when
//     its body has no break for that loop.
//   - select(cond, a, b) is cond ? a : b (C order). NVIDIA Warp's
//     deprecated select(cond, a, b) used the opposite order (a when cond is
//     false); gscript follows C and Warp's newer where().
//   - Random numbers (rand.go, lang/rng): rand_init(seed[, offset]) takes
//     ints of any type as their low 32 bits and gives a u32 state; randf,
//     randi, randu and randn lower to Warp's hash on that state and a move
//     of the new state into the argument's variable, which must be a local
//     u32 variable (an expression's advanced state would be lost). randf's
//     bounds are converted to f32, randi's to i32.
//     The samplers (sample_triangle, sample_unit_disk ... the rng.Samplers
//     table) follow the same state rule and give a vec2, vec3 or vec4
//     operand of f32 lanes, in Warp's draw order; they take no bounds
//     (Warp has none). poisson(rng, lam) converts lam to f32 and lowers
//     to loops (rng.EmitPoisson through flow, whose loops, branches and
//     breaks join the uniformity graph as a script's would).
//   - print in kernels: string literals are copied into OpPrint's Format,
//     each other argument becomes "{}", parts are joined by one space and
//     the Format ends with "\n". A string literal containing "{}" is an
//     error (it would be read as a placeholder).
//   - Untyped constant arguments of builtins: when every argument is
//     untyped, a float constant makes the call f32, otherwise ints are i32
//     (so sqrt(2) is an f32 sqrt, abs(-3) an i32 abs).
//   - Builtin results are not typed by their context: select(c, 1, 2) is
//     an i32 even where an f32 is wanted (write 1.0 or f32(...)).
//   - Conversions between bool and numeric types are errors (as in Go);
//     use select(b, 1, 0) or a comparison.
//   - Two untyped constants of different kinds combine in the wider kind
//     (1 % 2.5 is a float %, an error); bool never mixes with numbers.
//   - Atomics used as statements lower with Dst = NoReg; func calls used as
//     statements with no Dsts.
//   - ir.Inst.Imm for OpTid and OpShape axes is a Go int; OpConst
//     immediates are int64 (signed types), uint64 (unsigned), float64 or
//     bool.
//   - Funcs reached from a kernel are lowered once per kernel, so OpCall
//     Callee indexes that kernel's Funcs; a func called by two kernels has
//     two (equal) ir.Func values.
//   - Poisoned names: a parameter whose type is an error (unknown name,
//     bad array element or rank), a let whose value or type is an error,
//     and the variable of a for loop whose range header is an error are
//     declared "bad". Every use of a bad name yields an invalid operand,
//     which every rule accepts silently, so one mistake gives one error
//     (no cascade, no panic). A func whose result type is an error yields
//     an invalid operand when called; its return statements are checked
//     only for their own errors. The body of a for loop with a bad header
//     is still checked (its IR is dropped).
//   - A constant shift count that does not fit in 64 bits is "too large",
//     like any count above 1024.
//   - Names inside kernels that are not visible there: a host variable
//     gives `kernel K cannot use host variable X; pass it as a parameter`,
//     a predeclared host builtin `kernel K cannot use host builtin X`.
//
// # Differentiation syntax (issue 31, docs/autodiff.md)
//
//   - `tape NAME { }` binds NAME after its body, as capture does: the tape
//     is what the body recorded. Its body is host code like any block's.
//   - `kernel k(...) adjoint k_adj`: k_adj must be a kernel of the same
//     file (REPL entry), declared before or after k, not k itself. Its
//     source signature is k's params (same types and ranks, in order;
//     names are free), then one gradient array per array param of k whose
//     lanes are f32 or f64 (vec/mat/quat arrays included, of their own
//     type: a vec3 array's gradient is array[vec3], which is the f32
//     array with a trailing lane axis that lang/ad.GradParams picks in
//     IR), same type and rank, in order. A mismatch is one error at the
//     adjoint's name that spells both signatures. Block kernels neither
//     declare an adjoint nor are one: lang/ad refuses to differentiate
//     them, and an adjoint is launched with its kernel's geometry, over
//     threads. A kernel whose params had type errors is not compared.
//     Info.Adjoints maps each kernel to its adjoint's declaration.
//
// # Host language v3 (HOST.md sections 2, 3 and 5)
//
//   - The resolver gives a multi-name for's names (ForStmt.Vars)
//     consecutive slots in a scope of the loop (VarUsed: the body reads
//     any of them); a name repeated in one for clause is an error (as
//     in Go; Python would bind the last value). A catch's name
//     (TryStmt.Var) is a slot of the enclosing frame, visible in the catch
//     block only; the try block is a scope of its own. Every one of an
//     assignment's Targets is checked as a single target is. Dict keys
//     and values resolve as any expression. Slots keep the existing
//     numbering: params first, then declarations in source order.
//   - FnDecl.Escapes is set on every fn that holds a fn declaration at any
//     depth (its blocks, ifs, loops, try and catch blocks, and the bodies
//     of its nested fns): a closure made there may keep its frame alive.
//     A fn that only calls other fns does not escape.
//   - Kernels and funcs refuse each host-only form with an error that says
//     so, at the form's position: "dicts are host-only: a kernel cannot
//     build one", "in is host-only: ...", "try is host-only: a kernel
//     cannot catch errors", "unpacking is host-only: ..." (several
//     targets, several for names), "a list of values is host-only" (let
//     a, b = 1, 2), "returning several values is host-only", "method calls
//     are host-only: a kernel cannot call x.append" (any call of an
//     attribute, an import's member included).
//   - `**` in a kernel or func: constant ** constant folds exactly
//     (powConst: an int to a non-negative int stays an int and an
//     untyped one may then take any int type that holds it; a negative or
//     float exponent gives a float; a result of more than 128 bits is an
//     "overflows" error without being computed, so 10 ** 100000 costs
//     nothing). A float operand lowers as pow(x, y) does (the math op,
//     the operands unified as pow's arguments are); an int ** int that is
//     not constant is an error suggesting a float operand or a loop, since
//     there is no int power op and a device would overflow silently. `x
//     **= y` follows. Consts fold `**` the same way; in and not in are not
//     constant operators.
package check
