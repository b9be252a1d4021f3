package stdlib

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/npy"
)

func pathArg(args *interp.Args, i int) (string, error) {
	s, ok := args.Positional[i].(interp.String)
	if !ok {
		return "", fmt.Errorf("%s: the path must be a string, not %s", args.Fn, args.Positional[i].Type())
	}
	return string(s), nil
}

// ioChunk is how many bytes load and save move between polls of
// cancellation: large enough to run at the disk's speed, small enough
// that Ctrl-C or a deadline ends a large transfer promptly.
const ioChunk = 8 << 20

// errInterrupted is the interpreter's, which try does not catch.
var errInterrupted = interp.ErrInterrupted

// load reads a .npy file into a new array: load(path, dtype=, device=,
// allocator=). dtype= names the element type the data must have: a
// vector type reads its lanes from the file's trailing axes (an (n, 3)
// float32 file as vec3[n]), a struct type a file of records with exactly
// its layout (matchRecord).
// The header's shape is checked against the file's size and allocated
// (against the memory limit, without zero-filling: the data overwrites it)
// before any data is read, and the data is read straight into the array's
// memory.
func load(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, placement...); err != nil {
		return nil, err
	}
	path, err := pathArg(args, 0)
	if err != nil {
		return nil, err
	}
	if err := refuseSuffix("load", path, ".npy files", textSuffixes, imageSuffixes); err != nil {
		return nil, err
	}
	f, err := th.Files().Open(path)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	h, l, err := readHeader(f, r)
	if err != nil {
		return nil, fmt.Errorf("load %s: %v", path, err)
	}
	t, err := elemTypeArg(args, dtype.Of(h.DType))
	if err != nil {
		return nil, err
	}
	if err := matchRecord(h, t); err != nil {
		return nil, fmt.Errorf("load %s: %v", path, err)
	}
	shape, err := npy.ElemShape(h, t)
	if err != nil {
		return nil, fmt.Errorf("load %s: %v", path, err)
	}
	x, err := th.NewTyped(t, shape, args.Kwarg("device"), args.Kwarg("allocator"), false)
	if err != nil {
		return nil, err
	}
	if err := readData(th, r, x.A, l); err != nil {
		x.A.Free()
		return nil, fmt.Errorf("load %s: %v", path, err)
	}
	return x, nil
}

// matchRecord checks a file of records against dtype= t: it must name a
// struct with exactly the records' layout (there are no anonymous struct
// types to make one from the file), and a struct needs such a file.
func matchRecord(h npy.Header, t dtype.Type) error {
	switch {
	case h.Record != nil && t.Kind != dtype.StructKind:
		return fmt.Errorf(".npy holds records %s; load it with dtype= a struct of those fields", h.Record)
	case h.Record != nil:
		return h.Record.MatchStruct(t.St)
	case t.Kind == dtype.StructKind:
		return fmt.Errorf(".npy holds %s data, not records; dtype=%s needs a structured dtype %s", h.DType, t, npy.RecordOf(t.St))
	}
	return nil
}

// readHeader reads f's header through r and checks that f is long enough
// for the data it announces.
func readHeader(f *os.File, r io.Reader) (npy.Header, npy.Layout, error) {
	st, err := f.Stat()
	if err != nil {
		return npy.Header{}, npy.Layout{}, err
	}
	h, l, err := npy.ReadHeader(r)
	if err == nil {
		err = npy.CheckSize(h, l, st.Size())
	}
	return h, l, err
}

// readData fills a (new, C-contiguous) with the file's data. Fortran-order
// data is read into a host array first, counted against the memory limit
// like any array, and reordered from there.
func readData(th *interp.Thread, r io.Reader, a *mem.Array, l npy.Layout) error {
	if !l.Fortran || a.NDim() == 1 {
		return readInto(th, r, a, l)
	}
	tmp, err := th.NewArrayUninit(a.DType(), a.Shape(), interp.String("cpu"), nil)
	if err != nil {
		return err
	}
	defer tmp.Free()
	if err := readInto(th, r, tmp, l); err != nil {
		return err
	}
	src, err := tmp.HostBytes()
	if err != nil {
		return err
	}
	return a.WriteHost(func(b []byte) error {
		npy.FortranToC(b, src, a.Shape(), a.DType().Size())
		return nil
	})
}

