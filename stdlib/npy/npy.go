package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Header describes an array in a .npy file.
type Header struct {
	DType ir.Type
	Shape []int
	// Record is the structured dtype of a file of records (record.go):
	// DType is then u8 and Shape ends with an axis of Record.Size bytes,
	// as gscript holds an array of structs.
	Record *Record
}

const (
	magic = "\x93NUMPY"
	// arrayAlign is NumPy's ARRAY_ALIGN: the data starts on a multiple of it.
	arrayAlign = 64
	// growthAxisMaxDigits is NumPy's GROWTH_AXIS_MAX_DIGITS: writers leave
	// room after the dict so the first axis can grow in place. We pad the
	// same way so our files are byte-identical to np.save's.
	growthAxisMaxDigits = 21
	// maxDims is gscript's largest array rank (runtime/mem.MaxDims).
	maxDims = 4
	// maxElems matches runtime/mem's shape rule (mem.MaxElems bounds the
	// element count and each extent): anything larger could never become a
	// gscript array, so we refuse it before reading data.
	maxElems = 1 << 47
	// maxHeaderLen bounds the header we are willing to read. NumPy's own
	// default limit is 10000 bytes; a header for a supported dtype and at
	// most 4 dimensions is under 200 bytes.
	maxHeaderLen = 1 << 16
	// readChunk is the first allocation for data; buffers grow as bytes
	// actually arrive, so a lying shape costs no more than the file holds.
	readChunk = 1 << 20
)

// Write writes an array in .npy format version 1.0 (2.0 when the header needs it): elements in C order,
// little-endian. data holds the C-contiguous elements (len = product(shape) * dtype size).
func Write(w io.Writer, h Header, data []byte) error {
	descr, n, err := checkWrite(h)
	if err != nil {
		return err
	}
	if want := n * int64(h.DType.Size()); int64(len(data)) != want {
		return fmt.Errorf("npy: %v%s needs %d bytes of data, got %d", h.DType, shapeString(h.Shape), want, len(data))
	}
	if err := writeHeader(w, h, descr); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	return nil
}

// WriteHeader writes the magic, version and header of a .npy file for h;
// h.NBytes() bytes of C-ordered little-endian elements must follow (a
// caller streaming them from device memory).
func WriteHeader(w io.Writer, h Header) error {
	descr, _, err := checkWrite(h)
	if err != nil {
		return err
	}
	return writeHeader(w, h, descr)
}

// checkWrite checks that h can be written: its dtype's descr and element
// count.
func checkWrite(h Header) (string, int64, error) {
	descr, ok := descrs[h.DType]
	if !ok {
		return "", 0, fmt.Errorf("npy: cannot write dtype %v", h.DType)
	}
	n, err := checkShape(h.Shape)
	if err != nil {
		return "", 0, fmt.Errorf("npy: %w", err)
	}
	descr = "'" + descr + "'"
	if h.Record != nil {
		if nd := len(h.Shape); h.DType != ir.U8 || nd < 2 || h.Shape[nd-1] != h.Record.Size {
			return "", 0, fmt.Errorf("npy: records of %d bytes need u8 data with a last axis of that many bytes, got %v%s", h.Record.Size, h.DType, shapeString(h.Shape))
		}
		descr = h.Record.String()
	}
	return descr, n, nil
}

// writeHeader writes the header of an array of the shape (with a
// record's byte axis, which the file's shape does not count) whose
// descr literal is descr.
func writeHeader(w io.Writer, h Header, descr string) error {
	shape := h.Shape
	if h.Record != nil {
		shape = shape[:len(shape)-1]
	}
	prefix, err := wrapHeader(headerDict(descr, shape))
	if err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	if _, err := w.Write(prefix); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	return nil
}

