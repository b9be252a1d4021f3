//go:build darwin || freebsd || linux || netbsd

package cuda

import "github.com/ebitengine/purego"

// dlopen and dlsym are the two loader calls the package needs; keeping them
// behind these names lets platforms without dlopen build the package.
func dlopen(name string) (uintptr, error) {
	return purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
}

func dlsym(lib uintptr, name string) uintptr {
	p, err := purego.Dlsym(lib, name)
	if err != nil {
		return 0
	}
	return p
}
