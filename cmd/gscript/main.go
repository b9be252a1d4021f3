// Command gscript runs, checks and explores gscript scripts.
//
//	gscript                       start the interactive REPL (also: gscript repl)
//	gscript run FILE [ARGS...]    run a script, ARGS as argv (also: gscript FILE ARGS...; FILE - reads stdin)
//	gscript run -n N FILE ...     run it as N ranks (--nodes M --node-rank K --master HOST:PORT, --tag-output)
//	gscript check FILE            report every syntax, resolve and type error; run nothing
//	gscript cuda FILE [KERNEL]    print the CUDA C generated for the file's kernels
//	gscript fmt [-w|-d|-l] [PATH...] format scripts (stdin to stdout without PATH)
//	gscript lsp                   the language server, on stdin and stdout (editors start it)
//	gscript jupyter install|kernel the notebook kernel: write its kernelspec, or serve (Jupyter starts it)
//	gscript help [NAME|builtins]  usage, a builtin's signature and summary, or every builtin
//	gscript devices               list devices and their capabilities
//	gscript version               print the version (also --version)
//
// Flags: --device DEV, --launch-access MODE, -h/--help, --version; before
// FILE (what follows FILE is the script's), anywhere for other commands.
// Exit status: 0 success, 1 script error, 2 usage error, 130 interrupted
// by Ctrl-C, or the code of the script's exit(code). Scripts have the
// user's file access (interp.AllFiles) and environment (os.LookupEnv).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/interp/repl"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/runtime/dist"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// version is the gscript release.
const version = "0.1.0"

const usage = `usage:
  gscript [repl] [flags]             start the interactive REPL (statements line by line on a non-terminal stdin)
  gscript run [flags] FILE [ARGS...] run a script; argv is [FILE, ARGS...] (gscript FILE ARGS... works too;
                                     FILE - reads the script from stdin)
  gscript run -n N [--nodes M --node-rank K --master HOST:PORT] [--tag-output] FILE [ARGS...]
                                     run the script as N ranks on this host (ranks K*N to K*N+N-1 of M*N; node 0
                                     serves the ranks' store at --master); the first rank to fail stops the others
                                     and gives the exit status (docs/distributed.md)
  gscript check FILE                 report all syntax, resolve and type errors without running
  gscript cuda FILE [KERNEL]         print the CUDA C generated for the file's kernels (or one of them)
  gscript fmt [-w] [-d] [-l] [FILE | DIR ...]
                                     format scripts in the one layout, stdin to stdout without FILE; -w rewrites
                                     the files, -d prints diffs, -l lists the files that differ (gscript fmt -h)
  gscript lsp                        the language server (LSP 3.17 on stdin and stdout) that editors start
  gscript jupyter install [--user | --prefix DIR]
                                     write the Jupyter kernelspec (docs/notebooks.md)
  gscript jupyter kernel -f FILE     the notebook kernel, which Jupyter starts with a connection file
  gscript help [NAME | builtins]     this text; a builtin's signature and summary; every builtin
  gscript devices                    list devices and their capabilities
  gscript version                    print the version

flags (before FILE; what follows FILE is the script's):
  --device DEV                       default device: cpu, cuda, cuda:N
  --launch-access MODE               relaxed, checked (default) or strict
  -h, --help                         print this help
  --version                          print the version

exit status: 0 success, 1 script error, 2 usage error, 130 interrupted (Ctrl-C),
or the script's exit(code)
`

// exitError ends the command with a status and a message for stderr.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// gcPercent is the command's GOGC unless the environment sets one. A
// script's host heap is small (arrays live in device memory or in
// buffers counted apart), and at Go's default of 100 a loop that builds
// a list of 10^6 ints spends about 40% of its time in collections of a
// heap of a few MB (bench/host/append.gs: 0.17 s at 100, 0.10 s at 200,
// on the 2-core machine); 200 lets the heap grow to three times what is
// live before a collection. An embedding program keeps its own setting.
const gcPercent = 200

// run is main without the process: it returns the exit status.
func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := dispatch(argv, stdin, stdout, stderr)
	if err == nil {
		return 0
	}
	var ee *exitError
	var xe *interp.ExitError
	switch {
	case errors.As(err, &ee):
		if ee.msg != "" {
			fmt.Fprintln(stderr, ee.msg)
		}
		return ee.code
	case errors.As(err, &xe):
		return xe.Code // the script's own exit: nothing to report
	}
	fmt.Fprintln(stderr, err)
	return 1
}

// usageError is one line and a pointer to --help, not the whole usage,
// so that the error stays visible.
func usageError(format string, args ...any) error {
	return &exitError{code: 2, msg: "gscript: " + fmt.Sprintf(format, args...) + "\nrun 'gscript --help' for usage"}
}

