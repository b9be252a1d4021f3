// Package reduce builds the kernels of gscript's reductions (ARRAYS.md
// section 3: sum prod min max mean argmin argmax any all count_nonzero dot
// norm, allclose, equal, isclose) as kernel IR, and plans how an array is
// reduced. Its functions are pure: they depend on dtypes, shapes, strides,
// axes and what the device is, and every kernel passes ir.Verify. The same
// IR runs on every backend (runtime/cpu runs blocks in parallel across
// cores; runtime/cuda prints CUDA C), so each reduction has one
// definition. stdlib launches the kernels (interp.Thread.LaunchLibrary)
// and turns their results into host values.
//
// # Kernels
//
// Every kernel is a block kernel of 256 threads (8 warps). A reduction is
// a reducer (spec.go): accumulator types, the identity, a map from
// elements to accumulators and an associative, commutative merge. Each
// thread loops over its elements with 4 independent accumulators (4 loads
// in flight per iteration), merges them in a fixed tree, and the block
// merges its threads' accumulators with block_sum, block_min, block_max,
// block_any or block_all where one applies, else with a butterfly of
// shfl_xor over each warp, one shared slot per warp and a barrier, then
// the same butterfly over the slots (block_sum's shape).
//
//   - Full reductions (no axis, or every axis without keepdims) take two
//     passes: pass 1 over Blocks(n) blocks strides over the elements
//     (block b, thread t reads b*256 + t, then every 256*Blocks(n)) and
//     writes one partial per block; pass 2, one block, merges the
//     partials and writes the result, which the host reads after one wait.
//   - Along axes (PlanAxis) the input is seen as [kept axes..., reduced
//     axes...] and each output element reduces one "row" of K elements,
//     with one block per output (Row: its threads stride over the row and
//     block-reduce) or one thread per output (Column: it loops over the
//     row; neighbouring threads read neighbouring elements when the kept
//     axes are innermost). One pass: nothing is read back, so a capture
//     block records it.
//   - isclose is elementwise: threads stride over the elements and write
//     a bool array.
//   - Scans (scan.go: cumsum, cumprod) see input and output as [kept
//     axes..., scanned axes...], M rows of K, and give a row a thread
//     (Column: NumPy's sequential loop), a block (Row: rounds of 256
//     elements, each a block scan combined with the carry of the rounds
//     before), or, when rows are too few to fill the device, split rows
//     into tiles of 4096 elements and take three passes: each tile's total
//     (a reduction) goes into the tile's first output element; a block of
//     1024 threads per row replaces those by their exclusive scan; each
//     tile is then scanned from its offset. The block scan is built here
//     for both combines (shfl_up ladders in block_scan's order, then the
//     same ladder over the warps' totals), so a product scan has one too.
//   - Sorts (sort.go: sort, argsort, unique) are an LSD radix sort of
//     8-bit digits as onesweep: one kernel counts every pass's digits,
//     then one kernel a pass ranks its tile and finds the tile's place by
//     decoupled look-back over the tiles before it; search.go has the
//     elementwise kernels of unique, searchsorted, bincount and histogram.
//   - The NaN-ignoring reductions (nan.go) are kinds of their own, built
//     from the reducers of sum, mean, min, max, argmin and argmax.
//
// # Decisions where the design was silent
//
//   - Determinism: no float atomics anywhere (the sort's integer
//     atomics and look-back sums come out the same in any order), and
//     pass 1's grid depends on n alone (Blocks: cdiv(n, 16384) up to 4096
//     blocks), not on the device.
//     The order of every float operation is then fixed by n and the
//     layout, and since both backends implement the IR bit for bit (IEEE
//     arithmetic, no FMA contraction, the collectives' orders of
//     lang/ir/doc.go), a full reduction gives the same bits on every run
//     and on the cpu and every CUDA device alike. 4096 blocks of 256
//     threads are four or more waves on an H200 whatever the occupancy
//     (a grid of exactly one wave would need the occupancy, which the
//     IR does not know); 64 elements per lane keep the cpu's per-block
//     merge small. Axis reductions choose Row or Column by the device
//     (strategy), so their float results may differ between the cpu and
//     a GPU in the rounding of the f64 accumulator: by at most a few
//     units of 2^-53 relative to the sum of magnitudes, which an f32
//     output almost never shows; on one device they are bit-identical.
//   - Accumulation: float sums, means, norms, dots and products in f64,
//     also for f32 inputs; the host gets an f64 float, an axis output is
//     rounded once to its dtype.
//   - Exact int sums: each element splits into limbs hi = x >> 32 and lo =
//     x & (2^32-1) (one limb for types of 32 bits or fewer), summed
//     separately in i64. Over fewer than 2^31 elements neither sum can
//     overflow (|hi| <= 2^31, lo < 2^32), in any order, so the host
//     recombines hi*2^32 + lo exactly (math/big) and reports a total
//     outside the host int range as an error. Longer arrays are reduced
//     in ranges of 2^31-1 elements (Full.Chunk), summed exactly on the
//     host. dot of ints sums exact i64 products the same way; a product
//     that leaves i64 (checked by division for 64-bit inputs) or a u64
//     operand of 2^63 or more sets a flag that is an overflow error.
//   - Exact int products: the wrapped i64 product W travels with an f64
//     product A of the same elements. Nonzero ints never shrink a
//     product, so A is 0 or NaN only when an element is 0 (and W is 0
//     then), and otherwise A is within 2^-40 of the true product while a
//     wrapped W is off by a multiple of 2^64: |A - W| > 2^-20 |A| means
//     overflow (prodFull).
//   - Float sums, means and norms of a whole contiguous array in host
//     memory do not run the kernels where the backend is a
//     backend.Summer (the cpu, whose lane executor they would run on):
//     HostSum gives it the kernels' order (block size, accumulators,
//     grid) and runtime/cpu's Sum computes the same bits with Go loops
//     (TestHostSumMatchesKernels), groups of neighbouring blocks per
//     worker so that memory streams. A backend without it (CUDA) runs
//     the kernels. On the 2-core development machine a sum of 2^26 f32
//     reads 12 GB/s that way, against 2.5 through the kernels and NumPy's
//     16-19 (the lane executor spends about 3.4 ns of
//     CPU an element: index, gather, conversion, add and move are each a
//     loop over the lanes). Everything else (ints, strided views, other
//     reductions, axes) runs the kernels; the loops are the kernels' order
//     written out, so a change to strided, mergeUnrolled or block_sum's
//     shape must change runtime/cpu/sum.go (or the order HostSum passes)
//     too, which that test enforces.
//   - Axis sums, means and norms of floats that the cpu plans with the
//     Row strategy, over rows contiguous in memory (sum(x, axis=1) of a
//     C-order matrix), go to the backend's RowSummer (HostRowSums): each
//     row summed as the Row kernel's one block would (the full sum's
//     loops with one block and no second pass), finished by RowValue and
//     rounded to the output's dtype, bit for bit the kernel's
//     (TestHostRowSumsMatchKernels). Column plans, strided rows and
//     expressions run the kernels. 4096 x 4096 f32 along axis 1 on the
//     2-core machine: 188 ms through the kernels, 7.7 ms (two workers).
//   - Full min and max of a contiguous cpu array (HostExtreme) run as Go
//     loops over chunks on every core, not the kernels: ints and floats
//     give the same result in any order but for a NaN (which of several
//     NaN payloads the merge tree keeps) and an extreme of zero with
//     both signs present (the merge keeps the later of -0 and +0), which
//     the loops detect and leave to the kernels. max of 2^24 f32 on the
//     2-core machine: 191 ms through the kernels, see bench/cpu/run.sh;
//     the loops keep eight bounds (one per element of a group of eight,
//     so that the compares do not wait on each other): 5.2 -> 3.3-3.6 ms.
//   - SIMD for the host loops, in hand-written amd64 assembly
//     (extreme_amd64.s here, runtime/cpu/sumvec_amd64.s for the sums),
//     AVX only, detected with golang.org/x/sys/cpu; the Go loops stay as
//     the fallback (no AVX, other architectures: the _other.go files) and
//     as the reference the tests compare bit for bit. Why assembly: Go's
//     compiler does not vectorise, a lane-major Go variant measured 2x
//     slower, Go 1.26's simd package needs GOEXPERIMENT at build time,
//     and avo is not available. The bits: the sums' vector loop is the
//     Go loop's `a[t] += float64(x[t])` four lanes at once, each
//     accumulator getting the same adds in the same order (VCVTPS2PD is
//     exact; VADDPD and VMULPD round each lane as ADDSD and MULSD do; no
//     FMA), and the merge of four accumulators likewise; block_sum's
//     butterflies and the tails stay scalar. min and max take four
//     vector bounds with VMAXPS/VMINPS and find NaNs with an unordered
//     compare of each pair of loads (VMAXPS drops a NaN in one operand
//     order, so its result alone cannot tell): with a NaN the result goes
//     to the kernels as before; without one the extreme is one value in
//     any order, but for a zero's sign, which hasZeros still settles.
//     BenchmarkHostLoops (2^24 f32, 2-core machine): max 3.3-3.6 ->
//     1.0-1.2 ms, sum 3.95 -> 2.1-2.3 ms, rows 5.5 -> 2.5 ms (with the
//     tail's division per lane gone); bench/cpu/run.sh's table in
//     docs/benchmarks.md. NaN payloads: when two NaNs of different
//     payloads meet in an add, which one survives depends on the operand
//     order, which Go's compiler does not fix either; the tests compare
//     the bits of single NaNs, infinities and signed zeros.
//   - NaN: min and max merge with a select that keeps a NaN once met
//     (OpMin is fmin-like and drops it); argmin and argmax rank NaN above
//     every number and break ties by the lower index, so both return the
//     first NaN, as NumPy. Bools compare as u8.
//   - Dtypes along axes (AxisOut), as NumPy: floats keep theirs; sums and
//     products of bool, i32 and i64 are i64, of u8, u32 and u64 u64 (and
//     wrap, as NumPy's do: only the host ints of full reductions check
//     overflow); means and norms of ints are f64; argmin, argmax and
//     count_nonzero give i64; any and all bool.
//   - Axes are 0..ndim-1, none twice: the builtins map a negative axis,
//     counted from the last as NumPy's, before planning. argmin and argmax
//     take one int axis (NumPy's). An empty axis list reduces nothing
//     (K = 1: a converted copy).
//   - Visiting order: full reductions other than argmin/argmax read one
//     input in memory order (axes sorted by decreasing stride), so a
//     transposed view streams memory; two-input reductions and argmin /
//     argmax go in C order. Then runs of axes that step through memory as
//     one are merged (mem.Array.MergeAxes), so a contiguous array is 1-D
//     and indexes without divisions; what remains is split by division.
//   - Indices are i32, or i64 ("wide" kernels) from n >= 2^31 - 2^22 on,
//     where an index plus a few grid strides could pass 2^31.
//   - Row or Column (strategy): on CUDA Row for rows of 32 or more
//     elements that are contiguous, or when fewer than 32768 outputs
//     would leave Column's threads too few to fill the GPU; on the cpu
//     Column unless there are fewer outputs than lanes for every worker
//     or rows are long and contiguous. A reduction over few outputs with
//     the kept axes innermost (sum(m, axis=0) of a tall matrix) has no
//     split of K across blocks yet: on a GPU it runs a block per output.
//   - Scans: dtypes as NumPy (floats keep theirs, bools and signed ints
//     i64, unsigned u64), accumulated in that dtype as NumPy does, ints
//     wrapping; not in f64 for f32 as the reductions are: every partial
//     result is stored in the output dtype anyway, the block scans'
//     trees err by O(log n) roundings rather than NumPy's O(n), and an
//     accumulator of the output's type lets pass 1 keep the tiles' totals
//     in the output, so a scan needs no scratch memory and is safe to
//     record in a capture (a graph keeps no temporaries alive). Float sums
//     start from -0.0, the exact identity (0.0 + -0.0 is 0.0). One axis
//     (an int, negative from the last) or the flattened array in C order (NumPy's
//     cumsum without axis; a 0-D array is seen as 1-D). Tiles are 4096
//     elements and the choice of thread, block or tiles depends on the
//     shape and the kind of device only, so one device gives the same
//     bits on every run; the flattened scan of more than 4096 elements
//     takes the same tiles on every device, and so the same bits.
//   - Fused inputs (ARRAYS.md section 3: sum(a * b) reads its inputs
//     once, no temporary): pass 1 and the axis kernels take a Producer
//     (produce.go), which emits the reduction's inputs from its leaves'
//     elements, loaded where plain inputs are; plain inputs are the
//     Producer that passes them through, so there is one kernel builder.
//     stdlib/fuse implements it for array expressions; package reduce
//     knows no trees. The leaves come broadcast to the expression's shape
//     (stride 0 on stretched axes) and are visited in the expression's C
//     order, the reduced axes' order and the strategy being those of the
//     materialised (C-order) array (PlanFused, PlanAxisFused): the result
//     has the bits of materialising, then reducing, on every device, at
//     the price of strided reads of a transposed leaf (a plain transposed
//     array is read in memory order instead). Axes are merged where every
//     leaf allows.
//   - Kernels are built once per (reduction, dtypes, ranks, strategy,
//     width, Producer.Key) and kept in the process kernel cache
//     (lang/ir/cache, under cache.go's key type, beside interp's); interp
//     compiles each once per device and thread. Fused kernels' names end
//     in _fused.
package reduce
