package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/runtime/dist"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Options configure an Interp. The zero value is usable: output goes to
// os.Stdout and os.Stderr and the default device is chosen automatically.
type Options struct {
	Stdout io.Writer
	Stderr io.Writer
	// Device overrides the default device ("cpu", "cuda:0", ...).
	Device string
	// LaunchAccess sets config.launch_access initially ("" = "checked").
	LaunchAccess string
	// Prefetch sets config.prefetch initially ("" = "auto").
	Prefetch string
	// Predeclared adds host values (the standard library, host functions).
	Predeclared map[string]Value
	// MemoryLimit, when positive, caps the bytes of live arrays and of
	// the host strings and lists a script builds (1 KiB and more,
	// mem.HoldHost); dropped values are collected before it is reported
	// (mem.Tracker). Without a limit strings and lists are still capped
	// by MaxStringBytes and MaxListLen. Imported files count while
	// loaded, and a cpu kernel's local and shared arrays take what is left
	// for the launch (fewer workers run; a frame that does not fit fails).
	MemoryLimit int64
	// MaxSteps, when positive, caps the loop iterations and fn calls of
	// one Exec, Run or Call: a runaway script gets an error.
	MaxSteps int64
	// MaxDepth caps how deeply fn calls nest (default DefaultMaxDepth):
	// deeper recursion is a positioned error that try cannot catch, never
	// a Go stack overflow.
	MaxDepth int
	// MaxKernelSteps, when positive, caps the loop iterations of the cpu
	// kernels one Exec, Run or Call launches, counted per thread (a loop
	// of 100 iterations in each of 1000 threads is 100000 steps); the
	// launch that spends it fails. Kernel steps are far cheaper than host
	// steps, hence a budget of their own. CUDA kernels are not counted:
	// they are bounded by the context's deadline and cancellation, which
	// end the waits for them (the device finishes the queued work).
	MaxKernelSteps int64
	// Logger receives warnings (failed background frees, unknown memory
	// in launches). Nil: they are written to Stderr.
	Logger *slog.Logger
	// Allocators registers custom allocators by name (MEMORY.md section 2).
	Allocators map[string]mem.Allocator
	// DefaultAllocators sets per-device default allocators, by device name
	// ("cpu", "cuda:0"): they win over the built-in defaults.
	DefaultAllocators map[string]mem.Allocator
	// Files is the file access of every file builtin. Nil grants none: scripts
	// of an embedding program touch no file unless it says so. AllFiles
	// grants what the process may (the CLI); RootedFiles confines reading
	// and writing to directories.
	Files *FileAccess
	// Argv is the script's `argv`, as Python's sys.argv: the script's
	// name, then its arguments. Nil: an empty list.
	Argv []string
	// Env is what env(name) reads: the value of name and whether it is
	// set. Nil grants no environment (env fails with ErrNoEnvAccess), as
	// Files grants no files; os.LookupEnv grants the process's (the CLI).
	Env func(name string) (string, bool)
	// Dist places the script in a distributed run (SCALE.md): its rank,
	// the world's size and the store's address, as a launcher's variables
	// do for the CLI (dist.FromEnv). Nil: the script runs alone, rank 0
	// of 1, and every collective is a copy.
	Dist *dist.Config
}

// accessState is the peer and pool access gscript enabled: CUDA state of
// the whole process, so one value serves every interpreter.
var accessState = mem.NewAccessState()

// Interp is one interpreter: globals, configuration, devices in use and the
// arrays it made. It is not safe for concurrent use.
type Interp struct {
	checker     *check.Checker
	imports     *importer // files Exec, ExecREPL and Check chunks import
	predeclared map[string]Value
	th          *Thread
	prog        *Program     // the program Run last ran, if any
	progGlobals *globalTable // its globals
	chunks      *globalTable // the globals of the Exec and ExecREPL chunks
}

// globalTable is one table of global slots: a Run program's (with its
// imports'), or the Exec/ExecREPL chunks' (with theirs). The two are
// numbered by different checkers, so they never share slots; a fn reads
// the table it was defined in, whichever ran last.
type globalTable struct{ vals []cell }

