package regvm

import (
	"fmt"
	"math"
)

// Op is an instruction's operation. Registers are a fn's frame, numbered
// from 0 (the parameters first); R[x] is register x, K[x] constant x of
// the fn, G[x] global slot x.
type Op uint8

const (
	OpMove    Op = iota // R[A] = R[B]
	OpLoadI             // R[A] = C (an int)
	OpLoadK             // R[A] = K[C]
	OpGetG              // R[A] = G[C]
	OpSetG              // G[C] = R[A]
	OpFn                // R[A] = the program's fn C
	OpAdd               // R[A] = R[B] + R[C]
	OpSub               // R[A] = R[B] - R[C]
	OpLt                // R[A] = R[B] < R[C]
	OpAddI              // R[A] = R[B] + C: add-immediate (x - 1 is AddI -1)
	OpJmp               // goto C (a step when it jumps back)
	OpJmpF              // if !R[A] goto C (R[A] must be a bool)
	OpJNLt              // if !(R[A] < R[B]) goto C: compare-and-branch
	OpJNLtI             // if !(R[A] < int8(B)) goto C: compare-with-constant-and-branch
	OpForPrep           // range(R[A+1], R[A], R[A+2]) into R[A..A+3]; if empty goto C
	OpForLoop           // next value into R[A+3] and goto C, or fall out of the loop
	OpCall              // R[A] = R[A](R[A+1], ..., R[A+B])
	OpRet               // return R[A]
	numOps
)

var opNames = [numOps]string{"MOVE", "LOADI", "LOADK", "GETG", "SETG", "FN", "ADD", "SUB", "LT", "ADDI",
	"JMP", "JMPF", "JNLT", "JNLTI", "FORPREP", "FORLOOP", "CALL", "RET"}

func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return fmt.Sprintf("op%d", uint8(o))
}

// Instr is one instruction, 8 bytes: A and B are registers (uint8, so
// that a frame's window of 256 registers is indexed without a bounds
// check; B is JNLTI's immediate), C a register (ADD SUB LT, as uint8(C)),
// an immediate, a jump target (an absolute pc), or a global, constant or
// fn index. Four fields, so that Go keeps an Instr in registers (it
// keeps no struct of five).
type Instr struct {
	Op   Op
	A, B uint8
	C    int32
}

// maxRegs is a frame's window: registers are uint8.
const maxRegs = 256

// Pos is a source position (line and column, from 1).
type Pos struct{ Line, Col int }

// Proto is a compiled fn: its code, the source position of each
// instruction (read only to report an error) and its constants.
type Proto struct {
	Name    string
	File    string
	NParams int
	NRegs   int
	Code    []Instr
	Pos     []Pos
	Consts  []Value
	consts  []cell // Consts unboxed, made by Program.Validate
}

// position is instruction pc's source position as file:line:col.
func (p *Proto) position(pc int) string {
	return fmt.Sprintf("%s:%d:%d", p.File, p.Pos[pc].Line, p.Pos[pc].Col)
}

// Program is what a compiler emits for a file: its globals (a global's
// index is its slot), its fns and the top-level code, Main.
type Program struct {
	Globals []string
	Fns     []*Proto
	Main    *Proto
}

// Validate checks every instruction's operands, so that the VM can trust
// them: a register inside its fn's frame, a jump inside its fn's code, an
// index inside its table, and code that ends in RET or JMP.
func (prog *Program) Validate() error {
	for _, p := range append([]*Proto{prog.Main}, prog.Fns...) {
		if err := prog.check(p); err != nil {
			return fmt.Errorf("regvm: fn %s: %w", p.Name, err)
		}
		p.consts = make([]cell, len(p.Consts))
		for i, k := range p.Consts {
			p.consts[i] = toCell(k)
		}
	}
	return nil
}

func (prog *Program) check(p *Proto) error {
	switch {
	case p.NRegs > maxRegs || p.NParams > p.NRegs:
		return fmt.Errorf("%d registers, %d parameters: at most %d registers, parameters among them", p.NRegs, p.NParams, maxRegs)
	case len(p.Code) == 0 || len(p.Pos) != len(p.Code):
		return fmt.Errorf("%d instructions, %d positions", len(p.Code), len(p.Pos))
	}
	if last := p.Code[len(p.Code)-1].Op; last != OpRet && last != OpJmp {
		return fmt.Errorf("code ends in %s, not RET or JMP", last)
	}
	for pc, in := range p.Code {
		if err := prog.checkInstr(p, pc, in); err != nil {
			return fmt.Errorf("pc %d: %s: %w", pc, in.Op, err)
		}
	}
	return nil
}

// checkInstr checks instruction pc: the registers it uses inside the
// frame, C inside what it indexes. Only JMP and FORLOOP may jump back:
// they poll the step counter and the cancel flag when they do, so that
// every loop polls.
func (prog *Program) checkInstr(p *Proto, pc int, in Instr) error {
	var top int // the highest register the instruction uses
	var cmax int64 = math.MaxInt32
	cmin := int64(0)
	switch in.Op {
	case OpMove, OpJNLt:
		top = max(int(in.A), int(in.B))
	case OpLoadI:
		top, cmin = int(in.A), math.MinInt32
	case OpLoadK:
		top, cmax = int(in.A), int64(len(p.Consts))-1
	case OpGetG, OpSetG:
		top, cmax = int(in.A), int64(len(prog.Globals))-1
	case OpFn:
		top, cmax = int(in.A), int64(len(prog.Fns))-1
	case OpAdd, OpSub, OpLt:
		top, cmax = max(int(in.A), int(in.B)), int64(p.NRegs)-1
	case OpAddI:
		top, cmin = max(int(in.A), int(in.B)), math.MinInt32
	case OpJmp:
	case OpJmpF, OpJNLtI, OpRet:
		top = int(in.A)
	case OpForPrep, OpForLoop:
		top = int(in.A) + 3
	case OpCall:
		top = int(in.A) + int(in.B)
	default:
		return fmt.Errorf("unknown op")
	}
	switch in.Op {
	case OpJmpF, OpJNLt, OpJNLtI, OpForPrep:
		cmin = int64(pc) + 1 // forward only
		fallthrough
	case OpJmp, OpForLoop:
		cmax = int64(len(p.Code)) - 1
	}
	if top >= p.NRegs {
		return fmt.Errorf("register %d outside the frame of %d", top, p.NRegs)
	}
	if c := int64(in.C); c < cmin || c > cmax {
		return fmt.Errorf("C %d outside [%d, %d]", c, cmin, cmax)
	}
	return nil
}

// Asm builds a Proto an instruction at a time, each with its position:
// the programs here are written as a compiler would emit them.
type Asm struct{ P *Proto }

// At appends in at line:col and returns its pc.
func (a *Asm) At(line, col int, in Instr) int {
	a.P.Code = append(a.P.Code, in)
	a.P.Pos = append(a.P.Pos, Pos{line, col})
	return len(a.P.Code) - 1
}

// PC is the pc of the next instruction (a jump's target).
func (a *Asm) PC() int32 { return int32(len(a.P.Code)) }

// Patch sets the jump target of the instruction at pc.
func (a *Asm) Patch(pc int, target int32) { a.P.Code[pc].C = target }
