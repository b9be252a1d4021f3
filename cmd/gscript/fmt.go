package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gscript-lang/gscript/internal/diff"
	"github.com/gscript-lang/gscript/lang/format"
	"github.com/gscript-lang/gscript/lang/syntax"
)

const fmtUsage = `usage: gscript fmt [-w] [-d] [-l] [FILE | DIR ...]
  formats scripts in gscript's one layout (lang/format); without FILE it
  formats stdin to stdout. A DIR means every .gs file under it. A file in
  a testdata directory is a chunked script test: its chunks (between
  "---" lines) are formatted one by one, error markers kept on their
  code's line, and a chunk that does not parse is kept as written.
  -w  rewrite each file whose formatting differs (not stdin)
  -d  print a unified diff of each such file instead of the result
  -l  list the files whose formatting differs instead of the result
a file with syntax errors is left alone and its errors printed (status 1);
differences found by -l or -d are no error (status 0, as gofmt)
`

// fmtOptions are the flags of gscript fmt.
type fmtOptions struct {
	write, diff, list bool
	stdout, stderr    io.Writer
}

// fmtCommand is `gscript fmt`. Each file is formatted on its own: one
// that fails (syntax errors, an unreadable file) is reported and the rest
// go on, with status 1 at the end.
func fmtCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o := fmtOptions{stdout: stdout, stderr: stderr}
	fs := flag.NewFlagSet("gscript fmt", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&o.write, "w", false, "write")
	fs.BoolVar(&o.diff, "d", false, "diff")
	fs.BoolVar(&o.list, "l", false, "list")
	help := fs.Bool("h", false, "help")
	fs.BoolVar(help, "help", false, "help")
	if err := fs.Parse(args); err != nil {
		return usageError("fmt: %v", err)
	}
	if *help {
		_, err := fmt.Fprint(stdout, fmtUsage)
		return err
	}
	if fs.NArg() == 0 {
		if o.write {
			return usageError("fmt: -w needs a FILE or DIR: it cannot rewrite stdin")
		}
		return o.report(o.stdin(stdin))
	}
	failed := false
	for _, arg := range fs.Args() {
		if err := o.path(arg); err != nil {
			fmt.Fprintln(stderr, err)
			failed = true
		}
	}
	if failed {
		return &exitError{code: 1}
	}
	return nil
}

// report turns one input's error into the command's status.
func (o *fmtOptions) report(err error) error {
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	return nil
}

func (o *fmtOptions) stdin(r io.Reader) error {
	src, err := syntax.ReadSource(r)
	if err != nil {
		return fmt.Errorf("gscript: %w", err)
	}
	return o.file("<stdin>", src, format.Source)
}

// path formats a FILE, or every .gs file under a DIR (hidden directories
// skipped), going on after a file that fails.
func (o *fmtOptions) path(arg string) error {
	st, err := os.Stat(arg)
	if err != nil {
		return fmt.Errorf("gscript: %w", err)
	}
	if !st.IsDir() {
		return o.readFile(arg)
	}
	var errs []error
	err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("gscript: %w", err))
		case d.IsDir() && path != arg && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".gs"):
			if err := o.readFile(path); err != nil {
				errs = append(errs, err)
			}
		}
		return nil
	})
	return errors.Join(append(errs, err)...)
}

// readFile formats a file: a script, or a chunked script test where the
// file lies in a testdata directory (the tests read testdata/*.gs so).
func (o *fmtOptions) readFile(path string) error {
	src, err := syntax.ReadSourceFile(path)
	if err != nil {
		return fmt.Errorf("gscript: %w", err)
	}
	if filepath.Base(filepath.Dir(path)) == "testdata" {
		return o.file(path, src, format.Chunked)
	}
	return o.file(path, src, format.Source)
}

// file formats one script with layout, then prints, lists, diffs or
// rewrites it as the flags say.
func (o *fmtOptions) file(name string, src []byte, layout func(string, []byte) ([]byte, error)) error {
	out, err := layout(name, src)
	if err != nil {
		return err
	}
	same := bytes.Equal(src, out)
	if o.list && !same {
		fmt.Fprintln(o.stdout, name)
	}
	if o.diff && !same {
		o.stdout.Write(diff.Diff(name+".orig", src, name, out))
	}
	if o.write && !same {
		if err := writeAtomic(name, out); err != nil {
			return fmt.Errorf("gscript: %w", err)
		}
	}
	if !o.list && !o.diff && !o.write {
		_, err = o.stdout.Write(out)
	}
	return err
}

// writeAtomic replaces the file at path with data through a temporary
// file in its directory and a rename, so that a reader (or a crash) never
// sees half a script. The file keeps its permissions. A symbolic link is
// followed: the file it points to is rewritten (in its own directory, for
// the rename) and the link stays a link, as an editor's save leaves it.
func writeAtomic(path string, data []byte) error {
	path, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".fmt-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing to remove
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(st.Mode().Perm())
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
