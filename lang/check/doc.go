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
// value in a register, or an array parameter.
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
//     statements too.
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
package check
