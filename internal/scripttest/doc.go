// Package scripttest reads and checks chunked script tests: the shared
// harness of lang/syntax, lang/check, stdlib, interp and the conformance
// suite (on the model of starlark-go's internal/chunkedfile).
//
// A test file (testdata/*.gs) is split into chunks by lines that are
// exactly "---". Each chunk is an independent script whose lines are
// numbered from 1, so that the positions of the errors it produces are
// chunk lines. In a chunk:
//
//   - `//> TEXT`, alone or at a line's end, expects the next line of output
//     to be TEXT; the whole output must be exactly these lines, in order.
//   - `### "REGEXP"` at a line's end expects an error on that line whose
//     message matches REGEXP (the text between the quotes, as is: write \"
//     for a quote). Several markers may share a line. Every expected error
//     must occur and every error that occurs must be expected. The marker
//     is cut from the source before it runs.
//   - `//!TAG` anywhere is a condition on where the chunk runs: cuda (a
//     CUDA device is present), cuda2 (two are), nocuda (none is), cpu (the
//     default device is the cpu). See [Chunk.Skip].
//
// A test reads chunks with [Glob] (or [ReadFile], [Parse]), runs each
// chunk's Source its own way (parse, check or interpret), then hands the
// error it got to [Chunk.CheckErrors] and what it printed to
// [Chunk.CheckOutput]; [Chunk.Skip] judges the conditions. Errors count
// as positioned when they are (or wrap) a pos.ErrorList or a *pos.Error
// (see [Positioned]). Mismatches are reported as file:line of the test
// file, so that a failure points at the marker or the chunk that failed.
package scripttest