type flags struct {
	device       string
	launchAccess string
	help         bool
	version      bool
	launch       launchFlags
}

// command is a parsed command line: the flags, the command and its
// arguments (for run, the script's path and then the script's own).
type command struct {
	flags
	name string
	args []string
}

// parseArgs reads flags up to the command, and for run (named or
// implied by a FILE) up to FILE: what follows FILE belongs to the
// script, as with python and go run. Other commands take flags anywhere.
func parseArgs(argv []string) (command, error) {
	var c command
	fs := flag.NewFlagSet("gscript", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.device, "device", "", "default device")
	fs.StringVar(&c.launchAccess, "launch-access", "", "launch access mode")
	fs.BoolVar(&c.help, "h", false, "help")
	fs.BoolVar(&c.help, "help", false, "help")
	fs.BoolVar(&c.version, "version", false, "version")
	fs.IntVar(&c.launch.nproc, "n", 0, "ranks")
	fs.IntVar(&c.launch.nodes, "nodes", 1, "nodes")
	fs.IntVar(&c.launch.nodeRank, "node-rank", 0, "node rank")
	fs.StringVar(&c.launch.master, "master", "", "node 0's store")
	fs.BoolVar(&c.launch.tagOutput, "tag-output", false, "tag lines with ranks")
	var pos []string
	for {
		if err := fs.Parse(argv); err != nil {
			return c, usageError("%v", err)
		}
		if argv = fs.Args(); len(argv) == 0 {
			break
		}
		pos, argv = append(pos, argv[0]), argv[1:]
		if len(pos) == 2 && pos[0] == "run" || len(pos) == 1 && isScript(pos[0]) {
			pos = append(pos, argv...) // FILE: the rest is the script's
			break
		}
		if len(pos) == 1 && (pos[0] == "fmt" || pos[0] == "lsp" || pos[0] == "jupyter") {
			pos = append(pos, argv...) // fmt has flags of its own (-w, -d, -l), lsp --stdio, jupyter its subcommand's
			break
		}
	}
	switch {
	case len(pos) > 0 && isScript(pos[0]):
		c.name, c.args = "run", pos
	case len(pos) > 0:
		c.name, c.args = pos[0], pos[1:]
	}
	return c, nil
}

var commands = []string{"repl", "run", "check", "cuda", "fmt", "lsp", "jupyter", "help", "devices", "version"}

// isScript reports whether a first argument names a script rather than
// a command: stdin, a .gs name, or an existing file.
func isScript(s string) bool {
	return !slices.Contains(commands, s) && (s == "-" || strings.HasSuffix(s, ".gs") || fileExists(s))
}

func dispatch(argv []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, err := parseArgs(argv)
	switch {
	case err != nil:
		return err
	case c.help:
		fmt.Fprint(stdout, usage)
		return nil
	case c.version:
		return printVersion(stdout)
	}
	if c.launch != (launchFlags{nodes: 1}) && (c.name != "run" || c.launch.nproc == 0) {
		return usageError("-n, --nodes, --node-rank, --master and --tag-output are flags of run -n N")
	}
	switch c.name {
	case "", "repl":
		if len(c.args) != 0 {
			return usageError("repl takes no arguments")
		}
		return runREPL(c.flags, stdin, stdout, stderr)
	case "run":
		if len(c.args) == 0 {
			return usageError("run takes a FILE")
		}
		if c.launch.nproc != 0 {
			return launch(c.flags, c.args, stdout, stderr)
		}
		return runFile(c.flags, c.args[0], c.args[1:], stdin, stdout, stderr)
	case "check":
		if len(c.args) != 1 {
			return usageError("check takes one FILE")
		}
		return checkFile(c.flags, c.args[0], stdin)
	case "cuda":
		if len(c.args) < 1 || len(c.args) > 2 {
			return usageError("cuda takes a FILE and, optionally, a KERNEL")
		}
		return printCUDA(c.args, stdin, stdout)
	case "fmt":
		return fmtCommand(c.args, stdin, stdout, stderr)
	case "lsp":
		return lspCommand(c.args, stdin, stdout)
	case "jupyter":
		return jupyterCommand(c.flags, c.args, stdout)
	case "help":
		return printHelp(c.args, stdout)
	case "devices":
		return writeDevices(stdout)
	case "version":
		return printVersion(stdout)
	}
	return usageError("unknown command %q", c.name)
}

