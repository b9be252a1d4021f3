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
// The grammar captures operators by spelling; the converter maps each to
// lang/token's enum once (token.Lookup), and the tree carries only the
// enum. A spelling token does not know in that role is a positioned error
// ("unknown binary operator"), never a panic; TestEveryOperatorParses holds
// the grammar's spellings to token.All.
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
//   - `shared` and `local` are reserved words (COOPERATIVE.md section 1):
//     they start array declarations, `shared NAME: T[D0, ...]`, and the
//     checker says where each may stand. `block` and `grid` are contextual:
//     block is a keyword right after the ")" that closes a parameter list
//     when "(" follows (`kernel k(...) block(16, 16) {`), which no
//     expression can contain; grid is a keyword as the first word inside
//     a launch's brackets when "(" follows (`launch k[grid(n)](...)`), so
//     a launch cannot compute its thread count with a host fn named grid.
//     Everywhere else both are names (kernel parameters, variables). Only
//     a kernel may declare a block shape; its extents, like a grid's, are
//     expressions without a trailing comma (as launch dimensions).
//   - `fast` (TYPES.md section 5) is contextual too: a keyword between
//     the ")" of a kernel header and its "{", so the order is fixed as
//     `kernel k(...) block(...) fast {`: the block shape belongs to the
//     signature (it is part of how the kernel is launched), fast only to
//     how it is compiled, so it comes last. Only kernels are fast: a func
//     is compiled into each kernel that calls it (one CUDA module, one set
//     of compiler flags), so it follows its kernel; `func f() fast` is an
//     error saying so. Elsewhere fast is a name.
//   - `adjoint` is contextual: a keyword right after the ")" that closes a
//     parameter list (or a block shape) when a name follows, three
//     operands in a row in any expression: `kernel k(...) adjoint k_adj
//     {`, ast.KernelDecl.Adjoint. The order is `kernel k(...) block(...)
//     adjoint k_adj fast {`: which kernel is k's derivative belongs to what
//     k computes, fast still only to how it is compiled, so fast stays last
//     (after the name, fast is a keyword when "{" follows). Only a kernel
//     declares one (a fn or func with it is an error saying so); whether
//     the named kernel fits is the checker's rule. Elsewhere adjoint is a
//     name, a kernel's or a parameter's too.
//   - `tape` is contextual as array is: a keyword at the start of a
//     statement when a name follows, which no expression statement can
//     have (two operands in a row), so `tape t { ... }` is a
//     ast.TapeBlock and `tape = f(tape)`, `tape(x)`, `t.tape` and a
//     parameter named tape keep working. Requiring the "{" too would read
//     `tape t on d {` or `tape t` (newline) as a puzzling two-names error;
//     promoting on the name lets the parser say `expected "{" after tape
//     name` and the converter that a tape takes no on clause. Like
//     capture's, its name is a plain name.
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
//   - `struct Name { f: T, ... }`: each field ends with "," or a
//     statement terminator, so fields are separated by commas, newlines
//     (the usual terminator rule: a newline after the field's type ends
//     it) or both, a trailing comma is allowed, and `struct P { }` parses
//     (the checker refuses a struct with no fields). A field type has the
//     syntax of a parameter type; the checker says which are fields.
//   - Host fn parameters cannot have types; kernel and func parameters
//     must. Only func may declare "-> T". A device block has no "on"
//     clause. capture needs a plain graph name. A rank in array[T, N] must
//     be a positive integer literal (N <= 4 is the checker's rule).
//   - An index expression's components are each an expression or a
//     slice lo:hi:step with any part missing (a[::-1], m[:, j]); they
//     become ast.SliceComponent in ast.IndexExpr.Indices. The checker
//     refuses slices in kernels and funcs. An empty component (a[], a[1,])
//     is an error.
//   - "@" is a binary operator (matrix product, token.MatMul) at the
//     precedence of "*", as in NumPy (token.Op.Precedence).
//   - Assignment targets are names, index expressions (slices included)
//     and attributes; calls, literals and parenthesized expressions are
//     errors.
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
//   - Size is bounded so hostile input cannot exhaust memory or the stack
//     of later passes; each limit is a positioned error and a named
//     constant. MaxSourceBytes (4 MiB) is checked before scanning.
//     MaxTokens (2^18) bounds memory: participle costs about 1 KB of peak
//     memory per token, so the largest accepted source peaks near 300 MB;
//     a real script has a few thousand tokens. MaxListElems (100000) is
//     counted at the commas of a list literal (a "[" not after an operand),
//     so a trailing comma at exactly the limit counts as one more. All
//     three stop the scanner, and the parser does not run. MaxExprDepth
//     (1000) bounds the depth of every expression tree, counted as the
//     converter builds it: a chain a + b + ... or a.b.c... is as deep as it
//     is long, and the checker and evaluator recurse over the tree.
//   - Error lists (here and in lang/check) stop after ten errors with "too
//     many errors: N more" at the first dropped one, as Go does. Tokens
//     quoted in messages are clipped to 40 bytes with "..." (pos.Clip), and
//     any message longer than 300 bytes loses its middle. An invalid UTF-8
//     byte is printed as \xff, not U+FFFD. A UTF-8 byte-order mark at the
//     start is skipped (columns on line 1 count from after it).
//   - Messages never quote participle's grammar: an expected element that
//     has no name in gscript's terms is left out of the message.
//   - Continuation follows a REPL entry line by line with the scanner
//     (brackets open, a string cut at the end of a line) so the REPL parses
//     an entry once, when its brackets close, then asks IsIncomplete.
//   - `import "path/util.gs"` takes one string literal; the path must end
//     in .gs and its base name without .gs (the name the import binds,
//     ast.ImportStmt.Name, positioned at the path) must be a name that is
//     not a reserved word. `launch util.k[...]` launches a kernel of an
//     import (ast.LaunchStmt.Module), and grid stays a keyword there.
//     Where an import may stand is the checker's rule.
//   - Tokens is the scanner's stream with the comments kept (and a #!
//     line, as a comment), for gscript fmt and editors: the same tokens
//     the parser reads, terminators and classified keywords included, each
//     with its source text and position, and a Comment token for each //
//     comment merged in by offset. The parser's own scan never records
//     comments, so parsing costs what it did.
//   - Keywords lists reserved and contextual keywords together, sorted:
//     its users (REPL completion) offer both, and a tool that needs the
//     distinction can lex the word.
//
// # Host language v3 (HOST.md section 3)
//
//   - `**` (token.Pow) is parsed with the operand, not in the binary
//     chain, as Python's grammar does: an operand with its suffixes, then
//     "**" and a right operand that may carry prefix operators. So
//     `2 ** 3 ** 2` is 2 ** (3 ** 2), `-2 ** 2` is -(2 ** 2), `2 ** -1`
//     works and `-a ** -b ** c` is -(a ** -(b ** c)). A chain of "**" at
//     one bracket depth counts against the prefix-operator limit (200), as
//     the grammar recurses over it. `**=` is a compound assignment.
//   - `in` and `not in` are binary operators at comparison precedence
//     (left-associative with == and <: `a < b in c` is (a < b) in c).
//     `not` is no keyword: the scanner reads `not` followed by `in` (spaces
//     or tabs between, not a newline) as the one operator token, and
//     `not` anywhere else is a name, so scripts that use it as one keep
//     working. Python's `not x` (not before a name, literal, "!" or dict
//     where no operand ends before it) is an error suggesting !x;
//     `not(x)` and `not[i]` stay a call and an index of the name. The one
//     cost: a name not right before in is read as the operator, so `for
//     not in l` is an error (as any misuse of a reserved word).
//   - A "{" is a dict when it stands where an operand must: after an
//     operator, "(", "[", ",", ":", "=", or the keywords in, return and
//     assert. Everywhere else (statement start, after a name, literal,
//     ")", "]", "}", another "{", else, try, catch) it opens a block, so
//     `for k in {"a": 1} {` reads the dict then the body, and a statement
//     `{ ... }` is always a block (`{1: 2}` alone is an error, not a
//     dict). The scanner gives a dict's "{" its own token type (Dict);
//     inside it newlines do not end statements, as inside "(" and "[".
//     Entries are `key: value` separated by commas, a trailing comma
//     allowed. A dict is ast.DictLit{Pos: "{", Keys, Values}.
//   - `try { } catch e { }` and `try { } catch { }`: try and catch are
//     reserved words; catch follows the try's "}" on its line (as else),
//     and the error says so when it does not. ast.TryStmt{Pos, Body,
//     CatchPos, Var (nil without a name), Catch}.
//   - Unpacking: a statement `a, b = v` has its targets (each a name,
//     index or attribute) in AssignStmt.Targets with a nil Target and Op
//     token.Assign; a compound operator with several targets, and `a, b`
//     without "=", are errors. The value of an assignment, a let and a
//     return may be a bare list `x, y` (no trailing comma): an
//     ast.ListLit with Tuple set, positioned at its first element. `for i,
//     v in e {` puts two or more names in ForStmt.Vars with a nil Var.
//     Call arguments, list elements and assert's message are unaffected.
package syntax
