package npy

import (
	"bytes"
	"encoding/binary"
	"math"
	"regexp"
	"testing"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// mustStruct lays out a struct for a test.
func mustStruct(t *testing.T, name string, fields ...dtype.Field) *dtype.Struct {
	t.Helper()
	s, err := dtype.NewStruct(name, fields)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	vec3 = dtype.Type{Kind: dtype.Vec, Elem: ir.F32, N: 3}
	f32  = dtype.Of(ir.F32)
)

// TestRecordKnownBytes reads and writes files of records with the
// headers NumPy writes for np.dtype([...], align=True) (dtype.descr, with
// (”, '|Vn') for the gaps align=True leaves), byte for byte.
func TestRecordKnownBytes(t *testing.T) {
	particle := mustStruct(t, "Particle", dtype.Field{Name: "pos", Type: vec3}, dtype.Field{Name: "vel", Type: vec3}, dtype.Field{Name: "mass", Type: f32})
	padded := mustStruct(t, "Padded", dtype.Field{Name: "a", Type: dtype.Of(ir.U8)},
		dtype.Field{Name: "b", Type: dtype.Type{Kind: dtype.Vec, Elem: ir.F64, N: 3}}, dtype.Field{Name: "c", Type: dtype.Of(ir.I32)})
	f4 := func(b []byte, off int, v float32) { binary.LittleEndian.PutUint32(b[off:], math.Float32bits(v)) }
	pdata := make([]byte, 2*28)
	for i := range 2 {
		for k := range 7 {
			f4(pdata, i*28+4*k, float32(10*i+k))
		}
	}
	qdata := make([]byte, 2*40)
	for i := range 2 {
		qdata[i*40] = byte(200 + i)
		for k := range 3 {
			binary.LittleEndian.PutUint64(qdata[i*40+8+8*k:], math.Float64bits(float64(i)+0.5*float64(k)))
		}
		binary.LittleEndian.PutUint32(qdata[i*40+32:], uint32(int32(-1-i)))
	}
	for _, c := range []struct {
		name   string
		s      *dtype.Struct
		size   int
		data   []byte
		header string
	}{
		{
			// np.dtype([('pos','<f4',(3,)),('vel','<f4',(3,)),('mass','<f4')], align=True):
			// dict 113 + 20 growth + 1 newline = 134; pad 48; HEADER_LEN 182 = 0xb6.
			"Particle", particle, 28, pdata,
			"\x93NUMPY\x01\x00\xb6\x00{'descr': [('pos', '<f4', (3,)), ('vel', '<f4', (3,)), ('mass', '<f4')], 'fortran_order': False, 'shape': (2,), }" + sp(68) + "\n",
		},
		{
			// np.dtype([('a','u1'),('b','<f8',(3,)),('c','<i4')], align=True): b at 8, c at
			// 32, itemsize 40. dict 126 + 20 + 1 = 147; pad 35; HEADER_LEN 182.
			"Padded", padded, 40, qdata,
			"\x93NUMPY\x01\x00\xb6\x00{'descr': [('a', '|u1'), ('', '|V7'), ('b', '<f8', (3,)), ('c', '<i4'), ('', '|V4')], 'fortran_order': False, 'shape': (2,), }" + sp(55) + "\n",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.s.Size != c.size {
				t.Fatalf("%s is %d bytes, NumPy's align=True itemsize is %d", c.name, c.s.Size, c.size)
			}
			file := append([]byte(c.header), c.data...)
			h, data, err := Read(bytes.NewReader(file))
			if err != nil {
				t.Fatal(err)
			}
			if h.DType != ir.U8 || len(h.Shape) != 2 || h.Shape[0] != 2 || h.Shape[1] != c.size || h.Record == nil {
				t.Fatalf("header %+v, want records of %d bytes, shape [2, %d]", h, c.size, c.size)
			}
			if err := h.Record.MatchStruct(c.s); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, c.data) {
				t.Fatalf("data %x, want %x", data, c.data)
			}
			var buf bytes.Buffer
			if err := Write(&buf, Header{DType: ir.U8, Shape: []int{2, c.size}, Record: RecordOf(c.s)}, c.data); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), file) {
				t.Fatalf("wrote\n%q\nwant\n%q", buf.Bytes(), file)
			}
		})
	}
}