// Thread is the execution state that builtins see: output, the current
// device and allocator scopes, configuration and the live arrays.
type Thread struct {
	in        *Interp
	Stdout    io.Writer
	Stderr    io.Writer
	globals   *globalTable     // the table of the chunk or fn running
	stack     []*callRecord    // the fn calls running, and their frames (enter)
	depth     int              // how many of stack are running
	stale     int              // stack[depth:stale]'s frames may hold values of returned calls (vm.go)
	argPool   []*Args          // reused Args of method calls (methodArgs)
	argDepth  int              // how many of argPool are in use
	strBufs   *strBuffers      // the buffers s += t appends into (strs.go)
	maxDepth  int              // Options.MaxDepth
	devices   []mem.Device     // device scope stack; the last is current
	allocs    []mem.AllocScope // allocator scope stack, outermost first
	Config    *Config
	Tracker   *mem.Tracker
	Allocs    *mem.Registry // this interpreter's allocators
	canceled  atomic.Bool
	ctx       context.Context
	info      *check.Info      // the chunk being run: its kernels' IR
	lastPos   *ast.Pos         // the statement being run, for internal errors
	launcher  launcher         // launch state (launcher.go)
	capture   *mem.Capture     // the capture block recording, if any
	tape      *Tape            // the tape block recording, if any (tape.go)
	fresh     map[uint64]bool  // in a backward: the buffers whose gradients it has not reached yet
	locals    map[any]any      // builtins' per-thread state (Local)
	defDev    *mem.Device      // the default device, once resolved
	steps     int64            // loop iterations and calls in this session
	pollAt    int64            // the step at which step polls next
	maxSteps  int64            // Options.MaxSteps
	evalDepth int              // nested evals on the Go stack now
	logger    *slog.Logger     // Options.Logger
	warnMu    sync.Mutex       // Warn may run on cleanup goroutines
	files     *FileAccess      // Options.Files
	imports   *importer        // the running program's imported files
	ran       map[*module]bool // imported files whose top level has run
	closed    bool             // Close was called
	dist      *dist.Config     // Options.Dist
	closers   []func() error   // OnClose's, run by Close
}

// Warn reports a warning to the embedding program's logger, else to Stderr.
// It is safe to call from any goroutine.
func (th *Thread) Warn(msg string) {
	if th.logger != nil {
		th.logger.Warn(msg)
		return
	}
	th.warnMu.Lock()
	defer th.warnMu.Unlock()
	fmt.Fprintln(th.Stderr, "gscript: warning:", msg)
}

// step counts one loop iteration or call against the step budget and
// polls cancellation: a load and two compares, which every call and
// iteration pays (poll does the rest).
func (th *Thread) step() error {
	th.steps++
	if th.steps < th.pollAt && !th.canceled.Load() {
		return nil
	}
	return th.poll()
}

// poll is step's slow path: an interrupt, or the step budget reached; it
// sets the step at which the budget is checked again.
func (th *Thread) poll() error {
	if th.canceled.Load() {
		return ErrInterrupted
	}
	if th.maxSteps > 0 && th.steps > th.maxSteps {
		return stepBudgetError(th.maxSteps)
	}
	th.pollAt = math.MaxInt64
	if th.maxSteps > 0 {
		th.pollAt = th.maxSteps + 1
	}
	return nil
}

// maxEvalDepth bounds nested evaluation as a whole (expressions within
// expressions, across fn calls): about 130 MB of Go stack at its deepest.
const maxEvalDepth = 100_000

// errEvalDepth is the error of evaluation nested past maxEvalDepth.
var errEvalDepth = fmt.Errorf("evaluation nested too deeply (more than %d levels of expressions and calls)", maxEvalDepth)

// errStepBudget is what errors.Is finds in the error of a run past
// Options.MaxSteps.
var errStepBudget = errors.New("step budget exhausted")

type stepBudgetError int64

func (e stepBudgetError) Error() string {
	return fmt.Sprintf("step budget of %d loop iterations and calls exhausted", int64(e))
}
func (stepBudgetError) Unwrap() error { return errStepBudget }

// DefaultMaxDepth is Options.MaxDepth's default: as deep as CPython's
// default recursion limit allows ten times over, about 20 MB of Go stack.
const DefaultMaxDepth = 10_000

