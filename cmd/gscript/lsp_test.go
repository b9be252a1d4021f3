package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLSPUsage: gscript lsp takes no arguments but --stdio (which VS
// Code's client passes); a client that closes stdin without shutdown and
// exit ends it with status 1, as the protocol says.
func TestLSPUsage(t *testing.T) {
	code, _, stderr := gscript(t, "", "lsp", "--port", "1")
	if code != 2 || !strings.Contains(stderr, "lsp takes no arguments but --stdio") {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	if code, out, stderr := gscript(t, "", "lsp", "--stdio"); code != 1 || out != "" || stderr != "" {
		t.Fatalf("stdin closed at once: status %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// TestNeovim opens a script with an error in Neovim (headless, its own
// LSP client attached to the built gscript lsp by the snippet of
// docs/editors/nvim.lua) and checks that the diagnostic arrives, then
// that hover, definition, completion, signature help, formatting and
// symbols answer, and that an edit (sent as an incremental change)
// clears the diagnostic. It skips where nvim is absent
// (.ci/run installs Debian's neovim).
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install neovim): the editor end-to-end test skips")
	}
	dir := t.TempDir()
	buildCommand(t, dir) // nvim finds it on PATH
	script := filepath.Join(dir, "err.gs")
	if err := os.WriteFile(script, []byte("fn double(v) {\n    return v * 2\n}\nprint(double( 3))\nprint(y)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	init, err1 := filepath.Abs("testdata/nvim/init.lua")
	snippet, err2 := filepath.Abs("../../docs/editors/nvim.lua")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	out := filepath.Join(dir, "out.txt")
	cmd := exec.Command(nvim, "--headless", "--clean", "-u", init, script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "GSCRIPT_SNIPPET="+snippet, "GSCRIPT_NVIM_OUT="+out, "HOME="+dir, "XDG_STATE_HOME="+dir)
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("nvim did not finish in 60 s")
	}
	got, rerr := os.ReadFile(out)
	if err != nil || rerr != nil {
		t.Fatalf("nvim: %v; its output: %v %q", err, rerr, got)
	}
	for _, want := range []string{
		"filetype gscript\n", "diagnostic 4:6 undefined: y\n", "hover ```gscript print(values...", "\ndefinition 0:3\n",
		"\ncompletion double\n", "\nsignature fn double(v)\n", "\nformatting fn double(v) {     return v * 2 } print(double(3)) print(y) \n",
		"\nsymbols double\n", "\nedited: no diagnostics\n", "\ndone\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("nvim wrote %q, want %q in it", got, want)
		}
	}
}

// TestLSPExitsOnExit: after shutdown and exit, gscript lsp ends with
// status 0 while its stdin is still open (a client need not close it;
// a read of a real pipe cannot be interrupted by closing it).
func TestLSPExitsOnExit(t *testing.T) {
	bin := buildCommand(t, t.TempDir())
	cmd := exec.Command(bin, "lsp")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	} {
		if _, err := fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(m), m); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after shutdown: %v, want status 0", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("gscript lsp did not end within 10 s of exit")
	}
}
