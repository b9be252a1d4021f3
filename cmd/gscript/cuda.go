package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/stdlib"
)

// printCUDA is `gscript cuda FILE [KERNEL]`: the CUDA C that the CUDA
// backend compiles for the file's kernels, or for one of them. It needs
// no GPU: the source does not depend on the device (the architecture,
// sm_XY of the device a launch runs on, is an NVRTC option, not part of
// the text). What is printed is the build of the common case, arrays
// whose innermost stride is 1 (contiguous rows) and aligned for the
// kernel's vector accesses (the lanes of a vec4 element as one float4);
// launches with other strides use a general build, and config.debug adds
// bounds checks.
func printCUDA(args []string, stdin io.Reader, w io.Writer) error {
	name, src, err := readScript(args[0], stdin)
	if err != nil {
		return err
	}
	p, err := interp.CompileFiles(name, src, stdlib.Universe(), interp.AllFiles())
	if err != nil {
		return err
	}
	ks := p.Kernels()
	if len(args) == 2 {
		if ks, err = pickKernel(ks, args[1], name); err != nil {
			return err
		}
	}
	if len(ks) == 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("gscript: %s declares no kernel", name)}
	}
	for i, k := range ks {
		text, err := codegen.Source(k.IR, codegen.Options{UnitStride: true, Vector: true})
		if err != nil {
			return fmt.Errorf("kernel %s: %w", k.Name, err)
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "// kernel %s (%s), entry %s\n%s", k.Name, k.Pos, codegen.EntryName(k.IR), text)
	}
	return nil
}

// pickKernel keeps the kernel named name.
func pickKernel(ks []*interp.Kernel, name, file string) ([]*interp.Kernel, error) {
	var names []string
	for _, k := range ks {
		if k.Name == name {
			return []*interp.Kernel{k}, nil
		}
		names = append(names, k.Name)
	}
	return nil, &exitError{code: 1, msg: fmt.Sprintf("gscript: %s has no kernel %s (its kernels: %s)", file, name, strings.Join(names, ", "))}
}
