package interp

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrNoFileAccess is the error of a file builtin (load, save, load_text,
// save_image, print's file= ...) whose access the embedding program did
// not grant (Options.Files).
var ErrNoFileAccess = errors.New("file access is not allowed in this interpreter")

// FileAccess is the file system that a script's file builtins may use:
// reading (Open) and writing (WriteFile, Append) each either not granted,
// granted to the whole file system, or rooted in a directory through
// os.Root, which refuses names and symbolic links that lead outside it. A nil
// *FileAccess grants nothing: every method returns ErrNoFileAccess.
//
// A FileAccess may serve many interpreters at once; Close it when none
// uses it any more.
type FileAccess struct {
	read, write fileSystem // nil: not granted
	roots       []*os.Root
}

// fileSystem is what the file builtins need: *os.Root has these methods,
// and osFiles gives the same over the whole file system.
type fileSystem interface {
	OpenFile(name string, flag int, perm os.FileMode) (*os.File, error)
	Stat(name string) (os.FileInfo, error)
	Lstat(name string) (os.FileInfo, error)
	Readlink(name string) (string, error)
	Rename(oldname, newname string) error
	Remove(name string) error
}

// osFiles is the whole file system, relative names from the working
// directory.
type osFiles struct{}

func (osFiles) OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (osFiles) Stat(name string) (os.FileInfo, error)  { return os.Stat(name) }
func (osFiles) Lstat(name string) (os.FileInfo, error) { return os.Lstat(name) }
func (osFiles) Readlink(name string) (string, error)   { return os.Readlink(name) }
func (osFiles) Rename(oldname, newname string) error   { return os.Rename(oldname, newname) }
func (osFiles) Remove(name string) error               { return os.Remove(name) }

// AllFiles grants reading and writing anywhere the process may, relative
// names from the working directory: the CLI's access, for scripts the user
// runs as themself.
func AllFiles() *FileAccess { return &FileAccess{read: osFiles{}, write: osFiles{}} }

// RootedFiles grants reading beneath readDir and writing beneath writeDir
// (the same directory or two; "" grants nothing in that direction). Script
// names are relative to the root ("out/a.npy"); absolute names, names with
// ".." above the root and symbolic links leading out of it are errors.
func RootedFiles(readDir, writeDir string) (*FileAccess, error) {
	fa := &FileAccess{}
	open := func(dir string) (fileSystem, error) {
		if dir == "" {
			return nil, nil
		}
		r, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		fa.roots = append(fa.roots, r)
		return r, nil
	}
	var err error
	if fa.read, err = open(readDir); err != nil {
		return nil, err
	}
	if writeDir == readDir && fa.read != nil {
		fa.write = fa.read
		return fa, nil
	}
	if fa.write, err = open(writeDir); err != nil {
		fa.Close()
		return nil, err
	}
	return fa, nil
}

// Close releases the directories of RootedFiles; later file access fails.
func (fa *FileAccess) Close() error {
	if fa == nil {
		return nil
	}
	var errs []error
	for _, r := range fa.roots {
		errs = append(errs, r.Close())
	}
	return errors.Join(errs...)
}

// Open opens a regular file for reading. Other files (FIFOs, devices,
// directories, sockets) are refused before they are opened, so that a
// FIFO cannot block the script; the opened file is checked again, through
// its descriptor, in case the name changed in between. Errors name the
// caller's name only and never say more about paths outside a root than
// that they are outside.
func (fa *FileAccess) Open(name string) (*os.File, error) {
	if fa == nil || fa.read == nil {
		return nil, ErrNoFileAccess
	}
	st, err := fa.read.Stat(name)
	if err != nil {
		return nil, pathless(err)
	}
	if err := regular(st); err != nil {
		return nil, err
	}
	// O_NONBLOCK: should a FIFO take the name's place after Stat, opening
	// it does not wait for a writer; the Stat below refuses it.
	f, err := fa.read.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, pathless(err)
	}
	if st, err = f.Stat(); err == nil {
		err = regular(st)
	}
	if err != nil {
		f.Close()
		return nil, pathless(err)
	}
	return f, nil
}

// WriteFile replaces the regular file name (creating it if need be) with
// what write writes, atomically: write fills a new file with a random
// name in the same directory, which is renamed over name. So name always
// holds either its old contents or one WriteFile's complete data,
// whatever fails and however many WriteFiles race; the last rename wins.
// With sync the new file is synced to the disk before the rename and the
// directory after it, so the replacement also survives a power loss;
// without, WriteFile returns once the data is in the page cache, as
// NumPy's save and Go's os.WriteFile do (the fsync of 1 GiB takes two
// thirds of the time on the H200 machine's disk). A symbolic link is written
// through (its target is replaced, the link stays); an existing file keeps
// its permission bits; names that are not regular files (devices, FIFOs,
// directories) are refused. Errors name name, never the temporary file.
func (fa *FileAccess) WriteFile(name string, sync bool, write func(w io.Writer) error) error {
	if fa == nil || fa.write == nil {
		return ErrNoFileAccess
	}
	fsys := fa.write
	target, err := resolve(fsys, name)
	if err != nil {
		return pathless(err)
	}
	perm := os.FileMode(0o666) // less the umask, as os.Create
	keep := false
	switch st, err := fsys.Lstat(target); {
	case err == nil:
		if err := regular(st); err != nil {
			return err
		}
		perm, keep = st.Mode().Perm(), true
	case !errors.Is(err, fs.ErrNotExist):
		return pathless(err)
	}
	tmp, f, err := createTemp(fsys, target, perm)
	if err != nil {
		return pathless(err)
	}
	err = fill(f, keep, perm, sync, write)
	if err == nil {
		err = fsys.Rename(tmp, target)
	}
	if err != nil {
		fsys.Remove(tmp)
		return pathless(err)
	}
	if !sync {
		return nil
	}
	return syncDir(fsys, filepath.Dir(target))
}

