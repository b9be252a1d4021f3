package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

var allTypes = []ir.Type{ir.Bool, ir.U8, ir.I32, ir.I64, ir.U32, ir.U64, ir.F32, ir.F64}

// le builds little-endian element bytes from values (ints or floats).
func le(t ir.Type, vals ...float64) []byte {
	var b []byte
	for _, v := range vals {
		switch t {
		case ir.Bool, ir.U8:
			b = append(b, byte(v))
		case ir.I32, ir.U32:
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
		case ir.I64, ir.U64:
			b = binary.LittleEndian.AppendUint64(b, uint64(int64(v)))
		case ir.F32:
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
		case ir.F64:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

func iota(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i)
	}
	return v
}

func sp(n int) string { return strings.Repeat(" ", n) }

// TestWriteKnownBytes compares Write's output with files written by hand
// from the format spec (numpy.lib.format, NumPy >= 1.24 with the growth
// padding): magic, version 1.0, HEADER_LEN as little-endian uint16, the
// dict, 21-len(str(shape[0])) growth spaces, then spaces and '\n' so that
// 10+HEADER_LEN is a multiple of 64.
func TestWriteKnownBytes(t *testing.T) {
	cases := []struct {
		name   string
		h      Header
		data   []byte
		header string
	}{
		{
			// dict 59 bytes + 20 growth + 1 newline = 80; pad 64-(10+80)%64 = 38; HEADER_LEN 118 = 'v'.
			"f32 3x4", Header{DType: ir.F32, Shape: []int{3, 4}}, le(ir.F32, iota(12)...),
			"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }" + sp(58) + "\n",
		},
		{
			// dict 57 + 20 + 1 = 78; pad 40; HEADER_LEN 118.
			"bool 2", Header{DType: ir.Bool, Shape: []int{2}}, []byte{1, 0},
			"\x93NUMPY\x01\x00v\x00{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }" + sp(60) + "\n",
		},
		{
			"i64 0x5", Header{DType: ir.I64, Shape: []int{0, 5}}, nil,
			"\x93NUMPY\x01\x00v\x00{'descr': '<i8', 'fortran_order': False, 'shape': (0, 5), }" + sp(58) + "\n",
		},
		{
			// dict 65 + 20 + 1 = 86; pad 32.
			"u8 2x3x4x5", Header{DType: ir.U8, Shape: []int{2, 3, 4, 5}}, le(ir.U8, iota(120)...),
			"\x93NUMPY\x01\x00v\x00{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3, 4, 5), }" + sp(52) + "\n",
		},
		{
			// dict 62 + 15 growth (6 digits) + 1 = 78; pad 40.
			"i32 100000", Header{DType: ir.I32, Shape: []int{100000}}, make([]byte, 400000),
			"\x93NUMPY\x01\x00v\x00{'descr': '<i4', 'fortran_order': False, 'shape': (100000,), }" + sp(55) + "\n",
		},
		{
			// dict 101 + 20 + 1 = 122; pad 64-(132%64) = 60; HEADER_LEN 182 = 0xb6.
			"f64 long header", Header{DType: ir.F64, Shape: []int{0, 1234567890123, 1234567890123, 1234567890123}}, nil,
			"\x93NUMPY\x01\x00\xb6\x00{'descr': '<f8', 'fortran_order': False, " +
				"'shape': (0, 1234567890123, 1234567890123, 1234567890123), }" + sp(80) + "\n",
		},
		{
			// dict 97 + 20 + 1 = 118, so 10+118 is already a multiple of 64 and NumPy
			// pads a full 64 more: HEADER_LEN 182. Catches a wrong growth padding.
			"f64 aligned header", Header{DType: ir.F64, Shape: []int{0, 123456789012, 123456789012, 12345678901}}, nil,
			"\x93NUMPY\x01\x00\xb6\x00{'descr': '<f8', 'fortran_order': False, " +
				"'shape': (0, 123456789012, 123456789012, 12345678901), }" + sp(84) + "\n",
		},
		{
			"u32", Header{DType: ir.U32, Shape: []int{2}}, le(ir.U32, 1, 2),
			"\x93NUMPY\x01\x00v\x00{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }" + sp(60) + "\n",
		},
		{
			"u64 f64", Header{DType: ir.U64, Shape: []int{1, 1}}, le(ir.U64, 7),
			"\x93NUMPY\x01\x00v\x00{'descr': '<u8', 'fortran_order': False, 'shape': (1, 1), }" + sp(58) + "\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, c.h, c.data); err != nil {
				t.Fatal(err)
			}
			want := append([]byte(c.header), c.data...)
			if !bytes.Equal(buf.Bytes(), want) {
				t.Fatalf("got\n%q\nwant\n%q", clip(buf.Bytes()[:min(buf.Len(), 200)]), clip(want[:min(len(want), 200)]))
			}
			if len(c.header)%64 != 0 {
				t.Fatalf("hand-written header is %d bytes, not a multiple of 64", len(c.header))
			}
			h, data, err := Read(bytes.NewReader(want))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(h, c.h) || !bytes.Equal(data, c.data) && len(c.data) > 0 {
				t.Fatalf("read back %v, %d bytes", h, len(data))
			}
		})
	}
}

