// Package docs holds the tests of the repository's docs/ directory: every
// ```gscript block of docs/*.md runs on the cpu (and its ```output block,
// when one follows, must match what it prints), and the TextMate grammar in
// docs/editors tokenizes every example and testdata script.
//
// A block that shows an error, needs a GPU or another process is fenced
// ```gscript-nocheck instead and is not run.
package docs
