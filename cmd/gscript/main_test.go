package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/runtime/mem"
)

func gscript(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeScript(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.gs")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunAndExitCodes(t *testing.T) {
	ok := writeScript(t, "print(1 + 2)\n")
	for _, args := range [][]string{{"run", ok}, {ok}, {"--device", "cpu", "run", ok}, {"run", "--launch-access", "strict", ok}, {"check", ok, "--device", "cpu"}} {
		code, out, errOut := gscript(t, "", args...)
		if args[0] == "check" {
			out = "3\n" // check runs nothing
		}
		if code != 0 || out != "3\n" || errOut != "" {
			t.Errorf("gscript %v = %d, %q, %q", args, code, out, errOut)
		}
	}
	code, out, _ := gscript(t, "print(\"stdin\")\n", "-")
	if code != 0 || out != "stdin\n" {
		t.Errorf("gscript - = %d %q", code, out)
	}
}

func TestScriptErrorsGoToStderr(t *testing.T) {
	bad := writeScript(t, "fn f(x) {\n  return x / 0\n}\nprint(\"before\")\nf(1)\n")
	code, out, errOut := gscript(t, "", "run", bad)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if out != "before\n" {
		t.Errorf("stdout %q", out)
	}
	want := bad + ":2:12: integer division by zero\n  in f (" + bad + ":5:2)\n"
	if errOut != want {
		t.Errorf("stderr\n%q\nwant\n%q", errOut, want)
	}
	if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, ".go:") {
		t.Errorf("stderr shows a Go stack trace: %s", errOut)
	}
}

func TestCheckReportsAllErrorsAndRunsNothing(t *testing.T) {
	src := "print(\"ran\")\nprint(a)\nkernel k(x: array[f32]) {\n  x[0] = 1.5 + f64(2)\n}\nprint(b)\n"
	path := writeScript(t, src)
	code, out, errOut := gscript(t, "", "check", path)
	if code != 1 || out != "" {
		t.Fatalf("check: exit %d, stdout %q", code, out)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], path+":2:7: undefined: a") ||
		!strings.HasPrefix(lines[1], path+":4:") || !strings.HasPrefix(lines[2], path+":6:7: undefined: b") {
		t.Errorf("check output:\n%s", errOut)
	}
	good := writeScript(t, "print(\"ran\")\n")
	if code, out, _ := gscript(t, "", "check", good); code != 0 || out != "" {
		t.Errorf("check of a good script: exit %d, stdout %q", code, out)
	}
}

// TestUsageErrors: a usage error is one line and a pointer to --help on
// stderr, status 2.
func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"frobnicate"}, {"run"}, {"repl", "x.gs"}, {"check"}, {"check", "a.gs", "b.gs"},
		{"--bogus-flag", "run", "x.gs"}, {"cuda"}, {"help", "a", "b"}, {"help", "nope"}} {
		code, out, errOut := gscript(t, "", args...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if code != 2 || out != "" || len(lines) != 2 || !strings.HasPrefix(lines[0], "gscript: ") || lines[1] != "run 'gscript --help' for usage" {
			t.Errorf("gscript %v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	ok := writeScript(t, "print(1)\n")
	if code, _, errOut := gscript(t, "", "--launch-access", "loose", "run", ok); code != 2 || !strings.Contains(errOut, "launch_access") {
		t.Errorf("bad --launch-access: exit %d, %q", code, errOut)
	}
	if code, _, errOut := gscript(t, "", "repl", "--device", "tpu"); code != 2 || !strings.Contains(errOut, `invalid device "tpu"`) {
		t.Errorf("repl with a bad device: exit %d, %q", code, errOut)
	}
	if code, _, errOut := gscript(t, "", "run", "/nonexistent/x.gs"); code != 1 || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing file: exit %d, %q", code, errOut)
	}
	// A device this machine lacks is no usage error: one line, status 1.
	if mem.CUDADeviceCount() == 0 {
		code, _, errOut := gscript(t, "", "--device", "cuda", "run", ok)
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "cuda:0 is not available") {
			t.Errorf("--device cuda without CUDA: exit %d, %q", code, errOut)
		}
	}
}

// TestHelpAndVersion: -h, --help and help print the usage to stdout with
// status 0; --version and version print the version.
func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-help"}, {"help"}, {"run", "--help"}, {"check", "x.gs", "-h"}} {
		code, out, errOut := gscript(t, "", args...)
		if code != 0 || out != usage || errOut != "" {
			t.Errorf("gscript %v: exit %d, stdout %.40q, stderr %q", args, code, out, errOut)
		}
	}
	for _, args := range [][]string{{"--version"}, {"version"}, {"--version", "run", "x.gs"}} {
		if code, out, _ := gscript(t, "", args...); code != 0 || !strings.HasPrefix(out, "gscript "+version+" (go") {
			t.Errorf("gscript %v: exit %d, %q", args, code, out)
		}
	}
}

