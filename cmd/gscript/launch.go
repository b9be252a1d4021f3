package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gscript-lang/gscript/interp/repl"
	"github.com/gscript-lang/gscript/runtime/dist"
)

// launchFlags are gscript run's flags for starting ranks (SCALE.md
// section 2).
type launchFlags struct {
	nproc     int    // -n: ranks on this host
	nodes     int    // --nodes: hosts
	nodeRank  int    // --node-rank: this host's index
	master    string // --master HOST:PORT: node 0's store
	tagOutput bool   // --tag-output: "[r] " before each line
}

// When a rank fails the launcher waits failGrace for the others to end on
// their own (a rank whose collective failed with it reports its side
// first), then tells them to stop (SIGTERM) and kills them stopGrace
// later.
const (
	failGrace = time.Second
	stopGrace = 5 * time.Second
)

// launched is one rank started by the launcher.
type launched struct {
	rank int
	cmd  *exec.Cmd
}

// exitOf is a rank's result: its exit status, 128+N for a signal N.
type exitOf struct {
	rank, code int
}

// launch is `gscript run -n N ... FILE ARGS...`: it serves the store (on
// node 0), starts N ranks of this binary with torchrun's variables and
// waits; the first rank to fail stops the others and gives the
// launcher's exit status; Ctrl-C stops every rank.
func launch(f flags, args []string, stdout, stderr io.Writer) error {
	l := f.launch
	if err := l.check(args); err != nil {
		return err
	}
	master, store, err := l.serve()
	if err != nil {
		return &exitError{code: 1, msg: "gscript run: " + err.Error()}
	}
	if store != nil {
		defer store.Close()
	}
	exe, err := os.Executable()
	if err != nil {
		return &exitError{code: 1, msg: "gscript run: " + err.Error()}
	}
	out, errw := syncWriter(stdout), syncWriter(stderr)
	var ranks []*launched
	var flushes []func()
	for i := range l.nproc {
		r := &launched{rank: l.nodeRank*l.nproc + i}
		r.cmd = exec.Command(exe, childArgs(f, args)...)
		r.cmd.Env = l.env(r.rank, i, master)
		r.cmd.SysProcAttr = childAttr() // stdin stays nil: /dev/null
		r.cmd.Stdout, r.cmd.Stderr = out, errw
		if l.tagOutput {
			o, e := &tagWriter{w: out, tag: fmt.Sprintf("[%d] ", r.rank)}, &tagWriter{w: errw, tag: fmt.Sprintf("[%d] ", r.rank)}
			r.cmd.Stdout, r.cmd.Stderr = o, e
			flushes = append(flushes, o.flush, e.flush)
		}
		if err := r.cmd.Start(); err != nil {
			stopAll(ranks, syscall.SIGKILL)
			return &exitError{code: 1, msg: fmt.Sprintf("gscript run: starting rank %d: %v", r.rank, err)}
		}
		ranks = append(ranks, r)
	}
	code := supervise(ranks, errw)
	for _, fl := range flushes {
		fl()
	}
	if code != 0 {
		return &exitError{code: code}
	}
	return nil
}

// check validates the flags against the command line.
func (l *launchFlags) check(args []string) error {
	switch {
	case l.nproc < 1:
		return usageError("run -n takes a number of ranks of at least 1, not %d", l.nproc)
	case l.nodes < 1:
		return usageError("--nodes takes at least 1, not %d", l.nodes)
	case l.nodeRank < 0 || l.nodeRank >= l.nodes:
		return usageError("--node-rank %d is not one of the %d nodes (0 to %d)", l.nodeRank, l.nodes, l.nodes-1)
	case l.nodes > 1 && l.master == "":
		return usageError("--nodes %d needs --master HOST:PORT, node 0's address, on every node", l.nodes)
	case args[0] == "-":
		return usageError("run -n starts each rank from the script's file: FILE cannot be - (stdin)")
	}
	if l.master != "" {
		if _, _, err := net.SplitHostPort(l.master); err != nil {
			return usageError("--master %q is not HOST:PORT", l.master)
		}
	}
	return nil
}

// serve starts the store on node 0: at --master's port, or on a free
// port of 127.0.0.1 for a run of one node. It returns the address the
// ranks dial.
func (l *launchFlags) serve() (string, *dist.Store, error) {
	if l.nodeRank != 0 {
		return l.master, nil, nil
	}
	addr := "127.0.0.1:0"
	if l.master != "" {
		_, port, _ := net.SplitHostPort(l.master)
		addr = ":" + port
	}
	st, err := dist.Listen(addr)
	if err != nil {
		return "", nil, err
	}
	if l.master != "" {
		return l.master, st, nil
	}
	return st.Addr().String(), st, nil
}