// headerDict formats the dict (descr a literal) as NumPy does: keys sorted, repr'd values,
// a trailing ", " before '}', then the growth padding.
func headerDict(descr string, shape []int) string {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		tuple = "(" + dims[0] + ",)"
	}
	s := "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + tuple + ", }"
	if len(shape) > 0 {
		s += strings.Repeat(" ", max(0, growthAxisMaxDigits-len(dims[0])))
	}
	return s
}

// wrapHeader adds magic, version, length and the space+newline padding
// that aligns the data to arrayAlign. Like NumPy, it uses version 1.0 when
// the length fits in 16 bits and 2.0 otherwise.
func wrapHeader(dict string) ([]byte, error) {
	hlen := len(dict) + 1 // the final '\n'
	lenSize, major := 2, byte(1)
	pad := arrayAlign - (len(magic)+2+lenSize+hlen)%arrayAlign
	if hlen+pad > 0xffff {
		lenSize, major = 4, 2
		pad = arrayAlign - (len(magic)+2+lenSize+hlen)%arrayAlign
	}
	total := hlen + pad
	if int64(total) > 0xffffffff {
		return nil, fmt.Errorf("header of %d bytes is too long", total)
	}
	var b bytes.Buffer
	b.WriteString(magic)
	b.WriteByte(major)
	b.WriteByte(0)
	if lenSize == 2 {
		b.Write(binary.LittleEndian.AppendUint16(nil, uint16(total)))
	} else {
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(total)))
	}
	b.WriteString(dict)
	b.WriteString(strings.Repeat(" ", pad))
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// checkShape validates a gscript shape and returns its element count.
func checkShape(shape []int) (int64, error) {
	switch {
	case len(shape) == 0:
		return 0, errors.New("0-d arrays are not supported: gscript arrays have 1 to 4 dimensions")
	case len(shape) > maxDims:
		return 0, fmt.Errorf("arrays with %d dimensions are not supported: gscript arrays have 1 to 4 dimensions",
			len(shape))
	}
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension %d in shape %s", d, shapeString(shape))
		}
		if int64(d) > maxElems || d != 0 && n > maxElems/int64(d) { // each extent too, as runtime/mem
			return 0, fmt.Errorf("shape %s is too large (more than 2^47 elements)", shapeString(shape))
		}
		n *= int64(d)
	}
	return n, nil
}

// shapeString prints a shape as a Python tuple, as the header has it.
func shapeString(shape []int) string {
	t := make(pyTuple, len(shape))
	for i, d := range shape {
		t[i] = int64(d)
	}
	return repr(t)
}

// Layout is how a file stores its data, as ReadHeader found it.
type Layout struct {
	BigEndian bool  // elements are big-endian: Decode swaps them
	Fortran   bool  // elements are in Fortran order: FortranToC reorders them
	Offset    int64 // bytes before the data (magic, version, length, header)
}

// NBytes is the size of h's data in bytes.
func (h Header) NBytes() int64 {
	n, _ := checkShape(h.Shape) // ReadHeader validated it
	return n * int64(h.DType.Size())
}

// Read reads a .npy file (versions 1.0, 2.0, 3.0) and returns the header and the elements as C-contiguous
// little-endian bytes, converting from big-endian and from Fortran order as needed.
func Read(r io.Reader) (Header, []byte, error) {
	h, l, err := ReadHeader(r)
	if err != nil {
		return Header{}, nil, err
	}
	want := h.NBytes()
	data, err := readN(r, want)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return Header{}, nil, truncatedData(h, int64(len(data)))
		}
		return Header{}, nil, fmt.Errorf("npy: reading data: %w", err)
	}
	l.Decode(data, h.DType.Size())
	if l.Fortran && len(h.Shape) > 1 {
		c := make([]byte, len(data))
		FortranToC(c, data, h.Shape, h.DType.Size())
		data = c
	}
	return h, data, nil
}

