// Package repl is gscript's interactive read-eval-print loop: line editing
// (chzyer/readline behind the LineReader interface), multi-line entries,
// completion, meta commands and interrupts, over one interp.Interp.
//
// Run reads entries until end of input or :quit. An entry is complete when
// it parses, or when its parse error is not an end-of-input error
// (syntax.IsIncomplete); until then the REPL asks for more lines with the
// "... " prompt. A complete entry is one history entry and one
// Interp.ExecREPL call: a final bare expression prints its value (String)
// and becomes `_`. Errors are printed and the session goes on with its
// state intact. On a terminal, Ctrl-C clears the line (and any unfinished
// entry), interrupts a running statement through its context, and Ctrl-D
// exits. Any other stdin is read line by line with the same semantics and
// no prompts or banner, so sessions can be scripted.
//
// # Decisions where the design is silent
//
//   - Positions in entered text use the file name "<repl>" and the
//     session's line numbers: every line read counts (blank lines too, a
//     recalled multi-line entry as its lines), so an error inside a fn
//     that an earlier entry defined names that entry's line, and on a
//     non-terminal stdin (gscript < file) positions are the input's lines.
//     An entry is parsed after one newline per earlier session line (lang
//     has no line offset); after 65536 lines, where that costs as much as
//     parsing a short entry, the count starts again from 1 (a longer input
//     is a script: gscript - runs it). On a terminal an error at
//     one position also shows its line, from the entry holding it (the
//     last 1000 entries are kept), with a caret; on a non-terminal only the
//     error lines are printed.
//   - The history file is written by this package, not by readline: one
//     entry per line, Go-quoted, so a multi-line statement stays one entry
//     across sessions. Unquoted lines in the file are read as they are; the
//     last 1000 entries are loaded. A history file that cannot be opened
//     means no saved history, not a failed start.
//   - An entry is checked for completeness with a newline appended (entered
//     lines end with one); without it lang/syntax reports a block cut off
//     after a statement ("fn f() {\n return 1") as a plain syntax error.
//     Strings do not span lines: a string open at the end of a line asks
//     for another line, which then completes the entry with the parser's
//     error.
//   - While a bracket or string is open at the end of a line
//     (syntax.Continuation, which scans only the new line) the entry is
//     not parsed at all; once they are closed it is parsed and
//     syntax.IsIncomplete decides. A long entry therefore costs linear
//     time. An error inside open brackets (f(1 2) shows when they close.
//   - Ctrl-D (end of input) inside an unfinished entry runs it, so its
//     "unexpected end of input" error is shown, then exits.
//   - exit(code) in an entry or a :load-ed file ends the session: Run
//     returns the *interp.ExitError and cmd/gscript exits with its code.
//   - Readline draws a line holding newlines wrongly (each redraw leaves
//     the earlier drawing), so a multi-line entry recalled with Up or
//     Ctrl-R is one line with ↵ for each newline; Enter runs it with its
//     newlines (a ↵ typed into an entry is read as a newline too). Ctrl-C
//     while Tab's candidates are listed clears the line, as at any other
//     time (readline alone only closes the listing).
//   - An interrupt (SIGINT) while no statement runs is ignored: on a
//     terminal readline reads Ctrl-C as a key, and a scripted session is
//     ended by closing its input. An interrupted statement prints the
//     interpreter's "interrupted" error (with its position). A second
//     interrupt while that statement still runs (stuck where cancellation
//     is not polled, e.g. in a Go function) exits the process with status
//     130, as `gscript run` does.
//   - Meta commands take a unique prefix (:q, :dev). :time STMT may
//     continue over several lines like any statement and prints
//     "time: DURATION" on stdout after the statement's own output. :load
//     runs a file with Interp.Exec in this session (its errors use the
//     file's name). :reset makes a new interpreter with the same options
//     and frees the old one's arrays.
//   - :mem collects garbage first so that arrays nothing refers to are not
//     listed. A buffer is named after every global that uses it (views
//     too, "base,view") and `_` for the last value; names are matched to
//     Tracker.Live entries by buffer ID (Array.BufferID).
//   - Completion: keywords (syntax.Keywords, the contextual array, device,
//     allocator, block, grid, fast, tape and adjoint included), predeclared names and globals; after `NAME.` the
//     array attributes (interp.ArrayAttrNames), config's settings
//     (interp.ConfigNames), a record's or a struct value's fields; after `:` the meta
//     commands. Inside a kernel or func body (found from the braces of the
//     unfinished entry, strings and comments skipped) it offers the kernel
//     builtins, the body keywords and the script's funcs instead: tid, not
//     the host's time. The tables come from their owners, so completion
//     cannot drift from the language; the kernel-body words are
//     lang/words', the one table the language server (tools/lsp) reads
//     too, checked against the checker by its test. Nothing else is
//     completed (file names after :load are not). The host-only keywords
//     (try, catch) come with syntax.Keywords on the host and are not
//     offered in a kernel body, where using them is a check error;
//     words.KernelKeywords lists only what a kernel body may write.
//   - Complete and Incomplete are the completer and the completeness
//     test over a whole multi-line text, for a notebook's cells
//     (tools/jupyter): the lines before the cursor's are the unfinished
//     entry, and Complete gives whole names and the byte offset where the
//     word they replace starts, as Jupyter's complete_reply wants them.
//   - :help NAME calls the predeclared help (stdlib's, over its one table
//     of builtin docs), as help(NAME) does; without one it says so.
//   - This package imports interp and lang only (ARCHITECTURE.md). The
//     device table comes in through Options.Devices: cmd/gscript passes
//     the function behind `gscript devices`, so :devices and the CLI print
//     the same thing; without it :devices says no listing is configured.
//     :mem reads Tracker.Live through the interpreter and keeps only the
//     printed fields of each buffer.
package repl
