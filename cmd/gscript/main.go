// Command gscript runs, checks and explores gscript scripts.
//
//	gscript               start the interactive REPL (also: gscript repl)
//	gscript run FILE      run a script (also: gscript FILE; gscript - reads stdin)
//	gscript check FILE    report every syntax, resolve and type error; run nothing
//	gscript devices       list devices and their capabilities
//	gscript version       print the version
//
// Flags (before or after the command): --device DEV, --launch-access MODE.
// Exit status: 0 success, 1 script error, 2 usage error, 130 when a second
// Ctrl-C ends a running script (the first interrupts it). Scripts have the
// user's file access (interp.AllFiles).
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
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/interp/repl"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/stdlib"
)

// version is the gscript release.
const version = "0.1.0"

const usage = `usage:
  gscript [repl] [flags]      start the interactive REPL (statements line by line on a non-terminal stdin)
  gscript run [flags] FILE    run a script (gscript FILE works too; FILE - reads stdin)
  gscript check FILE          report all syntax, resolve and type errors without running
  gscript devices             list devices and their capabilities
  gscript version             print the version

flags:
  --device DEV                default device: cpu, cuda, cuda:N
  --launch-access MODE        relaxed, checked (default) or strict
`

type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := dispatch(argv, stdin, stdout, stderr)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, ee.msg)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, err)
	return 1
}

func usageError(format string, args ...any) error {
	return &exitError{code: 2, msg: "gscript: " + fmt.Sprintf(format, args...) + "\n" + usage}
}

type flags struct {
	device       string
	launchAccess string
}

// parseFlags accepts flags anywhere among the arguments.
func parseFlags(argv []string) (flags, []string, error) {
	var f flags
	fs := flag.NewFlagSet("gscript", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.device, "device", "", "default device")
	fs.StringVar(&f.launchAccess, "launch-access", "", "launch access mode")
	var rest []string
	for {
		if err := fs.Parse(argv); err != nil {
			return f, nil, usageError("%v", err)
		}
		argv = fs.Args()
		if len(argv) == 0 {
			return f, rest, nil
		}
		rest = append(rest, argv[0])
		argv = argv[1:]
	}
}

func dispatch(argv []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f, args, err := parseFlags(argv)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return runREPL(f, stdin, stdout, stderr)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "repl":
		if len(rest) != 0 {
			return usageError("repl takes no arguments")
		}
		return runREPL(f, stdin, stdout, stderr)
	case "run", "check":
		if len(rest) != 1 {
			return usageError("%s takes one FILE", cmd)
		}
		return runFile(f, cmd == "check", rest[0], stdin, stdout, stderr)
	case "devices":
		return writeDevices(stdout)
	case "version":
		fmt.Fprintf(stdout, "gscript %s (%s %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	if cmd == "-" || strings.HasSuffix(cmd, ".gs") || fileExists(cmd) {
		if len(rest) != 0 {
			return usageError("unexpected arguments after %s", cmd)
		}
		return runFile(f, false, cmd, stdin, stdout, stderr)
	}
	return usageError("unknown command %q", cmd)
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

func runFile(f flags, checkOnly bool, path string, stdin io.Reader, stdout, stderr io.Writer) error {
	var src []byte
	var err error
	name := path
	if path == "-" {
		name = "<stdin>"
		src, err = syntax.ReadSource(stdin)
	} else {
		src, err = syntax.ReadSourceFile(path)
	}
	if err != nil {
		return &exitError{code: 1, msg: "gscript: " + err.Error()}
	}
	in, err := interp.New(interp.Options{
		Stdout: stdout, Stderr: stderr, Device: f.device, LaunchAccess: f.launchAccess,
		Predeclared: stdlib.Universe(), Files: interp.AllFiles(),
	})
	if err != nil {
		return usageError("%v", err)
	}
	defer in.Close()
	if checkOnly {
		return in.Check(name, src)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go interrupts(sigs, cancel, stderr, os.Exit)
	return in.Exec(ctx, name, src)
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
	opts := interp.Options{Device: f.device, LaunchAccess: f.launchAccess, Predeclared: stdlib.Universe(),
		Files: interp.AllFiles()}
	// Bad flags are usage errors, as for run; the REPL would report them
	// as a failure to start.
	in, err := interp.New(opts)
	if err != nil {
		return usageError("%v", err)
	}
	in.Close()
	err = repl.Run(context.Background(), repl.Options{
		Interp: opts,
		Stdin:  stdin, Stdout: stdout, Stderr: stderr,
		HistoryFile: repl.DefaultHistoryFile(),
		Banner:      fmt.Sprintf("gscript %s: :help for commands, Ctrl-D to exit", version),
		Devices:     writeDevices,
	})
	if err != nil {
		return &exitError{code: 1, msg: "gscript: " + err.Error()}
	}
	return nil
}
