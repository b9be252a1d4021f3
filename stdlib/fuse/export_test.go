package fuse

// kernelsOnly turns the cpu's host path off until the returned func runs.
func kernelsOnly() func() {
	useHost = false
	return func() { useHost = true }
}

// KernelsOnly is kernelsOnly for the external tests.
var KernelsOnly = kernelsOnly