func printVersion(w io.Writer) error {
	_, err := fmt.Fprintf(w, "gscript %s (%s %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}

// printHelp is `gscript help [NAME | builtins]`.
func printHelp(args []string, w io.Writer) error {
	switch {
	case len(args) == 0:
		_, err := fmt.Fprint(w, usage)
		return err
	case len(args) > 1:
		return usageError("help takes one NAME")
	case args[0] == "builtins":
		return stdlib.WriteIndex(w)
	}
	d, ok := stdlib.LookupDoc(args[0])
	if !ok {
		return usageError("no help for %q ('gscript help builtins' lists the builtins)", args[0])
	}
	return stdlib.WriteDoc(w, d)
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// startError reports a failure to make the interpreter: a flag that does
// not parse is a usage error (status 2); a device this machine does not
// have is not (status 1), and pointing to --help would not help.
func startError(f flags, err error) error {
	dev := f.device
	if dev == "cuda" {
		dev = "cuda:0"
	}
	if d, perr := mem.ParseDevice(dev); dev != "" && perr == nil && mem.CheckDevice(d) != nil {
		return &exitError{code: 1, msg: "gscript: " + err.Error()}
	}
	return usageError("%v", err)
}

// readScript reads a script file, or stdin for "-" (named <stdin> in
// positions).
func readScript(path string, stdin io.Reader) (name string, src []byte, err error) {
	if path == "-" {
		src, err = syntax.ReadSource(stdin)
		name = "<stdin>"
	} else {
		src, err = syntax.ReadSourceFile(path)
		name = path
	}
	if err != nil {
		return "", nil, &exitError{code: 1, msg: "gscript: " + err.Error()}
	}
	return name, src, nil
}

// interpOptions are the interpreter's options for the user's own
// scripts: the user's files and environment.
func interpOptions(f flags, stdout, stderr io.Writer) interp.Options {
	return interp.Options{
		Stdout: stdout, Stderr: stderr, Device: f.device, LaunchAccess: f.launchAccess,
		Predeclared: stdlib.Universe(), Files: interp.AllFiles(), Env: os.LookupEnv,
	}
}

// distFromEnv reads a launcher's variables (gscript run's, torchrun's,
// srun's, mpirun's): nil when the script runs alone.
func distFromEnv() (*dist.Config, error) {
	c, ok, err := dist.FromEnv(os.LookupEnv)
	if err != nil {
		return nil, &exitError{code: 1, msg: "gscript: distributed run: " + err.Error()}
	}
	if !ok {
		return nil, nil
	}
	return &c, nil
}

func checkFile(f flags, path string, stdin io.Reader) error {
	name, src, err := readScript(path, stdin)
	if err != nil {
		return err
	}
	in, err := interp.New(interpOptions(f, io.Discard, io.Discard))
	if err != nil {
		return startError(f, err)
	}
	defer in.Close()
	return in.Check(name, src)
}

// runFile runs a script with argv [path, args...]. A script interrupted
// by Ctrl-C ends with status 130 (the shell's 128 + SIGINT) after its
// error is printed.
func runFile(f flags, path string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	name, src, err := readScript(path, stdin)
	if err != nil {
		return err
	}
	opts := interpOptions(f, stdout, stderr)
	opts.Argv = append([]string{path}, args...)
	if opts.Dist, err = distFromEnv(); err != nil {
		return err
	}
	in, err := interp.New(opts)
	if err != nil {
		return startError(f, err)
	}
	defer in.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	var interrupted atomic.Bool
	go interrupts(sigs, func() { interrupted.Store(true); cancel() }, stderr, os.Exit)
	err = in.Exec(ctx, name, src)
	if err != nil && interrupted.Load() {
		return &exitError{code: repl.ExitInterrupted, msg: err.Error()}
	}
	return err
}

// interrupts handles Ctrl-C while a script runs: the first cancels it (it
// stops at its next step, with an error), a second exits at once, for a
// script stuck where cancellation is not polled.
func interrupts(sigs <-chan os.Signal, cancel func(), stderr io.Writer, exit func(int)) {
	<-sigs
	cancel()
	<-sigs
	fmt.Fprintln(stderr, "gscript: interrupted twice, exiting")
	exit(repl.ExitInterrupted)
}

// runREPL starts the REPL; it fails only when stdin cannot be read.
func runREPL(f flags, stdin io.Reader, stdout, stderr io.Writer) error {
	opts := interpOptions(f, nil, nil)
	// Bad flags are usage errors, as for run; the REPL would report them
	// as a failure to start.
	in, err := interp.New(opts)
	if err != nil {
		return startError(f, err)
	}
	in.Close()
	err = repl.Run(context.Background(), repl.Options{
		Interp: opts,
		Stdin:  stdin, Stdout: stdout, Stderr: stderr,
		HistoryFile: repl.DefaultHistoryFile(),
		Banner:      fmt.Sprintf("gscript %s: :help for commands, Ctrl-D to exit", version),
		Devices:     writeDevices,
	})
	var xe *interp.ExitError
	if err != nil && !errors.As(err, &xe) {
		return &exitError{code: 1, msg: "gscript: " + err.Error()}
	}
	return err // nil, or exit(code) in the session: its status
}
