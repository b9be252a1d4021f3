package interp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Program is a compiled script: parsed, resolved, type-checked and lowered
// once, then run by any number of interpreters, concurrently. It is
// immutable.
type Program struct {
	file        *ast.File
	info        *check.Info
	globals     map[string]int
	predeclared []string
	imports     *importer
	code        *chunk // the compiled top level
}

// Compile parses and checks a script for running with Interp.Run. The
// predeclared names are those the interpreters that run it will have: the
// language's own, plus the keys of predeclared (typically
// stdlib.Universe() and the host's functions). Compile errors come back as
// an ast.ErrorList. The script may import nothing: CompileFiles grants
// file access for its imports.
func Compile(filename string, src []byte, predeclared map[string]Value) (*Program, error) {
	return CompileFiles(filename, src, predeclared, nil)
}

// CompileFiles is Compile with files as the access through which the
// script's imports are read, once, at compile time: running the program
// reads no file for them.
func CompileFiles(filename string, src []byte, predeclared map[string]Value, files *FileAccess) (*Program, error) {
	names := map[string]bool{}
	for _, n := range processNames {
		names[n] = true
	}
	for n := range universe() {
		names[n] = true
	}
	for n := range predeclared {
		names[n] = true
	}
	c := check.NewChecker(func(n string) bool { return names[n] })
	f, err := syntax.Parse(filename, src)
	if err != nil {
		return nil, err
	}
	imports := newImporter(files)
	c.SetExports(imports.exports)
	if err := imports.load(c, f, []string{filename}); err != nil {
		return nil, err
	}
	info, err := checkChunk(c, f)
	if err != nil {
		return nil, err
	}
	p := &Program{file: f, info: info, globals: c.GlobalNames(), imports: imports, code: compileChunk(f.Stmts, false)}
	for n := range names {
		p.predeclared = append(p.predeclared, n)
	}
	sort.Strings(p.predeclared)
	return p, nil
}

// Kernels returns the program's kernels, checked and lowered to IR, in
// the order of their declarations (`gscript cuda` prints their CUDA C).
func (p *Program) Kernels() []*Kernel {
	var out []*Kernel
	for d := range p.info.Kernels {
		out = append(out, kernelValue(p.info, d))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos.Offset < out[j].Pos.Offset })
	return out
}

// Run runs a compiled program in the interpreter. The program gets a fresh
// global table (an interpreter runs one program at a time; Global, SetGlobal
// and Call then find its globals first), while the interpreter's arrays,
// configuration and devices carry over. Exec and ExecREPL chunks keep their
// own table beside it: they do not see the program's names, nor it theirs,
// and neither overwrites the other's (Global finds both).
func (in *Interp) Run(ctx context.Context, p *Program) error {
	for _, n := range p.predeclared {
		if _, ok := in.predeclared[n]; !ok {
			return fmt.Errorf("program %s was compiled with predeclared %s, which this interpreter lacks", p.file.Name, n)
		}
	}
	in.progGlobals = &globalTable{vals: make([]cell, p.info.NumGlobals)}
	in.th.globals = in.progGlobals
	in.th.imports, in.th.ran = p.imports, map[*module]bool{}
	in.prog = p
	_, err := in.run(ctx, p.file, p.info, p.code, false)
	return err
}

// global finds the slot of a global: the program Run last ran has it,
// else the Exec/ExecREPL chunks run so far.
func (in *Interp) global(name string) (*cell, bool) {
	if in.prog != nil {
		if i, ok := in.prog.globals[name]; ok {
			return &in.progGlobals.vals[i], true
		}
	}
	if i, ok := in.checker.GlobalNames()[name]; ok && i < len(in.chunks.vals) {
		return &in.chunks.vals[i], true
	}
	return nil, false
}

// Global returns the value of a global variable (false when there is no
// such global or it has no value yet).
func (in *Interp) Global(name string) (Value, bool) {
	p, ok := in.global(name)
	if !ok || !p.set() {
		return nil, false
	}
	return p.box(), true
}

