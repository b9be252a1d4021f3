// Package backend is the one interface between the host and the devices
// that run kernels. A backend compiles a kernel's IR for a device into a
// Program and launches it with arguments packed as Args; runtime/cpu and
// the CUDA backend (runtime/cuda/kernel) implement it and register
// themselves here, so the interpreter and the standard library launch
// script kernels and generated ones (fills, reductions) the same way on
// every device, knowing no backend's types.
//
// # Decisions
//
//   - Registration: a backend registers itself for a device type in its
//     package's init (Register), as image formats and database/sql drivers
//     do; stdlib links the standard two, so every embedding that uses the
//     standard library has both. For reports a device type without one.
//   - Programs belong to one caller: a Program keeps the packed parameters
//     of its last launch (the one "nothing changed since the last launch"
//     cache of the launch path), so it is not safe for concurrent use.
//     Compile is safe for concurrent use; NVRTC binaries are cached on disk
//     and shared.
//   - CheckLaunch is the one owner of the launch rules (argument count,
//     1 to 4 dimensions and tid()'s, extents, 2^31-1 threads, a block
//     kernel's grid, array arguments' extents, data and fields), each with
//     its one message: every Program.Launch calls it first, and a caller
//     with source positions (interp) does not check them again but points
//     at the part a LaunchError names, adding only what needs the source
//     (hints such as "launch it over a grid of blocks").
//   - Argument packing, access checks and stream ordering are the
//     caller's, with runtime/mem's rules; a Program returns errors, never
//     panics.
package backend

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Arg is one launch argument: Array for array parameters; Bits for scalar
// parameters (the value's raw bits in the low bytes: math.Float32bits for
// f32, sign-extended for i32 and i64, 0 or 1 for bool).
type Arg struct {
	Array Array
	Bits  uint64
}

// Array is an array argument: the address of element [0, ...] on the
// launch's device, and the shape and strides in elements (the first NDim
// entries of the parameter).
type Array struct {
	Data    uintptr
	Shape   [4]int
	Strides [4]int
	// Name is the argument's name in the launch, for messages (empty: the
	// parameter's name).
	Name string
}

// ArrayArg packs a as an argument named name.
func ArrayArg(a *mem.Array, ptr uintptr, name string) Arg {
	arg := Arg{Array: Array{Data: ptr, Name: name}}
	copy(arg.Array.Shape[:], a.Shape())
	copy(arg.Array.Strides[:], a.Strides())
	return arg
}

// UnitInner reports whether the array's innermost axis (of ndim) is
// contiguous, or too short for its stride to matter.
func (a *Array) UnitInner(ndim int) bool {
	return a.Strides[ndim-1] == 1 || a.Shape[ndim-1] <= 1
}

// Options shape a compile.
type Options struct {
	// Debug adds bounds and division checks where a backend has them off
	// by default (CUDA); the cpu always checks.
	Debug bool
	// FastMath compiles the kernel as if its ir.Kernel.FastMath were set
	// (config.fast_math): a backend ORs the two.
	FastMath bool
}

// Env is the caller's side of launches: where device print output goes,
// the flag that cancels, and what a backend remembers of the caller's OS
// thread. One goroutine uses an Env at a time.
type Env struct {
	Out    io.Writer    // device print output (nil: discarded)
	Cancel *atomic.Bool // polled by long-running launches; true stops them with ErrCanceled
	// Steps, when non-nil, counts kernel loop iterations (one per thread
	// per evaluation of a loop condition) across launches; a launch that
	// takes it past MaxSteps stops with an error wrapping ErrStepBudget.
	// Only the cpu backend counts: CUDA kernels are bounded by the
	// cancellation of the waits for them (Cancel, a context's deadline).
	Steps    *atomic.Int64
	MaxSteps int64
	// FrameBudget, when positive, is the bytes the cpu backend's worker
	// frames (each worker's local and shared arrays) may take together in
	// a launch: the caller's memory limit left over. Fewer workers run
	// where that bounds them; a launch whose one frame does not fit fails.
	FrameBudget int64
	// Pinned says the goroutine holds its OS thread locked for as long as
	// it uses this Env (runtime.LockOSThread), so a backend may leave its
	// device context current on the thread between launches.
	Pinned bool
	// Current is the backends' record of the device context current on a
	// pinned thread (0: unknown). A caller that changes the thread's
	// context resets it.
	Current uintptr
}

// Geometry is how a backend runs a launch of some extents. A block
// kernel's is exactly its block and grid, with PerThread 1.
type Geometry struct {
	Block     int // threads of one block (cpu: lanes run together)
	Blocks    int
	PerThread int // launch threads each device thread runs (coarsening)
}

// Backend compiles kernels for the devices of one type.
type Backend interface {
	// Compile prepares k (verified with ir.Verify) to run on dev.
	Compile(k *ir.Kernel, dev mem.Device, opts Options) (Program, error)
}