// ReadHeader reads magic, version and the header dict and interprets it,
// leaving r at the first byte of data: for callers that read the data
// into memory of their own (gscript's load reads it into the array).
func ReadHeader(r io.Reader) (Header, Layout, error) {
	h, l, err := readHeader(r)
	if err != nil {
		return Header{}, Layout{}, fmt.Errorf("npy: %w", err)
	}
	return h, l, nil
}

// CheckSize reports a file of size bytes too short for h's data, before
// anything is allocated for it.
func CheckSize(h Header, l Layout, size int64) error {
	if has := max(0, size-l.Offset); has < h.NBytes() {
		return truncatedData(h, has)
	}
	return nil
}

// truncatedData is the error for data shorter than the header says.
func truncatedData(h Header, has int64) error {
	return fmt.Errorf("npy: data truncated: %v%s needs %d bytes, the file has %d",
		h.DType, shapeString(h.Shape), h.NBytes(), has)
}

// Decode turns data read from the file (any whole number of elements of
// size bytes) into little-endian elements, in place.
func (l Layout) Decode(data []byte, size int) {
	if l.BigEndian {
		swapBytes(data, size)
	}
}

// readHeader reads magic, version and the header dict and interprets it.
func readHeader(r io.Reader) (h Header, l Layout, err error) {
	hlen, prelude, err := readPrelude(r)
	if err != nil {
		return h, l, err
	}
	text, err := readN(r, hlen)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return h, l, fmt.Errorf("header truncated: length %d, the file has %d bytes of it",
				hlen, len(text))
		}
		return h, l, fmt.Errorf("reading header: %w", err)
	}
	d, err := parseDict(text)
	if err != nil {
		return h, l, err
	}
	h, l.BigEndian, l.Fortran, err = interpret(d)
	l.Offset = prelude + hlen
	return h, l, err
}

// readPrelude checks magic and version and returns the header length and
// the length of the prelude itself.
func readPrelude(r io.Reader) (hlen, prelude int64, err error) {
	var pre [len(magic) + 2]byte
	n, err := io.ReadFull(r, pre[:])
	if n == 0 && errors.Is(err, io.EOF) {
		return 0, 0, errors.New("not a .npy file: the file is empty")
	}
	if !bytes.HasPrefix([]byte(magic), pre[:min(n, len(magic))]) {
		// The bytes found are not shown: load may be pointed at any file,
		// and its error must not disclose the file's contents.
		return 0, 0, errors.New("not a .npy file: it does not start with NumPy's magic bytes")
	}
	if err != nil {
		return 0, 0, truncated("file truncated before the header length", err)
	}
	major, minor := pre[len(magic)], pre[len(magic)+1]
	lenSize := 4
	switch {
	case major == 1 && minor == 0:
		lenSize = 2
	case (major == 2 || major == 3) && minor == 0:
	default:
		return 0, 0, fmt.Errorf("unsupported .npy format version %d.%d (1.0, 2.0 and 3.0 are supported)", major, minor)
	}
	var lb [4]byte
	if _, err := io.ReadFull(r, lb[:lenSize]); err != nil {
		return 0, 0, truncated("file truncated in the header length", err)
	}
	hlen = int64(binary.LittleEndian.Uint32(lb[:]))
	if hlen > maxHeaderLen {
		return 0, 0, fmt.Errorf("header length %d is larger than the %d bytes allowed", hlen, maxHeaderLen)
	}
	return hlen, int64(len(pre) + lenSize), nil
}

// truncated maps end-of-file errors to msg and keeps real I/O errors.
func truncated(msg string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New(msg)
	}
	return fmt.Errorf("%s: %w", msg, err)
}