func randomData(r *rand.Rand, t ir.Type, n int) []byte {
	b := make([]byte, n*t.Size())
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	if t == ir.Bool {
		for i := range b {
			b[i] &= 1
		}
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	shapes := [][]int{{5}, {0}, {1}, {2, 3}, {3, 0}, {2, 3, 4}, {1, 2, 3, 4}, {2, 0, 3, 1}, {3, 1, 4, 2}}
	r := rand.New(rand.NewPCG(1, 2))
	for _, typ := range allTypes {
		for _, shape := range shapes {
			n := 1
			for _, d := range shape {
				n *= d
			}
			data := randomData(r, typ, n)
			var buf bytes.Buffer
			if err := Write(&buf, Header{DType: typ, Shape: shape}, data); err != nil {
				t.Fatalf("%v%v: %v", typ, shape, err)
			}
			h, got, err := Read(&buf)
			if err != nil {
				t.Fatalf("%v%v: %v", typ, shape, err)
			}
			if h.DType != typ || !reflect.DeepEqual(h.Shape, shape) || !bytes.Equal(got, data) {
				t.Fatalf("%v%v: read back %v%v (%d bytes)", typ, shape, h.DType, h.Shape, len(got))
			}
			if buf.Len() != 0 {
				t.Fatalf("%v%v: %d bytes left unread", typ, shape, buf.Len())
			}
		}
	}
}

// file builds a version 1.0 file with the dict text as is (no padding).
func file(dict string, data []byte) []byte {
	b := []byte(magic + "\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(dict)))
	return append(append(b, dict...), data...)
}

// fileV builds a version 2.0 or 3.0 file (4-byte header length).
func fileV(major byte, dict string, data []byte) []byte {
	b := []byte(magic)
	b = append(b, major, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(dict)))
	return append(append(b, dict...), data...)
}

func TestReadVariations(t *testing.T) {
	f4 := le(ir.F32, 1.5, -2, 3)
	cases := []struct {
		name  string
		input []byte
		typ   ir.Type
		shape []int
		data  []byte
	}{
		{"numpy style", file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"+sp(60)+"\n", f4), ir.F32, []int{3}, f4},
		{"double quotes", file(`{"descr": "<f4", "fortran_order": False, "shape": (3,)}`, f4), ir.F32, []int{3}, f4},
		{"no trailing comma", file("{'descr':'<f4','fortran_order':False,'shape':(3,)}", f4), ir.F32, []int{3}, f4},
		{"extra spaces", file("  {  'shape' : ( 3 , ) ,\t'fortran_order' :  False ,  'descr' : '<f4' ,  }  \n", f4), ir.F32, []int{3}, f4},
		{"no byte order", file("{'descr': 'f4', 'fortran_order': False, 'shape': (3,)}", f4), ir.F32, []int{3}, f4},
		{"native order", file("{'descr': '=f4', 'fortran_order': False, 'shape': (3,)}", f4), ir.F32, []int{3}, f4},
		{"bool ?", file("{'descr': '?', 'fortran_order': False, 'shape': (2, 1)}", []byte{1, 0}), ir.Bool, []int{2, 1}, []byte{1, 0}},
		{"bool |?", file("{'descr': '|?', 'fortran_order': False, 'shape': (2,)}", []byte{0, 1}), ir.Bool, []int{2}, []byte{0, 1}},
		{"u8 >u1", file("{'descr': '>u1', 'fortran_order': True, 'shape': (2,)}", []byte{7, 9}), ir.U8, []int{2}, []byte{7, 9}},
		{"escaped descr", file(`{'descr': '\x3cf\x34', "fortran_order": False, 'shape': (3,)}`, f4), ir.F32, []int{3}, f4},
		{"python2 long", file("{'descr': '<f4', 'fortran_order': False, 'shape': (3L,), }", f4), ir.F32, []int{3}, f4},
		{"nul padding", file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\x00\x00\n", f4), ir.F32, []int{3}, f4},
		{"version 2.0", fileV(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n", f4), ir.F32, []int{3}, f4},
		{"version 3.0", fileV(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n", f4), ir.F32, []int{3}, f4},
		{"trailing bytes ignored", file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", append(append([]byte{}, f4...), 1, 2, 3)), ir.F32, []int{3}, f4},
		{"zero extent", file("{'descr': '<i8', 'fortran_order': True, 'shape': (4, 0)}", nil), ir.I64, []int{4, 0}, []byte{}},
		{"parenthesized dim", file("{'descr': '<u4', 'fortran_order': False, 'shape': ((2),)}", le(ir.U32, 5, 6)), ir.U32, []int{2}, le(ir.U32, 5, 6)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, data, err := Read(bytes.NewReader(c.input))
			if err != nil {
				t.Fatal(err)
			}
			if h.DType != c.typ || !reflect.DeepEqual(h.Shape, c.shape) || !bytes.Equal(data, c.data) {
				t.Fatalf("got %v%v %v, want %v%v %v", h.DType, h.Shape, data, c.typ, c.shape, c.data)
			}
		})
	}
}

func TestReadBigEndian(t *testing.T) {
	for _, c := range []struct {
		descr string
		typ   ir.Type
		be    []byte
		want  []byte
	}{
		{">i4", ir.I32, []byte{0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe}, le(ir.I32, 258, -2)},
		{">u4", ir.U32, []byte{0xde, 0xad, 0xbe, 0xef}, []byte{0xef, 0xbe, 0xad, 0xde}},
		{">i8", ir.I64, []byte{0, 0, 0, 0, 0, 0, 1, 0}, le(ir.I64, 256)},
		{">u8", ir.U64, []byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte{8, 7, 6, 5, 4, 3, 2, 1}},
		{">f4", ir.F32, []byte{0x3f, 0xc0, 0, 0}, le(ir.F32, 1.5)},
		{">f8", ir.F64, []byte{0xc0, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18}, le(ir.F64, -math.Pi)},
		{">b1", ir.Bool, []byte{1}, []byte{1}},
	} {
		n := len(c.be) / c.typ.Size()
		dict := "{'descr': '" + c.descr + "', 'fortran_order': False, 'shape': (" + itoa(n) + ",), }"
		h, data, err := Read(bytes.NewReader(file(dict, c.be)))
		if err != nil {
			t.Fatalf("%s: %v", c.descr, err)
		}
		if h.DType != c.typ || !bytes.Equal(data, c.want) {
			t.Fatalf("%s: got %v %v, want %v %v", c.descr, h.DType, data, c.typ, c.want)
		}
	}
}

func itoa(n int) string { return repr(int64(n)) }

func TestReadFortran(t *testing.T) {
	// 2x3: C order 0 1 2 / 3 4 5; Fortran order walks columns: 0 3 1 4 2 5.
	h, data, err := Read(bytes.NewReader(file(
		"{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", le(ir.I32, 0, 3, 1, 4, 2, 5))))
	if err != nil {
		t.Fatal(err)
	}
	if want := le(ir.I32, 0, 1, 2, 3, 4, 5); !reflect.DeepEqual(h.Shape, []int{2, 3}) || !bytes.Equal(data, want) {
		t.Fatalf("2x3: got %v %v", h.Shape, data)
	}

	// 2x3x4 big-endian f8, element (i,j,k) = 100i+10j+k at Fortran position i + 2j + 6k.
	src := make([]byte, 24*8)
	var cvals []float64
	for i := range 2 {
		for j := range 3 {
			for k := range 4 {
				v := float64(100*i + 10*j + k)
				cvals = append(cvals, v)
				binary.BigEndian.PutUint64(src[8*(i+2*j+6*k):], math.Float64bits(v))
			}
		}
	}
	h, data, err = Read(bytes.NewReader(file(
		"{'descr': '>f8', 'fortran_order': True, 'shape': (2, 3, 4), }", src)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(h.Shape, []int{2, 3, 4}) || !bytes.Equal(data, le(ir.F64, cvals...)) {
		t.Fatalf("2x3x4: got %v", h.Shape)
	}

	// 4-D u8 with a unit axis: (i,j,k,l) at i + 3j + 3k + 6l.
	src = make([]byte, 3*1*2*2)
	var want []byte
	for i := range 3 {
		for k := range 2 {
			for l := range 2 {
				v := byte(1 + 100*i + 10*k + l)
				want = append(want, v)
				src[i+3*k+6*l] = v
			}
		}
	}
	_, data, err = Read(bytes.NewReader(file("{'descr': '|u1', 'fortran_order': True, 'shape': (3, 1, 2, 2)}", src)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want) {
		t.Fatalf("3x1x2x2: got %v, want %v", data, want)
	}
}

func TestReadErrors(t *testing.T) {
	okData := make([]byte, 64)
	d := func(s string) []byte { return file(s, okData) }
	cases := []struct {
		name  string
		input []byte
		err   string // regexp
	}{
		{"empty", nil, `not a \.npy file: the file is empty`},
		{"bad magic", []byte("PK\x03\x04 not npy at all"), `not a \.npy file: it does not start with NumPy's magic bytes$`},
		{"short magic", []byte("\x93NUM"), `truncated before the header length`},
		{"no version", []byte("\x93NUMPY\x01"), `truncated before the header length`},
		{"no length", []byte("\x93NUMPY\x01\x00\x10"), `truncated in the header length`},
		{"version 4", []byte("\x93NUMPY\x04\x00\x10\x00"), `unsupported \.npy format version 4\.0`},
		{"version 1.1", []byte("\x93NUMPY\x01\x01\x10\x00"), `version 1\.1`},
		{"header truncated", []byte("\x93NUMPY\x01\x00\x76\x00{'descr'"), `header truncated: length 118, the file has 8`},
		{"huge header", []byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f{"), `header length 2147483647 is larger than`},
		{"not a dict", d("('descr', '<f4')"), `header is not a dict literal`},
		{"list header", d("['descr']"), `header is not a dict literal`},
		{"garbage after dict", d("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} x"), `unexpected 'x' after the header dict`},
		{"unterminated dict", d("{'descr': '<f4', 'fortran_order': False"), `unexpected end of header`},
		{"unterminated string", d("{'descr: '<f4'}"), `expected ':'|unterminated`},
		{"eval attempt", d("{'descr': __import__('os'), 'fortran_order': False, 'shape': (3,)}"), `unexpected name "__import__"`},
		{"non-string key", d("{1: '<f4'}"), `dict key 1 is not a string`},
		{"missing colon", d("{'descr' '<f4'}"), `expected ':' after key 'descr'`},
		{"duplicate key", d("{'descr': '<f4', 'descr': '<f4'}"), `duplicate key 'descr'`},
		{"missing shape", d("{'descr': '<f4', 'fortran_order': False}"), `no 'shape' key`},
		{"missing descr", d("{'fortran_order': False, 'shape': (3,)}"), `no 'descr' key`},
		{"missing fortran", d("{'descr': '<f4', 'shape': (3,)}"), `no 'fortran_order' key`},
		{"extra key", d("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}"), `unexpected key 'x'`},
		{"complex", d("{'descr': '<c16', 'fortran_order': False, 'shape': (3,)}"), `unsupported dtype '<c16' \(complex128\)`},
		{"int8", d("{'descr': '|i1', 'fortran_order': False, 'shape': (3,)}"), `unsupported dtype '\|i1' \(int8\)`},
		{"float16", d("{'descr': '<f2', 'fortran_order': False, 'shape': (3,)}"), `unsupported dtype '<f2' \(float16\)`},
		{"object", d("{'descr': '|O', 'fortran_order': False, 'shape': (3,)}"), `unsupported dtype '\|O' \(object\)`},
		{"bytes", d("{'descr': '|S5', 'fortran_order': False, 'shape': (3,)}"), `unsupported dtype '\|S5' \(bytes\)`},
		{"datetime", d("{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (3,)}"), `unsupported dtype '<M8\[ns\]' \(datetime64\)`},
		{"nonsense dtype", d("{'descr': 'zz', 'fortran_order': False, 'shape': (3,)}"), `unsupported dtype 'zz' \(not a NumPy dtype`},
		{"structured big-endian", d("{'descr': [('a', '>f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (3,)}"),
			`field a is big-endian \('>f4'\)`},
		{"structured fortran", d("{'descr': [('a', '<f4')], 'fortran_order': True, 'shape': (3, 2)}"), `Fortran-order arrays of records`},
		{"structured complex", d("{'descr': [('a', '<c8')], 'fortran_order': False, 'shape': (3,)}"), `field a: unsupported dtype '<c8'`},
		{"structured title", d("{'descr': [(('t', 'a'), '<f4')], 'fortran_order': False, 'shape': (3,)}"), `titles are not supported`},
		{"structured repeated", d("{'descr': [('a', '<f4'), ('a', '<f4')], 'fortran_order': False, 'shape': (3,)}"), `repeated field name 'a'`},
		{"structured 0-d", d("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': ()}"), `0-d arrays are not supported`},
		{"descr int", d("{'descr': 4, 'fortran_order': False, 'shape': (3,)}"), `'descr' must be a string, found 4`},
		{"fortran not bool", d("{'descr': '<f4', 'fortran_order': 0, 'shape': (3,)}"), `'fortran_order' must be True or False, found 0`},
		{"shape list", d("{'descr': '<f4', 'fortran_order': False, 'shape': [3]}"), `'shape' must be a tuple of ints, found \[3\]`},
		{"shape int", d("{'descr': '<f4', 'fortran_order': False, 'shape': 3}"), `'shape' must be a tuple of ints, found 3`},
		{"shape str", d("{'descr': '<f4', 'fortran_order': False, 'shape': ('3',)}"), `found \('3',\)`},
		{"shape bool", d("{'descr': '<f4', 'fortran_order': False, 'shape': (True,)}"), `found \(True,\)`},
		{"0-d", d("{'descr': '<f4', 'fortran_order': False, 'shape': ()}"), `0-d arrays are not supported: gscript arrays have 1 to 4 dimensions`},
		{"5-d", d("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1)}"), `arrays with 5 dimensions are not supported`},
		{"negative", d("{'descr': '<f4', 'fortran_order': False, 'shape': (3, -1)}"), `negative dimension -1 in shape \(3, -1\)`},
		{"overflow", d("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}"), `shape \(4294967296, 4294967296\) is too large`},
		{"huge dim", d("{'descr': '<f4', 'fortran_order': False, 'shape': (999999999999999999,)}"), `too large`},
		{"int out of range", d("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}"), `integer 99999999999999999999 is out of range`},
		{"float dim", d("{'descr': '<f4', 'fortran_order': False, 'shape': (3.0,)}"), `malformed number "3\."`},
		{"deep nesting", d("{'descr': " + strings.Repeat("(", 100)), `nesting deeper than 32`},
		{"bad escape", d(`{'descr': '\q'}`), `unsupported escape \\q`},
		{"newline in string", d("{'descr': '<f\n4'}"), `newline in string`},
		{"bad separator", d("{'descr': '<f4'; 'shape': (3,)}"), `unexpected ';', expected ','`},
		{"data truncated", file("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4)}", make([]byte, 20)),
			`data truncated: f32\(3, 4\) needs 48 bytes, the file has 20`},
		{"no data", file("{'descr': '<u8', 'fortran_order': False, 'shape': (2,)}", nil), `data truncated: u64\(2,\) needs 16 bytes, the file has 0`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Read(bytes.NewReader(c.input))
			if err == nil {
				t.Fatalf("no error, want %q", c.err)
			}
			if !regexp.MustCompile(c.err).MatchString(err.Error()) {
				t.Fatalf("error %q does not match %q", err, c.err)
			}
			if !strings.HasPrefix(err.Error(), "npy: ") {
				t.Fatalf("error %q lacks the npy: prefix", err)
			}
		})
	}
}

var errDisk = errors.New("disk on fire")

func TestReadIOError(t *testing.T) {
	src := file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", nil)
	r := &partialThenFail{data: src}
	_, _, err := Read(r)
	if !errors.Is(err, errDisk) || !strings.Contains(err.Error(), "reading data") {
		t.Fatalf("got %v, want the reader's error while reading data", err)
	}
	_, _, err = Read(&partialThenFail{data: []byte("\x93NU")})
	if !errors.Is(err, errDisk) {
		t.Fatalf("got %v, want the reader's error", err)
	}
}

type partialThenFail struct{ data []byte }

func (p *partialThenFail) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, errDisk
	}
	n := copy(b, p.data)
	p.data = p.data[n:]
	return n, nil
}

// TestReadLyingHeader: a header claiming 8 TiB of data over a tiny file
// must fail fast without allocating anything near that.
func TestReadLyingHeader(t *testing.T) {
	src := file("{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776,)}", make([]byte, 100))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := Read(bytes.NewReader(src))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "the file has 100") {
		t.Fatalf("got %v, want a truncation error", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Fatalf("allocated %d bytes for a 100-byte file", grew)
	}
}

// TestReadLargeGrows exercises buffer growth past the first chunk.
func TestReadLargeGrows(t *testing.T) {
	n := 3*readChunk/8 + 5
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(i) * 0.5
	}
	data := le(ir.F64, vals...)
	var buf bytes.Buffer
	if err := Write(&buf, Header{DType: ir.F64, Shape: []int{n}}, data); err != nil {
		t.Fatal(err)
	}
	_, got, err := Read(&buf)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("large read: err %v, equal %v", err, bytes.Equal(got, data))
	}
}

func TestWriteErrors(t *testing.T) {
	cases := []struct {
		name string
		h    Header
		data []byte
		err  string
	}{
		{"invalid dtype", Header{DType: ir.Invalid, Shape: []int{1}}, []byte{0}, `cannot write dtype invalid`},
		{"0-d", Header{DType: ir.F32}, nil, `0-d arrays are not supported`},
		{"5-d", Header{DType: ir.F32, Shape: []int{1, 1, 1, 1, 1}}, make([]byte, 4), `5 dimensions`},
		{"negative", Header{DType: ir.F32, Shape: []int{2, -1}}, nil, `negative dimension -1 in shape \(2, -1\)`},
		{"overflow", Header{DType: ir.U8, Shape: []int{1 << 30, 1 << 30}}, nil, `too large`},
		// Zero-size with a huge extent: refused in either order, as Read
		// refuses it, so a file Write makes always loads.
		{"zero-size huge extent", Header{DType: ir.U8, Shape: []int{0, 1 << 48}}, nil, `too large`},
		{"huge extent zero-size", Header{DType: ir.U8, Shape: []int{1 << 48, 0}}, nil, `too large`},
		{"short data", Header{DType: ir.I32, Shape: []int{2, 2}}, make([]byte, 15), `i32\(2, 2\) needs 16 bytes of data, got 15`},
		{"long data", Header{DType: ir.Bool, Shape: []int{2}}, make([]byte, 3), `needs 2 bytes of data, got 3`},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		err := Write(&buf, c.h, c.data)
		if err == nil || !regexp.MustCompile(c.err).MatchString(err.Error()) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.err)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: wrote %d bytes before failing", c.name, buf.Len())
		}
	}
	err := Write(failWriter{}, Header{DType: ir.F32, Shape: []int{1}}, make([]byte, 4))
	if !errors.Is(err, errDisk) {
		t.Errorf("write error: got %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errDisk }

// TestWrapHeaderVersion2: NumPy switches to version 2.0 when the padded
// header does not fit 16 bits; shapes of 4 dims never need it, so the
// switch is tested on the wrapper directly.
func TestWrapHeaderVersion2(t *testing.T) {
	dict := "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }" + sp(70000)
	b, err := wrapHeader(dict)
	if err != nil {
		t.Fatal(err)
	}
	if b[6] != 2 || b[7] != 0 {
		t.Fatalf("version %d.%d, want 2.0", b[6], b[7])
	}
	hlen := int(binary.LittleEndian.Uint32(b[8:12]))
	if hlen+12 != len(b) || len(b)%64 != 0 || b[len(b)-1] != '\n' {
		t.Fatalf("header length %d, total %d", hlen, len(b))
	}
	// The largest header that still fits version 1.0.
	small, _ := wrapHeader(strings.Repeat(" ", 0xffff-64))
	if small[6] != 1 {
		t.Fatalf("version %d, want 1 for a header that fits", small[6])
	}
}

func TestParseEscapes(t *testing.T) {
	d, err := parseDict([]byte(`{'k': '\\\'\"\n\t\r\0\x41', "q": "it's", 'n': None, 'l': [-1, +2,], 't': (1,(2,))}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d[0].value, "\\'\"\n\t\r\x00A"; got != want {
		t.Fatalf("escapes: got %q, want %q", got, want)
	}
	if got, want := repr(d[1:]), "{'q': 'it's', 'n': None, 'l': [-1, 2], 't': (1, (2,))}"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	long := strings.Repeat("x", 200)
	if got := repr(long); len(got) != 85 || !strings.HasSuffix(got, "...'") {
		t.Fatalf("long strings are not clipped in messages: %d bytes", len(got))
	}
}

func TestRepr(t *testing.T) {
	v := pyDict{{"a", pyTuple{int64(1)}}, {"b", pyList{true, pyNone{}, "x"}}, {"c", pyTuple{}}}
	if got, want := repr(v), "{'a': (1,), 'b': [True, None, 'x'], 'c': ()}"; got != want {
		t.Fatalf("repr = %s, want %s", got, want)
	}
}

func FuzzRead(f *testing.F) {
	for _, typ := range allTypes {
		var buf bytes.Buffer
		if err := Write(&buf, Header{DType: typ, Shape: []int{2, 3}}, make([]byte, 6*typ.Size())); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Add(file("{'descr': '>f8', 'fortran_order': True, 'shape': (2, 1, 3)}", make([]byte, 48)))
	f.Add(fileV(3, `{"descr": "?", "fortran_order": True, "shape": (2, 2), }`, []byte{1, 0, 0, 1}))
	f.Add(file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3L,)}", nil))
	f.Add(file("{'descr': [('a', '|u1'), ('', '|V7'), ('b', '<f8', (3,)), ('c', '<i4'), ('', '|V4')], 'fortran_order': False, 'shape': (1,), }", make([]byte, 40)))
	f.Add(file("{'descr': [('m', [('x', '<f4', (3, 3))]), ('f', '|b1')], 'fortran_order': False, 'shape': (2,), }", make([]byte, 80)))
	// Pads whose sizes wrapped an int to a 4-byte record (TestRecordSizeOverflow).
	f.Add(file("{'descr': [('a', '<f4'), ('', '|V9223372036854775807'), ('', '|V9223372036854775807'), ('', '|V2')], 'fortran_order': False, 'shape': (1,)}", make([]byte, 4)))
	f.Fuzz(func(t *testing.T, in []byte) {
		h, data, err := Read(bytes.NewReader(in))
		if err != nil {
			return
		}
		n, err := checkShape(h.Shape)
		if err != nil {
			t.Fatalf("Read returned an invalid shape %v: %v", h.Shape, err)
		}
		if int64(len(data)) != n*int64(h.DType.Size()) {
			t.Fatalf("shape %v of %v but %d bytes", h.Shape, h.DType, len(data))
		}
		var buf bytes.Buffer
		if err := Write(&buf, h, data); err != nil {
			t.Fatalf("cannot write back what was read: %v", err)
		}
		h2, data2, err := Read(&buf)
		if err != nil || !reflect.DeepEqual(h, h2) || !bytes.Equal(data, data2) {
			t.Fatalf("round trip of a read file changed it: %v", err)
		}
	})
}

// TestReadErrorHidesContents: the error for a file that is not a .npy
// file must not show its bytes (load may be pointed at any file).
func TestReadErrorHidesContents(t *testing.T) {
	_, _, err := Read(strings.NewReader("root:x:0:0:secret"))
	if err == nil || strings.Contains(err.Error(), "root") {
		t.Fatalf("got %v, want an error without the file's bytes", err)
	}
}

// TestCheckSize: the header's claim is checked against the file's size
// from the data offset ReadHeader reports, for every format version.
func TestCheckSize(t *testing.T) {
	dict := "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4)}"
	for _, src := range [][]byte{file(dict, make([]byte, 48)), fileV(2, dict, make([]byte, 48))} {
		h, l, err := ReadHeader(bytes.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		if l.Offset != int64(len(src)-48) {
			t.Fatalf("offset %d, want %d", l.Offset, len(src)-48)
		}
		if err := CheckSize(h, l, int64(len(src))); err != nil {
			t.Fatal(err)
		}
		err = CheckSize(h, l, int64(len(src)-1))
		if err == nil || !strings.Contains(err.Error(), "data truncated: f32(3, 4) needs 48 bytes, the file has 47") {
			t.Fatalf("got %v, want a truncation error", err)
		}
	}
}
