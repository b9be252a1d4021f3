package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// Options configure Run.
type Options struct {
	// Interp configures the interpreter (and every one :reset makes). Its
	// Stdout and Stderr default to the REPL's.
	Interp interp.Options
	// Stdin, Stdout, Stderr default to the process's. A Stdin that is a
	// terminal gets line editing, prompts and history; any other input is
	// read line by line with no prompts.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// HistoryFile is where a terminal session keeps its history ("" for
	// none; DefaultHistoryFile is the usual choice).
	HistoryFile string
	// Banner is printed once at the start of a terminal session.
	Banner string
	// Reader, when set, replaces the reader chosen from Stdin (tests, or an
	// embedding program with its own line editor). It is not closed by Run.
	Reader LineReader
	// Interrupts, when set, replaces SIGINT as the source of interrupts.
	Interrupts <-chan os.Signal
	// Exit, when set, replaces os.Exit for a second interrupt of a
	// statement that keeps running (tests).
	Exit func(code int)
	// Devices writes the device table that :devices shows (cmd/gscript
	// passes the one `gscript devices` prints). The listing comes from the
	// embedding program because it needs the standard library and the
	// driver, which this package does not import. Nil: :devices says no
	// listing is configured.
	Devices func(w io.Writer) error
}

// Prompts of a terminal session.
const (
	promptFirst = "gs> "
	promptMore  = "... "
)

// entryFile is the file name of positions in entered text.
const entryFile = "<repl>"

// entry is a text the session ran and the session line it started at:
// positions in a fn it defined name those lines, whenever it fails.
type entry struct {
	line int
	text string
}

// Bounds on the session's line numbers: entries are parsed after as many
// newlines as the lines before them, which costs about 14 ns a line, so a
// session numbers its lines from 1 again after maxSessionLines (the
// padding then costs at most about as much as parsing a short entry);
// the carets of errors reach back over the last maxEntries entries.
const (
	maxSessionLines = 1 << 16
	maxEntries      = 1000
)

// session is one REPL run: the interpreter and what the loop needs.
type session struct {
	opts        Options
	in          *interp.Interp
	rd          LineReader
	stdout      io.Writer
	stderr      io.Writer
	interactive bool
	last        interp.Value // the value of the last bare expression (`_`)

	lines   int     // the session lines read so far (entries number their lines from here)
	at      int     // the session line where the entry being run starts
	entries []entry // the last entries run (terminal sessions): the carets of later errors

	mu      sync.Mutex
	running context.CancelFunc // the running statement's, nil at the prompt
	stopped bool               // running was called: the statement was interrupted
	pending string             // the unfinished entry's lines, for completion
	quit    bool
	exited  *interp.ExitError // the session's exit(code), which Run returns
}

// Run runs the REPL until end of input, :quit, exit(code) or ctx is done.
// Script errors are printed and the session goes on; Run returns an error
// only when the interpreter cannot be made or the input cannot be read,
// or the *interp.ExitError of an entry's exit(code), whose status the
// embedding program exits with.
func Run(ctx context.Context, opts Options) error {
	s, err := newSession(opts)
	if err != nil {
		return err
	}
	defer s.close()
	stop := s.watchInterrupts(ctx)
	defer stop()
	if s.interactive && opts.Banner != "" {
		fmt.Fprintln(s.stdout, opts.Banner)
	}
	if err := s.loop(ctx); err != nil {
		return err
	}
	if s.exited != nil {
		return s.exited
	}
	return nil
}

func newSession(opts Options) (*session, error) {
	s := &session{opts: opts, stdout: opts.Stdout, stderr: opts.Stderr}
	if s.stdout == nil {
		s.stdout = os.Stdout
	}
	if s.stderr == nil {
		s.stderr = os.Stderr
	}
	if opts.Stdin == nil {
		opts.Stdin = os.Stdin
	}
	if s.opts.Interp.Stdout == nil {
		s.opts.Interp.Stdout = s.stdout
	}
	if s.opts.Interp.Stderr == nil {
		s.opts.Interp.Stderr = s.stderr
	}
	in, err := interp.New(s.opts.Interp)
	if err != nil {
		return nil, err
	}
	s.in = in
	if s.rd, err = s.openReader(opts); err != nil {
		in.Close()
		return nil, err
	}
	return s, nil
}

// openReader picks readline for a terminal, a plain reader otherwise.
func (s *session) openReader(opts Options) (LineReader, error) {
	if opts.Reader != nil {
		return opts.Reader, nil
	}
	f, ok := opts.Stdin.(*os.File)
	if !ok || !isTerminal(f) {
		return NewPlainReader(opts.Stdin), nil
	}
	s.interactive = true
	return newTermReader(termConfig{stdin: f, stdout: s.stdout, stderr: s.stderr,
		historyFile: opts.HistoryFile, complete: s.complete})
}