// Program is a kernel compiled for one device.
type Program interface {
	// Geometry is how a launch over dims runs.
	Geometry(dims []int) Geometry
	// Launch runs the kernel over dims (1-4 extents, their product at most
	// 2^31-1) threads with args, one per kernel parameter; for a block
	// kernel dims is the grid, blocks per axis. It checks CheckLaunch's
	// rules before anything else. The cpu runs it
	// to completion; CUDA queues it on the device's stream (in a Debug
	// build it waits and reports a failed check, except while the stream
	// is captured). It allocates nothing in steady state.
	Launch(env *Env, dims []int, args []Arg) error
}

// MaxThreads is the most threads of a flat kernel's launch, and the
// most blocks of a block kernel's (tid() is an i32).
const MaxThreads = 1<<31 - 1

// gridLimits are the blocks a grid may have along its last axis (CUDA's
// x) and along each other axis, on every backend alike.
var gridLimits = [2]int{1<<31 - 1, 65535}

// LaunchPart is the part of a launch that a LaunchError is about, so that
// a caller with source positions can point at it.
type LaunchPart uint8

const (
	PartLaunch LaunchPart = iota // the launch as a whole: its argument count or number of dimensions
	PartDim                      // dimension Index: its extent, or (Index 0) their number against tid()'s
	PartGrid                     // a block kernel's grid: its number of axes or the blocks of axis Index
	PartArg                      // argument Index: an array's extents, data or fields
)

// LaunchError is a launch that breaks one of CheckLaunch's rules.
type LaunchError struct {
	Part  LaunchPart
	Index int // the dimension, grid axis or argument Part names
	Msg   string
}

func (e *LaunchError) Error() string { return e.Msg }

func launchErr(part LaunchPart, index int, format string, args ...any) error {
	return &LaunchError{Part: part, Index: index, Msg: fmt.Sprintf(format, args...)}
}

// CheckLaunch checks a launch of k over dims with args against every
// launch rule, each with its one message (a *LaunchError): one argument
// per parameter; a flat kernel's 1 to 4 dimensions, as many as tid() is
// unpacked into (TidDims; the tid axes a kernel reads are below
// max(TidDims, 1), ir.Verify's rule, so this covers them); a block
// kernel's grid of one extent per block axis within CUDA's grid limits;
// no negative extent and at most MaxThreads threads (a block kernel:
// blocks); array arguments without negative extents, with data unless
// empty, and what fields need of them (CheckFields, with fields =
// ir.FieldNeeds(k), which a backend computes once at compile time). Every
// backend's Program.Launch calls it first. It allocates only for an error.
func CheckLaunch(k *ir.Kernel, fields []ir.FieldNeed, dims []int, args []Arg) error {
	name := k.Entry.Name
	if len(args) != len(k.Entry.Params) {
		return launchErr(PartLaunch, 0, "kernel %s takes %d arguments, got %d", name, len(k.Entry.Params), len(args))
	}
	if err := checkRank(k, dims); err != nil {
		return err
	}
	counts, total := "threads", 1
	if k.IsBlock() {
		counts = "blocks"
	}
	for i, d := range dims {
		if d < 0 {
			return launchErr(PartDim, i, "kernel %s: negative launch dimension %d", name, d)
		}
		if d != 0 && total > MaxThreads/d {
			return launchErr(PartDim, i, "kernel %s: launch of more than 2^31-1 %s", name, counts)
		}
		total *= d
	}
	if err := checkGrid(k, dims); err != nil {
		return err
	}
	if err := checkArrays(k, args); err != nil {
		return err
	}
	return CheckFields(k, fields, args)
}

// checkRank checks the number of dimensions: a block kernel's grid has
// one per block axis, a flat kernel 1 to 4, as many as tid() has names.
func checkRank(k *ir.Kernel, dims []int) error {
	name := k.Entry.Name
	switch {
	case k.IsBlock() && len(dims) != len(k.Block):
		return launchErr(PartGrid, 0, "kernel %s has a %d-D block (%s) and is launched over a %d-D grid", name, len(k.Block), BlockString(k.Block), len(dims))
	case len(dims) < 1 || len(dims) > 4:
		return launchErr(PartLaunch, 0, "kernel %s: a launch has 1 to 4 dimensions, got %d", name, len(dims))
	case k.TidDims > 0 && k.TidDims != len(dims):
		return launchErr(PartDim, 0, "kernel %s unpacks tid() into %d names but is launched with %d dimensions", name, k.TidDims, len(dims))
	}
	return nil
}