// SetGlobal sets an existing global variable.
func (in *Interp) SetGlobal(name string, v Value) error {
	p, ok := in.global(name)
	if !ok {
		return fmt.Errorf("no global %s", name)
	}
	*p = valCell(v)
	return nil
}

// Call calls a script fn (or any callable value) from Go: by value, or by
// the name of a global. Errors are *EvalError values with a backtrace.
func (in *Interp) Call(ctx context.Context, fn any, args ...Value) (Value, error) {
	f, ok := fn.(Value)
	if name, isName := fn.(string); isName {
		if f, ok = in.Global(name); !ok {
			return nil, fmt.Errorf("no global fn %s", name)
		}
	}
	if !ok {
		return nil, fmt.Errorf("Call: want a Value or a global's name, got %T", fn)
	}
	var v Value
	err := in.th.session(ctx, func() error {
		var err error
		v, err = in.th.Call(f, &Args{Positional: args})
		if err != nil {
			var ee *EvalError
			if !errors.As(err, &ee) {
				err = &EvalError{Msg: err.Error(), Cause: err}
			}
		}
		return err
	})
	return v, err
}

// ---- Go values in and out ----

// Elem is the Go element types that map to gscript dtypes.
type Elem interface {
	~bool | ~uint8 | ~int32 | ~int64 | ~uint32 | ~uint64 | ~float32 | ~float64
}

func dtypeOf[T Elem]() ir.Type {
	var z T
	switch any(z).(type) {
	case bool:
		return ir.Bool
	case uint8:
		return ir.U8
	case int32:
		return ir.I32
	case int64:
		return ir.I64
	case uint32:
		return ir.U32
	case uint64:
		return ir.U64
	case float32:
		return ir.F32
	case float64:
		return ir.F64
	}
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Bool:
		return ir.Bool
	case reflect.Uint8:
		return ir.U8
	case reflect.Int32:
		return ir.I32
	case reflect.Int64:
		return ir.I64
	case reflect.Uint32:
		return ir.U32
	case reflect.Uint64:
		return ir.U64
	case reflect.Float32:
		return ir.F32
	}
	return ir.F64
}

// sliceAllocator serves exactly one Go slice; the array keeps the slice
// reachable, so the garbage collector (which never moves heap objects)
// keeps the memory in place while the array lives.
type sliceAllocator struct {
	keep any
	ptr  uintptr
}

func (s *sliceAllocator) Name() string                { return "go-slice" }
func (s *sliceAllocator) Kind() mem.Kind              { return mem.Host }
func (s *sliceAllocator) AppliesTo(d mem.Device) bool { return d.Type == mem.CPU }
func (s *sliceAllocator) Alloc(mem.Device, int) (uintptr, error) {
	p := s.ptr
	s.ptr = 0
	if p == 0 {
		return 0, errors.New("a Go slice backs exactly one array")
	}
	return p, nil
}
func (s *sliceAllocator) Free(mem.Device, uintptr, int) error {
	s.keep = nil
	return nil
}