// readInto reads a's bytes from r in file order, a chunk at a time
// (mem.StagingChunk), polling cancellation between chunks: into a's own
// memory where the host reaches it, else through staging buffers whose
// copies to the device overlap the reading (mem.Array.WriteStream), so no
// copy of the whole array is ever made.
func readInto(th *interp.Thread, r io.Reader, a *mem.Array, l npy.Layout) error {
	size := a.DType().Size()
	return a.WriteStream(func(b []byte) error {
		if th.Canceled() {
			return errInterrupted
		}
		if _, err := io.ReadFull(r, b); err != nil {
			return readError(err)
		}
		l.Decode(b, size)
		return nil
	})
}

// readError explains an end of file the size check did not foresee.
func readError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("npy: data truncated (the file shrank while it was read)")
	}
	return fmt.Errorf("npy: reading data: %w", err)
}

// save writes an array as a .npy file: save(path, a, sync=false), through
// FileAccess.WriteFile, so the file is replaced atomically or not at all,
// and with sync=true also durably (synced to the disk before save
// returns). An array of a compound type saves as its lanes: vec3[n] as
// an (n, 3) float32 array; an array of a struct as records (npy.Record).
func save(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "sync"); err != nil {
		return nil, err
	}
	sync, err := boolArg(args, "sync", false)
	if err != nil {
		return nil, err
	}
	path, err := pathArg(args, 0)
	if err != nil {
		return nil, err
	}
	if err := checkSuffix("save", path, npySuffixes); err != nil {
		return nil, err
	}
	x, err := anyArrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	a := x.A
	h := npy.Header{DType: a.DType(), Shape: a.Shape()}
	if x.Elem.Kind == dtype.StructKind {
		h.Record = npy.RecordOf(x.Elem.St)
	}
	err = th.Files().WriteFile(path, sync, func(w io.Writer) error {
		return writeArray(pollingWriter{th, w}, h, a)
	})
	// The bytes written may be a's own memory: a (perhaps made only for
	// this call) must not be collected, and its memory freed, under the
	// write.
	runtime.KeepAlive(a)
	if err != nil {
		return nil, fmt.Errorf("save %s: %w", path, err)
	}
	return interp.Nil, nil
}

// writeArray writes a as a .npy file: a contiguous array straight from
// its memory, or through staging buffers whose copies from the device
// overlap the writing (mem.Array.ReadStream); a strided view gathered
// into C order first.
func writeArray(w io.Writer, h npy.Header, a *mem.Array) error {
	if !a.IsContiguous() {
		data, err := contiguousBytes(a)
		if err != nil {
			return err
		}
		return npy.Write(w, h, data)
	}
	if err := npy.WriteHeader(w, h); err != nil {
		return err
	}
	if p, ok := w.(interp.Preallocator); ok {
		_ = p.Preallocate(int64(a.NBytes())) // a hint: without it the writes allocate as they go
	}
	return a.ReadStream(func(b []byte) error {
		_, err := w.Write(b)
		return err
	})
}

// pollingWriter writes ioChunk bytes at a time and stops when the run is
// cancelled between them.
type pollingWriter struct {
	th *interp.Thread
	w  io.Writer
}

// Preallocate passes the hint on to a writer that takes it.
func (p pollingWriter) Preallocate(n int64) error {
	if q, ok := p.w.(interp.Preallocator); ok {
		return q.Preallocate(n)
	}
	return errors.ErrUnsupported
}

func (p pollingWriter) Write(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		if p.th.Canceled() {
			return n, errInterrupted
		}
		m, err := p.w.Write(b[n:min(len(b), n+ioChunk)])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// contiguousBytes returns a's elements in C order.
func contiguousBytes(a *mem.Array) ([]byte, error) {
	b, err := a.ReadHost()
	if err != nil {
		return nil, err
	}
	if a.IsContiguous() {
		return b[:a.NBytes()], nil
	}
	out := make([]byte, a.NBytes())
	i := 0
	err = interp.ArrayElems(a, func(bits uint64) {
		mem.StoreBits(out, a.DType(), i, bits)
		i++
	})
	return out, err
}