// TestHelpCommand: gscript help NAME prints a builtin's doc entry, help
// builtins every entry, from the one table (stdlib.Docs).
func TestHelpCommand(t *testing.T) {
	code, out, _ := gscript(t, "", "help", "save_image")
	if code != 0 || !strings.HasPrefix(out, `save_image("x.png", a, cmap="viridis", vmin=, vmax=)`+"\n    write a 2-D array") {
		t.Errorf("help save_image: %d %q", code, out)
	}
	if code, out, _ := gscript(t, "", "help", "tid"); code != 0 || !strings.Contains(out, "(kernels only)") {
		t.Errorf("help tid: %d %q", code, out)
	}
	code, out, _ = gscript(t, "", "help", "builtins")
	if code != 0 || !strings.HasPrefix(out, "output and conversions:\n") || !strings.Contains(out, "\n  zeros ") {
		t.Errorf("help builtins: %d %q", code, out)
	}
}

// TestScriptArguments: what follows FILE is the script's argv, flags
// included; argv[0] is FILE as given.
func TestScriptArguments(t *testing.T) {
	p := writeScript(t, "print(argv)\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", p}, `["` + p + `"]`},
		{[]string{"run", p, "a", "-n", "3"}, `["` + p + `", "a", "-n", "3"]`},
		{[]string{"--device", "cpu", p, "--device", "x"}, `["` + p + `", "--device", "x"]`},
		{[]string{"run", "--device", "cpu", p, "--help"}, `["` + p + `", "--help"]`},
		{[]string{"-", "x"}, `["-", "x"]`},
	} {
		code, out, errOut := gscript(t, "print(argv)\n", c.args...)
		if code != 0 || out != c.want+"\n" {
			t.Errorf("gscript %v: exit %d, %q, %q; want %s", c.args, code, out, errOut, c.want)
		}
	}
}

// TestStdinScript: gscript - runs stdin as one script named <stdin>: it
// stops at the first run-time error with status 1, and compile errors
// stop it before anything runs.
func TestStdinScript(t *testing.T) {
	code, out, errOut := gscript(t, "print(\"a\")\nprint(1 / 0)\nprint(\"b\")\n", "-")
	if code != 1 || out != "a\n" || errOut != "<stdin>:2:9: integer division by zero\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = gscript(t, "print(\"a\")\nprint(nope)\n", "-")
	if code != 1 || out != "" || errOut != "<stdin>:2:7: undefined: nope\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestExitStatus: exit(code) ends the script with that status and no
// message; the REPL exits with it too.
func TestExitStatus(t *testing.T) {
	for src, want := range map[string]int{"print(1)\nexit(7)\nprint(2)\n": 7, "exit()\n": 0, "exit(0)\nprint(2)\n": 0} {
		code, out, errOut := gscript(t, "", "run", writeScript(t, src))
		if code != want || errOut != "" || strings.Contains(out, "2") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d", src, code, out, errOut, want)
		}
	}
	if code, out, _ := gscript(t, "print(1)\nexit(4)\nprint(2)\n", "repl"); code != 4 || out != "1\n" {
		t.Errorf("repl exit(4): %d %q", code, out)
	}
}

