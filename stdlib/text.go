package stdlib

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
	buf, shape, err := r.read(th, bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("load_text %s: %w", path, err)
	}
	a, err := newArray(th, args, r.dtype, shape)
	if err != nil {
		return nil, err
	}
	if err := a.WriteHost(buf.copyTo); err != nil {
		a.Free()
		return nil, err
	}
	return &interp.Array{A: a}, nil
}

// textReader is load_text's options and its parse state. It streams: a
// line at a time from the reader's buffer, its fields as slices of the
// line, each value parsed straight into elems, so that the only memory in
// proportion to the file is the elements themselves (issue 26: holding
// the text, a string per field and 8 bytes per value peaked at 10x).
type textReader struct {
	delim    []byte
	dtype    ir.Type
	skip     int
	comments []byte
	line     int      // the line being read, from 1
	cols     int      // values per row, from the first row
	colsAt   int      // the line of the first row
	long     []byte   // a line longer than the reader's buffer, reused
	fieldBuf [][]byte // the current line's fields, reused
	elems    elemBuf
}

func textReadOptions(args *interp.Args, path string) (*textReader, error) {
	r := &textReader{}
	delim, err := stringKwarg(args, "delimiter", defaultDelimiter(path))
	if err != nil {
		return nil, err
	}
	r.delim = []byte(delim)
	if r.dtype, err = dtypeArg(args, ir.F32); err != nil {
		return nil, err
	}
	if r.skip, err = intKwarg(args, "skiprows", 0); err != nil {
		return nil, err
	}
	if r.skip < 0 {
		return nil, fmt.Errorf("load_text: skiprows= must not be negative")
	}
	comments, err := stringKwarg(args, "comments", "#")
	r.comments = []byte(comments)
	r.elems.t = r.dtype
	return r, err
}

// read parses every data line into r.elems and returns them with the
// array's shape. The elements are counted against the memory limit as
// they accumulate.
func (r *textReader) read(th *interp.Thread, br *bufio.Reader) (*elemBuf, []int, error) {
	rows := 0
	for {
		text, err := r.readLine(th, br)
		if len(text) == 0 && err != nil {
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
		if err := r.row(th, fields); err != nil {
			return nil, nil, err
		}
		rows++
	}
	if rows == 0 {
		return nil, nil, fmt.Errorf("no data (every line is blank, a comment or skipped)")
	}
	if r.cols == 1 {
		return &r.elems, []int{rows}, nil
	}
	return &r.elems, []int{rows, r.cols}, nil
}

// readLine returns the next line (with its newline, if any), valid until
// the next call: a slice of br's buffer, or of r.long for a line that
// does not fit in it.
func (r *textReader) readLine(th *interp.Thread, br *bufio.Reader) ([]byte, error) {
	text, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return text, err
	}
	r.long = append(r.long[:0], text...)
	for err == bufio.ErrBufferFull {
		text, err = br.ReadSlice('\n')
		r.long = append(r.long, text...)
		if cerr := th.CheckHostBytes(cap(r.long)); cerr != nil {
			return nil, fmt.Errorf("line %d: %w", r.line+1, cerr)
		}
	}
	return r.long, err
}

// fields splits a line into its values; ok is false for a line that
// holds no data (skipped, blank or a comment). The fields are slices of
// text, valid until the next line.
func (r *textReader) fields(text []byte) ([][]byte, bool) {
	if r.line <= r.skip {
		return nil, false
	}
	text = bytes.TrimRight(text, "\r\n")
	trimmed := bytes.TrimSpace(text)
	if len(trimmed) == 0 || (len(r.comments) > 0 && bytes.HasPrefix(trimmed, r.comments)) {
		return nil, false
	}
	fs := r.fieldBuf[:0]
	if len(r.delim) == 0 {
		fs = appendFields(fs, text)
	} else {
		for {
			i := bytes.Index(text, r.delim)
			if i < 0 {
				break
			}
			fs = append(fs, bytes.TrimSpace(text[:i]))
			text = text[i+len(r.delim):]
		}
		fs = append(fs, bytes.TrimSpace(text))
	}
	r.fieldBuf = fs
	return fs, true
}

