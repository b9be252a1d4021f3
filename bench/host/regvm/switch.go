package regvm

// runSwitch is the first dispatch design: one loop, the running fn's pc,
// code and register window in locals, a switch over the opcode (Go
// compiles a dense switch to a jump table). Two ints take each
// arithmetic instruction's inline path; anything else its general one.
func (vm *VM) runSwitch() (cell, error) {
	p := vm.frames[0].proto
	code, pc, base := p.Code, 0, 0
	regs := vm.window(0)
	for {
		in := code[pc]
		pc++
		switch in.Op {
		case OpMove:
			regs[in.A] = regs[in.B]
		case OpLoadI:
			regs[in.A] = intCell(int64(in.C))
		case OpLoadK:
			regs[in.A] = p.consts[in.C]
		case OpGetG:
			regs[in.A] = vm.globals.vals[in.C]
		case OpSetG:
			vm.globals.vals[in.C] = regs[in.A]
		case OpFn:
			regs[in.A] = cell{v: vm.fns[in.C]}
		case OpAdd:
			x, y := &regs[in.B], &regs[uint8(in.C)]
			if _, ok := x.v.(intMark); ok {
				if _, ok := y.v.(intMark); ok {
					a, b := int64(x.n), int64(y.n)
					if r := a + b; (r > a) == (b > 0) {
						setInt(&regs[in.A], r)
						continue
					}
				}
			}
			r, err := arith(false, *x, *y)
			if err != nil {
				return cell{}, vm.fail(pc-1, err)
			}
			regs[in.A] = r
		case OpSub:
			x, y := &regs[in.B], &regs[uint8(in.C)]
			if _, ok := x.v.(intMark); ok {
				if _, ok := y.v.(intMark); ok {
					a, b := int64(x.n), int64(y.n)
					if r := a - b; (r < a) == (b > 0) {
						setInt(&regs[in.A], r)
						continue
					}
				}
			}
			r, err := arith(true, *x, *y)
			if err != nil {
				return cell{}, vm.fail(pc-1, err)
			}
			regs[in.A] = r
		case OpLt:
			r, err := less(regs[in.B], regs[uint8(in.C)])
			if err != nil {
				return cell{}, vm.fail(pc-1, err)
			}
			regs[in.A] = cell{v: Bool(r)}
		case OpAddI:
			x, b := &regs[in.B], int64(in.C)
			if _, ok := x.v.(intMark); ok {
				a := int64(x.n)
				if r := a + b; (r > a) == (b > 0) {
					setInt(&regs[in.A], r)
					continue
				}
			}
			r, err := arith(false, *x, intCell(b))
			if err != nil {
				return cell{}, vm.fail(pc-1, err)
			}
			regs[in.A] = r
		case OpJmp:
			if int(in.C) < pc && vm.stop() { // a loop's iteration
				return cell{}, vm.fail(pc-1, vm.stepError())
			}
			pc = int(in.C)
		case OpJmpF:
			t, err := truth(regs[in.A])
			if err != nil {
				return cell{}, vm.fail(pc-1, err)
			}
			if !t {
				pc = int(in.C)
			}
		case OpJNLt:
			t, err := less(regs[in.A], regs[in.B])
			if err != nil {
				return cell{}, vm.fail(pc-1, err)
			}
			if !t {
				pc = int(in.C)
			}
		case OpJNLtI:
			x, k := &regs[in.A], int64(int8(in.B))
			if _, ok := x.v.(intMark); ok {
				if int64(x.n) >= k {
					pc = int(in.C)
				}
				continue
			}
			t, err := less(*x, intCell(k))
			if err != nil {
				return cell{}, vm.fail(pc-1, err)
			}
			if !t {
				pc = int(in.C)
			}
		case OpForPrep:
			n, err := rangeCount(regs[in.A], regs[in.A+1], regs[in.A+2])
			if err == nil && n > 0 && vm.stop() {
				err = vm.stepError()
			}
			if err != nil {
				return cell{}, vm.fail(pc-1, err)
			}
			if n == 0 {
				pc = int(in.C)
				continue
			}
			regs[in.A] = cell{intMark{}, n} // the values left, counting this one
			regs[in.A+3] = regs[in.A+1]
		case OpForLoop:
			left := &regs[in.A]
			if left.n--; left.n == 0 {
				continue
			}
			if vm.stop() {
				return cell{}, vm.fail(pc-1, vm.stepError())
			}
			i := &regs[in.A+1]
			i.n += regs[in.A+2].n // cannot overflow: the count stops the loop first
			setInt(&regs[in.A+3], int64(i.n))
			pc = int(in.C)
		case OpCall: // vm.call and vm.ret, inline: a call is fib's cost
			fn, ok := regs[in.A].v.(*Fn)
			if !ok || vm.stop() || len(vm.frames) > vm.maxDepth || int(in.B) != fn.proto.NParams {
				return cell{}, vm.fail(pc-1, vm.callError(in, regs))
			}
			vm.frames[len(vm.frames)-1].pc = pc
			base += int(in.A) + 1
			p = fn.proto
			vm.frames = append(vm.frames, frame{proto: p, globals: fn.globals, base: base})
			vm.globals = fn.globals
			vm.grow(base)
			regs = vm.window(base)
			code, pc = p.Code, 0
		case OpRet:
			r := regs[in.A]
			for i := range regs[:p.NRegs] {
				regs[i].v = nil
			}
			n := len(vm.frames) - 1
			vm.frames = vm.frames[:n]
			if n == 0 {
				return r, nil
			}
			vm.stack[base-1] = r
			f := &vm.frames[n-1]
			p, code, pc, base = f.proto, f.proto.Code, f.pc, f.base
			vm.globals = f.globals
			regs = vm.window(base)
		}
	}
}
