// Package jupyter is gscript's Jupyter kernel: the messaging protocol 5.3
// over ZeroMQ (github.com/go-zeromq/zmq4, pure Go, so the command stays
// CGO_ENABLED=0), signed with HMAC-SHA256, serving one interpreter per
// kernel so that names, arrays and device memory persist across cells as
// in the REPL. `gscript jupyter kernel -f FILE` runs Serve; `gscript
// jupyter install` writes the kernelspec (SpecDir, InstallSpec).
//
// The kernel listens on the connection file's five sockets: shell and
// control (ROUTER), stdin (ROUTER, never used: gscript has no input
// builtin), iopub (PUB) and the heartbeat (REP, echoing). Shell requests
// are answered in order on one goroutine, control requests on another,
// so interrupt_request and shutdown_request reach a kernel whose shell is
// busy running a cell. Every request is framed by busy and idle statuses
// on iopub, its output and reply are children of it.
//
// Requests served: kernel_info, execute, complete, inspect, is_complete,
// history (empty), comm_info (none), interrupt and shutdown. Others are
// logged and ignored.
//
// # Decisions
//
//   - A message with a bad signature is refused without a reply (a
//     forger learns nothing) and logged to the kernel's stderr, which
//     Jupyter shows in its log; so is a malformed one (no delimiter, too
//     few frames, a part that is not JSON, a header without msg_type).
//     A well-signed request whose content does not parse is answered
//     with status "error" and ename "BadRequest".
//   - Cells are REPL entries (Interp.ExecREPL): a final bare expression
//     is the execute_result and `_`. Each stored cell is its own file
//     name, "<cell N>" with N its execution count (IPython's In[N]), so
//     an error in a fn defined two cells ago names that cell's line; the
//     traceback is the error's lines (position, message, the "in f (...)"
//     call chain) and the failing line with a caret, from the last 1000
//     cells. ename is CompileError (syntax, name and type errors),
//     RuntimeError, Interrupted or Exit; evalue is the first line.
//   - exit(code) in a cell is reported as an error (ename Exit) and the
//     kernel goes on: a notebook's kernel is ended by its user, as
//     ipykernel treats sys.exit.
//   - Output streams as it is printed: what the interpreter writes to
//     stdout or stderr is sent within 50 ms (or at 64 KiB) as stream
//     messages, so a loop of prints costs a few messages, not one per
//     print (ipykernel batches alike); everything is flushed before a
//     display and at the end of the cell. A UTF-8 sequence cut at a flush
//     waits for its rest.
//   - show(a, ...) in the kernel is stdlib.Show with a display that
//     publishes display_data: image/png (base64), a text/plain
//     "<image WxH>" and the size as metadata. Values have text/plain as
//     the REPL prints them; a 2-D array of scalars of at most 400
//     elements also has text/html, a table with its dtype, shape and
//     device as the caption (larger arrays are their elided text, as
//     NumPy's repr).
//   - The REPL's `:time` prefix on a cell's first line times the whole
//     cell (IPython's %%time; it prints "time: D" after the output). It
//     is blanked to spaces before the cell runs, so positions stay the
//     cell's. The REPL's other meta commands are an error naming :time:
//     :vars, :mem and :help have builtins or the inspector for them
//     (help(NAME), mem_info, Shift-Tab).
//   - Completion is repl.Complete over the cell (the REPL's tables: the
//     language server reads the same lang/words); inspect is the builtin
//     or method doc of stdlib's table, or a global's type and value (at
//     most 4000 bytes of it). Cursor positions are Unicode code points,
//     as protocol 5.2 and later count them. is_complete is
//     repl.Incomplete; the indent continues the last line's, four spaces
//     more after an opening brace; "invalid" is never answered: a cell
//     that cannot parse is complete, and running it shows the error.
//   - Interrupts: kernel.json says interrupt_mode "message", so Jupyter
//     sends interrupt_request on the control channel, which also works
//     for a kernel that is not the client's child; SIGINT (the "signal"
//     mode, and Ctrl-C in a terminal) interrupts the same way. Either
//     cancels the running cell's context: host loops and cpu kernel
//     launches stop at their next step, the reply is an Interrupted
//     error, and the session keeps its state. An interrupt between cells
//     does nothing.
//   - shutdown_request (restart or not) replies, then closes the sockets
//     and the interpreter, which frees its arrays (device memory too);
//     Serve returns and the process exits. A restart is the client's
//     work: it starts a new process, whose interpreter is new. A cell
//     stuck where cancellation is not polled gets 3 seconds, then its
//     memory is left to the process's exit.
//   - execute_request's user_expressions are not evaluated (the reply
//     has none) and stop_on_error does not abort queued cells: nbclient
//     and JupyterLab run one cell at a time and need neither.
//   - kernel_info's language_info names pygments_lexer and
//     codemirror_mode "go", the nearest highlighters Jupyter ships.
//   - `gscript jupyter install` installs for the user by default
//     (--user is accepted and is the default; --prefix DIR installs under
//     DIR/share/jupyter, as `jupyter kernelspec install --prefix`).
//     kernel.json runs the gscript executable by its absolute path, with
//     the --device and --launch-access flags given before `jupyter`, so
//     the kernel does not depend on Jupyter's PATH. The logos (32 and 64
//     pixels) are drawn at install time by show itself.
package jupyter
