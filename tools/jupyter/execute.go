package jupyter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
)

type executeRequest struct {
	Code         string `json:"code"`
	Silent       bool   `json:"silent"`
	StoreHistory *bool  `json:"store_history"` // absent: true
}

// execute runs a cell in the kernel's interpreter: its output streams as
// it is printed, a final bare expression becomes execute_result, and an
// error is published and replied with its position, call chain and the
// cell's line under a caret.
func (k *Kernel) execute(m *message) (any, error) {
	var req executeRequest
	if err := parse(m, &req); err != nil {
		return nil, err
	}
	name := "<cell>"
	if !req.Silent && (req.StoreHistory == nil || *req.StoreHistory) {
		k.count++
		name = fmt.Sprintf("<cell %d>", k.count)
		k.cells.add(name, req.Code)
	}
	if !req.Silent {
		k.publish(m, "execute_input", map[string]any{"code": req.Code, "execution_count": k.count})
	}
	v, err := k.run(m, name, req.Code)
	if err != nil {
		e := k.errorReport(err)
		if !req.Silent {
			k.publish(m, "error", e)
		}
		e["execution_count"] = k.count
		return e, nil
	}
	if v != nil && !req.Silent {
		k.last = v
		k.publish(m, "execute_result", map[string]any{"execution_count": k.count, "data": bundle(v), "metadata": map[string]any{}})
	}
	return map[string]any{"status": "ok", "execution_count": k.count, "user_expressions": map[string]any{}, "payload": []any{}}, nil
}

// run executes code as one REPL entry named name, interruptible, with
// m as the parent of its output. A cell whose first line starts with
// :time is timed as a whole (IPython's %%time): "time: D" follows its
// output.
func (k *Kernel) run(m *message, name, code string) (interp.Value, error) {
	src, timed, err := timePrefix(code)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k.mu.Lock()
	k.cancel, k.parent = cancel, m
	k.mu.Unlock()
	start := time.Now()
	v, err := k.in.ExecREPL(ctx, name, []byte(src))
	if timed {
		fmt.Fprintf(k.stdout, "time: %v\n", time.Since(start).Round(time.Microsecond))
	}
	k.stdout.flush()
	k.stderr.flush()
	k.mu.Lock()
	k.cancel, k.parent = nil, nil
	k.mu.Unlock()
	if err != nil && ctx.Err() != nil && !strings.Contains(err.Error(), "interrupted") {
		err = fmt.Errorf("interrupted: %w", err)
	}
	return v, err
}

// timePrefix finds a :time prefix on a cell's first line and blanks it,
// so that positions in the rest stay the cell's. Other meta commands are
// the REPL's only.
func timePrefix(code string) (src string, timed bool, err error) {
	i := len(code) - len(strings.TrimLeft(code, " \t\r\n"))
	rest := code[i:]
	if !strings.HasPrefix(rest, ":") {
		return code, false, nil
	}
	if after, ok := strings.CutPrefix(rest, ":time"); ok && (after == "" || strings.ContainsAny(after[:1], " \t\r\n")) {
		return code[:i] + "     " + after, true, nil
	}
	name, _, _ := strings.Cut(strings.Fields(rest)[0], "\n")
	return "", false, fmt.Errorf("%s: only :time works in a cell; the REPL's other commands have no notebook form", name)
}

// errorReport is the content of an error message and reply: ename is
// the kind of error, evalue its first line (position and message), the
// traceback every line, then the cell's line with a caret under the
// column.
func (k *Kernel) errorReport(err error) map[string]any {
	lines := strings.Split(err.Error(), "\n")
	if c := k.cells.caret(errorPos(err)); c != "" {
		lines = append(lines, strings.Split(strings.TrimSuffix(c, "\n"), "\n")...)
	}
	return errorContent(errorName(err), strings.Split(err.Error(), "\n")[0], lines)
}

func errorContent(ename, evalue string, traceback []string) map[string]any {
	if traceback == nil {
		traceback = []string{evalue}
	}
	return map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": traceback}
}

// errorName names the kind of err for ename.
func errorName(err error) string {
	var list ast.ErrorList
	var one *ast.Error
	var ee *interp.EvalError
	var xe *interp.ExitError
	switch {
	case strings.Contains(err.Error(), "interrupted"):
		return "Interrupted"
	case errors.As(err, &xe):
		return "Exit" // exit(code) in a cell: reported, and the kernel goes on
	case errors.As(err, &list), errors.As(err, &one):
		return "CompileError"
	case errors.As(err, &ee):
		return "RuntimeError"
	}
	return "Error"
}

// errorPos is the position err names, if it names one.
func errorPos(err error) ast.Pos {
	var list ast.ErrorList
	var one *ast.Error
	var ee *interp.EvalError
	switch {
	case errors.As(err, &list) && len(list) > 0:
		return list[0].Pos
	case errors.As(err, &one):
		return one.Pos
	case errors.As(err, &ee):
		return ee.Pos
	}
	return ast.Pos{}
}

// cellSources keeps the code of the last maxCells cells by name, for the
// carets of errors (a fn from an earlier cell fails in its own lines).
type cellSources struct {
	names []string
	code  map[string]string
}

const maxCells = 1000

func (c *cellSources) add(name, code string) {
	if c.code == nil {
		c.code = map[string]string{}
	}
	c.names = append(c.names, name)
	c.code[name] = code
	if len(c.names) > maxCells {
		delete(c.code, c.names[0])
		c.names = c.names[1:]
	}
}

// caret is the line of pos with a ^ under its column ("" when pos is in
// no kept cell).
func (c *cellSources) caret(pos ast.Pos) string {
	code, ok := c.code[pos.File]
	lines := strings.Split(code, "\n")
	if !ok || pos.Line < 1 || pos.Line > len(lines) || pos.Col < 1 {
		return ""
	}
	line := lines[pos.Line-1]
	pad := []byte(line[:min(pos.Col-1, len(line))])
	for i, ch := range pad {
		if ch != '\t' {
			pad[i] = ' '
		}
	}
	return line + "\n" + string(pad) + "^\n"
}

// stream is the kernel's stdout or stderr: what the interpreter writes
// is sent as stream messages, gathered for at most streamDelay (a loop
// of prints is a few messages, not one per print) or streamChunk bytes,
// and flushed whole at the end of a cell and before a display.
type stream struct {
	k     *Kernel
	name  string
	mu    sync.Mutex
	buf   []byte
	timer *time.Timer
}

const (
	streamDelay = 50 * time.Millisecond
	streamChunk = 64 << 10
)

func (s *stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, p...)
	switch {
	case len(s.buf) >= streamChunk:
		s.send(false)
	case s.timer == nil:
		s.timer = time.AfterFunc(streamDelay, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.timer = nil
			s.send(false)
		})
	}
	return len(p), nil
}

// flush sends everything written so far.
func (s *stream) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.send(true)
}

// send publishes the buffer; unless all, a UTF-8 sequence cut at its
// end waits for the rest (JSON strings are whole characters).
func (s *stream) send(all bool) {
	n := len(s.buf)
	if !all {
		n = completeRunes(s.buf)
	}
	if n == 0 {
		return
	}
	text := string(s.buf[:n])
	s.buf = append([]byte(nil), s.buf[n:]...)
	s.k.publish(s.k.runningParent(), "stream", map[string]string{"name": s.name, "text": text})
}

// completeRunes is the length of b without a UTF-8 sequence cut at its
// end.
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

func (k *Kernel) runningParent() *message {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.parent
}