func (s *session) close() {
	if s.opts.Reader == nil {
		s.rd.Close()
	}
	if err := s.in.Close(); err != nil {
		fmt.Fprintln(s.stderr, "gscript:", err)
	}
}

// watchInterrupts cancels the running statement on an interrupt; a second
// interrupt while that statement still runs (stuck where cancellation is
// not polled) ends the process with status 130, as `gscript run` does. An
// interrupt at the prompt is ignored: on a terminal readline sees Ctrl-C as
// a key (it clears the line) and no signal is raised.
func (s *session) watchInterrupts(ctx context.Context) (stop func()) {
	sigs := s.opts.Interrupts
	var ch chan os.Signal
	if sigs == nil {
		ch = make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt)
		sigs = ch
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sigs:
				s.interrupt()
			case <-done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() {
		close(done)
		if ch != nil {
			signal.Stop(ch)
		}
	}
}

// loop reads and runs entries until the input ends.
func (s *session) loop(ctx context.Context) error {
	var pending []string
	var cont syntax.Continuation // the brackets and strings open in pending
	for !s.quit && ctx.Err() == nil {
		s.setPending(pending)
		if len(pending) == 0 {
			s.rd.SetPrompt(promptFirst)
			if s.lines >= maxSessionLines {
				s.lines, s.entries = 0, nil
			}
		} else {
			s.rd.SetPrompt(promptMore)
		}
		line, err := s.rd.Readline()
		if err == nil {
			s.lines += strings.Count(line, "\n") + 1 // a recalled entry is one line holding newlines
		}
		if len(pending) == 0 {
			s.at = s.lines - strings.Count(line, "\n")
		}
		switch {
		case errors.Is(err, ErrInterrupt):
			pending, cont = nil, syntax.Continuation{} // Ctrl-C drops the line and any unfinished statement
			continue
		case err == io.EOF:
			if len(pending) > 0 {
				s.entry(ctx, strings.Join(pending, "\n")) // reports what is missing
			}
			return nil
		case err != nil:
			return fmt.Errorf("reading input: %w", err)
		}
		if len(pending) == 0 && strings.TrimSpace(line) == "" {
			continue
		}
		if len(pending) == 0 {
			cont.Feed(statementPart(line))
		} else {
			cont.Feed(line)
		}
		pending = append(pending, line)
		if cont.Open() {
			continue // surely incomplete: no need to parse yet
		}
		text := strings.Join(pending, "\n")
		if incomplete(text) {
			continue
		}
		pending, cont = nil, syntax.Continuation{}
		s.rd.SaveHistory(text)
		s.entry(ctx, text)
	}
	return nil
}

// statementPart is the gscript text on the first line of an entry: the
// line itself, the statement of :time, or nothing for other meta commands
// (which are complete on one line).
func statementPart(line string) string {
	trimmed := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(trimmed, ":") {
		return line
	}
	if name, arg := splitMeta(trimmed); name == ":time" {
		return arg
	}
	return ""
}

// Incomplete reports whether an entry needs more lines, as the REPL
// decides it line by line: a bracket or string open at the end of its
// last line, or a statement cut off at the end. A meta command is
// complete unless its statement argument (:time) is not. A notebook's
// kernel (tools/jupyter) answers is_complete with it.
func Incomplete(text string) bool {
	lines := strings.Split(text, "\n")
	var cont syntax.Continuation
	cont.Feed(statementPart(lines[0]))
	for _, l := range lines[1:] {
		cont.Feed(l)
	}
	return cont.Open() || incomplete(text)
}

// incomplete reports whether text, whose brackets and strings are
// closed, needs more lines: a statement cut off at the end. A meta
// command is complete unless its statement argument (:time) is not.
func incomplete(text string) bool {
	trimmed := strings.TrimLeft(text, " \t")
	if strings.HasPrefix(trimmed, ":") {
		name, arg := splitMeta(trimmed)
		if name != ":time" || strings.TrimSpace(arg) == "" {
			return false
		}
		text = arg
	}
	// Entered lines end with a newline; without it the parser reports a
	// statement cut off inside a block as a plain syntax error.
	_, err := syntax.Parse(entryFile, []byte(text+"\n"))
	return err != nil && syntax.IsIncomplete(err)
}

// entry runs one complete entry: a meta command or gscript statements.
func (s *session) entry(ctx context.Context, text string) {
	if trimmed := strings.TrimLeft(text, " \t"); strings.HasPrefix(trimmed, ":") {
		s.meta(ctx, trimmed)
		return
	}
	s.exec(ctx, text)
}

