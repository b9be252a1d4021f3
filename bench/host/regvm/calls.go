package regvm

import "fmt"

// The call protocol: the general path of CALL and RET (runSwitch has it
// inline, twolevel's fast path a copy of it). A call's arguments are in
// the registers above the callee's (R[A+1..A+B]); the callee's frame
// starts there (base + A + 1), so that the arguments are its first
// registers without a copy, and its result goes to stack[base-1], the
// caller's R[A] (as Lua does).

// call enters the fn in R[A] of the frame at base, called by the
// instruction in at pc-1 of the top frame: the step is counted, the
// depth and the argument count checked, the caller's pc kept for the
// return and the backtrace. It returns the callee and its base.
func (vm *VM) call(in Instr, regs *[maxRegs]cell, pc, base int) (*Proto, int, error) {
	fn, ok := regs[in.A].v.(*Fn)
	if !ok || vm.stop() || len(vm.frames) > vm.maxDepth || int(in.B) != fn.proto.NParams {
		return nil, 0, vm.callError(in, regs)
	}
	q := fn.proto
	vm.frames[len(vm.frames)-1].pc = pc
	base += int(in.A) + 1
	vm.frames = append(vm.frames, frame{proto: q, globals: fn.globals, base: base})
	vm.globals = fn.globals
	vm.grow(base)
	return q, base, nil
}

// callError is why a call failed the test of call (whose step, if it
// got that far, is already counted).
func (vm *VM) callError(in Instr, regs *[maxRegs]cell) error {
	fn, ok := regs[in.A].v.(*Fn)
	switch {
	case !ok:
		return fmt.Errorf("%s is not callable", regs[in.A].typeName())
	case vm.steps > vm.limit || vm.canceled.Load():
		return vm.stepError()
	case len(vm.frames) > vm.maxDepth:
		return fmt.Errorf("%w: more than %d nested fn calls (MaxDepth): unbounded recursion?", ErrDepth, vm.maxDepth)
	}
	return fmt.Errorf("fn %s takes %d arguments, got %d", fn.proto.Name, fn.proto.NParams, in.B)
}

// ret leaves the top frame, whose registers are regs, with result r: its
// registers' values are dropped (a reused window would keep them alive)
// and r goes to the caller's R[A]. It returns the caller's frame, or nil
// when the top level returned.
func (vm *VM) ret(r cell, p *Proto, regs *[maxRegs]cell) *frame {
	for i := range regs[:p.NRegs] {
		regs[i].v = nil // the number words need not be cleared
	}
	n := len(vm.frames) - 1
	base := vm.frames[n].base
	vm.frames = vm.frames[:n]
	if n == 0 {
		return nil
	}
	vm.stack[base-1] = r
	f := &vm.frames[n-1]
	vm.globals = f.globals
	return f
}