// New makes an interpreter.
func New(opts Options) (*Interp, error) {
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	in := &Interp{predeclared: map[string]Value{}, chunks: &globalTable{}}
	for name, v := range universe() {
		in.predeclared[name] = v
	}
	for name, v := range processBuiltins(opts) {
		in.predeclared[name] = v
	}
	for name, v := range opts.Predeclared {
		in.predeclared[name] = v
	}
	th := &Thread{in: in, globals: in.chunks, Stdout: opts.Stdout, Stderr: opts.Stderr, Config: newConfig(), ctx: context.Background(), logger: opts.Logger}
	th.maxSteps, th.launcher.maxK = opts.MaxSteps, opts.MaxKernelSteps
	if opts.MemoryLimit > 0 {
		th.launcher.room = func(want int64) int64 { return th.Tracker.Room(want) }
	}
	th.maxDepth = opts.MaxDepth
	if th.maxDepth <= 0 {
		th.maxDepth = DefaultMaxDepth
	}
	th.files = opts.Files
	if opts.Dist != nil {
		if err := opts.Dist.Validate(); err != nil {
			return nil, err
		}
		c := *opts.Dist
		th.dist = &c
	}
	in.imports = newImporter(opts.Files)
	th.imports, th.ran = in.imports, map[*module]bool{}
	th.Allocs = mem.NewRegistry()
	th.launcher.launches = mem.NewLaunchChecker(accessState, th.Warn)
	for name, a := range opts.Allocators {
		if err := th.Allocs.RegisterAllocator(name, a); err != nil {
			return nil, err
		}
	}
	for dev, a := range opts.DefaultAllocators {
		d, err := mem.ParseDevice(dev)
		if err == nil {
			err = th.Allocs.SetDefault(d, a)
		}
		if err != nil {
			return nil, err
		}
	}
	th.Tracker = mem.NewTracker(func(err error) { th.Warn(err.Error()) })
	th.Tracker.Trim = th.Allocs.TrimCaches // an allocation that fails trims every pool cache first
	th.Tracker.Limit = opts.MemoryLimit
	th.Config.tracker = th.Tracker
	in.th = th
	in.predeclared["config"] = th.Config
	in.predeclared["_"] = Nil // the REPL's last value
	if opts.Device != "" {
		d, err := th.parseDevice(opts.Device)
		if err != nil {
			return nil, err
		}
		th.defDev = &d
	}
	if opts.LaunchAccess != "" {
		if err := th.Config.set("launch_access", String(opts.LaunchAccess)); err != nil {
			return nil, err
		}
	}
	if opts.Prefetch != "" {
		if err := th.Config.set("prefetch", String(opts.Prefetch)); err != nil {
			return nil, err
		}
	}
	in.checker = check.NewChecker(func(name string) bool { _, ok := in.predeclared[name]; return ok })
	in.checker.SetExports(in.imports.exports)
	return in, nil
}

// Thread returns the interpreter's execution state (for builtins and tests).
func (in *Interp) Thread() *Thread { return in.th }

// compile parses and checks src, reporting every syntax, resolve and type
// error together. Loading its imports answers ctx and counts toward the
// MemoryLimit (importer).
func (in *Interp) compile(ctx context.Context, filename string, src []byte) (*ast.File, *check.Info, error) {
	f, err := syntax.Parse(filename, src)
	if err != nil {
		return nil, nil, err
	}
	in.imports.ctx, in.imports.tracker = ctx, in.th.Tracker
	err = in.imports.load(in.checker, f, []string{filename})
	in.imports.ctx = nil
	if err != nil {
		return nil, nil, err
	}
	info, err := checkChunk(in.checker, f)
	if err != nil {
		return nil, nil, err
	}
	return f, info, nil
}

// Check parses and checks src without running it.
func (in *Interp) Check(filename string, src []byte) error {
	_, _, err := in.compile(context.Background(), filename, src)
	return err
}

