// Package fuse evaluates elementwise array expressions (ARRAYS.md
// section 2): `a * x + y`, `sqrt(a)`, `where(m > 0, m, 0)`. Operators on
// arrays build an Expr tree instead of computing (interp hands them here
// through interp.ArrayOps, registered in init); whatever consumes the
// value materialises it with one generated IR kernel, launched through
// interp.Thread.LaunchLibrary on the arrays' device, so it runs on cpu and
// CUDA alike and records inside capture. Store is also interp's one store
// engine: fills, copies and slice assignment run its kernels.
//
// # Decisions
//
//   - Where it lives: interp knows only the Deferred and ArrayOps
//     interfaces (no codegen or kernel cache in interp, ARCHITECTURE.md);
//     the trees, promotion, broadcasting and kernel generation are here,
//     beside the builtins that build nodes (stdlib/math.go). Math
//     builtins, minimum, maximum, clip and where are interp.Builtin with
//     Operands set: their arguments arrive unmaterialised and fuse.
//   - Evaluation: interp's eval(e) = materialise(evalOperand(e)); the
//     operands of operators, of Operands builtins and the receiver of
//     .astype are evaluated with evalOperand. The leaves are read when the
//     value is consumed, at the end of the expression (a fn called inside
//     the expression that writes an operand in place is seen; NumPy would
//     not). One statement is one kernel; builtins other than the
//     reductions consume a materialised array.
//   - Reductions: sum, prod, min, max, mean, argmin, argmax, any, all,
//     count_nonzero, norm (with or without axis=), dot, allclose, equal
//     and array_equal are Operands builtins. An expression argument
//     becomes a Producer (produce.go, stdlib/reduce.Producer): the
//     reduction's kernel loads the leaves, broadcast to the expression's
//     shape, at each element index and emits the tree with the same
//     generator as an elementwise kernel (gen, with the leaves' registers
//     in place of loads), so sum(a * b) reads a and b once and allocates
//     nothing, and each element is computed by the same instructions in
//     the same dtypes as a materialised one. Two-operand reductions (dot,
//     allclose, equal) take one Producer of both roots, an array shared
//     by them loaded once. isclose, cumsum and cumprod materialise.
//   - Promotion: NumPy's promote_types as data (ir.Promote, shared with
//     host scalar arithmetic); a host int or float adapts to the other
//     operand's dtype (NEP 50) and must fit it (`u8 + 300` is an error);
//     a host float meeting an int array gives f64; typed scalars (x[0],
//     f32(2)) promote as 0-d arrays. Int `/` and `%` truncate as in
//     kernels (not NumPy's true division); float `%`, bool arithmetic and
//     `<<`/`>>` on arrays are errors. Integer overflow wraps.
//   - Math: f32 stays f32, f64 stays f64, integer arrays compute in f64
//     (NumPy), bool is an error; abs and sign keep the dtype. round is
//     the kernels' (halves away from zero), not NumPy's half-to-even, to
//     agree with host round(x). minimum and maximum propagate NaN as
//     NumPy does (ir.OpMin alone is C's fmin); clip is
//     minimum(maximum(a, lo), hi) with its result dtype promoted.
//   - Kernels: parameter 0 is the output, then each distinct array leaf
//     (an array used twice is one parameter), then each scalar leaf. When
//     every array operand is contiguous and of the output's shape the
//     kernel is 1-D over tid() (`out[i] = f(x[i], ...)`), the form the
//     backends coarsen and run with unit-stride variants. Otherwise the
//     launch is rank-D over the output's shape and every leaf comes as a
//     broadcast view (mem.Array.BroadcastTo: stride 0 on stretched axes),
//     read with its own strides. Past 2^31-1 elements both launch in
//     pieces (interp.Chunks): runs of the flat index, or whole rows of
//     axis 0.
//   - Cache: a kernel is named by its tree's shape, leaf numbering, every
//     dtype, its form (flat or rank) and the output dtype, and cached per
//     process (interp.GeneratedKernel, over lang/ir/cache); programs are
//     per device (interp's program cache), strides are the backends'
//     variants. A loop of one statement builds one kernel.
//   - Cast modes (interp.Cast), as NumPy's casting=: a store casts its
//     values to the target's dtype by CastUnsafe for `dst[...] = v`, fills
//     and copies (any dtype converts as ir.Convert: `a[:] = b * 2.0` into
//     an int array truncates, as NumPy's assignment), by CastSameKind for
//     `y op= v` (ir.CanCastSameKind: `k += 0.5` into an int array is an
//     error, as NumPy's in-place operators). A host number must fit the
//     target's dtype in both modes (NEP 50). A fill is a store of one
//     scalar leaf, a copy of one array leaf: the kernels of expressions,
//     so one engine decides broadcasting, conversion and the kernel's form.
//   - In place: `y op= v` on an array stores `y op v` into y with one
//     kernel (CastSameKind). An operand that may overlap the target
//     (mem.Array.MayOverlap) through a different layout is first copied
//     (one extra kernel), so `k[0:7] += k[1:8]` gives NumPy's result; the
//     target itself read element for element needs no copy.
//   - cpu host path (host.go, hostops.go): on the cpu a flat plan (every
//     array contiguous, of the output's shape), or a rank-D one whose
//     rows along the last axis are at least 256 long with the output and
//     every leaf stepping by one element along them (sliced targets and
//     views, row broadcasts) or a leaf by none (a column broadcast: its
//     value per row is a scalar there), whose ops are add, sub,
//     mul, float div, neg, the comparisons, where and the numeric
//     conversions other than float to int (ir.Convert's own rules) runs
//     as Go loops instead of its kernel: chunks of 4096 elements taken
//     by every core from a counter (one core below 2^15 elements), one
//     pass per op over the chunk with array leaves read in place, scalar
//     leaves as scalars (no broadcast vector) and the root written
//     straight into the output; cancellation is polled before each
//     chunk. A scalar leaf is converted to its operand dtype once, as the
//     kernel converts it per element. Two patterns run as one loop
//     (hostfused.go): multiply-adds s*X + Y in every operand order (y +=
//     a * x) and where(X op s, X, t) or where(X op s, t, X) with op one
//     of < <= > >= (where(x > 0, x, 0)), each written as the passes'
//     expressions with the inner result rounded to the dtype. Each loop is the executor's lane expression (the same Go
//     operation in the same dtypes, runtime/cpu/ops_gen.go), so results
//     are the kernel's bits (TestHostMatchesKernels compares the two
//     over NaN, infinities, -0 and wrapping integers). Anything else
//     (math functions, min/max, integer division, strided or short
//     rows, bool arrays) launches the kernel; a rank-D plan's chunks are
//     pieces of one row, whose start each array finds by its strides
//     (no per-element index arithmetic). w[:] = m + r (a row broadcast)
//     on 2048^2 f32: 21 ms through the kernels, 3.3 ms on the host. Measured on the 2-core machine with
//     bench/cpu/run.sh (best of 5 interleaved rounds): y += a * x on 2^24
//     f32 28.5 ms through the kernels before this path, 5.8 ms with it,
//     against 8.7 ms for the single-threaded C loop; z[:] = where(x > 0,
//     x, 0) 7.3 ms against C's 11.5. Plain
//     loops, not Go 1.26's simd experiment (GOEXPERIMENT=simd, amd64
//     only, an API that may change, and a build flag for the whole
//     binary) nor avo assembly (a generated file per op and dtype and
//     arch, and a second implementation to keep bit-identical): the
//     rows are memory-bound once a chunk stays in cache between passes
//     and the common two-op patterns are one loop, and the scalar loops
//     on both cores beat the C loop on one.
//   - New arrays come from interp.Thread.NewArrayUninit on the operands'
//     device, through the allocator scopes (capture's rules apply).
//     Operands on two devices are an error naming both and `.to`.
//   - Index arrays (gather.go, scatter.go): take(a, idx, axis=) is a
//     gather leaf, not a materialised array: the kernel of the expression
//     around it loads idx at the leaf's own index (its axes are the
//     output's trailing ones; an extent of 1 that the expression
//     stretches reads index 0), wraps a negative index, and loads the
//     source there, so `y = take(a, idx) * 2.0 + b` is one kernel reading
//     idx, a where it points, and b. An index outside its axis is
//     recorded in the kernel's error slot (an i64[2]: which leaf, and the
//     index, the first to land by atomic compare-and-swap), read back
//     after the launch and reported as NumPy's IndexError; the read is a
//     synchronisation, so index arrays are refused inside capture. Such
//     a plan is rank-D and launched whole (past 2^31-1 elements: not yet
//     supported). Fused reductions read leaves at their own index, so
//     sum(take(a, idx)) gathers into a temporary first (Ungather). a[idx]
//     materialises where it stands (interp's index: the compiler never
//     defers an index expression; making it an operand like a call is the
//     one change that lets a[idx] fuse as take does).
//   - Scatter: dst[idx] = v runs a check kernel (every index in range,
//     else an error and nothing written) that also resets, in an
//     uninitialised i64 per row of dst, the rows idx names; a second
//     elects for each such row the last position naming it (atomic max);
//     a writing kernel stores only at the elected positions: NumPy's last
//     write wins on every device, whatever order threads run in, at a
//     cost in the size of idx, not of dst. add_at needs
//     no election: atomic adds combine every occurrence (float sums may
//     round in any order, unlike NumPy's sequential np.add.at). v is any
//     expression, broadcast to idx.shape + dst.shape[1:]; leaves (and idx)
//     that share bytes with dst are copied first.
//   - Gradients of expressions (grad*.go, issue 31). On a tape,
//     Materialise and Store record an expression that reads a float array
//     requiring a gradient as one TapeOp ("array expression"; outside a
//     tape the cost is th.Taping(), one pointer test). Its backward is
//     BackwardExpr: reverse mode over the tree, each node's operands
//     getting g times their partials from the op's adjoint rule in the op
//     table (ir.AdjointRule, the rules lang/ad applies to kernels, here
//     through an ir.Deriv whose terms are sub-expressions). Recompute, not
//     save: a node's result and operands in those rules are its own
//     sub-trees, evaluated again by the backward kernels from the leaves
//     (whose versions the tape checks), so the forward allocates nothing
//     for the tape. One kernel per leaf: every path's contribution to a
//     leaf (x * x: two) is summed into one expression, which
//     Thread.AccumulateGrad adds to its gradient. A gradient pushed down
//     the tree that grows past 256 nodes (rules that use it twice, as
//     minimum's and clip's, double it at each level of a chain of them)
//     is computed into an array there, one kernel, and read as a leaf
//     below. A leaf broadcast along
//     axes (stretched, prepended, or a stride-0 view) gets that sum
//     reduced over them first, through stdlib's fused axis reduction
//     (SumAxes: one deterministic engine, so cpu and cuda agree bit for
//     bit), then reshaped to its shape. A gather leaf (a[idx], take) adds
//     its contribution to the source's gradient by add_at along its axis
//     (views put the axis first): repeated indices accumulate, with
//     atomics, so their float sums may round in any order. Only float
//     values carry gradients: int and bool sub-trees, comparisons and the
//     DiffNone ops (floor, sign, ...) pass none; a conversion passes it
//     converted back; a node at an int compute type passes none. An op
//     without a rule on a path to a leaf needing a gradient is refused
//     when recorded ("the gradient of shfl is not supported"); none of
//     the ops scripts can build lacks one. The leaves that get gradients
//     are those that required one when the op ran, so a store's
//     destination, which requires one after it is recorded, gets none
//     through its own expression (out += x * x gives x 2x, out nothing
//     more). In place over a leaf that requires a gradient (x += v with x
//     requiring one) is refused before it writes: x's one gradient buffer
//     would hold both its new values' gradient and, added, its old ones'
//     (PyTorch refuses an in-place op on a leaf that requires grad too);
//     write x2 = x + v. A plain store over such an array (y[i] = v) is
//     allowed: y's gradient is then that of the values it holds.
//   - `a ** b` is pow's op (ir.OpPow) on floats; on ints (NumPy's dtype:
//     int ** int stays int, wrapping) it is square-and-multiply over the
//     exponent's bits (intpow.go). A negative host int exponent is NumPy's
//     error; a negative element of an int array exponent cannot stop a
//     kernel, so it gives the integer part of x**e as C would: 1 for x = 1,
//     +-1 for x = -1, else 0 (where NumPy raises). Bools are refused.
//     `in` and `not in` never reach Binary (interp answers them).
package fuse
