// Command gscript runs, checks and explores gscript scripts.
//
//	gscript run FILE      run a script (also: gscript FILE; gscript - reads stdin)
//	gscript check FILE    report every syntax, resolve and type error; run nothing
//	gscript devices       list devices and their capabilities
//	gscript version       print the version
//
// Flags (before or after the command): --device DEV, --launch-access MODE.
// Exit status: 0 success, 1 script error, 2 usage error.
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
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// version is the gscript release.
const version = "0.1.0"

const usage = `usage:
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
		return usageError("no command (the interactive REPL is not yet supported: use gscript run FILE)")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run", "check":
		if len(rest) != 1 {
			return usageError("%s takes one FILE", cmd)
		}
		return runFile(f, cmd == "check", rest[0], stdin, stdout, stderr)
	case "devices":
		return listDevices(stdout)
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
		src, err = io.ReadAll(stdin)
	} else {
		src, err = os.ReadFile(path)
	}
	if err != nil {
		return &exitError{code: 1, msg: "gscript: " + err.Error()}
	}
	in, err := interp.New(interp.Options{
		Stdout: stdout, Stderr: stderr, Device: f.device, LaunchAccess: f.launchAccess,
		Predeclared: stdlib.Universe(),
	})
	if err != nil {
		return usageError("%v", err)
	}
	defer in.Close()
	if checkOnly {
		return in.Check(name, src)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return in.Exec(ctx, name, src)
}

func listDevices(stdout io.Writer) error {
	caps := []string{"managed", "concurrent", "pageable", "host_page_tables", "direct_host", "host_atomics", "pools", "unified"}
	fmt.Fprintf(stdout, "%-8s %-26s %-4s %-5s %-9s %-13s %s\n", "DEVICE", "NAME", "CC", "SMs", "MEMORY", "PARADIGM", strings.Join(caps, " "))
	for _, name := range stdlib.DeviceNames() {
		dev, err := mem.ParseDevice(name)
		if err != nil {
			return err
		}
		r, err := stdlib.DeviceInfo(dev)
		if err != nil {
			fmt.Fprintf(stdout, "%-8s %v\n", name, err)
			continue
		}
		get := func(n string) interp.Value { v, _ := r.Get(n); return v }
		if !dev.IsCUDA() {
			fmt.Fprintf(stdout, "%-8s %-26s %-4s %-5d %-9s %-13s %s\n", name, fmt.Sprintf("cpu (%d cores)", runtime.NumCPU()), "-", 0, gib(get("total_memory")), "host", "-")
			continue
		}
		var flags []string
		for i, n := range []string{"managed_memory", "concurrent_managed_access", "pageable_memory_access",
			"pageable_memory_access_uses_host_page_tables", "direct_managed_mem_access_from_host",
			"host_native_atomic_supported", "memory_pools_supported", "unified_addressing"} {
			flags = append(flags, fmt.Sprintf("%*s", len(caps[i]), get(n)))
		}
		fmt.Fprintf(stdout, "%-8s %-26s %-4s %-5s %-9s %-13s %s\n", name, get("name"), get("compute_capability"),
			get("multiprocessor_count"), gib(get("total_memory")), get("paradigm"), strings.Join(flags, " "))
	}
	if n := mem.CUDADeviceCount(); n == 0 {
		if _, err := mem.CUDADriver(); err != nil {
			fmt.Fprintf(stdout, "(no CUDA devices: %v)\n", err)
		}
	}
	return nil
}

func gib(v interp.Value) string {
	n, ok := v.(interp.Int)
	if !ok {
		return "?"
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
