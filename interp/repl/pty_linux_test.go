package repl

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// These tests drive the real REPL (readline, signals, the history file)
// through a pseudo-terminal. The REPL runs in a child process, this test
// binary re-executed with childEnv set, so that Ctrl-C reaches it as SIGINT
// from the terminal's line discipline, exactly as for `gscript`.

const childEnv = "GSCRIPT_REPL_TEST_CHILD_HISTORY"

func TestMain(m *testing.M) {
	if hist, ok := os.LookupEnv(childEnv); ok {
		err := Run(context.Background(), Options{
			Interp:      interp.Options{Device: "cpu", Predeclared: stdlib.Universe()},
			HistoryFile: hist, Banner: "test banner", Devices: fakeDevices,
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// openPTY opens a pseudo-terminal pair with the standard library only.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	var unlock int32
	var n uint32
	ws := [4]uint16{24, 100, 0, 0} // rows, cols: readline needs a width
	for _, c := range []struct {
		req uintptr
		arg unsafe.Pointer
	}{{syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)}, {syscall.TIOCGPTN, unsafe.Pointer(&n)}, {syscall.TIOCSWINSZ, unsafe.Pointer(&ws)}} {
		if err := ioctl(master, c.req, c.arg); err != nil {
			master.Close()
			t.Fatalf("ioctl %#x: %v", c.req, err)
		}
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	return master, slave
}

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}

// term is a running REPL on a pseudo-terminal.
type term struct {
	t      *testing.T
	master *os.File
	cmd    *exec.Cmd
	mu     sync.Mutex
	out    bytes.Buffer // everything the REPL wrote
	seen   int          // how far expect has consumed out
}

func startREPL(t *testing.T, history string) *term {
	t.Helper()
	master, slave := openPTY(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+history, "TERM=xterm")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	tm := &term{t: t, master: master, cmd: cmd}
	go tm.read()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		master.Close()
	})
	tm.expect("test banner")
	tm.expect(regexp.QuoteMeta(promptFirst))
	return tm
}

