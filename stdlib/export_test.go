package stdlib

// SetSortOnHost chooses whether cpu sorts take the host path (true) or
// the radix kernels, and returns the function that restores the choice.
func SetSortOnHost(on bool) (restore func()) {
	old := sortOnHost
	sortOnHost = on
	return func() { sortOnHost = old }
}
