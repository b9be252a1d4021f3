package repl

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/stdlib"
)

// ctrlC in a fake reader's lines stands for Ctrl-C at the prompt.
const ctrlC = "\x03"

// fakeReader replays lines and records prompts and history.
type fakeReader struct {
	lines   []string
	prompt  string
	prompts []string
	history []string
	err     error // returned after the lines (default io.EOF)
}

func (f *fakeReader) Readline() (string, error) {
	f.prompts = append(f.prompts, f.prompt)
	if len(f.lines) == 0 {
		if f.err != nil {
			return "", f.err
		}
		return "", io.EOF
	}
	line := f.lines[0]
	f.lines = f.lines[1:]
	if line == ctrlC {
		return "", ErrInterrupt
	}
	return line, nil
}

func (f *fakeReader) SetPrompt(p string)         { f.prompt = p }
func (f *fakeReader) SaveHistory(e string) error { f.history = append(f.history, e); return nil }
func (f *fakeReader) Close() error               { return nil }

func testOptions(rd LineReader, out, errOut *bytes.Buffer) Options {
	return Options{
		Interp: interp.Options{Device: "cpu", Predeclared: stdlib.Universe()},
		Stdout: out, Stderr: errOut, Reader: rd, Interrupts: make(chan os.Signal),
		Devices: fakeDevices,
	}
}

// fakeDeviceTable is what fakeDevices, the tests' Options.Devices, writes.
const fakeDeviceTable = "DEVICE  NAME\ncpu     test device table\n"

func fakeDevices(w io.Writer) error {
	_, err := io.WriteString(w, fakeDeviceTable)
	return err
}

// runLines runs the REPL over lines and returns stdout, stderr and the reader.
func runLines(t *testing.T, lines ...string) (string, string, *fakeReader) {
	t.Helper()
	rd := &fakeReader{lines: lines}
	var out, errOut bytes.Buffer
	runWithTimeout(t, testOptions(rd, &out, &errOut))
	return out.String(), errOut.String(), rd
}

func runWithTimeout(t *testing.T, opts Options) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), opts) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return")
	}
}

