// Package conformance runs the kernel script tests on every available
// backend against one expected output: the cpu always, and each CUDA
// device cuda:N that runtime/mem finds. Its scripts are every chunk of
// interp/testdata/*.gs that launches a kernel or declares an array, the
// constructor, range and reduction scripts of stdlib/testdata, and its own
// testdata/*.gs. Chunks tagged //!cuda or //!cuda2 run only on
// CUDA backends, //!cpu only on the cpu (see internal/scripttest).
// Subtests are named BACKEND/file:line and the test logs, per backend, how
// many chunks passed and were skipped, so that a GPU run can quote them.
//
// Without a GPU only the cpu backend runs. On the GPU machine, build the
// test binary here and run it from this directory (it reads
// ../../interp/testdata and testdata relative to it):
//
//	CGO_ENABLED=0 go test -c -o .gpu/conformance.test ./internal/conformance
//	cd internal/conformance && ../../.gpu/conformance.test -test.v -test.count=1
//
// A kernel declared fast, or compiled with config.fast_math, may differ
// from the cpu in the last bits of its float results (lang/ir's "Fast
// math"), so a chunk using one prints only what fast math cannot change:
// values rounded well above the error, allclose against a strict kernel,
// integer results (testdata/fastmath.gs). The outputs stay exact
// comparisons on every backend.
//
// Exec, the runner of one chunk, is shared with interp's script tests.
package conformance
