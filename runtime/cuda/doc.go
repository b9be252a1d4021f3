// Package cuda is a thin, faithful binding of the CUDA driver API
// (libcuda.so.1), NVRTC, the part of cuBLAS that a matrix product
// needs and NCCL's communicators and collectives (nccl.go: LoadNCCL finds
// libnccl.so.2 where cuBLAS is looked for; communicator set-up,
// checks and timeouts are runtime/dist's) through purego: no cgo, so gscript builds with
// CGO_ENABLED=0 and runs unchanged on machines with and without a GPU.
//
// It does what the driver does and nothing more: which allocator, which
// memory kind and who may access what is policy, and lives in runtime/mem.
// Every failed call returns an *Error carrying the function's (versioned)
// symbol name and CUDA's own error name and string:
//
//	cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY: out of memory
//
// Load opens the driver once per process. Without a driver its error
// wraps ErrNotAvailable ("CUDA is not available: libcuda.so.1 not found
// (install the NVIDIA driver)"); with no device it wraps ErrNoDevice
// ("no CUDA device found"). Nothing else in the package runs until Load
// succeeds, so gscript on the cpu device never touches CUDA.
//
// # Threads and contexts
//
// CUDA's current context is per OS thread and goroutines move between
// threads. Driver methods act on the context current on the calling thread,
// like the C API; callers wrap driver work in Context.Do, which locks the
// goroutine to its thread, makes the context current there (skipping the
// set when cuCtxGetCurrent says it already is) and unlocks afterwards.
// Do allocates nothing. Note that testing.T.Run and any `go` statement start
// a new goroutine: each must call Do itself.
//
// # Calling convention and the launch path
//
// Calls go through purego.SyscallN, never the reflective RegisterFunc.
// SyscallN's variadic, //go:uintptrescapes signature would allocate its
// argument array on every call, so calls.go copies arguments into pooled
// heap memory and passes that slice; fixed-arity //go:uintptrescapes
// wrappers keep out-parameters on the heap and alive during the call.
//
// The one exception is cuLaunchKernel on amd64 (launch_amd64.s): a
// 20-instruction trampoline run through runtime.cgocall, the same
// runtime entry purego uses (reached by go:linkname, which the runtime
// allows for it), and made usable without cgo by purego's fakecgo. It
// skips SyscallN's two 32-word argument copies and pooled 58-word block:
// BenchmarkCallOverhead (an 11-argument libc call) takes 34 ns through it
// and 75 ns through SyscallN; TestLaunchTrampolineArguments checks every
// argument slot with snprintf. Other architectures use SyscallN.
// LaunchKernel plus Args (a reusable argument packer) allocate nothing in
// steady state (tested with testing.AllocsPerRun, against libc stand-ins
// without a GPU and against the driver on one).
//
// # Decisions where the design was silent
//
//   - Symbols are resolved with dlsym by the exact versioned names that
//     cuda.h of CUDA 13.0 maps the API names to (cuMemAlloc_v2,
//     cuMemPrefetchAsync_v2, cuGraphInstantiateWithFlags,
//     cuEventElapsedTime_v2, ...), not cuGetProcAddress. A missing symbol
//     that the package cannot work without fails Load; a missing optional
//     one (pools, managed memory, graphs, IPC, prefetch) fails only its own
//     call, with a *SymbolError. cuEventElapsedTime falls back to the
//     unversioned symbol (same signature). cuMemPrefetchAsync_v2 and
//     cuMemAdvise_v2 (CUmemLocation by value) fall back to the original
//     cuMemPrefetchAsync and cuMemAdvise, which take a device ordinal
//     (CU_DEVICE_CPU for the host): those are procs of their own, called
//     with their own signature, and locations other than a device or the
//     host are an error there. cuMemPrefetchBatchAsync (CUDA 12.8+) has no
//     fallback here: HasMemPrefetchBatch tells callers to loop instead.
//   - The legacy default stream is used (no _ptsz/_ptds variants): gscript
//     passes explicit streams where it cares.
//   - By-value structs follow the C ABI by hand: CUmemLocation (8 bytes)
//     travels in one integer register, type in the low half; the 64-byte
//     CUipcMemHandle of cuIpcOpenMemHandle_v2 goes on the stack on amd64
//     and by hidden reference on arm64; other architectures get an error.
//   - A result code is read as 32 bits: the upper half of the return
//     register is undefined for a C enum.
//   - When cuGetErrorName cannot name a code, a table taken from cuda.h
//     13.0 does; failing that the name is "CUresult(N)".
//   - NVRTC errors use nvrtcGetErrorString as the Name (it returns the enum
//     name); a compile error's Msg is the first "error" line of the log,
//     and the whole log is returned beside the error.
//   - Compile returns a cubin for an sm_XX target and PTX (without the
//     trailing NUL) otherwise; the last -arch/--gpu-architecture option
//     wins. ModuleLoadData appends the NUL that PTX needs.
//   - NVRTC search order (nvrtcCandidates): in each of $CUDA_HOME/lib64,
//     $CUDA_PATH/lib64 and /usr/local/cuda/lib64 the files libnvrtc.so.13,
//     .so.12, .so that exist; then the bare sonames libnvrtc.so.13 and .12
//     for the loader's own search; then, in every Python site directory
//     ($PYTHONPATH entries, then site-packages/dist-packages under
//     $VIRTUAL_ENV/lib/python3*, $CONDA_PREFIX/lib/python3*,
//     ~/.local/lib/python3*, /usr/local/lib/python3*, /usr/lib/python3*),
//     nvidia/cuda_nvrtc/lib then nvidia/cu13/lib. Conda and the user site
//     were added to the brief's list because pip and conda install there.
//   - Paradigm follows the MEMORY.md table row by row, first match wins:
//     concurrent_managed_access = 0 is "limited" even when pageable access
//     is reported; managed_memory itself does not enter the table.
//   - Device info is read lazily, once per device, on the first Device
//     call; DeviceGetAttribute reads uncached. Besides MEMORY.md section 3
//     it holds the IPC-relevant attributes (ipc_event_supported 125,
//     handle_type_posix_file_descriptor_supported 103,
//     mempool_supported_handle_types 119, tcc_driver 35: legacy
//     cuIpcGetMemHandle has no attribute of its own), PCI location, warp
//     size and block limits.
//   - PointerInfo reads IS_MANAGED, MEMORY_TYPE, MEMPOOL_HANDLE,
//     DEVICE_ORDINAL and IS_LEGACY_CUDA_IPC_CAPABLE (10) in one
//     cuPointerGetAttributes call. For memory CUDA does not know (a Go heap
//     pointer) the batched call succeeds with zero values and ordinal -2
//     (measured on the H200), unlike the single-attribute call.
//   - PrimaryContext retains once per device per process and returns the
//     same *Context to every caller; Release drops that retain.
//   - cuBLAS (LoadCUBLAS) is found where NVRTC is, in the same order
//     (cublasCandidates): libcublas.so.13, .so.12, .so in the toolkit's
//     lib64 directories, the bare sonames for the loader, then the pip
//     wheels (nvidia/cublas/lib, nvidia/cu13/lib). Only the entry points a
//     GEMM needs are bound: cublasCreate_v2, cublasDestroy_v2,
//     cublasSetStream_v2, cublasSetWorkspace_v2, cublasSetMathMode,
//     cublasGemmEx and cublasGemmStridedBatchedEx; all are required. A
//     failed call is an *Error named by cublasStatus_t
//     ("cublasGemmEx: CUBLAS_STATUS_INVALID_VALUE"), from a table of
//     cublas_api.h (cublasGetStatusName is not bound: one symbol fewer to
//     miss on an old library). Alpha and beta go by host pointer (the
//     default pointer mode) in the compute type's scalar type.
//   - cublasGemmStridedBatchedEx takes 23 arguments, all integer or
//     pointer class (the 64-bit strides included): purego.SyscallN takes
//     up to 32 and puts those past the integer registers on the stack as
//     the C ABI does, so it goes through the same pooled, fixed-arity
//     wrappers as every other call (maxArgs is 23).
//   - Args gives every argument its own 8-byte-aligned slot(s), enough for
//     scalars, pointers and structs aligned to at most 8 bytes.
package cuda