// TestRecordNested writes a nested struct as a nested descr and a matrix
// field as a (3, 3) subarray, and reads them back.
func TestRecordNested(t *testing.T) {
	inner := mustStruct(t, "Inner", dtype.Field{Name: "ok", Type: dtype.Of(ir.Bool)}, dtype.Field{Name: "x", Type: dtype.Of(ir.F64)})
	outer := mustStruct(t, "Outer", dtype.Field{Name: "id", Type: dtype.Of(ir.I32)}, dtype.Field{Name: "in", Type: inner.Type()},
		dtype.Field{Name: "m", Type: dtype.Type{Kind: dtype.Mat, Elem: ir.F32, N: 3, M: 3}})
	want := "[('id', '<i4'), ('', '|V4'), ('in', [('ok', '|b1'), ('', '|V7'), ('x', '<f8')]), ('m', '<f4', (3, 3)), ('', '|V4')]"
	if got := RecordOf(outer).String(); got != want {
		t.Fatalf("descr %s, want %s", got, want)
	}
	var buf bytes.Buffer
	if err := Write(&buf, Header{DType: ir.U8, Shape: []int{1, outer.Size}, Record: RecordOf(outer)}, make([]byte, outer.Size)); err != nil {
		t.Fatal(err)
	}
	h, _, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Record.MatchStruct(outer); err != nil {
		t.Fatal(err)
	}
}

// TestRecordMismatch names the first difference between a file's records
// and a struct.
func TestRecordMismatch(t *testing.T) {
	s := mustStruct(t, "P", dtype.Field{Name: "a", Type: dtype.Of(ir.U8)}, dtype.Field{Name: "b", Type: dtype.Of(ir.F64)})
	for _, c := range []struct{ descr, err string }{
		{"[('a', '|u1'), ('b', '<f8')]", `P.b is at byte offset 8, the file's at 1 \(gscript structs use NumPy's align=True layout\)`},
		{"[('a', '|u1'), ('', '|V7'), ('c', '<f8')]", `field 2 of P is b, the file's is c`},
		{"[('a', '|u1'), ('', '|V7'), ('b', '<f4'), ('', '|V4')]", `P.b is '<f8', the file's is '<f4'`},
		{"[('a', '|u1'), ('', '|V7'), ('b', '<f8', (2,))]", `P.b is '<f8', the file's is '<f8' \(2,\)`},
		{"[('a', '|u1'), ('', '|V7'), ('b', '<f8'), ('', '|V8')]", `P is 16 bytes, the file's record 24`},
		{"[('a', '|u1')]", `P has field b, the file's record ends before it`},
		{"[('a', '|u1'), ('', '|V7'), ('b', '<f8'), ('c', '|u1')]", `the file's record has field c after the last of P's`},
	} {
		l, err := parseDict([]byte("{'d': " + c.descr + "}"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := recordOf(l[0].value.(pyList))
		if err == nil {
			err = r.MatchStruct(s)
		}
		if err == nil || !regexp.MustCompile(c.err).MatchString(err.Error()) {
			t.Errorf("%s: got %v, want %s", c.descr, err, c.err)
		}
	}
}

// TestRecordSizeOverflow: padding and subarray entries whose sizes sum
// past any item size are an error, not an itemsize that wraps around to
// a small one (two |V(2^63-1) pads and a |V2 would wrap to 4 bytes, and
// the record would then match a struct of one f32).
func TestRecordSizeOverflow(t *testing.T) {
	const big = "9223372036854775807"
	cases := []struct{ name, descr, err string }{
		{"pads wrap", "[('a', '<f4'), ('', '|V" + big + "'), ('', '|V" + big + "'), ('', '|V2')]", `padding '\|V` + big + `' is larger than 2\^47 bytes`},
		{"pads sum", "[('a', '<f4'), ('', '|V140737488355328'), ('', '|V140737488355328')]", `record is larger than 2\^47 bytes`},
		{"one huge pad", "[('a', '<f4'), ('', '|V" + big + "')]", `padding '\|V` + big + `' is larger than 2\^47 bytes`},
		{"subarray after pad", "[('', '|V140737488355000'), ('b', '<f8', (1048576, 1048576))]", `record is larger than 2\^47 bytes`},
		{"nested", "[('m', [('x', '<f4'), ('', '|V100000000000000')]), ('', '|V100000000000000')]", `record is larger than 2\^47 bytes`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := file("{'descr': "+c.descr+", 'fortran_order': False, 'shape': (1,)}", make([]byte, 4))
			_, _, err := Read(bytes.NewReader(src))
			if err == nil || !regexp.MustCompile(c.err).MatchString(err.Error()) {
				t.Fatalf("got %v, want an error matching %q", err, c.err)
			}
		})
	}
}
