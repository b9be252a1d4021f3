//go:build darwin || freebsd || linux || netbsd

package openblas

import "github.com/ebitengine/purego"

// dlopen, dlsym and bind are the loader calls the package needs; keeping
// them behind these names lets platforms without dlopen build the package.
func dlopen(name string) (uintptr, error) {
	return purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_LOCAL)
}

func dlsym(lib uintptr, name string) uintptr {
	p, err := purego.Dlsym(lib, name)
	if err != nil {
		return 0
	}
	return p
}

// bind makes the Go function that fptr points to call the C function at
// addr, converting arguments (floats in float registers) as the C ABI does.
func bind(fptr any, addr uintptr) { purego.RegisterFunc(fptr, addr) }
