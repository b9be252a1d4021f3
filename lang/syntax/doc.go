// Package syntax parses gscript source (LANGUAGE.md sections 2-8) into the
// lang/ast syntax tree.
//
// The pipeline is: a hand-written scanner (lexer.go, number.go) that
// produces participle tokens with Go-style statement terminators already
// inserted and the contextual keywords already classified; a participle
// grammar (grammar.go) of tagged structs, strictly LL(1), that reads binary
// expressions as flat operand/operator chains; and a converter (convert.go)
// from those structs to lang/ast, which builds binary trees by precedence
// climbing (Go's five levels) and reports the errors a context-free grammar
// cannot (assignment targets, keyword-argument order, parameter typing). Parse (parse.go) runs the parser once per top-level
// statement so that it can report several errors per file.
//
// # Decisions where LANGUAGE.md is silent
//
//   - Terminators follow Go: a newline ends a statement when the last token
//     is a name, literal, ")", "]", "}", or one of break continue return
//     true false nil, unless the innermost open bracket is "(" or "[". As in
//     Go, "else" must therefore follow "}" on the same line, and "{" must be
//     on the line of its if/for/while/fn header. A terminator is implied
//     before "}" and at the end of input. Empty statements (";;") are
//     dropped.
//   - `array` is a declaration keyword when a statement starts with `array`
//     followed by a name. `device` and `allocator` start a scope when a
//     statement starts with them and the next token is an operand (name,
//     literal, "!", "~") or the statement reaches a "{" outside brackets;
//     otherwise they are names (device = "cpu", device("x"), ...).
//   - Numbers follow Go's literal syntax minus imaginary and hexadecimal
//     float literals. A leading zero on a decimal integer (010, 08) is an
//     error suggesting 0o10 or 10: C and old Go read 010 as octal, Python 3
//     rejects it, so rejecting avoids both surprises. 0.5 and 00.5 are fine.
//     A float literal that overflows float64 (1e400) is an error.
//   - Strings are Go interpreted strings only (no raw `...` strings, no
//     'c' runes: both are errors that say strings use double quotes). A
//     string cannot span lines.
//   - `let i, j: T = e` is accepted; the annotation applies to every name.
//   - Keyword-argument names must be plain names; a repeated keyword
//     argument is an error. Calls, lists, parameters and launch arguments
//     allow a trailing comma; launch arguments are positional only.
//   - Host fn parameters cannot have types; kernel and func parameters
//     must. Only func may declare "-> T". A device block has no "on"
//     clause. capture needs a plain graph name. A rank in array[T, N] must
//     be a positive integer literal (N <= 4 is the checker's rule).
//   - Assignment targets are names, index expressions and attributes;
//     slices, calls, literals and parenthesized expressions are errors.
//   - Error recovery skips to the next terminator outside all brackets, so
//     each top-level statement reports at most one syntax error. A parse
//     error in a statement that already has a lexical error (bad character,
//     unterminated string, malformed number) is not reported: it is almost
//     always an echo of the first.
//   - IsIncomplete is true when every error is an end-of-input error; their
//     messages all begin "unexpected end of input". A string cut off by a
//     newline counts only when nothing but white space follows it.
//   - Nesting is bounded (200 open brackets, 200 prefix operators in a row,
//     2000 else-if links per statement) so hostile input cannot exhaust
//     the stack; real scripts are far below these limits.
//   - Keywords lists reserved and contextual keywords together, sorted:
//     its users (REPL completion) offer both, and a tool that needs the
//     distinction can lex the word.
package syntax
