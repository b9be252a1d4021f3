// Package openblas is a thin, faithful binding of the CBLAS calls of
// OpenBLAS that the cpu device's matrix products need (cblas_sgemm,
// cblas_dgemm) and of OpenBLAS's own queries (openblas_get_config,
// openblas_get_num_threads), through purego: no cgo, no policy. Which
// products run here, and gonum where the library is absent, is
// runtime/cpu's choice (gemm.go there).
//
// # Decisions
//
//   - The library is libopenblas.so.0, the soname of Debian's
//     libopenblas0-pthread (the pthread build; Ubuntu and Fedora use the
//     same soname), found by the dynamic loader's own search
//     (LD_LIBRARY_PATH, ld.so.cache), as runtime/cuda finds the driver. It
//     is opened RTLD_LOCAL on first use, once per process: opening it
//     starts OpenBLAS's worker threads. The 64-bit-integer builds
//     (libopenblas64_.so.0, NumPy wheels' libscipy_openblas) have other
//     symbol names and are not looked for. Without the library the error
//     wraps ErrNotFound and says to install libopenblas0-pthread.
//   - Thread count: OpenBLAS's own default, every core of the machine
//     (OPENBLAS_NUM_THREADS or OMP_NUM_THREADS override it, as for NumPy),
//     which the cpu device's "all cores" wants; the binding never calls
//     openblas_set_num_threads, so a process that also loads OpenBLAS
//     through another library sees one setting.
//   - Batches are one call per entry: cblas_?gemm_batch appeared after
//     Debian 12's OpenBLAS 0.3.21, and a product large enough to matter
//     uses every core within one call.
//   - Floats go in float registers: cblas_sgemm takes alpha and beta by
//     value, which purego.SyscallN cannot pass beside integers, so the
//     functions are bound with purego.RegisterFunc (which allocates a
//     little per call; a GEMM is far costlier).
//   - CBLAS's ints are 32-bit: an extent or leading dimension past 2^31-1
//     is an error wrapping ErrRange before any call, so the caller can
//     compute the product another way.
package openblas
