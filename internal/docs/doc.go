// Package docs holds the tests of the repository's docs: every ```gscript
// block of docs/*.md and README.md runs on the cpu (and its ```output block,
// when one follows, must match what it prints, exactly), and the TextMate
// grammar in docs/editors tokenizes every example, benchmark, testdata
// script and docs block. bench/host's scripts, their CPython twins, the
// rows of bench/host/run.sh and docs/benchmarks.md's table must agree.
//
// # Decisions
//
//   - Three fences of gscript code. ```gscript runs, each block in a fresh
//     interpreter (stdlib.Universe(), the cpu device, files in a temporary
//     directory, a MaxSteps bound), and fails the test on any error.
//     ```gscript-norun is parsed and checked, not run: for a block that
//     needs a GPU, another process or arguments, and for one whose point
//     is a run-time error (its error text goes in a plain ``` block after
//     it). ```gscript-nocheck is neither: syntax summaries with
//     placeholders, and blocks that show a syntax or check error. Prefer
//     the strongest fence a block allows.
//   - A block with no ```output block is still run: the output of a short
//     example is worth showing, but a block without one still may not fail.
//   - An ```output block must follow a ```gscript block: after anything
//     else it would never be compared, so it is an error.
//   - Errors name the Markdown file and the fence's line; a block's source
//     is preceded by as many newlines as that line number, so a script
//     error's line is its line in the Markdown file.
package docs
