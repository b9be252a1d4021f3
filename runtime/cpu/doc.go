// Package cpu is gscript's CPU device: it executes kernel IR (lang/ir),
// bounds-checked and in parallel on all cores.
//
// # Execution model
//
// A launch's threads are cut into blocks of 1024 consecutive linear thread
// ids; worker goroutines take blocks from a shared counter. Within a block
// every IR register is a typed vector with one value per lane and every
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
// runs under the caller's mask. Instructions that can fault (loads, stores,
// atomics, integer division) only touch active lanes, and an access checks
// every active lane's indices before any element is read or written.
//
// Fast paths: a uniform Const/Param/Shape whose register has one definition
// is computed once per launch and worker; a 1-D access x[i] where i is tid()
// (through moves) in a 1-D kernel is a bounds check of the block's range and
// a copy (contiguous) or strided loop, never reading the index register.
//
// The element-wise lane loops are generated: ops_gen.go comes from gen.go
// (go generate). Go does not inline func values, and a call per lane costs
// about 4x a plain loop, so the loops are written out per operation.
//
// # Decisions where the design was silent
//
//   - Thread order is C order over the launch extents: the last axis is
//     fastest; OpTid Imm k is the index along axis k. A kernel with
//     TidDims > 0 must be launched with exactly that many extents; one with
//     TidDims == 0 takes any 1-4 extents (and must cover the tid axes it uses).
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
//     fma (nvcc does by default).
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
//   - Compile errors (IR this executor rejects: type mismatches, recursion,
//     break outside a loop) are *pos.Error values prefixed "cpu:"; they mean
//     a checker bug, not a user error. Funcs are compiled per call site, up
//     to 4096 instances per kernel.
package cpu

//go:generate go run gen.go
