// Package cache is the process cache of kernels built in Go (fills, fused
// array expressions, reductions, constructors): one entry per comparable
// key, built once and shared by every thread, since a kernel's IR depends
// only on what its key says and is never changed after it is built.
// Programs compiled from the kernels are per thread and device (interp
// keys them by the *ir.Kernel), so a loop of one statement builds and
// compiles once.
//
// It sits under lang/ir, below both interp and stdlib/reduce, which may
// import nothing above lang/ir and runtime/mem (ARCHITECTURE.md). Each
// caller keys entries with its own key type, as context keys are, so
// callers never collide.
package cache

import "sync"

var entries sync.Map // key -> *entry

type entry struct {
	once sync.Once
	v    any
	err  error
}

// Get returns the value built under key (comparable, of the caller's own
// type), building it on first use in the process. A build that fails
// fails every later Get of that key the same way.
func Get[T any](key any, build func() (T, error)) (T, error) {
	e, ok := entries.Load(key)
	if !ok {
		e, _ = entries.LoadOrStore(key, &entry{})
	}
	en := e.(*entry)
	en.once.Do(func() { en.v, en.err = build() })
	v, _ := en.v.(T)
	return v, en.err
}
