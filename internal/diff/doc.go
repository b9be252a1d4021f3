// Package diff is the Go standard library's internal/diff, copied
// unchanged from go1.26.8 (diff.go; the Go authors' BSD licence is in
// LICENSE) because an internal package cannot be imported from outside
// the standard library. It prints the anchored unified diffs of
// `gscript fmt -d`, as the same code does for `gofmt -d`: O(n log n) on
// any input, and no module dependency for a one-function need.
package diff
