// Package codegen prints CUDA C++ from gscript's kernel IR (lang/ir), for
// NVRTC with -arch=sm_90 -default-device -std=c++17. The output includes no
// headers (NVRTC has no libc): it uses only NVRTC's built-in CUDA
// declarations (math functions, __fadd_rn and friends, atomics, printf).
//
// One Source call gives one translation unit: the gs_array struct, the
// helpers the kernel needs, a static __device__ function per k.Funcs entry
// (prototypes first, so call order does not matter) and the
// extern "C" __global__ entry EntryName(k). A func returns void, its one
// result, or for several results a struct declared before its prototype
// (gs_fN_name_res, members v0, v1, ...) whose members the caller copies to
// the call's kept destinations. The text depends only on the IR
// and Options, so it can key the kernel cache. The launch contract below
// is that of flat kernels; block kernels have their own (# Block kernels).
//
// # Launch contract
//
// The entry's parameters are listed by ParamLayout: the kernel's parameters
// in order (arrays as struct gs_arrayN by value for rank N: data address,
// shape[N], strides[N] in elements; scalars as their C type), then struct
// gs_launch { n[4] (launch extents, 1 past the launch's rank), total,
// per }. The kernel body is an inlined __device__ function run once per
// launch thread t; CUDA thread c of block b runs t = b*blockDim.x*per +
// threadIdx.x + k*blockDim.x for k in [0, per), stopping at t >= total
// (ceil(total / (blockDim.x*per)) blocks cover the launch; the launcher
// sets per > 1 only for launches far larger than the GPU). The entry
// carries __launch_bounds__(FlatBlock, 4): the launcher's 256 threads a
// block, and four such blocks resident per multiprocessor, which caps a
// thread at 64 registers. Without the cap NVRTC gave a loop-heavy body
// (the vec3 n-body) more registers and the H200 fewer resident warps: the
// naive vec3 n-body ran at 12.1 TFLOP/s, with it at 19.2 (CuPy's
// three-array RawKernel 18.5); streaming kernels use far fewer registers
// and measured the same. The loop over CoarsenPer launch threads is
// unrolled only for small loop-free bodies, counting the funcs they call. tid along axis
// k is decoded from t in C order (last axis fastest), as the CPU executor
// numbers threads; a return in the kernel ends launch thread t only.
//
// # Block kernels
//
// A kernel with ir.Kernel.Block set (COOPERATIVE.md) is printed for the
// exact geometry the script gives, never coarsened: its __global__ entry
// holds the body itself (no gs_launch parameter, no loop over launch
// threads) and carries __launch_bounds__ of the block's thread count
// (with ir.Kernel.MinBlocks, when set, as its second argument). The
// launcher passes Kernel.Block as CUDA's block and the launch's extents
// (blocks per axis) as CUDA's grid, both mapped the same way: the IR's
// axes are C order, so the last axis is x, the one before y, the first of
// three z. thread_id, block_id and grid_dim read threadIdx, blockIdx and
// gridDim of that dimension; block_dim is the kernel's constant; tid() is
// blockIdx*B+threadIdx in 32 bits. The linear thread index is threadIdx.x
// + Bx*(threadIdx.y + By*threadIdx.z), the order CUDA forms warps in, so
// lane_id = linear%32 and warp_id = linear/32 name the hardware's lanes.
//
// Decisions:
//
//   - Shared arrays live in dynamic shared memory: one extern __shared__
//     byte array, carved at the 16-byte aligned offsets that
//     ir.Kernel.SharedBytes adds up, then (for block_sum/min/max and the
//     scans) SlotBytes of slots, one per warp, at the next 16-byte
//     boundary. SharedBytes(k) is the launch's dynamic shared memory.
//     Dynamic rather than static arrays because a block may use more than
//     the 48 KiB a static declaration can: the launcher opts in above it.
//   - Local arrays are C arrays of the function, declared and zeroed with
//     the registers (= {}), so each call of a func starts from zeros.
//     Shared and local indices are C order over the static extents in
//     32-bit arithmetic (Verify bounds a buffer at 2^30 bytes); Debug builds
//     check each index at full width against its extent, recording
//     parameter -1 and the instruction, whose DebugInfo entry names the
//     array and its shape. An atomic on a local array is a plain
//     read-modify-write (the array is the thread's own; CUDA has no atomics
//     on local memory) computing what the CUDA atomic would.
//   - A field access (load_field, store_field) is a typed access through
//     a cast pointer: *(T*)(element + Imm), the element's address computed
//     as a u8 access's from the indices of every axis but the byte axis
//     (never the UnitStride shortcut: its last index is not the byte
//     axis's). A bool field is its unsigned char, read as != 0 and stored
//     as 0 or 1, as on the cpu. Alignment is the launch check's
//     (backend.CheckFields) for parameters and Verify's for buffers; a
//     local byte array that field accesses name is __align__(8).
//   - Vector accesses (Options.Vector, vec.go): the checker's lowering of
//     a compound element's load or store (OpConst k, then the access of
//     lane k, for k = 0..m-1, in one statement list) is recognised and
//     printed as m/w CUDA vector accesses (float4, int2, double2 ...: 8 or
//     16 bytes, w = 4 for 4-byte lanes when m is a multiple of 4, else 2)
//     through the element's first lane, the OpConsts first. Only OpConsts
//     that change no register the accesses use may sit between them, so
//     nothing can store to the array in between; vec3 elements stay
//     scalar. The launcher builds it only for arguments that VectorNeeds
//     says are aligned for it (data, unit lanes, the other strides), and
//     never for Debug. The cpu runs the scalar accesses: the same bytes.
//   - sync is __syncthreads(), sync_warp __syncwarp(). Shuffles, ballot,
//     __all_sync and __any_sync use the full mask. Every lane executes each
//     shuffle: the source lane is computed unconditionally (b & 31 for shfl
//     and shfl_xor, which are then always in range; lane+b and lane-b in
//     gs_shfl_down_T and gs_shfl_up_T, which keep the own value afterwards
//     when b or the source is out of range, as doc.go says). bool and u8
//     travel as int; the other types use CUDA's overloads.
//   - Warp and block collectives are __device__ helpers generated per op
//     and type (gs_warp_sum_f32, gs_block_scan_i64, ...), printed only when
//     a kernel uses them, each after the helpers it calls. They follow
//     lang/ir's doc.go step for step, with the instruction's own
//     arithmetic (__fadd_rn, wrapping integer adds, fminf/fmaxf), so they
//     give the cpu backend's bits: the xor butterfly 16..1; block
//     reductions as warp op, barrier, lane 0 to slot[warp], barrier, warp
//     op over the slots padded with the identity; scans by shfl_up 1..16,
//     lane 31 to slot[warp] between barriers and the earlier warps' totals
//     summed left to right. block_count, block_any and block_all are
//     __syncthreads_count, _or and _and (exact, and one barrier).
//
// # Source positions
//
// Before the lines of each new script position the output has a comment
// `// gs:pos LINE:COL "FILE"`; ScriptPos maps a generated line back to it
// and MapLog rewrites NVRTC's messages with it.
//
// # Debug builds
//
// Options.Debug checks every index of every load, store and atomic against
// the array's shape (one unsigned compare per axis, which also catches
// negative indices) and every integer divisor against zero. The first
// failure of a launch is recorded in the __device__ variable ErrorSymbol
// (48 bytes, DecodeErrorRecord) with atomicCAS, and the failing thread ends
// with PTX exit: the bad access never happens and the context is not
// poisoned. The host zeroes the record (cuModuleGetGlobal, cuMemsetD8)
// before a debug launch and reads it after the launch completes;
// DebugInfo(k).Describe turns it into the CPU executor's message at the
// instruction's source position. Instruction ids number the entry's
// instructions, then each func's, in statement order (DebugInfo documents
// the walk). Inside device funcs each array parameter carries a hidden
// "int gs_root<i>", the entry parameter it came from, so the message names
// the launch's array. Other threads run on; what they wrote stays written
// (in a coarsened launch the later launch threads of the failing CUDA
// thread do not run: the launch has failed already).
//
// # Semantics (identical to the CPU executor unless noted)
//
//   - Integer + - * and negation wrap: signed values are computed in the
//     unsigned type of the same width (C leaves signed overflow undefined).
//     abs(MinInt) is MinInt, as Go's wrapping negation.
//   - Integer / and % truncate; MinInt / -1 is MinInt and MinInt % -1 is 0,
//     as in Go. Division by zero: Debug builds report "integer division by
//     zero"; other builds give a defined value instead of C's undefined
//     behaviour (decision: quotient all ones, i.e. -1 or the maximum
//     unsigned value, remainder the dividend, as RISC-V defines it; the CPU
//     executor always reports an error).
//   - Shifts follow Go: the count is taken as unsigned (a negative signed
//     count counts as huge), counts >= the width give 0, or the sign fill for
//     >> of a negative value. The guards make C's undefined cases defined.
//   - Source runs ir.Verify first; TestEveryOp prints every op of the op table.
//   - float -> int conversions follow ir.Convert (Go on amd64, measured with Go 1.26):
//     i32 and i64 truncate, with NaN and out-of-range values giving the
//     "integer indefinite" minimum integer (0x80000000, 0x8000000000000000);
//     u8 converts through i32 and u32 through i64, then truncate; u64
//     converts values >= 2^63 as int64(x - 2^63) | 1<<63 (so NaN, +-Inf and
//     anything out of range give 1<<63, and negative values wrap). The gs_f2*
//     helpers do this with explicit range checks (plain C, so
//     TestConvertHelpersMatchIR compiles them with g++ against ir.Convert); bool <-> number is C's
//     (non-zero is true; true is 1).
//   - Float + - * / and sqrt use the __f*_rn/__d*_rn intrinsics: correctly
//     rounded and never contracted into an FMA whatever -fmad, -prec-div or
//     -prec-sqrt say, so a*b+c rounds twice like the CPU. fma is fmaf/fma.
//     rsqrt is 1/sqrt, two correct roundings (rsqrtf is approximate).
//   - A fast-math kernel (ir.Kernel.FastMath or Options.FastMath) prints
//     the four operations as the C operators, sqrt as sqrtf/sqrt and rsqrt
//     as rsqrtf/rsqrt, and is compiled with --use_fast_math (runtime/cuda/
//     kernel), which contracts into FMAs, approximates f32 division and
//     sqrt, flushes f32 subnormals and maps sinf, expf, ... to their
//     __sinf, __expf intrinsics. Its collectives use the same operators,
//     so they too may contract. f64 keeps correctly rounded division and
//     sqrt (the flags only concern f32) but may contract.
//   - Other f32 math uses the f32 CUDA functions (sinf, expf, powf, ...),
//     f64 math the f64 ones. Their documented ulp error bounds (1-4 ulp for
//     most) mean transcendental results can differ from the CPU executor in
//     the last bits; floor, ceil, trunc, round (half away from zero, roundf),
//     fabs, fminf/fmaxf and conversions are exact and match.
//   - min/max on floats are fminf/fmaxf (a NaN operand yields the other);
//     clamp(x, lo, hi) = min(max(x, lo), hi). On ints they are comparisons.
//   - sign: ints -1/0/1 (unsigned 0/1); floats -1 or 1, +0 for both zeros
//     and the argument itself for NaN, as ir.FSign, the cpu and NumPy's
//     np.sign (until v3 the C kept -0's sign, the one op where the backends
//     differed; TestEvalOnHost found it). isnan/isinf/isfinite test the
//     bits, so fast-math flags cannot change them.
//   - The switches over ir.Op here are the printer's: each case is an op's
//     own C spelling or statement form (the op table has no C column, as
//     it has no Go one: the spelling is the backend's). Same-typed ops read
//     their operand count from the table's Arity, and TestEveryOp prints
//     every op of the table, so a new op fails here until it is printed.
//   - select(c, a, b) evaluates both (they are registers) and picks one.
//   - Atomics: atomicAdd for i32/u32/u64/f32/f64, i64 through the unsigned
//     long long overload (two's complement makes it the same operation);
//     atomic_sub adds the negation (wrapping for ints); atomicMin/atomicMax
//     for i32/u32/i64/u64 (native on sm_90); f32/f64 min/max are atomicCAS
//     loops with fminf/fmaxf semantics; atomic_cas uses atomicCAS, floats
//     through their bits: the compare is bitwise (-0 != +0, a NaN matches
//     the same NaN bits), unlike float ==. u8 and bool atomics are rejected.
//   - Loads and stores address data + sum(idx_k * stride_k) in signed
//     64-bit element units (long long indices and strides, added to a
//     typed pointer), so views with any strides work, negative ones
//     (a[::-1], whose data is its highest element's address) included.
//   - print is device printf, one call per print (so a line is not torn
//     between threads). Formats: %d, %lld, %u, %llu, bools as true/false,
//     f32 with %.9g and f64 with %.17g (round-trip, but not the shortest
//     repr that the host and the CPU executor print: 0.1f prints as
//     0.100000001 and 1.0 as 1). Device print output therefore differs from
//     the CPU device for non-integral floats; its order between threads is
//     unspecified.
//   - Control flow is structured: if/else as is; a Loop is
//     for(;;){ cond; if(!c) break; { body } gs_contN:; post }, continue is
//     goto gs_contN (so it runs Post) and break is C's break (no switch is
//     ever emitted). Registers are locals declared and zeroed at the top of
//     each function, so no goto crosses an initialisation.
//
// # Names
//
// User identifiers never appear bare: parameters are p<i>_<name>, device
// funcs gs_f<i>_<name>, registers r<n>, generated names gs_*; non-ASCII
// characters become '_' after the unique prefix. EntryName is gs_<name> for
// ASCII names and an injective gsu_ escape otherwise.
//
// # Not supported (errors from Source)
//
// tid() inside device funcs (the checker only allows it in kernels);
// block ops and shared arrays outside the entry of a block kernel;
// continue in a Loop's Cond or Post; u8/bool atomics; any malformed IR
// (out-of-range registers, params, callees; mismatched types or index
// counts) is a *pos.Error at the instruction's position, never a panic.
//
// testdata/gpucheck.py compiles every test kernel with NVRTC and runs the
// run cases of TestDumpForGPU on a GPU (see device_test.go).
package codegen
