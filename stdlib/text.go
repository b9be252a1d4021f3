package stdlib

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Every writer checks the suffix of its path against the format it
// writes, so that save("a.csv", a) is an error that names the right
// builtin instead of a .csv file holding .npy bytes. Readers name the
// right builtin when their file is plainly of another format.
var (
	npySuffixes   = []string{".npy"}
	textSuffixes  = []string{".csv", ".tsv", ".txt", ".dat"}
	imageSuffixes = []string{".png"}
)

// checkSuffix refuses a path for fn unless it ends in one of want, and
// says which builtin writes (or reads) the format its suffix names.
func checkSuffix(fn, path string, want []string) error {
	if slices.Contains(want, strings.ToLower(filepath.Ext(path))) {
		return nil
	}
	alts := strings.Join(want, ", ")
	if n := len(want); n > 1 {
		alts = strings.Join(want[:n-1], ", ") + " or " + want[n-1]
	}
	return fmt.Errorf("%s %s: the name must end in %s%s", fn, path, alts, suffixHint(path))
}

// refuseSuffix refuses a path whose suffix names a format fn does not
// handle (what says what fn handles), though fn takes any other name.
func refuseSuffix(fn, path, what string, refused ...[]string) error {
	ext := strings.ToLower(filepath.Ext(path))
	for _, r := range refused {
		if slices.Contains(r, ext) {
			return fmt.Errorf("%s %s: %s handles %s, not %s files%s", fn, path, fn, what, ext, suffixHint(path))
		}
	}
	return nil
}

// suffixHint names the builtins of the format path's suffix names.
func suffixHint(path string) string {
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case slices.Contains(npySuffixes, ext):
		return "; save and load handle .npy files"
	case slices.Contains(textSuffixes, ext):
		return "; save_text and load_text handle text and CSV files"
	case slices.Contains(imageSuffixes, ext):
		return "; save_image writes PNG images"
	}
	return ""
}

// read_file(path) returns a file's contents as a string.
func readFile(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	path, err := pathArg(args, 0)
	if err != nil {
		return nil, err
	}
	s, err := readAll(th, path)
	if err != nil {
		return nil, fmt.Errorf("read_file %s: %w", path, err)
	}
	return th.NewString(s)
}

// readAll reads a regular file through the file access, checking its
// size against the string caps before reading it.
func readAll(th *interp.Thread, path string) (string, error) {
	f, err := th.Files().Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if err := th.CheckStringLen(int(min(st.Size(), 1<<40))); err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(int(st.Size()))
	// The size is checked again as the file is read: it may have grown.
	_, err = io.Copy(&b, io.LimitReader(f, interp.MaxStringBytes+1))
	if err == nil {
		err = th.CheckStringLen(b.Len())
	}
	return b.String(), err
}

// write_file(path, s) replaces a file with the string s, atomically
// (FileAccess.WriteFile).
func writeFile(th *interp.Thread, args *interp.Args) (interp.Value, error) {
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
	s, ok := args.Positional[1].(interp.String)
	if !ok {
		return nil, fmt.Errorf("write_file: the contents must be a string, not %s (str(x) or format make one)", args.Positional[1].Type())
	}
	if err := refuseSuffix("write_file", path, "strings", npySuffixes, imageSuffixes); err != nil {
		return nil, err
	}
	err = th.Files().WriteFile(path, sync, func(w io.Writer) error {
		_, err := io.WriteString(pollingWriter{th, w}, string(s))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("write_file %s: %w", path, err)
	}
	return interp.Nil, nil
}

// defaultDelimiter is the delimiter a text file's suffix implies: ","
// for .csv, a tab for .tsv, else "" (save_text writes one space;
// load_text splits at any run of spaces and tabs, as NumPy's loadtxt).
func defaultDelimiter(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return ","
	case ".tsv":
		return "\t"
	}
	return ""
}

// save_text(path, a, delimiter=, fmt=, header=, comments="# ") writes a 1-D
// array as one value per line or a 2-D array as one row per line, as
// NumPy's savetxt. Values are written as print writes them unless fmt= (a
// format with one verb) says otherwise; a header is written first, each
// of its lines after comments.
func saveText(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "delimiter", "fmt", "header", "comments", "sync"); err != nil {
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
	if err := checkSuffix("save_text", path, textSuffixes); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	if a.NDim() > 2 {
		return nil, fmt.Errorf("save_text: a text file holds a 1-D or 2-D array, not %d-D (reshape it, or save it as .npy)", a.NDim())
	}
	opts, err := textWriteOptions(args, path)
	if err != nil {
		return nil, err
	}
	err = th.Files().WriteFile(path, sync, func(w io.Writer) error {
		return writeText(th, bufio.NewWriter(pollingWriter{th, w}), a, opts)
	})
	runtime.KeepAlive(a) // its bytes are read in place
	if err != nil {
		return nil, fmt.Errorf("save_text %s: %w", path, err)
	}
	return interp.Nil, nil
}

