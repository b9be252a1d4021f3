package stdlib

// The standard backends: importing stdlib links the cpu and CUDA kernel
// backends into the program (each registers itself with runtime/backend),
// so an embedding that uses the standard library runs kernels on both.
import (
	_ "github.com/gscript-lang/gscript/runtime/cpu"
	_ "github.com/gscript-lang/gscript/runtime/cuda/kernel"
)
