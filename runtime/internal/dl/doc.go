// Package dl is the dynamic loader calls the runtime's purego bindings
// share (runtime/cuda for the CUDA driver, NVRTC and cuBLAS,
// runtime/openblas for CBLAS): open a library, look a symbol up, bind a
// Go function to it. Platforms without dlopen build it too, and open
// nothing.
package dl
