package repl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/chzyer/readline"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// LineReader is the line editor the REPL reads from: chzyer/readline on a
// terminal, a plain buffered reader otherwise, a fake in tests.
type LineReader interface {
	// Readline returns the next line without its newline. It returns
	// io.EOF at the end of input (Ctrl-D) and ErrInterrupt when the user
	// pressed Ctrl-C at the prompt.
	Readline() (string, error)
	// SetPrompt sets the prompt of the next Readline.
	SetPrompt(prompt string)
	// SaveHistory records one complete statement (possibly several lines).
	SaveHistory(entry string) error
	Close() error
}

// ErrInterrupt is returned by Readline for Ctrl-C at the prompt.
var ErrInterrupt = errors.New("interrupt")

// plainReader reads lines from a non-terminal: no prompts, no history.
type plainReader struct {
	r *bufio.Reader
}

// NewPlainReader returns a LineReader for a non-terminal input.
func NewPlainReader(r io.Reader) LineReader { return &plainReader{r: bufio.NewReader(r)} }

// errLineTooLong ends a session whose input has a line longer than any
// script may be (an endless stream such as /dev/zero has no newline).
var errLineTooLong = fmt.Errorf("an input line is longer than %d bytes (syntax.MaxSourceBytes)", syntax.MaxSourceBytes)

func (p *plainReader) Readline() (string, error) {
	var line []byte
	for {
		chunk, err := p.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > syntax.MaxSourceBytes {
			return "", errLineTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(line) > 0 {
			err = nil // the last line had no newline; EOF comes on the next call
		}
		if err != nil {
			return "", err
		}
		return strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r"), nil
	}
}

func (p *plainReader) SetPrompt(string)         {}
func (p *plainReader) SaveHistory(string) error { return nil }
func (p *plainReader) Close() error             { return nil }

// termReader is chzyer/readline with a history file the REPL writes itself:
// readline's own file stores one entry per line, which would split a
// multi-line statement into several entries on the next start.
type termReader struct {
	rl   *readline.Instance
	hist *os.File // nil: no history file
}

// termConfig is what NewTermReader needs besides the terminal files.
type termConfig struct {
	stdin       *os.File
	stdout      io.Writer
	stderr      io.Writer
	historyFile string
	complete    func(line string, pos int) ([]string, int)
}

// newTermReader starts readline on a terminal and loads the history.
func newTermReader(c termConfig) (*termReader, error) {
	var op atomic.Pointer[readline.Operation] // set once readline runs
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 promptFirst,
		Stdin:                  readline.NewCancelableStdin(c.stdin),
		Stdout:                 c.stdout,
		Stderr:                 c.stderr,
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
		AutoComplete:           completer(c.complete),
		FuncFilterInputRune:    func(r rune) (rune, bool) { return interruptClears(op.Load(), r) },
	})
	if err != nil {
		return nil, err
	}
	op.Store(rl.Operation)
	t := &termReader{rl: rl}
	if c.historyFile != "" {
		// A history that cannot be read or written is not worth refusing
		// to start over: the session simply has no saved history.
		for _, e := range loadHistory(c.historyFile) {
			_ = rl.SaveHistory(markNewlines(e))
		}
		if os.MkdirAll(filepath.Dir(c.historyFile), 0o700) == nil {
			t.hist, _ = os.OpenFile(c.historyFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		}
	}
	return t, nil
}

// interruptClears makes Ctrl-C clear the line while completions are
// listed, as it does otherwise: readline would only close the listing
// and keep the line, so that the next keys were typed after it. It runs
// on readline's key loop, as every change to the completion state does;
// closing the listing first leaves the key to readline's usual Ctrl-C.
func interruptClears(op *readline.Operation, r rune) (rune, bool) {
	if r == readline.CharInterrupt && op != nil && op.IsInCompleteMode() {
		op.ExitCompleteMode(true)
	}
	return r, true
}

// newlineMark stands for a newline in readline's copy of the history: it
// draws a line holding a newline wrongly (a newline has no width for it,
// so each redraw leaves the previous drawing on the screen). A recalled
// multi-line entry is one line with a mark for each newline, which
// Readline turns back into newlines.
const newlineMark = "↵"

func markNewlines(entry string) string { return strings.ReplaceAll(entry, "\n", newlineMark) }

func (t *termReader) Readline() (string, error) {
	line, err := t.rl.Readline()
	line = strings.ReplaceAll(line, newlineMark, "\n")
	if errors.Is(err, readline.ErrInterrupt) {
		return line, ErrInterrupt
	}
	return line, err
}

func (t *termReader) SetPrompt(p string) { t.rl.SetPrompt(p) }

func (t *termReader) SaveHistory(entry string) error {
	if err := t.rl.SaveHistory(markNewlines(entry)); err != nil {
		return err
	}
	if t.hist == nil {
		return nil
	}
	_, err := t.hist.WriteString(encodeHistory(entry) + "\n")
	return err
}

func (t *termReader) Close() error {
	err := t.rl.Close()
	if t.hist != nil {
		if cerr := t.hist.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// History file format: one entry per line, Go-quoted so that an entry may
// hold newlines. A line that is not a quoted string (a hand-written file,
// an older format) is taken as it is.
func encodeHistory(entry string) string { return strconv.Quote(entry) }

func decodeHistory(line string) string {
	if s, err := strconv.Unquote(line); err == nil {
		return s
	}
	return line
}

// maxHistory bounds the entries loaded at start.
const maxHistory = 1000

func loadHistory(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, decodeHistory(line))
		}
	}
	if len(out) > maxHistory {
		out = out[len(out)-maxHistory:]
	}
	return out
}

// DefaultHistoryFile is the history file in the user's config directory
// ("" when there is none).
func DefaultHistoryFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "gscript", "history")
}

// completer adapts a completion function to readline's AutoCompleter.
type completer func(line string, pos int) ([]string, int)

// Do returns the suffixes readline inserts after the word being completed.
func (c completer) Do(line []rune, pos int) ([][]rune, int) {
	if c == nil {
		return nil, 0
	}
	cands, n := c(string(line[:pos]), pos)
	out := make([][]rune, len(cands))
	for i, s := range cands {
		out[i] = []rune(s)
	}
	return out, n
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool { return readline.IsTerminal(int(f.Fd())) }
