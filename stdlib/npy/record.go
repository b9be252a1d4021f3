package npy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// Structured dtypes. A file whose 'descr' is a list holds records; NumPy
// writes it as dtype.descr (numpy.lib.format.dtype_to_descr): one tuple
// per field, (name, typestr) or (name, typestr, shape) for a subarray, or
// (name, [...]) for a nested structured field, and ('', '|Vn') for each
// gap of n bytes before a field or at the end, which its reader
// (descr_to_dtype) turns back into offsets and the itemsize. gscript
// reads such a file only as an array of a struct with exactly its layout
// (MatchStruct), and writes an array of a struct that way, so a struct
// array saved by NumPy with align=True loads and one saved here loads in
// NumPy as np.dtype([...], align=True) lays it out.

// Record is a structured dtype: its fields in file order and its itemsize.
type Record struct {
	Fields []RecordField
	Size   int
}

// RecordField is one named field of a Record: a scalar of Type, a
// subarray of Type and Shape, or a nested record Sub.
type RecordField struct {
	Name   string
	Offset int
	Type   ir.Type
	Shape  []int
	Sub    *Record
}

// size is the field's size in bytes.
func (f RecordField) size() int {
	if f.Sub != nil {
		return f.Sub.Size
	}
	n := f.Type.Size()
	for _, d := range f.Shape {
		n *= d
	}
	return n
}

// RecordOf is the record layout of s.
func RecordOf(s *dtype.Struct) *Record {
	r := &Record{Size: s.Size}
	for _, f := range s.Fields {
		rf := RecordField{Name: f.Name, Offset: f.Offset, Type: f.Type.Elem, Shape: f.Type.Dims()}
		if f.Type.Kind == dtype.StructKind {
			rf = RecordField{Name: f.Name, Offset: f.Offset, Sub: RecordOf(f.Type.St)}
		}
		r.Fields = append(r.Fields, rf)
	}
	return r
}

// descr is r as NumPy's dtype.descr lists it (see above).
func (r *Record) descr() pyList {
	var out pyList
	pad := func(n int) { out = append(out, pyTuple{"", "|V" + strconv.Itoa(n)}) }
	off := 0
	for _, f := range r.Fields {
		if f.Offset > off {
			pad(f.Offset - off)
		}
		switch {
		case f.Sub != nil:
			out = append(out, pyTuple{f.Name, f.Sub.descr()})
		case f.Shape != nil:
			shape := make(pyTuple, len(f.Shape))
			for i, d := range f.Shape {
				shape[i] = int64(d)
			}
			out = append(out, pyTuple{f.Name, descrs[f.Type], shape})
		default:
			out = append(out, pyTuple{f.Name, descrs[f.Type]})
		}
		off = f.Offset + f.size()
	}
	if r.Size > off {
		pad(r.Size - off)
	}
	return out
}

// recordOf parses a list 'descr' (see above): fields at the offsets the
// padding entries leave, the itemsize where the last entry ends.
func recordOf(l pyList) (*Record, error) {
	r := &Record{}
	for _, e := range l {
		t, ok := e.(pyTuple)
		if !ok || len(t) < 2 || len(t) > 3 {
			return nil, fmt.Errorf("structured dtype entry %s is not a (name, type) or (name, type, shape) tuple", repr(e))
		}
		name, ok := t[0].(string)
		if !ok {
			return nil, fmt.Errorf("structured dtype entry %s: the name must be a string (titles are not supported)", repr(e))
		}
		f := RecordField{Name: name, Offset: r.Size}
		switch typ := t[1].(type) {
		case string:
			if n, isPad := padding(name, typ); isPad {
				if len(t) == 3 {
					return nil, fmt.Errorf("structured dtype entry %s: padding with a shape", repr(e))
				}
				if n > maxElems {
					return nil, fmt.Errorf("structured dtype padding %s is larger than 2^47 bytes", repr(typ))
				}
				if err := r.grow(n); err != nil {
					return nil, err
				}
				continue
			}
			dt, big, err := dtypeOf(typ)
			if err != nil {
				return nil, fmt.Errorf("field %s: %v", name, err)
			}
			if big {
				return nil, fmt.Errorf("field %s is big-endian (%s): structured files must be little-endian", name, repr(typ))
			}
			f.Type = dt
		case pyList:
			sub, err := recordOf(typ)
			if err != nil {
				return nil, fmt.Errorf("field %s: %v", name, err)
			}
			f.Sub = sub
		default:
			return nil, fmt.Errorf("structured dtype entry %s: the type must be a string or a list", repr(e))
		}
		if len(t) == 3 {
			shape, err := subShape(t[2])
			if err != nil {
				return nil, fmt.Errorf("field %s: %v", name, err)
			}
			if f.Sub != nil {
				return nil, fmt.Errorf("field %s is an array of records, which gscript structs cannot hold", name)
			}
			f.Shape = shape
		}
		if name == "" || slices.ContainsFunc(r.Fields, func(g RecordField) bool { return g.Name == name }) {
			return nil, fmt.Errorf("structured dtype has an empty or repeated field name %s", repr(name))
		}
		r.Fields = append(r.Fields, f)
		if err := r.grow(f.size()); err != nil {
			return nil, err
		}
	}
	if len(r.Fields) == 0 {
		return nil, fmt.Errorf("structured dtype %s has no fields", repr(l))
	}
	return r, nil
}

