// Package format lays out gscript source in its one canonical form, the
// layout of `gscript fmt`. It has no options.
//
// Source works on the token stream with comments (syntax.Tokens), not on
// the syntax tree: the tokens carry every comment, literal spelling and
// source line, so the layout decides only white space, trailing commas
// and the separators between statements and fields, and never rebuilds an
// expression. Before returning, Source parses its own output and compares
// the tree with the input's, positions aside, and the comments with the
// input's: any difference is a positioned "internal error" and no output,
// so a formatter bug can leave a file unformatted but never change it.
// A script with syntax errors gets Parse's errors and no output.
//
// # Decisions
//
//   - Indentation is four spaces per block (every script in the
//     repository uses four), never tabs. Statements and struct fields are
//     indented by their nesting; a line continued inside brackets, or after
//     a binary operator at statement level, is indented one step more than
//     the line its innermost bracket (or statement) opened on, and a
//     closing bracket that starts a line goes back to that line's
//     indentation. Alignment under an opening bracket is not kept.
//   - One statement per line: ";" becomes a line break, and a block's
//     statements never share a line with its braces, so `{ a; b }` opens
//     into three lines. An empty block is `{}` (a comment inside keeps it
//     open). `else` and `catch` follow the "}" on its line, as the grammar
//     requires.
//   - Long lines are not wrapped: the formatter keeps the line breaks the
//     author put inside brackets and after operators (those are the only
//     places the grammar allows one) and makes none of its own there. So a
//     long call stays on one line until its author breaks it; once broken,
//     each break is kept and indented as above. Wrapping by width would
//     need a width and a rule for where to break, both options in effect.
//   - Trailing commas: a call, parameter list, launch argument list, list
//     or dict whose closing bracket starts a line gets a trailing comma
//     after its last element (before any comment there); one whose closing
//     bracket ends the last element's line loses it. Index brackets,
//     extents, block(...) and grid(...) and parentheses take none (the
//     grammar allows none). Struct fields are separated by commas: a
//     struct written on one line stays `struct P { a: f32, b: i32 }`
//     (spaces inside its braces, as the repository writes them), and a
//     struct on several lines keeps its fields' line breaks, each line of
//     fields ending with a comma (";" becomes one), its "}" on a line of
//     its own. Empty brackets close on their line: {}, f(), [].
//   - Spacing: one space around binary operators, assignment operators,
//     "->", and keywords; none after a prefix operator (`-a`, `!ok`, but
//     `- -a`), none inside brackets, none before "," (one after), none
//     around "." or before a call's "(" or an index's "[". A keyword
//     argument's "=" has no spaces (`axis=0`), a ":" has one after it
//     (`x: f32`, `{"a": 1}`) except in an index, where slices are tight
//     (`a[1:n]`, `a[::-1]`, `a[i, :]`).
//   - Blank lines: a run of blank lines becomes one; none at the start or
//     end of the file, right after an opening bracket or right before a
//     closing one. The file ends with exactly one newline; no line has
//     trailing white space, in comments neither (the comparison of
//     comments ignores it). Line ends are "\n"; a "\r\n" file comes out
//     with "\n". A UTF-8 byte-order mark is dropped; a #! line is kept.
//   - Comments stay where they were: a comment on a line of its own stays
//     on a line of its own, indented as a statement (or a continued line)
//     would be there; a trailing comment stays at the end of the line of
//     the code before it. The space before a trailing comment is the one
//     piece of horizontal layout kept from the source: the comment keeps
//     its source column when the code leaves room for it and the line
//     starts as its source line did, else it follows the code after one
//     space. The repository's scripts align trailing comments into
//     columns by hand (the output a line prints, in the docs too), and a
//     rule that recomputed the columns would rewrite most of them for no
//     reader's gain. The output is stable all the same: formatting it
//     again keeps every column.
//   - A trailing comment on a source line that the layout splits (a
//     one-line block opened, statements after ";") goes with the last
//     statement that started on that line, at the end of that
//     statement's first line, after one space: `fn f() { return x } //
//     c` becomes `fn f() { // c`, the body and "}" (the block's statements
//     are inside the fn's), and `a = 1; print(a) //> 1` becomes two lines
//     with the comment after print(a). A comment at the end of a line
//     speaks of that line's statement, and the statement's first line is
//     where a reader looks for it. gofmt places comments by token order,
//     so it puts one after the "}" of an if it opens; gscript opens every
//     one-line block, and token order would carry such comments to a
//     line of their own brace, away from the code they were written by.
//   - A file in a directory named testdata is, for gscript fmt, a chunked
//     script test (internal/scripttest), the format every testdata/*.gs
//     of the repository has: Chunked formats each chunk between "---"
//     lines as a script, cuts each `### "REGEXP"` error marker first and
//     puts it back at the end of the line that holds its line's code (at
//     its column where there is room), and checks that the result expects
//     the same output, errors and conditions. A chunk that does not parse
//     is kept as written (its errors are the test), and so is a chunk
//     with a marker on a line the layout would split: the marker says on
//     which line the error is, and which of the new lines that is depends
//     on the token the error is at, which the formatter cannot know. A
//     `//>` line's trailing white space is output the test expects, so
//     Chunked refuses to remove it (the file needs a visible ending).
//   - Literals, names and comments are printed as written (`0x1F`,
//     `1e-3`, escapes), and `not  in` becomes `not in`.
package format