// rankVars are the variables a rank reads; the launcher replaces any it
// inherited.
var rankVars = []string{"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
	"TORCHELASTIC_USE_AGENT_STORE", dist.EnvAgentStore, dist.EnvLauncher}

// env is rank's environment: the launcher's, with torchrun's variables
// for its place.
func (l *launchFlags) env(rank, local int, master string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(rankVars, k) {
			env = append(env, kv)
		}
	}
	host, port, _ := net.SplitHostPort(master)
	return append(env, "RANK="+strconv.Itoa(rank), "WORLD_SIZE="+strconv.Itoa(l.nodes*l.nproc),
		"LOCAL_RANK="+strconv.Itoa(local), "LOCAL_WORLD_SIZE="+strconv.Itoa(l.nproc),
		"MASTER_ADDR="+host, "MASTER_PORT="+port, dist.EnvAgentStore+"=1", dist.EnvLauncher+"=gscript run")
}

// childArgs is a rank's command line: run, the flags set here that a
// rank takes, the script and its arguments.
func childArgs(f flags, args []string) []string {
	out := []string{"run"}
	if f.device != "" {
		out = append(out, "--device", f.device)
	}
	if f.launchAccess != "" {
		out = append(out, "--launch-access", f.launchAccess)
	}
	return append(out, args...)
}

// supervise waits for every rank. The first that fails makes the others
// stop (after failGrace, SIGTERM; stopGrace later, SIGKILL) and gives the status;
// Ctrl-C is passed to every rank (status 130), a second one kills them.
func supervise(ranks []*launched, stderr io.Writer) int {
	done := make(chan exitOf, len(ranks))
	for _, r := range ranks {
		go func() { done <- exitOf{r.rank, exitCode(r.cmd.Wait())} }()
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var term, kill <-chan time.Time
	code, interrupted := 0, 0
	for left := len(ranks); left > 0; {
		select {
		case e := <-done:
			left--
			if e.code != 0 && code == 0 && interrupted == 0 {
				code = e.code
				if left > 0 {
					fmt.Fprintf(stderr, "gscript run: rank %d exited with status %d; stopping the other ranks\n", e.rank, e.code)
					term = time.After(failGrace)
				}
			}
		case <-sigs:
			interrupted++
			if interrupted == 1 {
				stopAll(ranks, os.Interrupt)
			} else {
				stopAll(ranks, syscall.SIGKILL)
			}
		case <-term:
			stopAll(ranks, syscall.SIGTERM)
			kill = time.After(stopGrace)
		case <-kill:
			stopAll(ranks, syscall.SIGKILL)
		}
	}
	if interrupted > 0 {
		return repl.ExitInterrupted
	}
	return code
}

// stopAll signals every rank still running.
func stopAll(ranks []*launched, sig os.Signal) {
	for _, r := range ranks {
		if r.cmd.Process != nil && r.cmd.ProcessState == nil {
			r.cmd.Process.Signal(sig)
		}
	}
}

// exitCode is a rank's exit status as a shell reports it.
func exitCode(err error) int {
	var xe *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &xe):
		if ws, ok := xe.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return xe.ExitCode()
	}
	return 1
}

// syncWriter serialises the ranks' writes to one writer (a file is
// passed to the ranks as is: the kernel keeps their writes whole).
func syncWriter(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok {
		return f
	}
	return &lockedWriter{w: w}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// tagWriter writes whole lines with tag before each: a rank's partial
// line waits for its end (flush writes what is left).
type tagWriter struct {
	mu   sync.Mutex
	w    io.Writer
	tag  string
	line []byte
}

func (t *tagWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.line = append(t.line, p...)
			break
		}
		t.line = append(t.line, p[:i+1]...)
		p = p[i+1:]
		if err := t.emit(); err != nil {
			return n, err
		}
	}
	return n, nil
}

func (t *tagWriter) emit() error {
	_, err := t.w.Write(append([]byte(t.tag), t.line...))
	t.line = t.line[:0]
	return err
}

func (t *tagWriter) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.line) > 0 {
		t.line = append(t.line, '\n')
		t.emit()
	}
}