// Append adds data at the end of the regular file name, creating it if
// need be (print's file=): a log grows line by line, so it is not
// replaced as WriteFile replaces. Names that are not regular files are
// refused as Open refuses them, before and after opening (O_NONBLOCK: a
// FIFO swapped in does not block).
func (fa *FileAccess) Append(name string, data []byte) error {
	if fa == nil || fa.write == nil {
		return ErrNoFileAccess
	}
	switch st, err := fa.write.Stat(name); {
	case err == nil:
		if err := regular(st); err != nil {
			return err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return pathless(err)
	}
	f, err := fa.write.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, 0o666)
	if err != nil {
		return pathless(err)
	}
	st, err := f.Stat()
	if err == nil {
		err = regular(st)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return pathless(err)
}

// Preallocator is implemented by the writer WriteFile passes: a writer
// that knows how many bytes it is about to write (save's array data)
// calls Preallocate(n) first, so the file system reserves their blocks
// at once rather than block by block as the writes arrive. NumPy's save
// does the same (fallocate, keeping the size); on Linux it makes a 1 GiB
// write three times faster. It is a hint: errors (a file system without
// fallocate) are the caller's to ignore.
type Preallocator interface {
	Preallocate(n int64) error
}

// tempFile is the writer of WriteFile's temporary file.
type tempFile struct{ *os.File }

// Preallocate reserves n bytes from the current offset without changing
// the file's size.
func (f tempFile) Preallocate(n int64) error {
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	return preallocate(f.File, off, n)
}

// fill writes the temporary file: permission bits first (an existing
// file's mode, which the umask must not narrow), then the data, synced
// when sync is set.
func fill(f *os.File, keep bool, perm os.FileMode, sync bool, write func(w io.Writer) error) error {
	var err error
	if keep {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = write(tempFile{f})
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// createTemp makes a new file beside target with a random name, as
// os.CreateTemp does (which has no os.Root counterpart): O_EXCL, so a
// planted file or symbolic link under the name is never followed.
func createTemp(fsys fileSystem, target string, perm os.FileMode) (string, *os.File, error) {
	dir, base := filepath.Split(target)
	for range 100 {
		name := filepath.Join(dir, "."+base+"."+rand.Text()+".tmp")
		f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return name, f, err
		}
	}
	return "", nil, errors.New("cannot create a temporary file")
}

// syncDir makes a rename durable. File systems that cannot sync a
// directory say so with EINVAL or ENOTSUP; the rename stands.
func syncDir(fsys fileSystem, dir string) error {
	d, err := fsys.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return pathless(err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, errors.ErrUnsupported) {
		return pathless(err)
	}
	return nil
}

// maxLinks bounds symbolic links followed in one name, as Linux's 40.
const maxLinks = 40

// resolve follows symbolic links in every component of name, so that a
// rename replaces the file a link points to rather than the link. Each
// step goes through fsys, so under an os.Root a link out of the root is
// an error there. A final component that does not exist stays as it is
// (the file to create).
func resolve(fsys fileSystem, name string) (string, error) {
	done, todo := "", name
	if filepath.IsAbs(name) {
		done = string(filepath.Separator)
	}
	for links := 0; todo != ""; {
		comp, rest, _ := strings.Cut(todo, string(filepath.Separator))
		todo = rest
		if comp == "" || comp == "." {
			continue
		}
		next := filepath.Join(done, comp) // done has no links: ".." is lexical
		st, err := fsys.Lstat(next)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		if links++; links > maxLinks {
			return "", errors.New("too many levels of symbolic links")
		}
		link, err := fsys.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(link) {
			done = string(filepath.Separator)
		}
		todo = link + string(filepath.Separator) + todo
	}
	if done == "" {
		return ".", nil
	}
	return done, nil
}

// regular refuses files that are not regular, naming what they are.
func regular(st os.FileInfo) error {
	m := st.Mode()
	kind := "a special file"
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		kind = "a directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return fmt.Errorf("not a regular file: it is %s", kind)
}

// pathless drops the path from an *fs.PathError or *os.LinkError: the
// caller names the script's own path, which may differ from the one the
// operation used (a link's target, the temporary file).
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