// WrapSlice makes a cpu array of the given shape over the elements of s,
// without copying: scripts read and write s directly. Lifetime: the array
// keeps s alive; the host must not use s concurrently with a script that
// writes it, and must not pass the array to CUDA launches (Go memory is
// pageable host memory, which the GPUs here cannot read). A nil shape means
// 1-D of len(s). Close frees and untracks the array (the slice is the
// host's again); after Close, WrapSlice is ErrClosed.
func WrapSlice[T Elem](in *Interp, s []T, shape ...int) (*Array, error) {
	if len(shape) == 0 {
		shape = []int{len(s)}
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n != len(s) {
		return nil, fmt.Errorf("WrapSlice: shape %v has %d elements, the slice %d", shape, n, len(s))
	}
	if in.th.closed {
		return nil, ErrClosed
	}
	alloc := &sliceAllocator{keep: s}
	if n > 0 {
		alloc.ptr = uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	}
	a, err := in.th.Tracker.New(alloc, mem.CPUDevice, dtypeOf[T](), shape)
	if err != nil {
		return nil, err
	}
	return &Array{A: a}, nil
}

// CopyToSlice copies an array's elements, in C order, into dst (which must
// have exactly a.Size() elements of the array's dtype), from any device.
// An array of a compound type (a.ElemType() is vec3 ...) copies as its
// lanes: dst holds a.Size() * Lanes values of the lane type.
func CopyToSlice[T Elem](a *Array, dst []T) error {
	if a.Compound() {
		a = &Array{A: a.A}
	}
	if dtypeOf[T]() != a.A.DType() {
		return fmt.Errorf("CopyToSlice: array of %s into a slice of %s", a.A.DType(), dtypeOf[T]())
	}
	if len(dst) != a.A.Size() {
		return fmt.Errorf("CopyToSlice: %d elements into a slice of %d", a.A.Size(), len(dst))
	}
	if len(dst) == 0 {
		return nil
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*a.A.DType().Size())
	i := 0
	return ArrayElems(a.A, func(bits uint64) {
		mem.StoreBits(out, a.A.DType(), i, bits)
		i++
	})
}

// WrapPointer makes an array over memory the host program owns: a CUDA
// device, managed, pool or pinned pointer (classified once with the driver,
// MEMORY.md section 1; a pointer from another device than dev is an error)
// or, on "cpu", host memory. release, if not nil, runs when the array is
// freed (at the latest by Close). The memory must stay valid until then.
// After Close, WrapPointer is ErrClosed.
func WrapPointer(in *Interp, ptr uintptr, dtype ir.Type, shape []int, device string, release func() error) (*Array, error) {
	if in.th.closed {
		return nil, ErrClosed
	}
	dev, err := in.th.parseDevice(device)
	if err != nil {
		return nil, err
	}
	a, err := mem.Wrap(in.th.Tracker, ptr, dtype, shape, dev, release)
	if err != nil {
		return nil, err
	}
	return &Array{A: a}, nil
}

// RegisterAllocator adds a custom allocator (MEMORY.md section 2) that
// scripts can name in `using`, `allocator=` and allocator scopes.
func (in *Interp) RegisterAllocator(name string, a mem.Allocator) error {
	return in.th.Allocs.RegisterAllocator(name, a)
}

// DevicePointer is the address of element [0, ...] of a, for other Go code
// (a CUDA library, say). It stays valid while a is alive and not freed.
func (a *Array) DevicePointer() (uintptr, error) { return a.A.Ptr() }

// Float64s is v's lanes as float64s, in dtype's C order (a matrix's rows
// one after another); every lane type converts exactly.
func (v *Vector) Float64s() []float64 {
	out := make([]float64, len(v.Lanes))
	for i, b := range v.Lanes {
		out[i] = laneFloat(v.T.Elem, b)
	}
	return out
}

// Float32s is v's lanes as float32s, for a vector of f32 lanes (vec3,
// mat33, quat ...).
func (v *Vector) Float32s() ([]float32, error) {
	if v.T.Elem != ir.F32 {
		return nil, fmt.Errorf("Float32s of a %s: its lanes are %s (use Float64s)", v.T, v.T.Elem)
	}
	out := make([]float32, len(v.Lanes))
	for i, b := range v.Lanes {
		out[i] = math.Float32frombits(uint32(b))
	}
	return out, nil
}

// laneFloat is a lane's value from its raw bits.
func laneFloat(t ir.Type, bits uint64) float64 {
	switch t {
	case ir.F32:
		return float64(math.Float32frombits(uint32(bits)))
	case ir.F64:
		return math.Float64frombits(bits)
	}
	return float64(int32(bits))
}

// ---- Go functions as builtins ----

var (
	valueType = reflect.TypeFor[Value]()
	errorType = reflect.TypeFor[error]()
)

// Func wraps an ordinary Go function as a builtin, converting arguments
// and results by reflection: parameters of kind bool, int*, uint*,
// float*, string, Value (passed as is) and *Array; results of those kinds
// (or none), optionally followed by an error. A variadic Go function takes
// any number of trailing arguments. The typed fast form is a *Builtin.
func Func(name string, fn any) (*Builtin, error) {
	v := reflect.ValueOf(fn)
	t := v.Type()
	if t.Kind() != reflect.Func {
		return nil, fmt.Errorf("Func %s: want a function, got %T", name, fn)
	}
	nout := t.NumOut()
	if nout > 2 || (nout == 2 && t.Out(1) != errorType) {
		return nil, fmt.Errorf("Func %s: results must be (), (T), (error) or (T, error)", name)
	}
	return &Builtin{Name: name, Fn: func(th *Thread, args *Args) (Value, error) {
		if len(args.Names) > 0 {
			return nil, fmt.Errorf("%s takes no keyword arguments", name)
		}
		in, err := goArgs(name, t, args.Positional)
		if err != nil {
			return nil, err
		}
		out := v.Call(in)
		if nout > 0 && t.Out(nout-1) == errorType {
			if e, _ := out[nout-1].Interface().(error); e != nil {
				return nil, e
			}
			out = out[:nout-1]
		}
		if len(out) == 0 {
			return Nil, nil
		}
		return fromGo(out[0])
	}}, nil
}

func goArgs(name string, t reflect.Type, vals []Value) ([]reflect.Value, error) {
	n := t.NumIn()
	if (!t.IsVariadic() && len(vals) != n) || (t.IsVariadic() && len(vals) < n-1) {
		return nil, fmt.Errorf("%s takes %d arguments, got %d", name, n, len(vals))
	}
	in := make([]reflect.Value, len(vals))
	for i, v := range vals {
		pt := t.In(min(i, n-1))
		if t.IsVariadic() && i >= n-1 {
			pt = pt.Elem()
		}
		rv, err := toGo(v, pt)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %d: %v", name, i+1, err)
		}
		in[i] = rv
	}
	return in, nil
}