// textOptions are save_text's keyword arguments.
type textOptions struct {
	delim, fmt, header, comments string
}

func textWriteOptions(args *interp.Args, path string) (textOptions, error) {
	var o textOptions
	var err error
	def := defaultDelimiter(path)
	if def == "" {
		def = " "
	}
	if o.delim, err = stringKwarg(args, "delimiter", def); err != nil {
		return o, err
	}
	if o.fmt, err = stringKwarg(args, "fmt", ""); err != nil {
		return o, err
	}
	if o.header, err = stringKwarg(args, "header", ""); err != nil {
		return o, err
	}
	o.comments, err = stringKwarg(args, "comments", "# ")
	return o, err
}

// writeText writes the header and the rows of a.
func writeText(th *interp.Thread, w *bufio.Writer, a *mem.Array, o textOptions) error {
	if o.header != "" {
		for _, line := range strings.Split(o.header, "\n") {
			w.WriteString(o.comments + line + "\n")
		}
	}
	cols := 1
	if a.NDim() == 2 {
		cols = a.Shape()[1]
	}
	var ferr error
	i := 0
	err := interp.ArrayElems(a, func(bits uint64) {
		if ferr != nil {
			return
		}
		if i%cols != 0 {
			w.WriteString(o.delim)
		}
		var s string
		if s, ferr = textElem(th, a.DType(), bits, o.fmt); ferr != nil {
			return
		}
		w.WriteString(s)
		if i++; i%cols == 0 {
			w.WriteByte('\n')
		}
	})
	if err == nil {
		err = ferr
	}
	if err == nil {
		err = w.Flush()
	}
	return err
}

// formatElem writes one array element as print does (shortest repr),
// for save_text without fmt=; bools as 1 and 0, which every CSV reader
// (and load_text) takes.
func formatElem(t ir.Type, bits uint64) string {
	if t == ir.Bool {
		return strconv.Itoa(int(bits & 1))
	}
	return interp.ConvertScalarBits(t, bits).String()
}

// textElem formats one element: with f (one verb) when given.
func textElem(th *interp.Thread, t ir.Type, bits uint64, f string) (string, error) {
	if f == "" {
		return formatElem(t, bits), nil
	}
	v := interp.ConvertScalarBits(t, bits)
	if t == ir.Bool {
		v = interp.Int(bits & 1)
	}
	s, err := formatValues(th, f, []interp.Value{v})
	if err != nil {
		return "", fmt.Errorf("fmt %q: %v", f, err)
	}
	return s, nil
}

// load_text(path, delimiter=, dtype=f32, skiprows=0, comments="#",
// device=, allocator=) reads a text or CSV file of numbers, as NumPy's
// loadtxt: blank lines and lines starting with comments are skipped, as
// are the first skiprows lines; one value per line gives a 1-D array,
// several a 2-D array of one row per line. Every row must have as many
// values as the first; errors name the line (and the column).
func loadText(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, "delimiter", "dtype", "skiprows", "comments", "device", "allocator"); err != nil {
		return nil, err
	}
	path, err := pathArg(args, 0)
	if err != nil {
		return nil, err
	}
	if err := refuseSuffix("load_text", path, "text", npySuffixes, imageSuffixes); err != nil {
		return nil, err
	}
	r, err := textReadOptions(args, path)
	if err != nil {
		return nil, err
	}
	f, err := th.Files().Open(path)
	if err != nil {
		return nil, fmt.Errorf("load_text %s: %w", path, err)
	}
	defer f.Close()
	bits, shape, err := r.read(th, bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("load_text %s: %w", path, err)
	}
	a, err := newArray(th, args, r.dtype, shape)
	if err != nil {
		return nil, err
	}
	err = a.WriteHost(func(b []byte) error {
		for i, v := range bits {
			mem.StoreBits(b, r.dtype, i, v)
		}
		return nil
	})
	if err != nil {
		a.Free()
		return nil, err
	}
	return &interp.Array{A: a}, nil
}

// textReader is load_text's options and its parse state.
type textReader struct {
	delim    string
	dtype    ir.Type
	skip     int
	comments string
	line     int // the line being read, from 1
	cols     int // values per row, from the first row
	colsAt   int // the line of the first row
}