// BlockString writes a block shape as a kernel declares it: block(16, 16).
func BlockString(block []int) string {
	var b strings.Builder
	b.WriteString("block(")
	for i, d := range block {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteString(")")
	return b.String()
}

// checkGrid checks the blocks of a block kernel's grid (of the right
// rank, none negative): each axis within CUDA's grid limits, on every
// backend alike (0 blocks launches nothing). A flat kernel has no grid.
func checkGrid(k *ir.Kernel, dims []int) error {
	if !k.IsBlock() {
		return nil
	}
	for i, d := range dims {
		limit := gridLimits[1]
		if i == len(dims)-1 {
			limit = gridLimits[0]
		}
		if d > limit {
			return launchErr(PartGrid, i, "kernel %s: grid axis %d has %d blocks, want 0..%d", k.Entry.Name, i, d, limit)
		}
	}
	return nil
}

// checkArrays checks the array arguments: no negative extent, and data
// unless the array is empty (an extent of 0: nothing is accessed).
func checkArrays(k *ir.Kernel, args []Arg) error {
	for i, prm := range k.Entry.Params {
		if !prm.IsArray() {
			continue
		}
		a := &args[i].Array
		empty := false
		for ax := range prm.NDim {
			if a.Shape[ax] < 0 {
				return launchErr(PartArg, i, "kernel %s: argument %s has negative extent %d", k.Entry.Name, a.argName(prm), a.Shape[ax])
			}
			empty = empty || a.Shape[ax] == 0
		}
		if !empty && a.Data == 0 {
			return launchErr(PartArg, i, "kernel %s: argument %s has no data", k.Entry.Name, a.argName(prm))
		}
	}
	return nil
}

// argName is the array's name in messages: its name in the launch, else
// the parameter's.
func (a *Array) argName(prm ir.Param) string {
	if a.Name == "" {
		return prm.Name
	}
	return a.Name
}

// KernelError is a run-time failure inside a kernel: an out-of-bounds
// index or an integer division by zero, at the failing instruction.
type KernelError struct {
	Pos    pos.Pos
	Kernel string
	Msg    string
	Err    error // the cause when it is a sentinel (ErrStepBudget), else nil
}

func (e *KernelError) Error() string { return fmt.Sprintf("%s: kernel %s: %s", e.Pos, e.Kernel, e.Msg) }

func (e *KernelError) Unwrap() error { return e.Err }

// CompileError is a failure of a device compiler (NVRTC). Pos is the
// script position of the first message (the kernel's when none maps) and
// Log the compiler's messages rewritten to name script positions.
type CompileError struct {
	Kernel string
	Pos    pos.Pos
	Log    string
	Err    error
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("compilation of kernel %s failed: %v\n%s", e.Kernel, e.Err, e.Log)
}

func (e *CompileError) Unwrap() error { return e.Err }

// ErrCanceled is returned by a launch stopped through Env.Cancel.
var ErrCanceled = errors.New("launch canceled")

// ErrStepBudget is wrapped by the error of a launch that spent Env.MaxSteps.
var ErrStepBudget = errors.New("kernel step budget exhausted")

var registry struct {
	mu sync.RWMutex
	by map[mem.DeviceType]Backend
}

// Register makes b the backend of the devices of type t.
func Register(t mem.DeviceType, b Backend) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.by == nil {
		registry.by = map[mem.DeviceType]Backend{}
	}
	registry.by[t] = b
}

// For returns the backend of dev's type.
func For(dev mem.Device) (Backend, error) {
	registry.mu.RLock()
	b := registry.by[dev.Type]
	registry.mu.RUnlock()
	if b == nil {
		return nil, fmt.Errorf("no backend runs kernels on %s in this program (link one: the standard library links cpu and CUDA)", dev)
	}
	return b, nil
}

// Compile compiles k for dev with dev's backend.
func Compile(k *ir.Kernel, dev mem.Device, opts Options) (Program, error) {
	b, err := For(dev)
	if err != nil {
		return nil, err
	}
	return b.Compile(k, dev, opts)
}

// CheckFields checks the array arguments that a kernel's field accesses
// reach against needs (ir.FieldNeeds of the kernel): the byte axis (the
// last) has stride 1 and holds the fields, and the data address and the
// other strides are multiples of the alignment, so that no access leaves
// its element or is misaligned. Strides of axes of one element do not
// matter. It allocates only for an error.
func CheckFields(k *ir.Kernel, needs []ir.FieldNeed, args []Arg) error {
	for _, n := range needs {
		prm := k.Entry.Params[n.Param]
		a := &args[n.Param].Array
		name := a.argName(prm)
		last := prm.NDim - 1
		switch {
		case a.Shape[last] < n.Bytes:
			return launchErr(PartArg, n.Param, "kernel %s: argument %s has %d bytes per element (its last axis), its fields need %d", k.Entry.Name, name, a.Shape[last], n.Bytes)
		case !a.UnitInner(prm.NDim):
			return launchErr(PartArg, n.Param, "kernel %s: argument %s has stride %d on its byte axis (the last), want 1", k.Entry.Name, name, a.Strides[last])
		case a.Data%uintptr(n.Align) != 0:
			return launchErr(PartArg, n.Param, "kernel %s: argument %s is at address %#x, not a multiple of %d as its fields need", k.Entry.Name, name, a.Data, n.Align)
		}
		for ax := range last {
			if a.Shape[ax] > 1 && a.Strides[ax]%n.Align != 0 {
				return launchErr(PartArg, n.Param, "kernel %s: argument %s has a stride of %d bytes on axis %d, not a multiple of %d as its fields need", k.Entry.Name, name, a.Strides[ax], ax, n.Align)
			}
		}
	}
	return nil
}
