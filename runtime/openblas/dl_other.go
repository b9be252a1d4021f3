//go:build !(darwin || freebsd || linux || netbsd)

package openblas

import "errors"

func dlopen(name string) (uintptr, error) {
	return 0, errors.New(name + ": cannot open shared object file (no dlopen on this platform)")
}

func dlsym(lib uintptr, name string) uintptr { return 0 }

// bind is never reached: without dlopen no library loads.
func bind(fptr any, addr uintptr) {}