// TestEnvIsTheProcesss: the CLI grants the process's environment.
func TestEnvIsTheProcesss(t *testing.T) {
	t.Setenv("GSCRIPT_TEST_VAR", "hello")
	code, out, errOut := gscript(t, `print(env("GSCRIPT_TEST_VAR"), env("GSCRIPT_TEST_UNSET", 3))`, "-")
	if code != 0 || out != "hello 3\n" {
		t.Errorf("exit %d, %q, %q", code, out, errOut)
	}
}

// TestCUDACommand: gscript cuda prints the generated CUDA C of every
// kernel, or of one, without a GPU.
func TestCUDACommand(t *testing.T) {
	p := writeScript(t, "kernel a(x: array[f32]) { x[tid()] = 1.0 }\nkernel b(y: array[i32, 2], s: i32) {\n  let i, j = tid()\n  y[i, j] = s\n}\n")
	code, out, errOut := gscript(t, "", "cuda", p)
	if code != 0 || strings.Count(out, `extern "C" __global__ void`) != 2 || !strings.HasPrefix(out, "// kernel a ("+p+":1:1), entry gs_a\n") ||
		!strings.Contains(out, "// kernel b ("+p+":2:1)") {
		t.Errorf("cuda FILE: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	code, out, _ = gscript(t, "", "cuda", p, "b")
	if code != 0 || strings.Count(out, `extern "C" __global__ void __launch_bounds__(256, 4) gs_b(`) != 1 || strings.Contains(out, "kernel a") {
		t.Errorf("cuda FILE b: exit %d, stdout:\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cuda", p, "c"}, "gscript: " + p + " has no kernel c (its kernels: a, b)\n"},
		{[]string{"cuda", writeScript(t, "print(1)\n")}, "declares no kernel\n"},
		{[]string{"cuda", writeScript(t, "kernel k(x: array[f32]) { x[0] = 1 + true }\n")}, ":1:"},
	} {
		if code, _, errOut := gscript(t, "", c.args...); code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("gscript %v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}

func TestVersionAndDevices(t *testing.T) {
	if code, out, _ := gscript(t, "", "version"); code != 0 || !strings.HasPrefix(out, "gscript "+version) {
		t.Errorf("version: %d %q", code, out)
	}
	code, table, _ := gscript(t, "", "devices")
	if code != 0 || !strings.Contains(table, "cpu") {
		t.Errorf("devices: %d %q", code, table)
	}
	// The cpu's BLAS: OpenBLAS with its build, or gonum and why not OpenBLAS.
	if !regexp.MustCompile(`\ncpu matmul: (OpenBLAS \(libopenblas\.so\.0: OpenBLAS \d|gonum \(pure Go; )`).MatchString(table) {
		t.Errorf("devices does not name the cpu's BLAS:\n%s", table)
	}
	// The REPL gets the same table through repl.Options.Devices.
	if code, out, errOut := gscript(t, ":devices\n", "repl"); code != 0 || out != table {
		t.Errorf("repl :devices: %d %q %q, want %q", code, out, errOut, table)
	}
}

// With a non-terminal stdin the REPL runs statements line by line: no
// prompts, values printed, errors reported without stopping, exit status 0.
func TestREPLOnStdin(t *testing.T) {
	in := "let a = [1,\n2]\nlen(a)\nnope\nprint(\"still here\")\n:vars\n"
	for _, args := range [][]string{{}, {"repl"}, {"--device", "cpu", "repl"}} {
		code, out, errOut := gscript(t, in, args...)
		if code != 0 || !strings.HasPrefix(out, "2\nstill here\nNAME") || !strings.Contains(out, "a     list  [1, 2]") {
			t.Errorf("gscript %v: exit %d, stdout %q", args, code, out)
		}
		if errOut != "<repl>:4:1: undefined: nope\n" { // the input's fourth line
			t.Errorf("gscript %v: stderr %q", args, errOut)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestREPLReadErrorExitsNonZero(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"repl"}, failingReader{}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "disk on fire") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestSecondInterruptExits: the first Ctrl-C cancels the script, a second
// one exits with status 130.
func TestSecondInterruptExits(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	canceled, exited := make(chan bool, 1), make(chan int, 1)
	var stderr bytes.Buffer
	go interrupts(sigs, func() { canceled <- true }, &stderr, func(code int) { exited <- code })
	sigs <- os.Interrupt
	<-canceled
	select {
	case code := <-exited:
		t.Fatalf("exited with %d after one interrupt", code)
	default:
	}
	sigs <- os.Interrupt
	if code := <-exited; code != 130 {
		t.Fatalf("exit status %d, want 130", code)
	}
}

// goTool skips a test that builds the command when the go tool is not on
// PATH: the GPU machine runs this package's test binary without Go.
func goTool(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH: the tests of the built command skip")
	}
}

// buildCommand builds the command into dir and returns its path.
func buildCommand(t *testing.T, dir string) string {
	t.Helper()
	goTool(t)
	bin := filepath.Join(dir, "gscript")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestInterruptSubprocess runs the built command on an endless loop and
// interrupts it once: the script ends with the interrupted error and
// status 130, the process is not killed. (Whether a second SIGINT comes before the
// script has stopped is a race here; TestSecondInterruptExits covers it.)
func TestInterruptSubprocess(t *testing.T) {
	bin := buildCommand(t, t.TempDir())
	script := filepath.Join(t.TempDir(), "loop.gs")
	if err := os.WriteFile(script, []byte("print(\"ready\")\nwhile true { }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--device", "cpu", script)
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "loop.gs:2:") || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("exit status %d (%v), stderr %q; want 130 and the positioned interrupted error", code, err, stderr.String())
	}
}

// TestRunGrantsFiles: scripts the user runs have the user's file access.
func TestRunGrantsFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.npy")
	code, out, stderr := gscript(t, "", "run", "--device", "cpu", writeScript(t, `save("`+p+`", full(2, 3.0))
print(load("`+p+`"))`))
	if code != 0 || out != "[3.0, 3.0]\n" {
		t.Fatalf("status %d, out %q, stderr %q", code, out, stderr)
	}
}

// zeros reads as an endless stream of zero bytes, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Endless input (`gscript - < /dev/zero`, `gscript repl < /dev/zero`, a
// script file that is a device) is read only up to the source limit and
// fails with an error, instead of filling memory.
func TestEndlessInputIsBounded(t *testing.T) {
	for _, args := range [][]string{{"-"}, {"repl"}} {
		var out, errOut bytes.Buffer
		code := run(args, zeros{}, &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), "MaxSourceBytes") {
			t.Errorf("gscript %v: exit %d, stderr %.200q", args, code, errOut.String())
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		var out, errOut bytes.Buffer
		if code := run([]string{"run", "/dev/zero"}, strings.NewReader(""), &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "/dev/zero:") {
			t.Errorf("run /dev/zero: exit %d, stderr %.200q", code, errOut.String())
		}
		code := run([]string{"repl"}, strings.NewReader(":load /dev/zero\nprint(\"after\")\n"), &out, &errOut)
		if code != 0 || !strings.Contains(out.String(), "after") || !strings.Contains(errOut.String(), "MaxSourceBytes") {
			t.Errorf("repl :load /dev/zero: exit %d, stdout %q, stderr %.200q", code, out.String(), errOut.String())
		}
	}
}
