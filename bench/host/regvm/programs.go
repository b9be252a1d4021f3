package regvm

// The two programs HOST.md measures, as a compiler would emit them for
// these sources (the positions are the sources'): the same instructions
// any fn of the same shape gets, nothing fused for fib or loop.

// FibSource is fib.gs; FibProgram(n) is it with fib(n) at the top level.
const FibSource = `fn fib(n) {
    if n < 2 {
        return n
    }
    return fib(n - 1) + fib(n - 2)
}
let result = fib(20)
`

// FibProgram compiles FibSource, calling fib(n).
//
//	fib: r0 n; r1, r2 the callees and their results; r2, r3 their arguments
//	0  JNLTI   r0 2 ->2    if n < 2 (else goto 2)
//	1  RET     r0          return n
//	2  GETG    r1 fib
//	3  ADDI    r2 r0 -1    n - 1
//	4  CALL    r1 1        r1 = fib(n - 1)
//	5  GETG    r2 fib
//	6  ADDI    r3 r0 -2    n - 2
//	7  CALL    r2 1        r2 = fib(n - 2)
//	8  ADD     r1 r1 r2
//	9  RET     r1
func FibProgram(n int32) *Program {
	a := &Asm{&Proto{Name: "fib", File: "fib.gs", NParams: 1, NRegs: 4}}
	br := a.At(2, 10, Instr{Op: OpJNLtI, A: 0, B: 2})
	a.At(3, 9, Instr{Op: OpRet, A: 0})
	a.Patch(br, a.PC())
	a.At(5, 12, Instr{Op: OpGetG, A: 1, C: 0})
	a.At(5, 18, Instr{Op: OpAddI, A: 2, B: 0, C: -1})
	a.At(5, 15, Instr{Op: OpCall, A: 1, B: 1})
	a.At(5, 25, Instr{Op: OpGetG, A: 2, C: 0})
	a.At(5, 31, Instr{Op: OpAddI, A: 3, B: 0, C: -2})
	a.At(5, 28, Instr{Op: OpCall, A: 2, B: 1})
	a.At(5, 23, Instr{Op: OpAdd, A: 1, B: 1, C: 2})
	a.At(5, 5, Instr{Op: OpRet, A: 1})
	return &Program{Globals: []string{"fib", "result"}, Fns: []*Proto{a.P}, Main: callMain("fib.gs", "fib", 7, n)}
}

// LoopSource is loop.gs; LoopProgram(n) is it with loop(n) at the top level.
const LoopSource = `fn loop(n) {
    let s = 0
    for i in range(n) {
        s += i
    }
    return s
}
let result = loop(100000)
`

// LoopProgram compiles LoopSource, calling loop(n).
//
//	loop: r0 n, r1 s, r2..r5 the range (stop then values left, start then
//	value, step, i)
//	0  LOADI   r1 0        s = 0
//	1  MOVE    r2 r0       range(n): stop
//	2  LOADI   r3 0        start
//	3  LOADI   r4 1        step
//	4  FORPREP r2 ->7      i = start, or goto 7 if the range is empty
//	5  ADD     r1 r1 r5    s += i
//	6  FORLOOP r2 ->5      the next i, goto 5; or fall out
//	7  RET     r1
func LoopProgram(n int32) *Program {
	a := &Asm{&Proto{Name: "loop", File: "loop.gs", NParams: 1, NRegs: 6}}
	a.At(2, 5, Instr{Op: OpLoadI, A: 1, C: 0})
	a.At(3, 20, Instr{Op: OpMove, A: 2, B: 0})
	a.At(3, 14, Instr{Op: OpLoadI, A: 3, C: 0})
	a.At(3, 14, Instr{Op: OpLoadI, A: 4, C: 1})
	prep := a.At(3, 5, Instr{Op: OpForPrep, A: 2})
	body := a.PC()
	a.At(4, 11, Instr{Op: OpAdd, A: 1, B: 1, C: 5})
	a.At(3, 5, Instr{Op: OpForLoop, A: 2, C: body})
	a.Patch(prep, a.PC())
	a.At(6, 5, Instr{Op: OpRet, A: 1})
	return &Program{Globals: []string{"loop", "result"}, Fns: []*Proto{a.P}, Main: callMain("loop.gs", "loop", 8, n)}
}

// callMain is the top level of both files: `fn NAME ...` (fn 0 into
// global 0), then `let result = name(n)` on line.
//
//	0  FN      r0 0
//	1  SETG    r0 g0
//	2  GETG    r0 g0
//	3  LOADI   r1 n
//	4  CALL    r0 1
//	5  SETG    r0 g1       result
//	6  RET     r0
func callMain(file, name string, line int, n int32) *Proto {
	col := len("let result = ") + 1
	a := &Asm{&Proto{Name: "<main>", File: file, NRegs: 2}}
	a.At(1, 1, Instr{Op: OpFn, A: 0, C: 0})
	a.At(1, 1, Instr{Op: OpSetG, A: 0, C: 0})
	a.At(line, col, Instr{Op: OpGetG, A: 0, C: 0})
	a.At(line, col+len(name)+1, Instr{Op: OpLoadI, A: 1, C: n})
	a.At(line, col+len(name), Instr{Op: OpCall, A: 0, B: 1})
	a.At(line, 5, Instr{Op: OpSetG, A: 0, C: 1})
	a.At(line, 1, Instr{Op: OpRet, A: 0})
	return a.P
}