// interpret checks the dict's keys and values, as NumPy's reader does.
func interpret(d pyDict) (h Header, bigEndian, fortran bool, err error) {
	vals := map[string]any{}
	for _, it := range d {
		switch it.key {
		case "descr", "fortran_order", "shape":
			vals[it.key] = it.value
		default:
			return h, false, false, fmt.Errorf("header has unexpected key '%s'", clip([]byte(it.key)))
		}
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if _, ok := vals[k]; !ok {
			return h, false, false, fmt.Errorf("header has no '%s' key: %s", k, repr(d))
		}
	}
	fortran, ok := vals["fortran_order"].(bool)
	if !ok {
		return h, false, false, fmt.Errorf("'fortran_order' must be True or False, found %s", repr(vals["fortran_order"]))
	}
	if l, isList := vals["descr"].(pyList); isList {
		return interpretRecord(l, vals["shape"], fortran)
	}
	h.DType, bigEndian, err = dtypeOf(vals["descr"])
	if err != nil {
		return h, false, false, err
	}
	h.Shape, err = shapeOf(vals["shape"])
	return h, bigEndian, fortran, err
}

// interpretRecord is interpret for a structured descr: the shape gains
// the records' byte axis.
func interpretRecord(l pyList, shape any, fortran bool) (h Header, bigEndian, _ bool, err error) {
	if h.Record, err = recordOf(l); err != nil {
		return h, false, false, err
	}
	elems, err := shapeOf(shape)
	if err != nil {
		return h, false, false, err
	}
	if fortran && len(elems) > 1 {
		return h, false, false, errors.New("Fortran-order arrays of records are not supported (save them in C order)")
	}
	h.DType = ir.U8
	h.Shape = append(elems, h.Record.Size)
	_, err = checkShape(h.Shape)
	return h, false, false, err
}

// shapeOf converts the 'shape' tuple and validates it.
func shapeOf(v any) ([]int, error) {
	t, ok := v.(pyTuple)
	if !ok {
		return nil, fmt.Errorf("'shape' must be a tuple of ints, found %s", repr(v))
	}
	shape := make([]int, len(t))
	for i, e := range t {
		d, ok := e.(int64)
		if !ok {
			return nil, fmt.Errorf("'shape' must be a tuple of ints, found %s", repr(v))
		}
		if d > maxElems {
			return nil, fmt.Errorf("shape %s is too large (more than 2^47 elements)", repr(v))
		}
		shape[i] = int(d)
	}
	if _, err := checkShape(shape); err != nil {
		return nil, err
	}
	return shape, nil
}

// readN reads exactly n bytes, growing the buffer only as data arrives.
// On a short read it returns what it got and io.ErrUnexpectedEOF.
func readN(r io.Reader, n int64) ([]byte, error) {
	buf := make([]byte, 0, min(n, readChunk))
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(n, 2*int64(cap(buf))))
			copy(grown, buf)
			buf = grown
		}
		got, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+got]
		if errors.Is(err, io.EOF) {
			return buf, io.ErrUnexpectedEOF
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// swapBytes reverses each size-byte element in place.
func swapBytes(data []byte, size int) {
	for off := 0; off+size <= len(data); off += size {
		e := data[off : off+size]
		for i, j := 0, size-1; i < j; i, j = i+1, j-1 {
			e[i], e[j] = e[j], e[i]
		}
	}
}

// FortranToC reorders src's column-major elements of size bytes into
// row-major ones in dst (as long as src, not overlapping it). It walks the
// C-order index (last axis fastest) and tracks the matching Fortran
// offset, whose strides grow from the first axis.
func FortranToC(dst, src []byte, shape []int, size int) {
	nd := len(shape)
	fstride := make([]int, nd)
	st := size
	for i := range nd {
		fstride[i] = st
		st *= shape[i]
	}
	idx := make([]int, nd)
	off := 0
	for o := 0; o < len(dst); o += size {
		copy(dst[o:o+size], src[off:off+size])
		for ax := nd - 1; ax >= 0; ax-- {
			idx[ax]++
			off += fstride[ax]
			if idx[ax] < shape[ax] {
				break
			}
			off -= fstride[ax] * shape[ax]
			idx[ax] = 0
		}
	}
}