// Exec parses, checks and runs src. Compile errors come back as an
// ast.ErrorList, run-time errors as an *EvalError. Cancelling ctx stops the
// script at the next loop iteration, call or launch.
func (in *Interp) Exec(ctx context.Context, filename string, src []byte) error {
	f, info, err := in.compile(ctx, filename, src)
	if err != nil {
		return err
	}
	in.th.imports, in.th.globals = in.imports, in.chunks
	_, err = in.run(ctx, f, info, nil, false)
	return err
}

// ExecREPL runs one REPL entry like Exec. When the entry ends with an
// expression statement, its value is returned (nil when the entry ends
// otherwise or the value is nil) and stored in the predeclared `_`.
func (in *Interp) ExecREPL(ctx context.Context, filename string, src []byte) (Value, error) {
	f, info, err := in.compile(ctx, filename, src)
	if err != nil {
		return nil, err
	}
	in.th.imports, in.th.globals = in.imports, in.chunks
	v, err := in.run(ctx, f, info, nil, true)
	if err != nil || v == nil || v == Nil {
		return nil, err
	}
	in.predeclared["_"] = v
	return v, nil
}

// run executes a checked chunk. With lastValue, a final expression
// statement is evaluated for its value, which run returns.
// code is the chunk compiled (nil: run compiles it).
func (in *Interp) run(ctx context.Context, f *ast.File, info *check.Info, code *chunk, lastValue bool) (v Value, err error) {
	th := in.th
	for len(th.globals.vals) < info.NumGlobals {
		th.globals.vals = append(th.globals.vals, cell{})
	}
	th.info = info
	if code == nil {
		code = compileChunk(f.Stmts, lastValue)
	}
	err = th.session(ctx, func() error {
		if _, err := th.runChunk(code); err != nil || code.last == nil {
			return err
		}
		c, err := code.last(th, nil)
		v = c.box()
		return err
	})
	return v, err
}

// session runs fn as one unit of work: under ctx (cancellation is polled
// through an atomic flag), with a fresh step budget, on a locked OS thread
// (CUDA's current context is per thread: holding it lets launches set the
// context once), with Go panics turned into errors, and ending with a
// synchronization of the devices it launched on, so that an asynchronous
// kernel failure is reported by the run that caused it.
func (th *Thread) session(ctx context.Context, fn func() error) (err error) {
	if th.closed {
		return ErrClosed
	}
	th.ctx = ctx
	th.canceled.Store(false)
	stop := context.AfterFunc(ctx, func() { th.canceled.Store(true) })
	defer stop()
	th.steps, th.pollAt = 0, 0
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	th.launcher.begin(th.Stdout, &th.canceled)
	defer func() {
		if r := recover(); r != nil {
			err = &EvalError{Pos: th.pos(), Msg: fmt.Sprintf("internal error: %v", r), Backtrace: th.backtrace(), internal: true}
		}
		th.depth, th.evalDepth = 0, 0
	}()
	err = fn()
	if serr := th.syncUsed(); err == nil && serr != nil {
		err = th.errorAt(th.pos(), serr)
	}
	return err
}

// pos is the position of the statement being run (the zero Pos before
// the first).
func (th *Thread) pos() ast.Pos {
	if th.lastPos == nil {
		return ast.Pos{}
	}
	return *th.lastPos
}

// runChunk runs a compiled top level, counting its expressions' nesting
// as a call does.
func (th *Thread) runChunk(c *chunk) (ctrl, error) {
	if th.evalDepth+c.nest > maxEvalDepth {
		return ctrlNone, th.errorAt(th.pos(), errEvalDepth)
	}
	th.evalDepth += c.nest
	r, err := c.run(th, nil)
	th.evalDepth -= c.nest
	return r, err
}

// ErrClosed is returned by Exec, ExecREPL, Run, Call, WrapSlice and
// WrapPointer after Close: a closed interpreter would track new arrays
// that nothing frees.
var ErrClosed = errors.New("interpreter is closed")

// Close frees every array the interpreter still holds; later runs fail
// with ErrClosed.
func (in *Interp) Close() error {
	in.th.closed = true
	var errs []error
	for _, fn := range in.th.closers {
		errs = append(errs, fn())
	}
	in.th.closers = nil
	return errors.Join(append(errs, in.th.Tracker.FreeAll())...)
}