func toGo(v Value, t reflect.Type) (reflect.Value, error) {
	if t == valueType {
		return reflect.ValueOf(&v).Elem(), nil
	}
	if t == reflect.TypeFor[*Array]() {
		if a, ok := v.(*Array); ok {
			return reflect.ValueOf(a), nil
		}
		return reflect.Value{}, fmt.Errorf("want an array, got %s", describe(v))
	}
	out := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Bool:
		b, ok := v.(Bool)
		if !ok {
			return reflect.Value{}, fmt.Errorf("want a bool, got %s", describe(v))
		}
		out.SetBool(bool(b))
	case reflect.String:
		s, ok := v.(String)
		if !ok {
			return reflect.Value{}, fmt.Errorf("want a string, got %s", describe(v))
		}
		out.SetString(string(s))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := toInt(v)
		if err != nil {
			return reflect.Value{}, err
		}
		if out.OverflowInt(int64(i)) {
			return reflect.Value{}, fmt.Errorf("%d overflows %s", i, t)
		}
		out.SetInt(int64(i))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		i, err := toInt(v)
		if err != nil {
			return reflect.Value{}, err
		}
		if i < 0 || out.OverflowUint(uint64(i)) {
			return reflect.Value{}, fmt.Errorf("%d overflows %s", i, t)
		}
		out.SetUint(uint64(i))
	case reflect.Float32, reflect.Float64:
		f, err := ToFloat(v)
		if err != nil {
			return reflect.Value{}, err
		}
		out.SetFloat(f)
	default:
		return reflect.Value{}, fmt.Errorf("unsupported parameter type %s", t)
	}
	return out, nil
}

func fromGo(v reflect.Value) (Value, error) {
	if v.Type() == valueType || v.Type().Implements(valueType) {
		if v.IsNil() {
			return Nil, nil
		}
		return v.Interface().(Value), nil
	}
	switch v.Kind() {
	case reflect.Bool:
		return Bool(v.Bool()), nil
	case reflect.String:
		return String(v.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int(v.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u := v.Uint()
		if u > 1<<63-1 {
			return nil, fmt.Errorf("result %d overflows int", u)
		}
		return Int(int64(u)), nil
	case reflect.Float32, reflect.Float64:
		return Float(v.Float()), nil
	}
	return nil, fmt.Errorf("unsupported result type %s", v.Type())
}