// setPending records the unfinished entry's lines for completion, which
// runs on readline's goroutine.
func (s *session) setPending(lines []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = ""
	if len(lines) > 0 {
		s.pending = strings.Join(lines, "\n") + "\n"
	}
}

// exec runs statements and prints the value of a final bare expression.
// The text is parsed after a newline for each session line before it, so
// that its positions are session lines (the same in a fn it defines,
// which may fail in a later entry) and, for a non-terminal stdin, the
// input's lines.
func (s *session) exec(ctx context.Context, text string) {
	var v interp.Value
	src := []byte(strings.Repeat("\n", max(s.at-1, 0)) + text)
	s.remember(text)
	err := s.interruptible(ctx, func(ctx context.Context) error {
		var err error
		v, err = s.in.ExecREPL(ctx, entryFile, src)
		return err
	})
	if errors.As(err, &s.exited) {
		s.quit = true
		return
	}
	if err != nil {
		s.report(err)
		return
	}
	if v != nil {
		s.last = v
		fmt.Fprintln(s.stdout, shown(v))
	}
}

// shown is what the REPL prints for a bare expression's value.
func shown(v interp.Value) string {
	if r, ok := v.(*interp.Record); ok && r.Display != "" {
		return r.Display
	}
	return v.String()
}

// interrupt cancels the running statement, or exits when it was already
// cancelled and still runs.
func (s *session) interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.running == nil:
	case s.stopped:
		fmt.Fprintln(s.stderr, "gscript: interrupted twice, exiting")
		s.exit(ExitInterrupted)
	default:
		s.running()
		s.stopped = true
	}
}

// ExitInterrupted is the exit status after a second Ctrl-C, the shell's
// 128 + SIGINT.
const ExitInterrupted = 130

// exit ends the process (Options.Exit in tests).
func (s *session) exit(code int) {
	if s.opts.Exit != nil {
		s.opts.Exit(code)
		return
	}
	os.Exit(code)
}

// interruptible runs fn with a context that an interrupt cancels.
func (s *session) interruptible(ctx context.Context, fn func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	s.running, s.stopped = cancel, false
	s.mu.Unlock()
	err := fn(ctx)
	s.mu.Lock()
	s.running = nil
	s.mu.Unlock()
	if err != nil && ctx.Err() != nil && s.interactive {
		fmt.Fprintln(s.stderr) // the terminal echoed ^C where the cursor was
	}
	if err != nil && ctx.Err() != nil && !strings.Contains(err.Error(), "interrupted") {
		err = fmt.Errorf("interrupted: %w", err)
	}
	return err
}

// remember keeps a terminal session's entry for the carets of errors.
func (s *session) remember(text string) {
	if !s.interactive {
		return
	}
	s.entries = append(s.entries, entry{s.at, text})
	if len(s.entries) > maxEntries {
		s.entries = s.entries[len(s.entries)-maxEntries:]
	}
}

// report prints an error. On a terminal, an error in entered text also
// shows its line, from whichever entry it is in, with a caret under the
// column.
func (s *session) report(err error) {
	fmt.Fprintln(s.stderr, err)
	if !s.interactive {
		return
	}
	var list ast.ErrorList
	var one *ast.Error
	var ee *interp.EvalError
	var pos ast.Pos
	switch {
	case errors.As(err, &list) && len(list) == 1:
		pos = list[0].Pos
	case errors.As(err, &one):
		pos = one.Pos
	case errors.As(err, &ee):
		pos = ee.Pos
	default:
		return
	}
	fmt.Fprint(s.stderr, caret(s.entries, pos))
}

// caret shows the line of pos, from the entry holding it, with a ^ under
// its column ("" when no entry holds pos).
func caret(entries []entry, pos ast.Pos) string {
	if pos.File != entryFile || pos.Col < 1 {
		return ""
	}
	for i := len(entries) - 1; i >= 0; i-- {
		lines := strings.Split(entries[i].text, "\n")
		if n := pos.Line - entries[i].line; n >= 0 && n < len(lines) {
			return caretLine(lines[n], pos.Col)
		}
	}
	return ""
}

func caretLine(line string, col int) string {
	pad := []byte(line[:min(col-1, len(line))])
	for i, c := range pad {
		if c != '\t' {
			pad[i] = ' '
		}
	}
	return "  " + line + "\n  " + string(pad) + "^\n"
}

// timed runs fn and prints its wall time.
func (s *session) timed(fn func()) {
	start := time.Now()
	fn()
	fmt.Fprintf(s.stdout, "time: %v\n", time.Since(start).Round(time.Microsecond))
}