func (tm *term) read() {
	buf := make([]byte, 4096)
	for {
		n, err := tm.master.Read(buf)
		tm.mu.Lock()
		tm.out.Write(buf[:n])
		tm.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (tm *term) send(s string) {
	tm.t.Helper()
	if _, err := tm.master.WriteString(s); err != nil {
		tm.t.Fatal(err)
	}
}

// expect waits for output matching re after what earlier calls consumed.
func (tm *term) expect(re string) {
	tm.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		tm.mu.Lock()
		rest := tm.out.String()[tm.seen:]
		loc := rx.FindStringIndex(rest)
		if loc != nil {
			tm.seen += loc[1]
		}
		tm.mu.Unlock()
		if loc != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.t.Fatalf("no %q in output after %d bytes:\n%q", re, tm.seen, tm.out.String())
}

// exit sends Ctrl-D at a fresh prompt and checks the REPL ends with status
// 0. It first waits for the prompt after a marker value: a Ctrl-D typed
// while a statement runs meets the terminal in cooked mode, where it is
// not a key readline sees.
func (tm *term) exit() {
	tm.t.Helper()
	tm.send("\"sync-mark\"\r")
	tm.expect(`\r\nsync-mark\r\n[^\n]*` + regexp.QuoteMeta(promptFirst))
	tm.send("\x04")
	done := make(chan error, 1)
	go func() { done <- tm.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			tm.t.Errorf("REPL exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		tm.t.Fatal("REPL did not exit on Ctrl-D")
	}
}

func TestPTYContinuationAndValues(t *testing.T) {
	tm := startREPL(t, "")
	tm.send("let a = [1,\r")
	tm.expect(regexp.QuoteMeta(promptMore))
	tm.send("2]\r")
	tm.send("len(a) + 40\r")
	tm.expect(`\r\n42\r\n`)
	tm.send("a + nope\r")
	tm.expect(`<repl>:4:5: undefined: nope\r\n  a \+ nope\r\n      \^`) // the session's fourth line
	tm.send("_\r")
	tm.expect(`\r\n42\r\n`)
	tm.exit()
}

func TestPTYCompletion(t *testing.T) {
	tm := startREPL(t, "")
	tm.send("let xs = zeros(3)\r")
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.send("xs.mem\t")
	tm.expect("ory_kind")
	tm.send("\r")
	tm.expect(`\r\n(HOST|host)\w*\r\n`)
	tm.send("config.launch_a\t")
	tm.expect("ccess")
	tm.send("\r")
	tm.expect(`\r\nchecked\r\n`)
	tm.send(":dev\t\r") // completes to :devices, which lists through Options.Devices
	tm.expect(`\r\ncpu +test device table\r\n`)
	tm.exit()
}

func TestPTYCtrlC(t *testing.T) {
	tm := startREPL(t, "")
	// At the prompt Ctrl-C drops the line, also inside a statement.
	tm.send("let q = (1 +\r")
	tm.expect(regexp.QuoteMeta(promptMore))
	tm.send("junk\x03")
	tm.expect(regexp.QuoteMeta(promptFirst))
	// While a statement runs it interrupts the statement only.
	tm.send("let n = 0\r")
	tm.send("while true { n = n + 1 }\r")
	time.Sleep(300 * time.Millisecond)
	tm.send("\x03")
	tm.expect(`\^C\r\n<repl>:3:1: interrupted\r\n`)
	tm.send("n > 0\r")
	tm.expect(`\r\ntrue\r\n`)
	tm.send("q\r")
	tm.expect("undefined: q")
	tm.exit()
}

func TestPTYHistory(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "sub", "history")
	tm := startREPL(t, hist)
	tm.send("let h = 40\r")
	tm.send("fn f(x) {\r")
	tm.send("  return x + 2\r")
	tm.send("}\r")
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.exit()
	data, err := os.ReadFile(hist)
	if err != nil || !strings.HasPrefix(string(data), "\"let h = 40\"\n\"fn f(x) {\\n  return x + 2\\n}\"\n") {
		t.Fatalf("history file %q, %v", data, err)
	}

	// A new session recalls both entries: the multi-line one with Up
	// (one entry per statement), the other with Ctrl-R search.
	tm = startREPL(t, hist)
	tm.send("\x1b[A\x1b[A\r") // Up (past exit's marker), Enter: defines f again
	// The prompt after the entry, not the session's first one: a Ctrl-R
	// sent while the entry runs meets the terminal in cooked mode.
	tm.expect(regexp.QuoteMeta("}\r\n"))
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.send("\x12h = 4") // Ctrl-R search
	tm.expect("let h = 40")
	tm.send("\r")
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.send("\r") // readline may end the search on the first Enter
	tm.send("f(h)\r")
	tm.expect(`\r\n42\r\n`)
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.exit()
	if data, _ := os.ReadFile(hist); !strings.Contains(string(data), "\"let h = 40\"\n\"f(h)\"\n") {
		t.Errorf("history file after the second session:\n%s", data)
	}
}

// TestPTYInterruptAfterCompletionList: Ctrl-C while Tab's candidates are
// listed clears the line, as it does otherwise (readline only closed the
// listing, and the next keys were typed after "ar").
func TestPTYInterruptAfterCompletionList(t *testing.T) {
	tm := startREPL(t, "")
	tm.send("ar\t")
	tm.expect(`arange +argmax +argmin +(arg\w+ +)*argv +(arg\w+ +)*array`) // the listing (other arg... builtins may join it)
	tm.send("\x03")
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.send("print(40 + 2)\r")
	tm.expect(`\r\n42\r\n`)
	tm.exit()
}

// TestPTYRecallMultiLineEntry: Up and Ctrl-R recall a multi-line entry as
// one line, newlines shown as ↵ (readline drew a line holding newlines
// again at every redraw, without erasing the earlier drawing), and Enter
// runs it with its newlines.
func TestPTYRecallMultiLineEntry(t *testing.T) {
	tm := startREPL(t, "")
	tm.send("fn f(x) {\r")
	tm.send("  return x + 2\r")
	tm.send("}\r")
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.send("\x1b[A") // Up
	tm.expect(regexp.QuoteMeta("fn f(x) {↵  return x + 2↵}"))
	tm.send("\x1b[A\x1b[B") // Up at the oldest entry, then Down: redraws
	tm.send("\r")
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.send("f(40)\r")
	tm.expect(`\r\n42\r\n`)
	tm.send("\x12return x") // Ctrl-R
	tm.expect(regexp.QuoteMeta("fn f(x) {↵  return x + 2↵}"))
	tm.send("\x07") // Ctrl-G: leave the search
	tm.send("\x03")
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.mu.Lock()
	out := tm.out.String()
	tm.mu.Unlock()
	// Every drawing of the entry is on one line: no newline inside it.
	if strings.Contains(out, "return x + 2\r\n}") || strings.Contains(out, "return x + 2\n}") {
		t.Errorf("the recalled entry was drawn over several lines:\n%q", out)
	}
	tm.exit()
}

// TestPTYErrorInEarlierEntry: an error inside a fn defined by an earlier
// entry names that entry's session line and shows its text with the
// caret (it showed the current entry's line, or none).
func TestPTYErrorInEarlierEntry(t *testing.T) {
	tm := startREPL(t, "")
	tm.send("fn f(x) {\r")
	tm.send("  return x / 0\r")
	tm.send("}\r")
	tm.send("let y = 1\r")
	tm.send("f(y)\r")
	tm.expect(`<repl>:2:12: integer division by zero\r\n  in f \(<repl>:5:2\)\r\n    return x / 0\r\n             \^\r\n`)
	tm.exit()
}

// TestPTYKernelCompletion: inside a kernel body ti<Tab> completes to the
// kernel builtin tid (on the host tim<Tab> gives time).
func TestPTYKernelCompletion(t *testing.T) {
	tm := startREPL(t, "")
	tm.send("kernel k(x: array[i32]) {\r")
	tm.expect(regexp.QuoteMeta(promptMore))
	tm.send("  let i = ti\t")
	tm.expect(regexp.QuoteMeta("let i = tid"))
	tm.send("()\r")
	tm.send("  x[i] = i\r")
	tm.send("}\r")
	tm.expect(regexp.QuoteMeta(promptFirst))
	tm.send("array x: i32[3]\r")
	tm.send("launch k[3](x); x\r")
	tm.expect(`\r\n\[0, 1, 2\]\r\n`)
	tm.send("type(tim\t")
	tm.expect(regexp.QuoteMeta("type(time"))
	tm.send("())\r")
	tm.expect(`\r\nfloat\r\n`)
	tm.exit()
}