// appendFields appends the runs of non-space characters of s, as
// strings.Fields splits.
func appendFields(dst [][]byte, s []byte) [][]byte {
	start := -1
	for i := 0; i < len(s); {
		c, n := rune(s[i]), 1
		if c >= utf8.RuneSelf {
			c, n = utf8.DecodeRune(s[i:])
		}
		switch space := unicode.IsSpace(c); {
		case space && start >= 0:
			dst, start = append(dst, s[start:i]), -1
		case !space && start < 0:
			start = i
		}
		i += n
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// row parses one data line's fields onto r.elems.
func (r *textReader) row(th *interp.Thread, fields [][]byte) error {
	if r.cols == 0 {
		r.cols, r.colsAt = len(fields), r.line
	} else if len(fields) != r.cols {
		return fmt.Errorf("line %d: %s, but line %d has %d", r.line, plural(len(fields), "value"), r.colsAt, r.cols)
	}
	if r.elems.n+len(fields) > mem.MaxElems {
		return fmt.Errorf("line %d: more than %d values", r.line, mem.MaxElems)
	}
	for i, s := range fields {
		b, err := parseElem(s, r.dtype)
		if err != nil {
			if _, nan := strconv.ParseFloat(string(s), 64); nan != nil && r.line == r.colsAt {
				err = fmt.Errorf("%v (a header line? skiprows=1 skips it)", err)
			}
			return fmt.Errorf("line %d, column %d: %v", r.line, i+1, err)
		}
		if err := r.elems.add(th, b); err != nil {
			return fmt.Errorf("line %d: %w", r.line, err)
		}
	}
	return nil
}

// elemBuf accumulates elements of type t in chunks that double up to
// maxElemChunk bytes: it grows without copying what it holds, so it
// never needs more than its elements and one part-filled chunk.
type elemBuf struct {
	t      ir.Type
	chunks [][]byte // full chunks, then the one being filled
	used   int      // elements in the last chunk
	n      int      // elements in all
	held   int      // bytes of all chunks, counted against the limit
}

const (
	minElemChunk = 4 << 10
	maxElemChunk = 1 << 20
)

// add appends one element's bits.
func (e *elemBuf) add(th *interp.Thread, bits uint64) error {
	size := e.t.Size()
	if len(e.chunks) == 0 || (e.used+1)*size > len(e.chunks[len(e.chunks)-1]) {
		n := minElemChunk
		if len(e.chunks) > 0 {
			n = min(2*len(e.chunks[len(e.chunks)-1]), maxElemChunk)
		}
		if err := th.CheckHostBytes(e.held + n); err != nil {
			return err
		}
		e.chunks, e.used, e.held = append(e.chunks, make([]byte, n)), 0, e.held+n
	}
	mem.StoreBits(e.chunks[len(e.chunks)-1], e.t, e.used, bits)
	e.used++
	e.n++
	return nil
}

// copyTo copies the elements, in order, into b (the array's bytes).
func (e *elemBuf) copyTo(b []byte) error {
	off := 0
	for i, c := range e.chunks {
		if i == len(e.chunks)-1 {
			c = c[:e.used*e.t.Size()]
		}
		off += copy(b[off:], c)
	}
	return nil
}

// parseElem parses one value as dtype t: ints as ints (a float only when
// integral), floats as floats (inf and nan included), bools as 1, 0,
// true or false; out of range is an error, as for an array store. It
// takes the field's bytes and converts them to a string only in calls
// that keep nothing, and a value that fits t skips interp.ElemBits (whose
// boxed argument would cost an allocation per value): a value costs none.
func parseElem(s []byte, t ir.Type) (uint64, error) {
	if len(s) == 0 {
		return 0, fmt.Errorf("empty value")
	}
	switch {
	case t == ir.Bool:
		switch {
		case string(s) == "1" || lowerIs(s, "true"):
			return 1, nil
		case string(s) == "0" || lowerIs(s, "false"):
			return 0, nil
		}
		return 0, fmt.Errorf("cannot parse %q as a bool (1, 0, true or false)", clip(string(s)))
	case t.IsInt():
		if i, err := strconv.ParseInt(string(s), 10, 64); err == nil {
			if b, ok := intBits(i, t); ok {
				return b, nil
			}
			return interp.ElemBits(interp.Int(i), t)
		} else if u, err := strconv.ParseUint(string(s), 10, 64); err == nil && t == ir.U64 {
			return u, nil
		}
	}
	f, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		return 0, fmt.Errorf("cannot parse %q as %s", clip(string(s)), t)
	}
	if b := ir.FromFloat(f, t); t == ir.F64 || t == ir.F32 && (math.IsInf(f, 0) || !isInf32(b)) {
		return b, nil
	}
	return interp.ElemBits(interp.Float(f), t) // an int dtype, or beyond f32: its error
}

// intBits is the element bits of i as int type t, if it fits (as
// interp.ElemBits stores it: zero-extended).
func intBits(i int64, t ir.Type) (uint64, bool) {
	var ok bool
	switch t {
	case ir.U8:
		ok = i >= 0 && i <= math.MaxUint8
	case ir.I32:
		ok = i >= math.MinInt32 && i <= math.MaxInt32
	case ir.U32:
		ok = i >= 0 && i <= math.MaxUint32
	case ir.I64:
		ok = true
	case ir.U64:
		ok = i >= 0
	}
	if t.Size() < 8 {
		return uint64(i) & (1<<(8*t.Size()) - 1), ok
	}
	return uint64(i), ok
}

// isInf32 reports whether f32 bits b are an infinity.
func isInf32(b uint64) bool { return math.IsInf(float64(math.Float32frombits(uint32(b))), 0) }

// lowerIs reports whether s lowercased is word, a lowercase ASCII word
// (as strings.ToLower(s) == word: no other letter lowercases to one of
// word's).
func lowerIs(s []byte, word string) bool {
	if len(s) != len(word) {
		return false
	}
	for i := range s {
		if c := s[i]; c != word[i] && c != word[i]-'a'+'A' {
			return false
		}
	}
	return true
}

// clip shortens a value quoted in an error: a line of a binary file
// should not fill the terminal.
func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