func textReadOptions(args *interp.Args, path string) (*textReader, error) {
	r := &textReader{}
	var err error
	if r.delim, err = stringKwarg(args, "delimiter", defaultDelimiter(path)); err != nil {
		return nil, err
	}
	if r.dtype, err = dtypeArg(args, ir.F32); err != nil {
		return nil, err
	}
	if r.skip, err = intKwarg(args, "skiprows", 0); err != nil {
		return nil, err
	}
	if r.skip < 0 {
		return nil, fmt.Errorf("load_text: skiprows= must not be negative")
	}
	r.comments, err = stringKwarg(args, "comments", "#")
	return r, err
}

// read parses every data line into element bits and returns them with
// the array's shape. The values are counted against the memory limit as
// they accumulate (8 bytes each).
func (r *textReader) read(th *interp.Thread, br *bufio.Reader) ([]uint64, []int, error) {
	var bits []uint64
	rows := 0
	for {
		text, err := br.ReadString('\n')
		if text == "" && err != nil {
			if err != io.EOF {
				return nil, nil, err
			}
			break
		}
		r.line++
		if r.line%1024 == 0 && th.Canceled() {
			return nil, nil, errInterrupted
		}
		fields, ok := r.fields(text)
		if !ok {
			continue
		}
		held := cap(bits)
		if bits, err = r.row(bits, fields); err != nil {
			return nil, nil, err
		}
		if len(bits) > mem.MaxElems {
			return nil, nil, fmt.Errorf("line %d: more than %d values", r.line, mem.MaxElems)
		}
		if cap(bits) > held {
			if err := th.CheckHostBytes(8 * cap(bits)); err != nil {
				return nil, nil, fmt.Errorf("line %d: %w", r.line, err)
			}
		}
		rows++
	}
	if rows == 0 {
		return nil, nil, fmt.Errorf("no data (every line is blank, a comment or skipped)")
	}
	if r.cols == 1 {
		return bits, []int{rows}, nil
	}
	return bits, []int{rows, r.cols}, nil
}

// fields splits a line into its values; ok is false for a line that
// holds no data (skipped, blank or a comment).
func (r *textReader) fields(text string) ([]string, bool) {
	if r.line <= r.skip {
		return nil, false
	}
	text = strings.TrimRight(text, "\r\n")
	trimmed := strings.TrimSpace(text)
	if trimmed == "" || (r.comments != "" && strings.HasPrefix(trimmed, r.comments)) {
		return nil, false
	}
	if r.delim == "" {
		return strings.Fields(text), true
	}
	fs := strings.Split(text, r.delim)
	for i := range fs {
		fs[i] = strings.TrimSpace(fs[i])
	}
	return fs, true
}

// row parses one data line's fields onto bits.
func (r *textReader) row(bits []uint64, fields []string) ([]uint64, error) {
	if r.cols == 0 {
		r.cols, r.colsAt = len(fields), r.line
	} else if len(fields) != r.cols {
		return nil, fmt.Errorf("line %d: %s, but line %d has %d", r.line, plural(len(fields), "value"), r.colsAt, r.cols)
	}
	for i, s := range fields {
		b, err := parseElem(s, r.dtype)
		if err != nil {
			if _, nan := strconv.ParseFloat(s, 64); nan != nil && r.line == r.colsAt {
				err = fmt.Errorf("%v (a header line? skiprows=1 skips it)", err)
			}
			return nil, fmt.Errorf("line %d, column %d: %v", r.line, i+1, err)
		}
		bits = append(bits, b)
	}
	return bits, nil
}

// parseElem parses one value as dtype t: ints as ints (a float only when
// integral), floats as floats (inf and nan included), bools as 1, 0,
// true or false; out of range is an error, as for an array store.
func parseElem(s string, t ir.Type) (uint64, error) {
	if s == "" {
		return 0, fmt.Errorf("empty value")
	}
	var v interp.Value
	switch {
	case t == ir.Bool:
		switch strings.ToLower(s) {
		case "1", "true":
			return 1, nil
		case "0", "false":
			return 0, nil
		}
		return 0, fmt.Errorf("cannot parse %q as a bool (1, 0, true or false)", clip(s))
	case t.IsInt():
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			v = interp.Int(i)
		} else if u, err := strconv.ParseUint(s, 10, 64); err == nil && t == ir.U64 {
			return u, nil
		}
	}
	if v == nil {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("cannot parse %q as %s", clip(s), t)
		}
		v = interp.Float(f)
	}
	return interp.ElemBits(v, t)
}

// clip shortens a value quoted in an error: a line of a binary file
// should not fill the terminal.
func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
