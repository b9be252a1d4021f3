package codegen

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// ErrorSymbol is the name of the __device__ error record of a Debug build
// (struct gs_error_t, ErrorRecordSize bytes, zero when no error happened).
// The host finds it with cuModuleGetGlobal, zeroes it before a launch and
// reads it after the launch completes.
const ErrorSymbol = "gs_error"

// ErrorRecordSize is the size of the device error record in bytes.
const ErrorRecordSize = 48

// ErrorCode says which run-time check failed.
type ErrorCode int64

const (
	ErrNone    ErrorCode = 0 // no error was recorded
	ErrBounds  ErrorCode = 1 // an index was out of bounds
	ErrDivZero ErrorCode = 2 // integer division or remainder by zero
)

// ErrorRecord is the decoded device error record: the first failing check
// of a launch (later ones are dropped). Inst is an instruction id of
// DebugInfo; Param is the kernel entry's parameter index of the array (also
// when the access was inside a device func), -1 for a shared or local
// array (the instruction names it); Axis, Index and Extent describe the
// failed bounds check (Index as a signed 64-bit value).
type ErrorRecord struct {
	Code   ErrorCode
	Inst   int64
	Param  int64
	Axis   int64
	Index  int64
	Extent int64
}

// DecodeErrorRecord reads the record from the bytes copied from ErrorSymbol
// (little-endian, as the GPU writes it).
func DecodeErrorRecord(b []byte) (ErrorRecord, error) {
	if len(b) < ErrorRecordSize {
		return ErrorRecord{}, fmt.Errorf("error record: %d bytes, want %d", len(b), ErrorRecordSize)
	}
	w := func(i int) int64 { return int64(binary.LittleEndian.Uint64(b[8*i:])) }
	return ErrorRecord{ErrorCode(w(0)), w(1), w(2), w(3), w(4), w(5)}, nil
}

// InstInfo locates one instruction id.
type InstInfo struct {
	Pos  pos.Pos
	Func string // the kernel or device func holding it
	Op   ir.Op
	// Buffer is the shared or local array the instruction accesses (nil
	// for an array parameter and for instructions without an array).
	Buffer *ir.Buffer
}

// DebugTable maps the instruction ids of a Debug build to source positions,
// and entry parameter indices to names.
type DebugTable struct {
	Kernel string
	Params []string
	Insts  []InstInfo
}

// DebugInfo numbers k's instructions exactly as Source does: the entry's
// body, then each of k.Funcs in order; within a body in statement order, an
// If's Then before its Else, a Loop's Cond, Body, then Post.
func DebugInfo(k *ir.Kernel) *DebugTable {
	t := &DebugTable{}
	if k == nil || k.Entry == nil {
		return t
	}
	t.Kernel = k.Entry.Name
	for _, p := range k.Entry.Params {
		t.Params = append(t.Params, p.Name)
	}
	walkKernel(k, func(f *ir.Func, in *ir.Inst) {
		t.Insts = append(t.Insts, InstInfo{in.Pos, f.Name, in.Op, instBuffer(k, f, in)})
	})
	return t
}

// instBuffer is the shared or local array in accesses (nil if none).
func instBuffer(k *ir.Kernel, f *ir.Func, in *ir.Inst) *ir.Buffer {
	bs := f.Locals
	switch in.Space {
	case ir.SpaceParam:
		return nil
	case ir.SpaceShared:
		bs = k.Shared
	}
	if in.Param < 0 || in.Param >= len(bs) {
		return nil
	}
	b := bs[in.Param]
	return &b
}

// walkKernel visits every instruction of k in id order.
func walkKernel(k *ir.Kernel, visit func(f *ir.Func, in *ir.Inst)) {
	walkStmts(k.Entry, k.Entry.Body, visit)
	for _, f := range k.Funcs {
		if f != nil {
			walkStmts(f, f.Body, visit)
		}
	}
}

func walkStmts(f *ir.Func, ss []ir.Stmt, visit func(f *ir.Func, in *ir.Inst)) {
	for _, s := range ss {
		switch s := s.(type) {
		case *ir.Inst:
			if s != nil {
				visit(f, s)
			}
		case *ir.If:
			if s != nil {
				walkStmts(f, s.Then, visit)
				walkStmts(f, s.Else, visit)
			}
		case *ir.Loop:
			if s != nil {
				walkStmts(f, s.Cond, visit)
				walkStmts(f, s.Body, visit)
				walkStmts(f, s.Post, visit)
			}
		}
	}
}

// Describe turns a recorded error into the position and message the CPU
// executor reports for the same failure. names[i] is the launch's name for
// entry parameter i (empty or missing: the parameter's own name); shapes[i]
// its shape (missing: only the failing extent is known).
func (t *DebugTable) Describe(rec ErrorRecord, names []string, shapes [][]int) (pos.Pos, string) {
	var pos pos.Pos
	if rec.Inst >= 0 && rec.Inst < int64(len(t.Insts)) {
		pos = t.Insts[rec.Inst].Pos
	}
	switch rec.Code {
	case ErrDivZero:
		return pos, "integer division by zero"
	case ErrBounds:
		name, shape := t.paramName(rec.Param, names), shapeString(rec, shapes)
		if b := t.buffer(rec); b != nil {
			name, shape = b.Name, dimsString(b.Dims)
		}
		return pos, fmt.Sprintf("index %d out of bounds for axis %d of array %s with shape %s", rec.Index, rec.Axis, name, shape)
	}
	return pos, fmt.Sprintf("unknown kernel error code %d", rec.Code)
}

func (t *DebugTable) paramName(p int64, names []string) string {
	if p >= 0 && p < int64(len(names)) && names[p] != "" {
		return names[p]
	}
	if p >= 0 && p < int64(len(t.Params)) {
		return t.Params[p]
	}
	return fmt.Sprintf("#%d", p)
}

// buffer is the shared or local array of a failed bounds check (nil for
// an array parameter).
func (t *DebugTable) buffer(rec ErrorRecord) *ir.Buffer {
	if rec.Param >= 0 || rec.Inst < 0 || rec.Inst >= int64(len(t.Insts)) {
		return nil
	}
	return t.Insts[rec.Inst].Buffer
}

func shapeString(rec ErrorRecord, shapes [][]int) string {
	if rec.Param >= 0 && rec.Param < int64(len(shapes)) && shapes[rec.Param] != nil {
		return dimsString(shapes[rec.Param])
	}
	return fmt.Sprintf("[... axis %d: %d ...]", rec.Axis, rec.Extent)
}

func dimsString(dims []int) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
