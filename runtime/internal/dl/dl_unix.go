//go:build darwin || freebsd || linux || netbsd

package dl

import "github.com/ebitengine/purego"

// Open loads the library name; with global its symbols serve the
// libraries loaded after it (the CUDA libraries resolve each other's).
func Open(name string, global bool) (uintptr, error) {
	mode := purego.RTLD_NOW | purego.RTLD_LOCAL
	if global {
		mode = purego.RTLD_NOW | purego.RTLD_GLOBAL
	}
	return purego.Dlopen(name, mode)
}

// Sym is the address of name in lib, or 0 when lib has no such symbol.
func Sym(lib uintptr, name string) uintptr {
	p, err := purego.Dlsym(lib, name)
	if err != nil {
		return 0
	}
	return p
}

// Bind makes the Go function fptr points to call the C function at addr,
// converting arguments (floats in float registers) as the C ABI does.
func Bind(fptr any, addr uintptr) { purego.RegisterFunc(fptr, addr) }
