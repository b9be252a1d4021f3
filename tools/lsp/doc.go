// Package lsp is gscript's language server, `gscript lsp`: the Language
// Server Protocol 3.17 over JSON-RPC 2.0 on stdin and stdout, for any
// editor with an LSP client (docs/tools.md: VS Code, Neovim).
//
// It serves diagnostics (published on didOpen and every didChange: the
// errors `gscript check` reports, each over the token it names), hover
// (a builtin's signature and summary from stdlib's help table, a
// declaration as written, a kernel name's static type from the checker,
// an array's declared dtype and shape), completion, definition,
// references, document symbols, formatting (lang/format) and signature
// help. Text sync is incremental: range edits in UTF-16 columns.
//
// A document is analysed the way `gscript check` does it (parse, load
// the imports, check) on every change, in the order the messages come:
// the handler runs on the connection's reader, so a hover after a change
// sees the change. Parsing is incremental (parse.go): the statements an
// edit did not touch keep their trees, so a 5000-line file is re-checked
// in a few tens of milliseconds (BenchmarkRecheck5000).
//
// # Decisions
//
//   - The wire is go.lsp.dev/jsonrpc2 (v1.0.1): a maintained JSON-RPC 2.0
//     module for LSP's Content-Length framing, with one dependency
//     (go-json-experiment/json). The LSP types are the server's own
//     (protocol.go, the 3.17 messages it serves, about 200 lines).
//     github.com/tliron/glsp stops at LSP 3.16 and brings 18 modules (a
//     websocket server, terminal colour libraries, a logging framework);
//     go.lsp.dev/protocol stops at 3.16, was last released in 2022, and
//     is built on jsonrpc2 v0.10 and zap, so it cannot share the current
//     jsonrpc2 either. Types of our own cost less than either module and
//     follow the specification's names, so a later switch to a protocol
//     module stays a rename.
//   - Params and results go through encoding/json (stdCodec) rather than
//     the library's default JSON v2 codec: the types here are written
//     for its omitempty and its field matching.
//   - A frame whose body is not JSON-RPC (bad JSON, a batch) gets a
//     parse-error or invalid-request reply with a null id, as JSON-RPC
//     2.0 asks, and the server reads on (lenientStream); the library
//     alone would end the connection. A broken frame header ends it:
//     nothing after it can be framed.
//   - Lifecycle as the specification says: requests before initialize
//     get ServerNotInitialized (-32002) and notifications are dropped; a
//     second initialize and, after shutdown, every request get
//     InvalidRequest; exit ends Serve with status 0 after shutdown, 1
//     without (and the end of stdin likewise). Unknown requests get
//     MethodNotFound, unknown notifications and $/ messages are ignored.
//     Positions outside the document clamp to it (past a line's end is
//     its end, past the last line the document's end); a range whose end
//     is before its start is taken in order.
//   - Diagnostics are exactly `gscript check`'s list (syntax errors
//     alone when there are any, at most ten and "too many errors"), so
//     the editor and the command never disagree. An error inside an
//     imported file is shown at the import, its own position in the
//     message. An import of a file open in the editor reads the editor's
//     text, and the open documents that import a file are checked again
//     when its text changes or it is closed. The range of a diagnostic
//     is the token at its position (a name, number or string, else one
//     character).
//   - Incremental parsing (parse.go) splits the source at the newlines
//     that end top-level statements outside all brackets, found by the
//     scanner (syntax.Tokens, a tenth of the parser's cost), and keeps
//     each chunk's statements by its text; a reused chunk's positions are
//     shifted to where it now stands. After an edit only the chunks
//     around it are scanned again: the scanner keeps no state across such
//     a newline, so the rest scans as it did. The result equals
//     syntax.Parse's, positions and errors included
//     (TestIncrementalParseIsParse over every script of the repository,
//     TestResplitIsSplit over runs of edits). What keeps it equal: no
//     chunk starts at an else or a catch (the parser words their errors
//     by the statement before, and a catch after a try's newline is
//     that try's), nor at a #! line or a byte-order mark (read as such
//     only at a file's start), and none ends after a line whose string is
//     cut off (the scanner's message depends on whether anything
//     follows); errors are merged in file order and truncated as Parse
//     does, a chunk's own "too many errors: N more" counted in; a source
//     the scanner stops in (a size or nesting limit) and one with a
//     byte-order mark are parsed whole; where brackets stop matching,
//     the rest of the file is one chunk, as the parser's recovery decides
//     the statements there. Other scanner errors (a bad character, a
//     quote typed and not yet closed) leave the statements' ends where
//     they were, so typing a string stays incremental.
//   - Names are resolved by an index of the server's own (index.go,
//     walk.go) with the language's scope rules, for host and kernel code
//     alike: the checker's slots exist for host names only. Kernel
//     names' types come from the checker (check.Checker.RecordTypes),
//     also when the check fails; a struct's fields resolve through
//     them (p.f, ps[i].f).
//   - Completion reads the REPL's tables: lang/words for kernel bodies,
//     syntax.Keywords and the interpreter's predeclared names for host
//     code, interp.ConfigNames after config., interp.ArrayAttrNames after
//     an array's name. While a statement does not parse (a half-typed
//     `v.`), it reads the last analysis without syntax errors, the
//     cursor moved over the edits since.
//   - Formatting is one edit replacing the document with lang/format's
//     output, or none when the document has syntax errors or is formatted.
package lsp