// OnClose registers fn to run when the interpreter closes, before its
// arrays are freed: builtins' resources that outlive a run (a
// distributed group's connections).
func (th *Thread) OnClose(fn func() error) { th.closers = append(th.closers, fn) }

// Dist is the script's place in a distributed run (Options.Dist), nil
// when it runs alone.
func (th *Thread) Dist() *dist.Config { return th.dist }

// Globals lists the global names with their current values (unset names are
// left out), sorted by name.
func (in *Interp) Globals() []NamedValue {
	var out []NamedValue
	for name, i := range in.checker.GlobalNames() {
		if i < len(in.chunks.vals) && in.chunks.vals[i].set() {
			out = append(out, NamedValue{name, in.chunks.vals[i].box()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// NamedValue is a name and its value.
type NamedValue struct {
	Name  string
	Value Value
}

// ErrInterrupted is returned when the context is cancelled; builtins that
// poll Thread.Canceled return it too.
var ErrInterrupted = errors.New("interrupted")

// CurrentDevice is the device arrays and launches use when none is named:
// the innermost device scope, else the default device.
func (th *Thread) CurrentDevice() mem.Device {
	if len(th.devices) > 0 {
		return th.devices[len(th.devices)-1]
	}
	return th.DefaultDevice()
}

// DefaultDevice is Options.Device, else cuda:0 when a CUDA device is
// present, else cpu. In a distributed run it is cuda:LOCAL_RANK when the
// process sees a GPU for each of its node's ranks, else cpu for every
// rank: NCCL cannot share a GPU between ranks, and ranks split between
// GPUs and the cpu would call different collectives. It is resolved on
// first use, so scripts that never need a device never load CUDA.
func (th *Thread) DefaultDevice() mem.Device {
	if th.defDev == nil {
		d := mem.CPUDevice
		n := mem.CUDADeviceCount()
		switch {
		case th.dist == nil && n > 0:
			d = mem.Device{Type: mem.CUDA, Ordinal: 0}
		case th.dist != nil && n >= th.dist.LocalWorldSize:
			d = mem.Device{Type: mem.CUDA, Ordinal: th.dist.LocalRank}
		}
		th.defDev = &d
	}
	return *th.defDev
}

// Context is the context of the running Exec.
func (th *Thread) Context() context.Context { return th.ctx }

// Canceled reports whether the running Exec was cancelled.
func (th *Thread) Canceled() bool { return th.canceled.Load() }

// Files is the file access the embedding program granted (Options.Files);
// nil, whose methods fail with ErrNoFileAccess, when it granted none.
func (th *Thread) Files() *FileAccess { return th.files }

// PredeclaredNames lists the predeclared names (builtins, dtypes, memory
// kinds, config), sorted: for REPL completion.
func (in *Interp) PredeclaredNames() []string {
	names := make([]string, 0, len(in.predeclared))
	for n := range in.predeclared {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// AccessState is the process's peer and pool access state.
func (th *Thread) AccessState() *mem.AccessState { return accessState }

// Local returns what a builtin keeps in this thread under key (nil when
// nothing): per-interpreter state such as stdlib's reduction scratch
// arrays, which then live as long as the interpreter. Keys are values of
// the builtin's own unexported types, so packages cannot collide.
func (th *Thread) Local(key any) any { return th.locals[key] }

// SetLocal keeps v under key (see Local).
func (th *Thread) SetLocal(key, v any) {
	if th.locals == nil {
		th.locals = map[any]any{}
	}
	th.locals[key] = v
}

// Capturing reports whether a capture block is recording dev's work now:
// a builtin that must read dev's data back refuses then (the data does
// not exist until replay).
func (th *Thread) Capturing(dev mem.Device) bool {
	return th.capture != nil && th.capture.Device() == dev
}

// SyncDevice waits for dev's queued work; cancelling the running Exec (a
// REPL's Ctrl-C) ends the wait.
func (th *Thread) SyncDevice(dev mem.Device) error {
	if !dev.IsCUDA() {
		return nil // cpu launches finish before launch returns
	}
	th.launcher.synced(dev)
	return mem.SyncDevice(dev, &th.canceled)
}

// Tracker returns the tracker of the interpreter's live arrays.
func (in *Interp) Tracker() *mem.Tracker { return in.th.Tracker }
