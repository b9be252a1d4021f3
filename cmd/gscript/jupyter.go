package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/tools/jupyter"
)

// jupyterCommand is `gscript jupyter install [--user | --prefix DIR]`,
// which writes the kernelspec, and `gscript jupyter kernel -f FILE`, the
// kernel Jupyter starts with a connection file (docs/notebooks.md).
func jupyterCommand(f flags, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return usageError("jupyter takes install [--user | --prefix DIR] or kernel -f FILE")
	}
	fs := flag.NewFlagSet("jupyter "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	switch args[0] {
	case "install":
		fs.Bool("user", true, "install for this user (the default)")
		prefix := fs.String("prefix", "", "install under DIR/share/jupyter")
		if err := fs.Parse(args[1:]); err != nil || fs.NArg() != 0 {
			return usageError("jupyter install takes --user or --prefix DIR")
		}
		return installSpec(f, *prefix, stdout)
	case "kernel":
		file := fs.String("f", "", "the connection file")
		if err := fs.Parse(args[1:]); err != nil || fs.NArg() != 0 || *file == "" {
			return usageError("jupyter kernel takes -f CONNECTION_FILE")
		}
		return runKernel(f, *file)
	}
	return usageError("unknown jupyter command %q (install or kernel)", args[0])
}

// installSpec writes the kernelspec running this executable, with the
// --device and --launch-access flags given to install.
func installSpec(f flags, prefix string, stdout io.Writer) error {
	dir, err := jupyter.SpecDir(prefix)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return err
	}
	var kflags []string
	if f.device != "" {
		kflags = append(kflags, "--device", f.device)
	}
	if f.launchAccess != "" {
		kflags = append(kflags, "--launch-access", f.launchAccess)
	}
	if err := jupyter.InstallSpec(dir, exe, kflags); err != nil {
		return &exitError{code: 1, msg: "gscript: jupyter install: " + err.Error()}
	}
	fmt.Fprintf(stdout, "installed the gscript kernel in %s\n", dir)
	return nil
}

// runKernel serves a kernel until its shutdown_request.
func runKernel(f flags, file string) error {
	info, err := jupyter.ReadConnectionFile(file)
	if err != nil {
		return &exitError{code: 1, msg: "gscript: " + err.Error()}
	}
	opts := interpOptions(f, nil, nil)
	in, err := interp.New(opts) // bad flags are usage errors, as for run
	if err != nil {
		return startError(f, err)
	}
	in.Close()
	if err := jupyter.Serve(context.Background(), info, jupyter.Options{Interp: opts, Version: version}); err != nil {
		return &exitError{code: 1, msg: "gscript: jupyter kernel: " + err.Error()}
	}
	return nil
}
