// Package cpu is gscript's CPU device: it executes kernel IR (lang/ir),
// bounds-checked and in parallel on all cores.
//
// # Execution model
//
// A flat launch's threads are cut into blocks of 1024 consecutive linear
// thread ids; worker goroutines take chunks of up to 16 consecutive
// blocks from a shared counter (fewer when a launch has under 128 blocks
// a worker), so that each core streams its arrays in order: handed out
// one by one, a core's blocks are every other 4 KiB of an f32 array and
// the prefetchers lose the stream (saxpy of 2^24 f32 from a script on
// the 2-core machine: 16.5 -> 10.5 ms). A claimed block runs even when
// another worker failed meanwhile, if that failure is in a later block,
// so the error reported stays the lowest block's as before. Within a
// block every IR register is a typed vector with one value per lane and every
// instruction is one tight loop over the lanes, compiled once (Compile) into
// closures specialised by opcode and type. Each worker has a frame of
// register vectors and mask lists that is reused for every block and kept
// in a per-Program pool across launches, so the steady state allocates
// nothing per block.
//
// Divergent control flow runs under lane masks: a mask is either "all lanes
// of the block" (instructions then use unmasked loops) or a sorted list of
// active lanes. If runs Then on mask&cond and Else on mask&!cond, skipping a
// side with no lanes; Loop iterates while any lane is active, with per-lane
// marks for break/continue; return removes lanes. Funcs are compiled once
// per call site with their own registers ("inlined"), so array parameters
// resolve to kernel arguments at compile time and the callee body simply
// runs under the caller's mask; a return moves each value into a result
// register of the call site (only for the results the caller keeps),
// which the call then moves into its destinations. Instructions that can fault (loads, stores,
// atomics, integer division) only touch active lanes, and an access checks
// every active lane's indices before any element is read or written.
//
// Fast paths: a Const/Param/Shape or a block index op that is the same in
// every block, whose register has one definition, is computed once per
// launch and worker; a 1-D access x[i] where i is tid() (through moves) in a
// 1-D kernel (flat, or a block kernel whose thread ids fit in i32) is a
// bounds check of the block's range and a copy (contiguous) or strided
// loop, never reading the index register. Indices that are constants
// (one definition, an OpConst: the lane axes of vec3 and mat33 arrays,
// x[i, 0]) are checked once per block and become a fixed byte offset, so
// x[tid(), c, ...] takes that fast path too, and any other access reads
// per lane only its other indices; a constant out of bounds makes the
// access check every axis per lane, which reports the same error as
// without it. An access whose one varying index holds a run over all the
// block's lanes (lane i's index is lane 0's plus i: a grid-stride loop's
// x[i] with i = base + thread_id()) is checked by its range and copied
// the same way; kRun finds out per execution, and a gather's indices
// usually fail it at lane 1 (a pass over at most the block's indices).
// On the 2-core development machine it made the kernels of an int sum
// 22% faster, of max 4%. Such a contiguous load of a full block is
// zero-copy (zerocopy.go) when its register has that one definition and
// every read of it comes before the first instruction that may write
// memory: the register then points at the array's elements, and the
// instructions reading it stream the array themselves (saxpy, one
// worker: 1.29 -> 1.20 ns an element in cache, 2.07 -> 1.92 from
// memory). In a flat kernel a tid() whose register (and the moves
// of it: `let i = tid()`) is read only as an index of loads and
// stores is not computed at all (lazytid.go): the contiguous path never
// reads it, and an access that takes another path (a partial block past
// the array's end, a strided one) first fills its index register with
// the block's thread ids (saxpy, one worker: 1.19 -> 0.70 ns an element
// in cache, 1.40 -> 1.13 from memory). In any flat kernel, an access
// whose every index is affine (affine.go: tid(k) plus constants, scalar
// parameters and shapes, through moves, adds and subtracts: jacobi-2d's
// u[i - 1, j] with i = r + 1, j = c + 1) splits its block into runs
// along the launch's last axis (rows of at least 64 threads), checks each
// run's ends and copies it (or steps through it, for a strided view);
// such registers read only by accesses are not computed either, and the
// general path fills them first (jacobi-2d of 4096^2 f32 on the 2-core
// machine: 147 -> 20 ms, C -O2 11-12 ms). (Race-checked shared accesses,
// local arrays and bool arrays keep the general path.)
//
// Block kernels (ir.Kernel.Block, lang/ir/doc.go "Block kernels") run one
// of their blocks per frame block: the lanes are exactly the block's
// threads (lane = linear thread index, C order over the block), launch
// extents count blocks, and workers take blocks as above. The block runs
// in lockstep, so sync() is a phase boundary with nothing left to do but
// check that every lane that has not returned reached it (block
// collectives likewise; sync_warp per warp), shuffles and votes read the
// other lanes' registers directly, and collectives are computed once per
// block in doc.go's orders (warp.go). Shared arrays are one copy in the
// frame; local arrays one copy per lane, element-major, or record-major
// when field accesses read them (buffer.go).
//
// The element-wise lane loops are generated: ops_gen.go comes from gen.go
// (go generate). Go does not inline func values, and a call per lane costs
// about 4x a plain loop, so the loops are written out per operation.
// gen.go ranges over lang/ir's op table: every value op (FormSame with a
// ResultSame or ResultBool rule, FormSelect) has a lane expression per type
// class, keyed by (op, type set), or an entry naming the hand-written code
// that runs it (mov, integer division); an op with neither fails
// generation. It also writes valueOps, the [op][type] table of makers
// that inst.go dispatches through, result types coming from
// ir.OpInfo.ResultType; TestGeneratedOpsFresh fails when ops_gen.go is
// stale.
//
// # Decisions where the design was silent
//
//   - Thread order is C order over the launch extents: the last axis is
//     fastest; OpTid Imm k is the index along axis k. A kernel with
//     TidDims > 0 must be launched with exactly that many extents; one with
//     TidDims == 0 takes any 1-4 extents (backend.CheckLaunch's rules).
//   - Compile runs ir.Verify first; TestEveryOp compiles a kernel for every
//     op of the op table, and no op switch has a silent default.
//   - Float to integer conversion is ir.Convert's rule (lang/ir/convert.go,
//     Go on amd64, written out so arm64 hosts agree): to i32 and i64, NaN and
//     out-of-range values give the minimum integer (0x80...0); u8 converts
//     through i32 and u32 through i64, keeping the low bits (so -1.0 -> 255,
//     NaN -> 0); u64 converts values >= 2^63 as (x - 2^63) with the top bit
//     set, and NaN/out-of-range values give 2^63. Negative values wrap
//     (u32(-1.0) = 4294967295).
//   - Shift counts are read as unsigned, so a negative count acts like a
//     count >= the width (0, or -1 for >> of a negative signed value).
//   - sign(±0.0) is +0.0; sign(NaN) is NaN. min/max of +0 and -0 give -0 and
//     +0 (as math.Min/Max). clamp(x, lo, hi) = min(max(x, lo), hi) with the
//     same NaN rules, so clamp(NaN, lo, hi) = lo.
//   - f32 math is computed with float64 math functions and rounded to f32:
//     sqrt, floor, ceil, round, trunc, abs and the basic arithmetic are
//     correctly rounded; transcendental functions have the accuracy of Go's
//     math package rounded to f32, usually better than CUDA's sinf/expf (1-2
//     ulp), so results can differ from a GPU in the last bit. rsqrt is 1/sqrt with two f32 roundings.
//     fma rounds once (an exact halfway case of the float64 sum is resolved
//     with its rounding error). The executor never contracts a*b+c into an
//     fma (nvcc does by default), but in a fast-math kernel.
//   - Fast math (ir.Kernel.FastMath or backend.Options.FastMath, lang/ir's
//     "Fast math"): the only liberty the executor takes is contracting an
//     f64 x*y + z (or z + x*y) into math.FMA, a hardware instruction on
//     amd64 (FMA3) and arm64, when the product is defined once, earlier in
//     the same straight-line run with its operands unchanged since
//     (contract.go); a product read only there is not computed at all.
//     f32 stays strict: Go has no f32 FMA, and fma32's exact emulation
//     costs more than the mul and add it would replace, so contracting
//     would make a fast kernel slower. Division, sqrt, rsqrt and the
//     transcendentals stay as in strict kernels (Go's are no faster when
//     less accurate). So a fast f32 kernel gives the strict cpu's bits,
//     and CUDA's fast results differ from both.
//   - atomic_cas compares bit patterns (CUDA's atomicCAS on the integer
//     view), so for floats -0.0 does not match +0.0 and a NaN matches the
//     same NaN bits. Float atomic min/max ignore a NaN operand, as fminf.
//     Integer add/sub use hardware atomic adds; everything else a CAS loop.
//   - Stores from several lanes to one element in one instruction: the
//     highest lane wins within a block (order between blocks is undefined).
//   - Device print appends Format with "{}" replaced by each value (the
//     checker puts the newline in Format); each print instruction writes its
//     active lanes in lane order, and a block's output is written to
//     Options.Out in one Write after the block. With Out nil nothing is
//     formatted.
//   - Errors: the first failing instruction of a block stops the block; the
//     error of the lowest failing block is returned. Within an instruction
//     the lowest faulting lane is reported. A failing store writes nothing.
//     A Go panic inside the executor becomes a KernelError ("internal
//     error") at the kernel's position.
//   - Cancellation is polled between blocks and on every loop iteration, so
//     an infinite loop in a kernel can be canceled too.
//   - A Program keeps its last launch's state (argument slices, the
//     WaitGroup and the closure its worker goroutines run) for the next, so
//     that a steady-state launch allocates nothing, on one worker or many
//     (TestLaunchAllocates); a launch overlapping another on the same
//     Program allocates its own. The caller runs one of the workers.
//   - Block kernels: a launch is checked with backend.CheckLaunch (a grid of
//     the block's rank, CUDA's limits per axis; 0 blocks runs nothing) and
//     Geometry is the block and the grid. tid() wraps in i32 as on CUDA.
//   - Shared arrays start zeroed in every block (CUDA leaves them as the
//     memory was); a block may have 232448 bytes of them (the H200's
//     opt-in limit, so that a script fits both devices or neither), more
//     is a compile error naming both figures. Local arrays are zeroed for
//     the lanes of each call of their func (funcs are inlined per call
//     site, each with its own copy) and for the kernel's own at block
//     start, in flat kernels too; a thread may have 512 KiB of them
//     (CUDA's local memory limit), every call site counted. A flat kernel
//     with large local arrays runs blocks of fewer lanes (down to 32), and
//     a launch uses fewer workers when their frames would pass 1 GiB.
//     Shared and local indices are always bounds-checked, with the usual
//     message naming the array. Atomics on them are the same CAS loops.
//   - Barriers: sync() and every block collective must be reached by every
//     thread of the block, sync_warp() and the warp ops (shuffles, votes,
//     warp collectives) by every lane of the warp, returned threads
//     included; otherwise the launch fails at the instruction with
//     "sync() reached by 10 of 64 threads of block (3): the others branched
//     away before it" ("... or returned before it (4 returned)" when some
//     returned). CUDA leaves this undefined: a hang, or a full-mask shuffle
//     reading an exited lane. A warp or block with no lane at the op did
//     not reach it, which is no error.
//   - Float collectives round in their type at every step (doc.go's
//     order, lane by lane), so results are bit-identical to CUDA's but for NaN payloads (a NaN result is a
//     NaN on both; Go keeps an operand's payload, CUDA gives its canonical
//     NaN).
//   - backend.Options.Debug adds shared-memory race detection to block
//     kernels (the cpu checks bounds and divisions always): a load or
//     store of a shared element that another thread stored to since the
//     last barrier fails the launch at the access, naming the element,
//     both threads and the store's position. sync() and block collectives
//     order all threads, sync_warp() the threads of a warp. A store after
//     another thread's load (write after read) is not reported, and
//     atomics are neither checked nor recorded. It costs a shadow entry
//     of 24 bytes per shared element and a check per access.
//   - Ops are dispatched by the table: inst.go switches on the op's Form
//     (each form has its own operand shape), value ops go through
//     valueOps, an access counts its values by the row's Arity. The
//     switches over ir.Op that remain (leaf.go, block.go, access.go's
//     update, warp.go, compile.go's isTid) each say on their line why the
//     ops they tell apart need different code.
//   - Full float sums in host memory (stdlib/reduce's Sum, Mean and Norm
//     of a contiguous array) are the backend.Summer capability, as matrix
//     products are GEMMer: sum.go's Go loops follow the kernels' order
//     that the request carries (block size, accumulators, grid), so that
//     the cpu does not import stdlib and gives the kernels' bits
//     (stdlib/reduce's TestHostSumMatchesKernels) at memory speed instead
//     of the lane executor's 3.4 ns an element. Row sums (the
//     backend.RowSummer, an axis sum's Row strategy) are those loops
//     with one block a row; a lane's four accumulators merge in one loop
//     over the lanes (mergePairs's order), which made a 4096 x 4096 f32
//     row sum 30 -> 7.7 ms and a full sum of 2^24 f32 13.8 -> 4.4 ms;
//     block_sum's butterflies compute only lane 0's value, in place (the
//     same adds in the same order): 7.2 -> 5.5 ms and 4.4 -> 3.95 ms.
//     On amd64 with AVX the accumulator adds and the four-way merge run
//     as the vector loops of sumvec_amd64.s, each lane the Go loop's add
//     (same order, same rounding: no FMA); the Go loops remain where AVX
//     is absent (stdlib/reduce/doc.go's SIMD decision says why assembly
//     and how the bits are kept). The tail's first index per lane comes
//     from tailRounds, not a division a lane. Row sums 5.5 -> 2.5 ms,
//     full sums 3.95 -> 2.1-2.3 ms (BenchmarkHostLoops).
//   - Matrix products (backend.GEMMer, gemm.go) run through OpenBLAS
//     (runtime/openblas: libopenblas.so.0, Debian's libopenblas0-pthread)
//     where it loads, else through gonum's pure-Go BLAS, f32 and f64 alike;
//     BLASName says which (gscript devices, device_info). Both take the
//     layouts stdlib hands over (row-major or transposed, padded rows, a
//     batch stride, 0 for a broadcast operand) as they are: no copies. A
//     batch is one call per entry and panel: a product is cut into
//     panels of C (whole rows, or 64 rows by some columns; multiples of
//     64, so gonum's bits do not change) of 2^30 multiply-adds for
//     OpenBLAS, 2^27 for gonum (half for f64): 20-40 ms on the 2-core
//     machine (a 1024^3 f32 product is still one call). Cancellation and the step budget are polled before each
//     panel, so a Ctrl-C or a deadline stops a 6000^3 product within
//     100 ms; a product spends the budget (backend.Env.Steps) one step
//     per multiply-add, as the inner loop of a kernel's product would.
//     An entry with an extent past a C int, or with less work
//     than 16^3 multiply-adds (where a call into OpenBLAS costs more than
//     gonum's whole product: gemm.go's smallGEMM), runs through gonum.
//     OpenBLAS uses its own threads, one per core by default
//     (OPENBLAS_NUM_THREADS overrides it), beside Go's. The two libraries
//     sum in different orders, so results differ in the last bits: each
//     element is within 2K·ε·Σ|a·b| of the exact product (K the inner
//     extent, ε 2^-23 for f32 and 2^-52 for f64; TestGEMMOpenBLASGonum),
//     and products of small integers are exact in both. GSCRIPT_BLAS=gonum (or SetBLAS("gonum"), for the
//     whole process) forces gonum, =openblas makes a missing OpenBLAS an
//     error instead of a fallback. No warning when gonum stands in: it is
//     correct, only slower, and the CUDA fallback's warning is about a
//     generated kernel far slower than either.
//   - Compile errors (IR this executor rejects: type mismatches, recursion,
//     break outside a loop) are *pos.Error values prefixed "cpu:"; they mean
//     a checker bug, not a user error. Funcs are compiled per call site, up
//     to 4096 instances per kernel.
package cpu

//go:generate go run gen.go