func TestContinuationAndHistory(t *testing.T) {
	out, errOut, rd := runLines(t, "let xs = [1,", "2, 3]", "", "xs", "fn f(x) {", "  return x * 2", "}", "f(21)")
	if out != "[1, 2, 3]\n42\n" || errOut != "" {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
	wantPrompts := []string{"gs> ", "... ", "gs> ", "gs> ", "gs> ", "... ", "... ", "gs> ", "gs> "}
	if !reflect.DeepEqual(rd.prompts, wantPrompts) {
		t.Errorf("prompts %q, want %q", rd.prompts, wantPrompts)
	}
	wantHist := []string{"let xs = [1,\n2, 3]", "xs", "fn f(x) {\n  return x * 2\n}", "f(21)"}
	if !reflect.DeepEqual(rd.history, wantHist) {
		t.Errorf("history %q, want %q", rd.history, wantHist)
	}
}

// A string cut off at the end of a line asks for more input; strings do not
// span lines, so the next line completes the entry with an error.
func TestOpenStringContinues(t *testing.T) {
	out, errOut, rd := runLines(t, `let s = "a`, `b"`, "1")
	if out != "1\n" || !strings.Contains(errOut, "<repl>:1:9: string literal not terminated") {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
	if len(rd.history) != 2 || rd.prompts[1] != promptMore {
		t.Errorf("history %q, prompts %q", rd.history, rd.prompts)
	}
}

func TestErrorsKeepState(t *testing.T) {
	out, errOut, _ := runLines(t, "let a = 2", "a + nope", "1 / 0", "let b = (", "3 +)", "a")
	if out != "2\n" {
		t.Errorf("stdout %q", out)
	}
	// Positions are session lines: the entries' second, third and fifth.
	for _, want := range []string{"<repl>:2:5: undefined: nope", "<repl>:3:3: integer division by zero", "<repl>:5:4: unexpected"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
}

func TestLastValue(t *testing.T) {
	out, _, _ := runLines(t, "40 + 2", "_ + 1", "print(\"x\")", "_")
	if out != "42\n43\nx\n43\n" {
		t.Errorf("stdout %q", out)
	}
}

func TestCtrlCAtPromptDropsPendingInput(t *testing.T) {
	out, errOut, rd := runLines(t, "let x = (1 +", ctrlC, "let x = 5", "x")
	if out != "5\n" || errOut != "" {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
	if len(rd.history) != 2 {
		t.Errorf("history %q", rd.history)
	}
}

func TestEOFInsideStatementReportsIt(t *testing.T) {
	_, errOut, _ := runLines(t, "let y = [1,")
	if !strings.Contains(errOut, "unexpected end of input") {
		t.Errorf("stderr %q", errOut)
	}
}

// keepInterrupting sends an interrupt every 20 ms until stop closes.
func keepInterrupting(sigs chan<- os.Signal, stop <-chan struct{}) {
	for {
		select {
		case sigs <- os.Interrupt:
		case <-stop:
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestInterruptStopsRunningStatement(t *testing.T) {
	sigs := make(chan os.Signal)
	// (Not print(n > 0): the first interrupt may come before the loop's
	// first iteration.)
	rd := &fakeReader{lines: []string{"let n = 0", "while true { n = n + 1 }", "print(\"after\")"}}
	var out, errOut bytes.Buffer
	opts := testOptions(rd, &out, &errOut)
	opts.Interrupts = sigs
	// A second interrupt before the loop sees the first would exit: on a
	// loaded machine that can happen here, and is not what this tests.
	opts.Exit = func(int) {}
	stop := make(chan struct{})
	defer close(stop)
	go keepInterrupting(sigs, stop) // interrupts at the prompt are ignored
	runWithTimeout(t, opts)
	if out.String() != "after\n" || !strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
}

// TestExitEndsTheSession: exit(code) in an entry or a :load-ed file ends
// the session; Run returns the *interp.ExitError.
func TestExitEndsTheSession(t *testing.T) {
	script := filepath.Join(t.TempDir(), "x.gs")
	if err := os.WriteFile(script, []byte("print(\"loaded\")\nexit(5)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lines []string
		out   string
		code  int
	}{
		{[]string{"print(1)", "exit(3)", "print(2)"}, "1\n", 3},
		{[]string{":load " + script, "print(2)"}, "loaded\n", 5},
	} {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), testOptions(&fakeReader{lines: c.lines}, &out, &errOut))
		var xe *interp.ExitError
		if !errors.As(err, &xe) || xe.Code != c.code || out.String() != c.out || errOut.String() != "" {
			t.Errorf("%q: Run = %v, stdout %q, stderr %q", c.lines, err, out.String(), errOut.String())
		}
	}
}

func TestReadErrorIsReturned(t *testing.T) {
	boom := errors.New("boom")
	rd := &fakeReader{lines: []string{"1"}, err: boom}
	var out, errOut bytes.Buffer
	if err := Run(context.Background(), testOptions(rd, &out, &errOut)); !errors.Is(err, boom) {
		t.Errorf("Run = %v, want %v", err, boom)
	}
}

func TestPlainStdinHasNoPrompts(t *testing.T) {
	var out, errOut bytes.Buffer
	opts := Options{Interp: interp.Options{Device: "cpu", Predeclared: stdlib.Universe()},
		Stdin: strings.NewReader("let a = [\r\n1]\r\nlen(a)\r\nbad(\n"), Stdout: &out, Stderr: &errOut,
		Banner: "banner", Interrupts: make(chan os.Signal)}
	runWithTimeout(t, opts)
	if out.String() != "1\n" {
		t.Errorf("stdout %q", out.String())
	}
	if !strings.HasPrefix(errOut.String(), "<repl>:4:5: unexpected end of input") { // the input's fourth line
		t.Errorf("stderr %q", errOut.String())
	}
}

func TestMetaCommands(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "lib.gs")
	if err := os.WriteFile(script, []byte("let loaded = 7\nfn twice(x) { return 2 * x }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ := runLines(t,
		":help", ":vars", ":load "+script, "twice(loaded)", ":vars",
		"let big = zeros(10)", "let v = big[2:4]", "zeros(3)", ":mem",
		":time let t = 1 +", "2", "t", ":bogus", ":", ":load", ":reset", "loaded", ":d", ":quit", "print(\"not run\")")
	for _, want := range []string{
		":devices", ":time STMT", // help
		"NAME", "loaded  int   7", "twice", // vars
		"14\n", "time: ", "3\n",
		fakeDeviceTable, // :d = :devices
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "not run") {
		t.Errorf(":quit did not stop the session")
	}
	memRows := memLines(out)
	wantMem := map[string]string{"big,v": "[10]", "_": "[3]"}
	for name, shape := range wantMem {
		if !strings.Contains(memRows[name], shape) || !strings.Contains(memRows[name], "cpu") {
			t.Errorf(":mem row for %s = %q\n%s", name, memRows[name], out)
		}
	}
	for _, want := range []string{"unknown command :bogus", "ambiguous command :", "usage: :load FILE", "undefined: loaded"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestDevicesListing(t *testing.T) {
	rd := &fakeReader{lines: []string{":devices"}}
	var out, errOut bytes.Buffer
	opts := testOptions(rd, &out, &errOut)
	opts.Devices = nil
	runWithTimeout(t, opts)
	if out.String() != "" || !strings.Contains(errOut.String(), "no device listing is configured") {
		t.Errorf("without Options.Devices: stdout %q, stderr %q", out.String(), errOut.String())
	}
	rd = &fakeReader{lines: []string{":devices"}}
	out.Reset()
	errOut.Reset()
	opts = testOptions(rd, &out, &errOut)
	opts.Devices = func(io.Writer) error { return errors.New("no driver") }
	runWithTimeout(t, opts)
	if !strings.Contains(errOut.String(), "no driver") {
		t.Errorf("a failed listing: stderr %q", errOut.String())
	}
}

// memLines maps the NAME column of :mem's table to its row.
func memLines(out string) map[string]string {
	rows := map[string]string{}
	in := false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "NAME") && strings.Contains(line, "ALLOCATOR") {
			in = true
			continue
		}
		if f := strings.Fields(line); in && len(f) > 0 {
			rows[f[0]] = line
		}
	}
	return rows
}

func TestMatchNamesUnnamedBuffers(t *testing.T) {
	rd := &fakeReader{}
	var out, errOut bytes.Buffer
	s, err := newSession(testOptions(rd, &out, &errOut))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	s.exec(context.Background(), "let keep = [zeros(4), zeros(5)]\nlet named = zeros(5)")
	s.metaMem(context.Background(), "")
	rows := memLines(out.String())
	if !strings.Contains(rows["named"], "[5]") || !strings.Contains(out.String(), "3 arrays") {
		t.Errorf(":mem:\n%s", out.String())
	}
	if n := strings.Count(out.String(), "\n-  "); n != 2 {
		t.Errorf("%d unnamed rows, want 2:\n%s", n, out.String())
	}
}

func TestCompletion(t *testing.T) {
	rd := &fakeReader{}
	var out, errOut bytes.Buffer
	s, err := newSession(testOptions(rd, &out, &errOut))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	s.exec(context.Background(), "let xs = zeros(3)\nlet info = mem_info(\"cpu\")\nlet counter = 1\nstruct P { mass: f32, pos: vec3 }\nlet p = P()")
	cases := []struct {
		before string
		want   []string
		n      int
	}{
		{"xs.mem", []string{"ory_kind"}, 3},
		{"print(xs.sh", []string{"ape"}, 2},
		{"config.la", []string{"unch_access"}, 2},
		{"config.", []string{"allow_oversubscription", "allow_tf32", "debug", "fast_math", "launch_access", "prefetch"}, 0},
		{"info.us", []string{"ed_by_arrays"}, 2},
		{"counter.", nil, 0},
		{"p.ma", []string{"ss"}, 2},
		{"p.", []string{"mass", "pos"}, 0},
		{"con", []string{"catenate", "fig", "st", "tinue"}, 3},
		{"cou", []string{"nt_nonzero", "nter"}, 3},
		{"let y = ze", []string{"ro_grad", "ros"}, 2},
		{"ker", []string{"nel"}, 3},
		{"sha", []string{"red"}, 3},
		{"loc", []string{"al", "al_rank", "al_world_size"}, 3},
		{"blo", []string{"ck"}, 3},
		{"gri", []string{"d"}, 3},
		{"cdi", []string{"v"}, 3},
		{":he", []string{"lp"}, 3},
		{"  :r", []string{"eset"}, 2},
	}
	for _, c := range cases {
		got, n := s.complete(c.before, len(c.before))
		if !reflect.DeepEqual(got, c.want) || n != c.n {
			t.Errorf("complete(%q) = %q, %d; want %q, %d", c.before, got, n, c.want, c.n)
		}
	}
	// readline's adapter sees the whole line and the cursor.
	got, n := completer(s.complete).Do([]rune("xs.nd + 1"), 5)
	if len(got) != 1 || string(got[0]) != "im" || n != 2 {
		t.Errorf("Do = %q, %d", got, n)
	}
}

func TestHistoryFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	entries := []string{"let a = 1", "fn f() {\n  return \"q\\n\"\n}", `"quoted"`}
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(encodeHistory(e) + "\n")
	}
	b.WriteString("plain line\n\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	got := loadHistory(path)
	want := append(entries, "plain line")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %q, want %q", got, want)
	}
}

func TestPlainReader(t *testing.T) {
	r := NewPlainReader(strings.NewReader("a\r\nb\nlast"))
	var got []string
	for {
		line, err := r.Readline()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line)
	}
	if !reflect.DeepEqual(got, []string{"a", "b", "last"}) {
		t.Errorf("lines %q", got)
	}
}

// TestCaret: the caret's line comes from the entry holding the
// position's session line.
func TestCaret(t *testing.T) {
	entries := []entry{{1, "fn f() {\n  return 1 / 0\n}"}, {4, "let a = 1\n\tb + nope"}}
	if got := caret(entries, posAt(5, 6)); got != "  \tb + nope\n  \t    ^\n" {
		t.Errorf("caret %q", got)
	}
	if got := caret(entries, posAt(2, 12)); got != "    return 1 / 0\n             ^\n" {
		t.Errorf("caret in an earlier entry %q", got)
	}
	if caret(entries, posAt(7, 1)) != "" || caret(entries, ast.Pos{File: "x.gs", Line: 1, Col: 1}) != "" {
		t.Errorf("caret outside the entries")
	}
}

func posAt(line, col int) ast.Pos { return ast.Pos{File: entryFile, Line: line, Col: col} }

// A long entry is parsed once when its brackets close, not after every
// line (that was quadratic: 2000 lines took a minute).
func TestLongEntryIsLinear(t *testing.T) {
	lines := []string{"fn f() {", "  let a = 0"}
	for range 3000 {
		lines = append(lines, "  a = a + 1")
	}
	lines = append(lines, "  return a", "}", "f()")
	// Re-parsing the entry at every line was quadratic (a 2000-line entry
	// took 59 s; the harness times out at 20); following it line by line
	// is linear.
	out, errOut, _ := runLines(t, lines...)
	if out != "3000\n" || errOut != "" {
		t.Fatalf("stdout %q, stderr %q", out, errOut)
	}
	// Lines that end in an operator continue the statement without a
	// bracket open.
	chain := []string{"let b = 1 +"}
	for range 900 {
		chain = append(chain, "1 +")
	}
	out, errOut, _ = runLines(t, append(chain, "1", "print(b)")...)
	if out != "902\n" || errOut != "" {
		t.Fatalf("chain: stdout %q, stderr %q", out, errOut)
	}
}

// A statement stuck where cancellation is not polled (here a Go function)
// ignores the first interrupt; the second ends the process with 130.
func TestSecondInterruptExits(t *testing.T) {
	release := make(chan struct{})
	stuck, err := interp.Func("stuck", func() int { <-release; return 1 })
	if err != nil {
		t.Fatal(err)
	}
	sigs := make(chan os.Signal)
	rd := &fakeReader{lines: []string{"stuck()"}}
	var out, errOut bytes.Buffer
	opts := testOptions(rd, &out, &errOut)
	opts.Interp.Predeclared["stuck"] = stuck
	opts.Interrupts = sigs
	exited := make(chan int, 1)
	opts.Exit = func(code int) { exited <- code; close(release) }
	go keepInterrupting(sigs, release)
	runWithTimeout(t, opts)
	select {
	case code := <-exited:
		if code != ExitInterrupted || !strings.Contains(errOut.String(), "interrupted twice") {
			t.Errorf("exit %d, stderr %q", code, errOut.String())
		}
	default:
		t.Fatalf("no exit; stderr %q", errOut.String())
	}
}

// TestExplainShowsText: the REPL shows explain_access's text, not the
// record's fields; print and the fields still give the record.
func TestExplainShowsText(t *testing.T) {
	out, errOut, _ := runLines(t, "array x: f32[4]", `explain_access("cpu", x)`, `explain_access("cpu", x).accessible`)
	want := "cpu can access x, a HOST array on cpu. Rule: target is the owner: always accessible; here the array lives on cpu.\ntrue\n"
	if out != want || errOut != "" {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
}

// TestInKernelBody: completion knows whether the cursor is inside a
// kernel or func body from the braces of the entry so far.
func TestInKernelBody(t *testing.T) {
	for text, want := range map[string]bool{
		"":                                     false,
		"let x = ":                             false,
		"kernel k(x: array[f32]) {\n  x[0] = ": true,
		"kernel k(x: array[f32]) { if true { ": true,
		"func g(a: f32) -> f32 {\n  return ":   true,
		"kernel k() { }\nlet y = ":             false,
		"fn h() {\n  let z = ":                 false,
		"fn h() { kernel k() { ":               true,
		"kernel k() { let s = \"}\" ":          true,
		"kernel k() { // a } in a comment\n":   true,
		"let kernelish = 1 { ":                 false,
		"print(\"kernel k() {\") ":             false,
		"device \"cpu\" { ":                    false,
	} {
		if got := inKernelBody(text); got != want {
			t.Errorf("inKernelBody(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestKernelCompletion: inside a kernel body Tab offers the kernel
// builtins, keywords and the script's funcs, not host names.
func TestKernelCompletion(t *testing.T) {
	s, err := newSession(testOptions(&fakeReader{}, &bytes.Buffer{}, &bytes.Buffer{}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	s.exec(context.Background(), "func tiny(x: f32) -> f32 { return x }\nlet time_left = 3")
	s.setPending([]string{"kernel k(x: array[f32]) {"})
	if got, n := s.complete("  let i = ti", 0); !reflect.DeepEqual(got, []string{"d", "ny"}) || n != 2 {
		t.Errorf("in a kernel: ti<Tab> = %q, %d; want tid and tiny", got, n)
	}
	if got, _ := s.complete("  atomic_m", 0); !reflect.DeepEqual(got, []string{"ax", "in"}) {
		t.Errorf("in a kernel: atomic_m<Tab> = %q", got)
	}
	s.setPending(nil)
	if got, _ := s.complete("ti", 0); !reflect.DeepEqual(got, []string{"le", "me", "me_left", "ny"}) {
		t.Errorf("on the host: ti<Tab> = %q, want tile, time, time_left and tiny", got)
	}
}

// TestHelpCommand: :help NAME prints a builtin's doc entry through the
// predeclared help, as help(NAME) does.
func TestHelpCommand(t *testing.T) {
	out, errOut, _ := runLines(t, ":help zeros", "help(\"zeros\")", ":help nope", ":h")
	entry := "zeros(shape, dtype=f32, device=, allocator=)\n    a new array of zeros; shape is an int or a list of ints; dtype may be a vector type (vec3) or a struct\n"
	if !strings.HasPrefix(out, entry+entry+"Enter gscript statements") || !strings.Contains(out, ":help [NAME]") {
		t.Errorf("stdout %q", out)
	}
	if errOut != "help: no entry for nope (help() lists the builtins)\n" {
		t.Errorf("stderr %q", errOut)
	}
}

// TestSessionLinesRestart: past maxSessionLines the line numbers start
// again from 1 (each entry is parsed after a newline per earlier line).
func TestSessionLinesRestart(t *testing.T) {
	var out, errOut bytes.Buffer
	s, err := newSession(testOptions(&fakeReader{lines: []string{"let a = 1", "a + nope"}}, &out, &errOut))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	s.lines = maxSessionLines
	if err := s.loop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if errOut.String() != "<repl>:2:5: undefined: nope\n" {
		t.Errorf("stderr %q", errOut.String())
	}
}

// TestTryCatchCompletion: try and catch (host language v3) complete on
// the host, from syntax.Keywords, and not inside a kernel body, where
// they are a check error.
func TestTryCatchCompletion(t *testing.T) {
	s, err := newSession(testOptions(&fakeReader{}, &bytes.Buffer{}, &bytes.Buffer{}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if got, _ := s.complete("tr", 0); !slices.Contains(got, "y") {
		t.Errorf("tr<Tab> = %q, want try among them", got)
	}
	if got, _ := s.complete("} cat", 0); !slices.Contains(got, "ch") {
		t.Errorf("} cat<Tab> = %q, want catch among them", got)
	}
	s.setPending([]string{"kernel k(x: array[f32]) {"})
	if got, _ := s.complete("  tr", 0); slices.Contains(got, "y") {
		t.Errorf("in a kernel: tr<Tab> = %q, want no try", got)
	}
}

// TestMethodCompletion: after `NAME.` a list, a string and a dict offer
// their methods (interp.AttrNames, the values helper's method table).
func TestMethodCompletion(t *testing.T) {
	s, err := newSession(testOptions(&fakeReader{}, &bytes.Buffer{}, &bytes.Buffer{}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	s.exec(context.Background(), "let l = [1, 2]\nlet s = \"a b\"\nlet d = dict([[\"k\", 1]])")
	cases := []struct {
		before string
		want   []string
	}{
		{"l.app", []string{"end"}},
		{"l.re", []string{"move", "verse"}},
		{"s.sp", []string{"lit"}},
		{"s.st", []string{"artswith", "rip"}},
		{"d.it", []string{"ems"}},
		{"d.ke", []string{"ys"}},
	}
	for _, c := range cases {
		if got, _ := s.complete(c.before, 0); !reflect.DeepEqual(got, c.want) {
			t.Errorf("complete(%q) = %q, want %q", c.before, got, c.want)
		}
	}
}

// TestCompleteCell: Complete, for a notebook's cell, gives whole names
// and where the word starts, and reads the cell's earlier lines (a
// kernel body) as the REPL reads the unfinished entry.
func TestCompleteCell(t *testing.T) {
	in, err := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := in.ExecREPL(context.Background(), "<cell>", []byte("let xs = zeros(3)\nlet time_left = 1")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text   string
		cursor int
		want   []string
		start  int
	}{
		{"print(xs.sh", 11, []string{"shape"}, 9},
		{"let a = 1\nti", 12, []string{"tile", "time", "time_left"}, 10},
		{"kernel k(x: array[f32]) {\n    let i = ti", 40, []string{"tid"}, 38},
		{"xs.nd + 1", 5, []string{"ndim"}, 3},
		{"ti", 99, []string{"tile", "time", "time_left"}, 0},
	}
	for _, c := range cases {
		got, start := Complete(in, nil, c.text, c.cursor)
		if !reflect.DeepEqual(got, c.want) || start != c.start {
			t.Errorf("Complete(%q, %d) = %q, %d; want %q, %d", c.text, c.cursor, got, start, c.want, c.start)
		}
	}
}

// TestIncomplete: a cell needs more lines while a bracket or string is
// open or a statement is cut off, as a REPL entry does.
func TestIncomplete(t *testing.T) {
	for text, want := range map[string]bool{
		"let a = 1":                 false,
		"fn f() {\n    return 1":    true,
		"fn f() {\n    return 1\n}": false,
		"let s = \"abc":             true,
		"let a = 1 +":               true,
		":time for i in range(3) {": true,
		":time":                     false,
		"let a = )":                 false,
	} {
		if got := Incomplete(text); got != want {
			t.Errorf("Incomplete(%q) = %v, want %v", text, got, want)
		}
	}
}
