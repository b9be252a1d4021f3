package regvm

// runTwoLevel is the third dispatch design, the fastest here: runSwitch's
// loop spills its state (pc, code, base, regs, the fn) to the Go stack at
// every instruction, because the general paths call functions and Go's
// register allocator spills a value live across any call where it is
// defined, the loop's head. So the loop is split in two: hot runs the
// common case of each instruction in a switch that calls nothing (its
// state stays in registers); an instruction it cannot finish there (not
// two ints, an error, a stack or a frame list to grow, the top level's
// return) goes once through the table's handler, the general path, and
// hot resumes.
func (vm *VM) runTwoLevel() (cell, error) {
	p := vm.frames[0].proto
	m := &vm.machine
	*m = machine{vm: vm, p: p, code: p.Code, regs: vm.window(0)}
	for {
		hot(m)
		in := m.code[m.pc]
		m.pc++
		if handlers[in.Op](m, in) {
			r, err := m.result, m.err
			*m = machine{}
			return r, err
		}
	}
}

// hot runs from m's state until an instruction needs its general path,
// and leaves m at that instruction. It must call no function.
func hot(m *machine) {
	vm := m.vm
	p, code, pc, base, regs := m.p, m.code, m.pc, m.base, m.regs
	for {
		// Each case either finishes its instruction and continues, or
		// breaks out of the switch, to the general path.
		in := code[pc]
		switch in.Op {
		case OpMove:
			regs[in.A] = regs[in.B]
			pc++
			continue
		case OpLoadI:
			regs[in.A] = intCell(int64(in.C))
			pc++
			continue
		case OpGetG:
			regs[in.A] = vm.globals.vals[in.C]
			pc++
			continue
		case OpAdd:
			x, y := &regs[in.B], &regs[uint8(in.C)]
			_, xi := x.v.(intMark)
			_, yi := y.v.(intMark)
			a, b := int64(x.n), int64(y.n)
			r := a + b
			if !xi || !yi || (r > a) != (b > 0) {
				break
			}
			setInt(&regs[in.A], r)
			pc++
			continue
		case OpSub:
			x, y := &regs[in.B], &regs[uint8(in.C)]
			_, xi := x.v.(intMark)
			_, yi := y.v.(intMark)
			a, b := int64(x.n), int64(y.n)
			r := a - b
			if !xi || !yi || (r < a) != (b > 0) {
				break
			}
			setInt(&regs[in.A], r)
			pc++
			continue
		case OpAddI:
			x, b := &regs[in.B], int64(in.C)
			_, xi := x.v.(intMark)
			a := int64(x.n)
			r := a + b
			if !xi || (r > a) != (b > 0) {
				break
			}
			setInt(&regs[in.A], r)
			pc++
			continue
		case OpJmp:
			if int(in.C) <= pc { // a loop's iteration
				if vm.steps >= vm.limit || vm.canceled.Load() {
					break
				}
				vm.steps++
			}
			pc = int(in.C)
			continue
		case OpJNLtI:
			x := &regs[in.A]
			if _, ok := x.v.(intMark); !ok {
				break
			}
			if int64(x.n) >= int64(int8(in.B)) {
				pc = int(in.C)
			} else {
				pc++
			}
			continue
		case OpForLoop:
			left := &regs[in.A]
			if left.n == 1 { // the last value was the loop's last
				left.n = 0
				pc++
				continue
			}
			if vm.steps >= vm.limit || vm.canceled.Load() {
				break
			}
			vm.steps++
			left.n--
			i := &regs[in.A+1]
			i.n += regs[in.A+2].n
			setInt(&regs[in.A+3], int64(i.n))
			pc = int(in.C)
			continue
		case OpCall:
			fn, ok := regs[in.A].v.(*Fn)
			n, nb := len(vm.frames), base+int(in.A)+1
			if !ok || int(in.B) != fn.proto.NParams || n > vm.maxDepth || n == cap(vm.frames) ||
				nb+maxRegs > len(vm.stack) || vm.steps >= vm.limit || vm.canceled.Load() {
				break
			}
			vm.steps++
			vm.frames[n-1].pc = pc + 1
			p, base = fn.proto, nb
			vm.frames = vm.frames[:n+1]
			vm.frames[n] = frame{proto: p, globals: fn.globals, base: base}
			vm.globals = fn.globals
			regs = (*[maxRegs]cell)(vm.stack[base : base+maxRegs])
			code, pc = p.Code, 0
			continue
		case OpRet:
			n := len(vm.frames) - 1
			if n == 0 {
				break
			}
			r := regs[in.A]
			for i := range regs[:p.NRegs] {
				regs[i].v = nil
			}
			vm.frames = vm.frames[:n]
			vm.stack[base-1] = r
			f := &vm.frames[n-1]
			p, code, pc, base = f.proto, f.proto.Code, f.pc, f.base
			vm.globals = f.globals
			regs = (*[maxRegs]cell)(vm.stack[base : base+maxRegs])
			continue
		}
		// Only an instruction left to its general path gets here.
		m.p, m.code, m.pc, m.base, m.regs = p, code, pc, base, regs
		return
	}
}
