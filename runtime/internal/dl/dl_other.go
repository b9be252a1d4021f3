//go:build !(darwin || freebsd || linux || netbsd)

package dl

import "errors"

// Open fails: there is no dlopen on this platform.
func Open(name string, global bool) (uintptr, error) {
	return 0, errors.New(name + ": cannot open shared object file: No such file or directory (no dlopen on this platform)")
}

// Sym finds nothing.
func Sym(lib uintptr, name string) uintptr { return 0 }

// Bind is never reached: without dlopen no library loads.
func Bind(fptr any, addr uintptr) {}
