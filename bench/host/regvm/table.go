package regvm

// runTable is the second dispatch design: the loop calls the opcode's
// handler from a table, and the handlers keep the running fn's state in
// a machine (they cannot share the loop's locals). A handler returns true
// to end the run (m.err says whether it failed).
func (vm *VM) runTable() (cell, error) {
	p := vm.frames[0].proto
	m := &vm.machine // not a new one: a run allocates nothing
	*m = machine{vm: vm, p: p, code: p.Code, regs: vm.window(0)}
	for {
		in := m.code[m.pc]
		m.pc++
		if handlers[in.Op](m, in) {
			r, err := m.result, m.err
			*m = machine{}
			return r, err
		}
	}
}

// machine is the running fn's state, as runSwitch holds it in locals.
type machine struct {
	vm     *VM
	p      *Proto
	code   []Instr
	pc     int
	base   int
	regs   *[maxRegs]cell
	result cell
	err    error
}

type handler func(m *machine, in Instr) bool

var handlers = [numOps]handler{
	OpMove:    func(m *machine, in Instr) bool { m.regs[in.A] = m.regs[in.B]; return false },
	OpLoadI:   func(m *machine, in Instr) bool { m.regs[in.A] = intCell(int64(in.C)); return false },
	OpLoadK:   func(m *machine, in Instr) bool { m.regs[in.A] = m.p.consts[in.C]; return false },
	OpGetG:    func(m *machine, in Instr) bool { m.regs[in.A] = m.vm.globals.vals[in.C]; return false },
	OpSetG:    func(m *machine, in Instr) bool { m.vm.globals.vals[in.C] = m.regs[in.A]; return false },
	OpFn:      func(m *machine, in Instr) bool { m.regs[in.A] = cell{v: m.vm.fns[in.C]}; return false },
	OpAdd:     opAdd,
	OpSub:     opSub,
	OpLt:      opLt,
	OpAddI:    opAddI,
	OpJmp:     opJmp,
	OpJmpF:    opJmpF,
	OpJNLt:    opJNLt,
	OpJNLtI:   opJNLtI,
	OpForPrep: opForPrep,
	OpForLoop: opForLoop,
	OpCall:    opCall,
	OpRet:     opRet,
}

// fail ends the run with err at the instruction that just ran.
func (m *machine) fail(err error) bool {
	m.err = m.vm.fail(m.pc-1, err)
	return true
}

// jumpIf jumps to D when cond holds, or fails.
func (m *machine) jumpIf(cond bool, err error, in Instr) bool {
	if err != nil {
		return m.fail(err)
	}
	if cond {
		m.pc = int(in.C)
	}
	return false
}

func opJmp(m *machine, in Instr) bool {
	if int(in.C) < m.pc && m.vm.stop() { // a loop's iteration
		return m.fail(m.vm.stepError())
	}
	m.pc = int(in.C)
	return false
}

func opAdd(m *machine, in Instr) bool {
	x, y := &m.regs[in.B], &m.regs[uint8(in.C)]
	if _, ok := x.v.(intMark); ok {
		if _, ok := y.v.(intMark); ok {
			a, b := int64(x.n), int64(y.n)
			if r := a + b; (r > a) == (b > 0) {
				setInt(&m.regs[in.A], r)
				return false
			}
		}
	}
	r, err := arith(false, *x, *y)
	return m.store(in, r, err)
}

func opSub(m *machine, in Instr) bool {
	x, y := &m.regs[in.B], &m.regs[uint8(in.C)]
	if _, ok := x.v.(intMark); ok {
		if _, ok := y.v.(intMark); ok {
			a, b := int64(x.n), int64(y.n)
			if r := a - b; (r < a) == (b > 0) {
				setInt(&m.regs[in.A], r)
				return false
			}
		}
	}
	r, err := arith(true, *x, *y)
	return m.store(in, r, err)
}

func opAddI(m *machine, in Instr) bool {
	x, b := &m.regs[in.B], int64(in.C)
	if _, ok := x.v.(intMark); ok {
		a := int64(x.n)
		if r := a + b; (r > a) == (b > 0) {
			setInt(&m.regs[in.A], r)
			return false
		}
	}
	r, err := arith(false, *x, intCell(b))
	return m.store(in, r, err)
}

// store puts an arithmetic instruction's general result in R[A], or
// fails.
func (m *machine) store(in Instr, r cell, err error) bool {
	if err != nil {
		return m.fail(err)
	}
	m.regs[in.A] = r
	return false
}

func opLt(m *machine, in Instr) bool {
	r, err := less(m.regs[in.B], m.regs[uint8(in.C)])
	if err != nil {
		return m.fail(err)
	}
	m.regs[in.A] = cell{v: Bool(r)}
	return false
}

func opJmpF(m *machine, in Instr) bool {
	t, err := truth(m.regs[in.A])
	return m.jumpIf(!t, err, in)
}

func opJNLt(m *machine, in Instr) bool {
	t, err := less(m.regs[in.A], m.regs[in.B])
	return m.jumpIf(!t, err, in)
}

func opJNLtI(m *machine, in Instr) bool {
	x, k := &m.regs[in.A], int64(int8(in.B))
	if _, ok := x.v.(intMark); ok {
		if int64(x.n) >= k {
			m.pc = int(in.C)
		}
		return false
	}
	t, err := less(*x, intCell(k))
	return m.jumpIf(!t, err, in)
}

func opForPrep(m *machine, in Instr) bool {
	regs := m.regs
	n, err := rangeCount(regs[in.A], regs[in.A+1], regs[in.A+2])
	if err == nil && n > 0 && m.vm.stop() {
		err = m.vm.stepError()
	}
	if err != nil {
		return m.fail(err)
	}
	if n == 0 {
		m.pc = int(in.C)
		return false
	}
	regs[in.A] = cell{intMark{}, n}
	regs[in.A+3] = regs[in.A+1]
	return false
}

func opForLoop(m *machine, in Instr) bool {
	regs := m.regs
	left := &regs[in.A]
	if left.n--; left.n == 0 {
		return false
	}
	if m.vm.stop() {
		return m.fail(m.vm.stepError())
	}
	i := &regs[in.A+1]
	i.n += regs[in.A+2].n
	setInt(&regs[in.A+3], int64(i.n))
	m.pc = int(in.C)
	return false
}

func opCall(m *machine, in Instr) bool {
	q, nb, err := m.vm.call(in, m.regs, m.pc, m.base)
	if err != nil {
		return m.fail(err)
	}
	m.p, m.code, m.pc, m.base = q, q.Code, 0, nb
	m.regs = m.vm.window(nb)
	return false
}

func opRet(m *machine, in Instr) bool {
	r := m.regs[in.A]
	f := m.vm.ret(r, m.p, m.regs)
	if f == nil {
		m.result = r
		return true
	}
	m.p, m.code, m.pc, m.base = f.proto, f.proto.Code, f.pc, f.base
	m.regs = m.vm.window(f.base)
	return false
}
