package regvm

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
)

// Options are a VM's limits, as interp.Options has them.
type Options struct {
	MaxSteps int64 // calls and loop iterations a run may take; 0: no limit
	MaxDepth int   // nested fn calls; 0: DefaultMaxDepth
}

// DefaultMaxDepth is interp's default.
const DefaultMaxDepth = 10_000

// Dispatch picks the interpreter loop.
type Dispatch int

const (
	Switch   Dispatch = iota // one loop, a switch over the opcode
	Table                    // one loop, a call through a table of handlers
	TwoLevel                 // a switch that calls nothing, the handlers for the rest
)

// VM runs a Program. Its register stack and call frames are kept from
// run to run and reused per call depth, so that a call allocates nothing.
type VM struct {
	prog     *Program
	own      *Globals // the program's
	globals  *Globals // the running fn's
	fns      []Value  // a *Fn for each of prog.Fns, over own
	stack    []cell   // the registers of every active call, windows of it
	frames   []frame  // the active calls, the top level first
	steps    int64
	limit    int64 // steps allowed: MaxSteps, or no limit
	maxSteps int64
	maxDepth int
	canceled atomic.Bool
	machine  machine // runTable's state
}

// frame is one active call: its fn and its globals, the base of its
// registers in the stack and, while it calls another fn, the pc after the
// call.
type frame struct {
	proto   *Proto
	globals *Globals
	base    int
	pc      int
}

// New makes a VM for prog (validated here).
func New(prog *Program, opt Options) (*VM, error) {
	if err := prog.Validate(); err != nil {
		return nil, err
	}
	vm := &VM{prog: prog, own: &Globals{make([]cell, len(prog.Globals))}, maxSteps: opt.MaxSteps, maxDepth: opt.MaxDepth}
	for _, p := range prog.Fns {
		vm.fns = append(vm.fns, &Fn{p, vm.own})
	}
	if vm.maxDepth <= 0 {
		vm.maxDepth = DefaultMaxDepth
	}
	return vm, nil
}

// Cancel stops the run in progress (from any goroutine) at its next call
// or loop iteration, and every later run, as Ctrl-C does.
func (vm *VM) Cancel() { vm.canceled.Store(true) }

// Global is the value of the named global.
func (vm *VM) Global(name string) (Value, bool) {
	for i, g := range vm.prog.Globals {
		if g == name {
			return vm.own.vals[i].box(), vm.own.vals[i].v != nil
		}
	}
	return nil, false
}

// Run runs the program's top level with the chosen dispatch and returns
// its result; the step count starts again from 0.
func (vm *VM) Run(d Dispatch) (Value, error) {
	vm.steps, vm.limit = 0, vm.maxSteps
	if vm.limit <= 0 {
		vm.limit = math.MaxInt64
	}
	main := vm.prog.Main
	vm.globals = vm.own
	vm.frames = append(vm.frames[:0], frame{proto: main, globals: vm.own})
	vm.grow(0)
	var r cell
	var err error
	switch d {
	case Table:
		r, err = vm.runTable()
	case TwoLevel:
		r, err = vm.runTwoLevel()
	default:
		r, err = vm.runSwitch()
	}
	return r.box(), err
}

// window is the 256 registers from base: a frame indexes them with a
// uint8, without a bounds check.
func (vm *VM) window(base int) *[maxRegs]cell {
	return (*[maxRegs]cell)(vm.stack[base : base+maxRegs])
}

// grow makes room for a window at base (the stack doubles: calls at a
// depth reached before allocate nothing).
func (vm *VM) grow(base int) {
	if need := base + maxRegs; need > len(vm.stack) {
		vm.stack = append(vm.stack, make([]cell, max(need, 2*len(vm.stack))-len(vm.stack))...)
	}
}

// ErrInterrupted is the error of a canceled run.
var ErrInterrupted = errors.New("interrupted")

// ErrStepBudget is what errors.Is finds in a run past MaxSteps.
var ErrStepBudget = errors.New("step budget exhausted")

// ErrDepth is what errors.Is finds in a run past MaxDepth.
var ErrDepth = errors.New("call stack too deep")

// stop counts a call or a loop iteration and polls the cancel flag: true
// when the run must stop (stepError says why). It is small enough to be
// inlined.
func (vm *VM) stop() bool {
	vm.steps++
	return vm.steps > vm.limit || vm.canceled.Load()
}

func (vm *VM) stepError() error {
	if vm.canceled.Load() {
		return ErrInterrupted
	}
	return fmt.Errorf("%w: %d loop iterations and calls", ErrStepBudget, vm.maxSteps)
}

// CallFrame is one fn call of a backtrace: the fn and where it was called.
type CallFrame struct {
	Name string
	Pos  string
}

// Error is a run-time error: the position of the instruction that failed,
// the message and the calls that led there, innermost first.
type Error struct {
	Pos       string
	Msg       string
	Backtrace []CallFrame
	Cause     error
}

// Error formats the error as interp does (without its elision of long
// backtraces): `file:line:col: msg`, then `  in fn (file:line:col)` lines.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Pos + ": " + e.Msg)
	for _, f := range e.Backtrace {
		b.WriteString("\n  in " + f.Name + " (" + f.Pos + ")")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Cause }

// fail makes err an *Error at instruction pc of the running fn (the top
// frame) with the backtrace of the active calls.
func (vm *VM) fail(pc int, err error) error {
	top := len(vm.frames) - 1
	e := &Error{Pos: vm.frames[top].proto.position(pc), Msg: err.Error(), Cause: err}
	for i := top; i > 0; i-- {
		caller := vm.frames[i-1]
		e.Backtrace = append(e.Backtrace, CallFrame{vm.frames[i].proto.Name, caller.proto.position(caller.pc - 1)})
	}
	return e
}