// grow adds n bytes (at most 2^47: a checked pad or field) to r's size.
// The size stays at most 2^47, the largest extent of the byte axis a
// record file gets, so the sum cannot wrap around to a small itemsize
// that a struct could then match.
func (r *Record) grow(n int) error {
	if r.Size += n; r.Size > maxElems {
		return fmt.Errorf("structured dtype: the record is larger than 2^47 bytes")
	}
	return nil
}

// padding reports whether (name, typ) is a padding entry (”, '|Vn'),
// and its n.
func padding(name, typ string) (int, bool) {
	body, ok := strings.CutPrefix(typ, "|V")
	if !ok {
		body, ok = strings.CutPrefix(typ, "V")
	}
	n, err := strconv.Atoi(body)
	return n, ok && name == "" && err == nil && n > 0
}

// subShape reads a subarray shape: a tuple of positive ints, or one int.
func subShape(v any) ([]int, error) {
	if n, ok := v.(int64); ok {
		v = pyTuple{n}
	}
	t, ok := v.(pyTuple)
	if !ok || len(t) == 0 || len(t) > 2 {
		return nil, fmt.Errorf("subarray shape %s is not a tuple of one or two extents", repr(v))
	}
	out := make([]int, len(t))
	for i, d := range t {
		n, ok := d.(int64)
		if !ok || n < 1 || n > 1<<20 {
			return nil, fmt.Errorf("subarray shape %s is not a tuple of positive ints", repr(v))
		}
		out[i] = int(n)
	}
	return out, nil
}

// MatchStruct checks that r is exactly s's layout (names, types, shapes,
// offsets and itemsize); the error names the first difference.
func (r *Record) MatchStruct(s *dtype.Struct) error {
	return r.match(RecordOf(s), s.Name)
}

func (r *Record) match(w *Record, where string) error {
	for i, wf := range w.Fields {
		if i >= len(r.Fields) {
			return fmt.Errorf("%s has field %s, the file's record ends before it (after %d fields)", where, wf.Name, len(r.Fields))
		}
		f := r.Fields[i]
		path := where + "." + wf.Name
		switch {
		case f.Name != wf.Name:
			return fmt.Errorf("field %d of %s is %s, the file's is %s", i+1, where, wf.Name, f.Name)
		case (f.Sub == nil) != (wf.Sub == nil):
			return fmt.Errorf("%s is %s, the file's is %s", path, wf.String(), f.String())
		case f.Sub != nil:
			if err := f.Sub.match(wf.Sub, path); err != nil {
				return err
			}
		case f.Type != wf.Type || !slices.Equal(f.Shape, wf.Shape):
			return fmt.Errorf("%s is %s, the file's is %s", path, wf.String(), f.String())
		}
		if f.Offset != wf.Offset {
			return fmt.Errorf("%s is at byte offset %d, the file's at %d (gscript structs use NumPy's align=True layout)", path, wf.Offset, f.Offset)
		}
	}
	if len(r.Fields) > len(w.Fields) {
		return fmt.Errorf("the file's record has field %s after the last of %s's", r.Fields[len(w.Fields)].Name, where)
	}
	if r.Size != w.Size {
		return fmt.Errorf("%s is %d bytes, the file's record %d (gscript structs use NumPy's align=True layout)", where, w.Size, r.Size)
	}
	return nil
}

// String is the field's type as the descr spells it: '<f4', '<f4' (3,),
// or a nested record's descr.
func (f RecordField) String() string {
	switch {
	case f.Sub != nil:
		return "a record " + repr(f.Sub.descr())
	case f.Shape != nil:
		shape := make(pyTuple, len(f.Shape))
		for i, d := range f.Shape {
			shape[i] = int64(d)
		}
		return repr(descrs[f.Type]) + " " + repr(shape)
	}
	return repr(descrs[f.Type])
}

// String is r's descr as a header holds it.
func (r *Record) String() string { return literal(r.descr()) }

// literal is Python's repr of a descr's parts, in full (repr clips for
// messages). The strings are identifiers and typestrs: nothing to escape.
func literal(v any) string {
	var parts []string
	switch v := v.(type) {
	case pyTuple:
		for _, e := range v {
			parts = append(parts, literal(e))
		}
		if len(v) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case pyList:
		for _, e := range v {
			parts = append(parts, literal(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return "'" + v + "'"
	}
	return repr(v)
}
