package stdlib

import (
	"bufio"
	"fmt"
	"os"

	"github.com/gscript-lang/gscript/interp"
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

// load reads a .npy file into a new array: load(path, device=, allocator=).
func load(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, "device", "allocator"); err != nil {
		return nil, err
	}
	path, err := pathArg(args, 0)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load: %v", err)
	}
	defer f.Close()
	h, data, err := npy.Read(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("load %s: %v", path, err)
	}
	a, err := newArray(th, args, h.DType, h.Shape)
	if err != nil {
		return nil, err
	}
	if err := a.WriteHost(func(b []byte) error { copy(b, data); return nil }); err != nil {
		a.Free()
		return nil, err
	}
	return &interp.Array{A: a}, nil
}

// save writes an array as a .npy file: save(path, a). It writes a
// temporary file and renames it, so a failed save never leaves half a file.
func save(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	path, err := pathArg(args, 0)
	if err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	data, err := contiguousBytes(a)
	if err != nil {
		return nil, err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return nil, fmt.Errorf("save: %v", err)
	}
	w := bufio.NewWriter(f)
	err = npy.Write(w, npy.Header{DType: a.DType(), Shape: a.Shape()}, data)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("save %s: %v", path, err)
	}
	return interp.Nil, nil
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
