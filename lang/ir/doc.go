// Package ir is gscript's kernel IR: the typed, lowered form of a kernel that
// both backends consume. runtime/cpu executes it over blocks of threads and
// runtime/cuda prints CUDA C from it. The IR is structured (if, loop, break,
// continue, return) so that masked vector execution and C printing stay
// simple; straight-line code is a list of instructions writing typed virtual
// registers.
//
// # Funcs and calls
//
// Kernel.Funcs are the device funcs a kernel calls. A func returns
// Func.Results, any number of scalars in order (a vector value is one
// register per lane): every Return of the func carries exactly one
// register of each result type, a kernel's Return none. OpCall passes
// scalar arguments by value and arrays by naming the caller's array
// parameters (Inst.ArrayArgs), and writes the results to Inst.Dsts, one
// register per result; the caller drops a result with NoReg there, or
// all of them with an empty Dsts. The cpu inlines each call site; CUDA
// returns a scalar for one result and a struct for several.
//
// # Scalar semantics
//
// What every value op (OpInfo.IsValue) computes on scalars is written
// once, in Eval (eval.go), on raw bits, with the helpers of scalar.go
// (FMin, FMax, FMA32, IAbs, ISign, FSign) and Convert for OpConvert. It
// is the reference: ir.Host (lang/linalg's host evaluation) and lang/rng's
// host samplers evaluate through it, runtime/cpu's TestEvalMatchesCPU
// compares every irtest case of every value op with it lane by lane, and
// the cpu's generated lane loops compute the same Go expressions (they do
// not call Eval per lane, for speed). Decisions:
//
//   - Integers wrap (two's complement); / truncates toward zero and %
//     takes the dividend's sign, MinInt / -1 is MinInt and MinInt % -1 is
//     0; a zero divisor is an error (ErrDivZero, the cpu's KernelError,
//     CUDA's in Debug builds). abs(MinInt) is MinInt; sign is -1, 0 or 1.
//   - A shift count has any integer type and is read as unsigned, so a
//     negative count is huge: counts at or past the width give 0, or -1
//     for >> of a negative value (Go's shifts).
//   - Float ops round in their type, one at a time (FastMath aside): the
//     four operations and sqrt correctly, rsqrt as 1/sqrt with two
//     roundings, fma once; the other math functions are Go's float64
//     ones rounded once to the type (CUDA's may differ in the last bits).
//     round halves away from zero. min and max are fmin/fmax (a NaN operand yields the
//     other; -0 < +0), clamp(x, lo, hi) is min(max(x, lo), hi) for ints
//     and floats alike (so hi wins when lo > hi), and sign gives -1, +0
//     (for both zeros) or 1, and NaN for NaN.
//   - Eval takes the operands' type, as Machine.Op does: a result type
//     cannot tell an f32 comparison from an i32 one. OpConvert needs a
//     destination type and is Convert.
//   - The op table holds what is data about an op (Arity, Types, Result,
//     the math builtin name Builtin and whether arrays take it,
//     Elementwise); what an op computes is code, so the evaluators (eval.go,
//     runtime/cpu's generator, runtime/cuda/codegen) switch over Op.
//
// # Block kernels
//
// A kernel with Kernel.Block set runs as a grid of blocks of exactly that
// shape on every backend, never coarsened (COOPERATIVE.md). These rules are
// the contract both backends implement bit for bit, so that a block kernel
// prints the same results on cpu and CUDA:
//
//   - Threads of a block are numbered in C order over Block (the last axis
//     fastest, CUDA's threadIdx.x); blocks likewise over the grid. The
//     linear thread index t gives lane_id = t % 32 and warp_id = t / 32.
//     OpTid in a block kernel is block_id*block_dim + thread_id per axis.
//   - Shuffles read the value the source lane holds at the same
//     instruction; the source is B&31 (shfl), lane+B (shfl_down), lane-B
//     (shfl_up) or lane^(B&31) (shfl_xor), and a lane whose source is
//     outside 0..31, or whose B is outside 0..31 for shfl_down/shfl_up,
//     gets its own value. All lanes of the warp execute a shuffle (the
//     checker and Verify make warp ops need a multiple-of-32 block).
//   - warp_sum(v): for m in 16, 8, 4, 2, 1: v = v + shfl_xor(v, m). Every
//     lane ends with the same bits (IEEE addition is commutative). warp_min
//     and warp_max follow the same butterfly with OpMin / OpMax (so a NaN
//     operand yields the other). Integer sums wrap.
//   - block_sum/min/max(v): w = the warp op of v; barrier; lane 0 of each
//     warp stores w in slot[warp_id]; barrier; every warp computes the warp
//     op of (lane < warps ? slot[lane] : identity), which every thread
//     returns. The identity is 0 for sums, +Inf / -Inf for float min / max
//     and the type's largest / smallest value for integers.
//   - block_scan(v), inclusive: s = v; for d in 1, 2, 4, 8, 16: u =
//     shfl_up(s, d); if lane >= d { s = u + s }. Barrier; lane 31 stores s
//     in slot[warp_id]; barrier; p = slot[0] + slot[1] + ... + slot[w-1]
//     summed left to right for w = warp_id (no prefix for warp 0); the
//     result is s for warp 0, p + s otherwise. block_scan_exclusive uses
//     e = shfl_up(s, 1) and gives: for lane 0, 0 (warp 0) or p; for other
//     lanes, e (warp 0) or p + e.
//   - block_count, block_any and block_all count the threads where the
//     operand holds (exact, so any order gives the same result).
//   - Every block collective and sync() must be reached by all threads of
//     the block, and every warp op (shuffles, votes, warp collectives,
//     sync_warp) by all lanes of its warp; a thread that returned counts
//     as missing. The checker proves block uniformity of conditions
//     statically (and refuses a thread-dependent return that a barrier
//     follows); the cpu reports any violation it meets at run time as a
//     KernelError at the instruction; CUDA leaves it undefined (a hang, or
//     a full-mask shuffle reading an exited lane).
//   - tid() in a block kernel is block_id*block_dim + thread_id in i32,
//     wrapping as CUDA's 32-bit arithmetic does for grids of more than
//     2^31 threads.
//   - Shared arrays are not initialised (the cpu gives zeros; CUDA whatever
//     the memory held); local arrays are zeroed when their func starts.
//   - Launch geometry: the grid's last axis holds at most 2^31-1 blocks,
//     the others 65535 each (CUDA's limits, enforced on every backend).
//
// # Fast math
//
// Kernel.FastMath (TYPES.md section 5) releases a backend from the strict
// rules of float arithmetic that otherwise make results bit-identical
// across backends (+ - * / and sqrt correctly rounded, each operation
// rounded on its own, rsqrt as 1/sqrt with two correct roundings). When it
// is set a backend may, for f32 and f64 alike:
//
//   - contract a*b+c and a*b-c into one fused multiply-add (one rounding);
//   - compute division, sqrt and rsqrt approximately (rsqrt as one
//     hardware reciprocal square root), and reciprocals for division;
//   - use faster, less accurate transcendentals (sin, cos, exp, log, pow,
//     ... may lose several ulps, and more far from zero, e.g. sin of a
//     large argument);
//   - flush f32 subnormal inputs and results to zero.
//
// It may not change anything else: integer arithmetic, conversions,
// comparisons, min/max, memory accesses, atomics' results as values and
// the collectives' orders stay as above, so control flow that depends only
// on integers is unchanged. A fast kernel's float results may differ from
// a strict backend's in the last bits (and in subnormals); how much, per
// function, is measured by runtime/cuda/kernel's TestFastMathPrecision.
// FastMath is a permission, never an obligation: a strict result is always
// a valid one (the cpu executor takes only f64 contraction, runtime/cpu's
// doc.go; CUDA all of them, runtime/cuda/codegen's).
//
// # Adjoint rules
//
// OpInfo.Diff says how reverse-mode differentiation (lang/ad for kernels,
// the array expressions for arrays) treats each op, and OpInfo.Adjoint, for
// DiffRule, gives the partials: for each operand, g times d(result)/d(operand),
// built through a Deriv so that each derivative is written once for both
// clients. Decisions:
//
//   - A rule applies at float types only; at integer and bool types no
//     gradient flows whatever the kind (add on i32 is an index computation).
//   - DiffNone: comparisons, predicates, bool and integer-only ops,
//     floor/ceil/round/trunc/sign (zero almost everywhere, as PyTorch),
//     tid and shape. DiffStructural: what lang/ad handles itself (const,
//     mov, convert, param, memory accesses, atomics, call, print).
//     DiffRefused: every block op (index ops, barriers, shuffles, warp
//     ops and collectives): "not differentiable yet".
//   - The edges follow PyTorch: min and max give the gradient to the
//     operand their result is (so a NaN operand, which fmin/fmax skip,
//     gets none) and half to each on a tie; abs'(0) = 0 (sign); sqrt'(0) =
//     +inf; clamp gives it to x where lo <= x <= hi, else to the bound that
//     is the result (hi where lo > hi, as the forward); select gives it to
//     B where A holds and to C where not, none to A; pow's base gets
//     g*b*a^(b-1) but 0 where b == 0, its exponent g*r*log(a) but 0 where
//     a == 0 and b >= 0 (PyTorch's pow_backward). div's divisor gets
//     -(g/b)*r, not -g*a/b², so it overflows only where the result does.
//   - The tests are generated from the table: TestDiffColumn fails on an
//     op without a decision or a DiffRule without a rule, and
//     TestAdjointRulesFD evaluates every rule at f64 and f32 through Eval
//     (the table's own scalar semantics) against central finite
//     differences of Eval at points made for the op's arity.
//
// # Field accesses
//
// An array of structs (TYPES.md section 2) is an array of u8 whose last
// axis holds each element's bytes, laid out as NumPy's align=True does.
// OpLoadField and OpStoreField read and write one scalar of it:
//
//   - Operands: one integer index per axis but the last (the element),
//     then for a store the value. The accessed type T is the value's or
//     the destination's: any scalar type, bool as one byte (a store
//     writes 0 or 1, a load reads any nonzero byte as true). Imm, an int,
//     is the field's byte offset in the element: at least 0 and a
//     multiple of T's size. The access reads or writes T's bytes at Imm
//     of the element, little-endian.
//   - Indices are bounds-checked as OpLoad's (always on the cpu, in Debug
//     builds on CUDA).
//   - Shared and local arrays have static extents, so Verify proves the
//     rest: the field fits in the element (Imm + size <= the last extent)
//     and the element's size is a multiple of T's, which keeps every
//     element's field aligned. Backends place such arrays 8-aligned.
//   - An array parameter's byte axis is only known at launch. FieldNeeds
//     gives, per array parameter that field accesses reach (through
//     calls too), the bytes they need (the largest Imm + size) and the
//     alignment (the largest size); every launch checks the argument
//     (backend.CheckFields): its last axis has stride 1 and at least that
//     many bytes, and its data address and its other strides (in bytes)
//     are multiples of the alignment. A violation is an error of the
//     launch, before any thread runs, so no access leaves its element or
//     is misaligned.
package ir
