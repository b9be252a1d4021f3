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
//     directory, a MaxSteps bound); an error it does not show fails the
//     test. ```gscript-norun is parsed and checked, not run: for a block
//     that needs a GPU, another process or arguments. ```gscript-nocheck is
//     neither: syntax summaries with placeholders. Prefer the strongest
//     fence a block allows.
//   - A ```gscript block that shows an error (syntax, check or run time)
//     is followed by an ```error block (after its ```output block, if it
//     prints first): the test wants exactly that error. Such a block runs
//     as example.gs with its lines counted from its own first line, so the
//     error text does not change when lines are added above it in the page.
//   - A block with no ```output block is still run: the output of a short
//     example is worth showing, but a block without one still may not fail.
//   - An ```output or ```error block must follow a ```gscript block: after
//     anything else it would never be compared, so it is an error.
//   - Every ```gscript and ```gscript-norun block is laid out as gscript
//     fmt lays out a script (TestSnippetsFormatted shows the diff; -fmt
//     rewrites the blocks in place). The exceptions are the blocks that
//     are not whole scripts: ```gscript-nocheck (placeholders), and a
//     block that does not parse because it shows a syntax error. A
//     fragment that parses but should not be laid out has no fence of its
//     own: write it as gscript fmt would, or fence it nocheck.
//   - Errors name the Markdown file and the fence's line; a block's source
//     is preceded by as many newlines as that line number, so a script
//     error's line is its line in the Markdown file.
package docs
