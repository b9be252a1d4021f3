//go:build !(darwin || freebsd || linux || netbsd)

package cuda

import "errors"

func dlopen(name string) (uintptr, error) {
	return 0, errors.New(name + ": cannot open shared object file: No such file or directory (no dlopen on this platform)")
}

func dlsym(lib uintptr, name string) uintptr { return 0 }
