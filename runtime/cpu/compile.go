package cpu

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// Program is a kernel compiled for the CPU executor; safe for concurrent
// Launch calls (the ones that overlap another allocate their launch).
type Program struct {
	k      *ir.Kernel
	regs   []ir.Type // the flat register file: entry and every inlined call
	nslots int       // mask lists per frame
	nflags int       // loop mark vectors per frame
	setup  []instFn  // hoisted uniform instructions, run once per launch and frame
	body   stmtFn
	frames frameStore
	spare  atomic.Pointer[launch] // the last launch's state, for the next (cpu.go)

	// width is the lanes of a block: a block kernel's threads, else lanes
	// (fewer when local arrays are large, see layout).
	width int
	blk   *blockShape // nil for a flat kernel
	// bufs are the shared arrays, then the local arrays of every func
	// instance, in frame memory of memBytes (buffer.go).
	bufs        []bufLayout
	memBytes    int
	sharedBytes int
	entryLocals []int     // bufs of the kernel's own locals, zeroed at block start
	race        *raceInfo // nil unless debugging a block kernel with shared arrays
	maxWorkers  int       // frames that fit in maxFrameBytes
	// fields is what field accesses need of the array arguments, checked
	// at every launch (backend.CheckLaunch).
	fields []ir.FieldNeed
}

// stmtFn runs a statement (list) over mask m and returns the lanes that
// fall through to the next statement.
type stmtFn func(fr *frame, m mask) (mask, error)

// errStopped unwinds a block when the launch was canceled or another worker
// failed; it is never returned by Launch.
var errStopped = errors.New("launch stopped")

// maxInstances bounds function inlining (each call site compiles its callee
// anew), so that a deep call DAG cannot blow up compile time.
const maxInstances = 4096

// compiler builds a Program. Funcs are compiled once per call site
// ("instance") with their own registers, so array parameters resolve to
// kernel arguments at compile time and no call stack is needed at run time.
type compiler struct {
	k         *ir.Kernel
	p         *Program
	instances int
	active    map[*ir.Func]bool // funcs being compiled: recursion check
	hoisted   map[int]bool      // registers computed in setup
	fast      bool              // fast math: contract f64 a*b+c (contract.go)
	zeroCopy  map[*ir.Inst]bool // loads whose register may point at the array (zerocopy.go)
	aff       map[ir.Reg]affine // the kernel's affine registers (affine.go)
	lazy      map[ir.Reg]bool   // the kernel's affine registers left to their accesses (lazytid.go)
	// localBytes is the bytes of one lane's local arrays so far.
	localBytes int
}

// fnCtx is one instance of a Func.
type fnCtx struct {
	f       *ir.Func
	base    int   // global index of the Func's register 0
	arrays  []int // kernel parameter index of each array parameter (-1 for scalars)
	scalars []int // global register of each scalar parameter of a func (-1 in the kernel)
	results []int // global register receiving each result of a func, -1 where the caller drops it
	locals  []int // Program.bufs index of each of the Func's local arrays
	kernel  bool
	defs    []int      // number of instructions writing each local register
	def     []*ir.Inst // the writing instruction, when there is one
	uses    []int      // number of reads of each local register
	loops   []int      // flag vectors of the enclosing loops, innermost last
}

// Compile checks k (ir.Verify, then what this executor needs) and turns it
// into a Program; opts.Debug adds shared-memory race detection (race.go).
// Errors are internal (the checker produced IR this executor does not
// accept) but for the limits of shared and local arrays.
func Compile(k *ir.Kernel, opts backend.Options) (prog *Program, err error) {
	if k == nil || k.Entry == nil {
		return nil, errors.New("cpu: no kernel")
	}
	if err := ir.Verify(k); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, &pos.Error{Pos: k.Entry.Pos, Msg: fmt.Sprintf("cpu: kernel %s: internal compile error: %v", k.Entry.Name, r)}
		}
	}()
	c := &compiler{k: k, p: &Program{k: k, fields: ir.FieldNeeds(k)}, active: map[*ir.Func]bool{}, hoisted: map[int]bool{}, fast: k.FastMath || opts.FastMath}
	if k.IsBlock() {
		c.p.blk = newBlockShape(k.Block)
		if err := c.addShared(); err != nil {
			return nil, err
		}
		if opts.Debug && len(k.Shared) > 0 {
			c.addRace()
		}
	}
	ctx := c.instance(k.Entry, true)
	if c.p.blk == nil && k.TidDims >= 1 {
		c.aff = affineForms(ctx)
		c.lazy = lazyRegs(ctx, k.Entry.Body, c.aff)
	}
	for i, prm := range k.Entry.Params {
		if prm.IsArray() {
			ctx.arrays[i] = i
		}
	}
	c.active[k.Entry] = true
	body, err := c.stmts(ctx, k.Entry.Body)
	if err == nil {
		err = c.layout()
	}
	if err != nil {
		return nil, err
	}
	p := c.p
	p.body = body
	p.entryLocals = ctx.locals
	p.initFrames()
	return p, nil
}

// instance allocates registers for one compiled copy of f.
func (c *compiler) instance(f *ir.Func, kernel bool) *fnCtx {
	ctx := &fnCtx{f: f, base: len(c.p.regs), kernel: kernel,
		arrays: make([]int, len(f.Params)), scalars: make([]int, len(f.Params))}
	for i := range f.Params {
		ctx.arrays[i], ctx.scalars[i] = -1, -1
	}
	c.p.regs = append(c.p.regs, f.Regs...)
	ctx.locals = c.addLocals(f)
	ctx.defs = make([]int, len(f.Regs))
	ctx.def = make([]*ir.Inst, len(f.Regs))
	ctx.uses = make([]int, len(f.Regs))
	countDefs(ctx, f.Body)
	return ctx
}

// countDefs counts the definitions and the reads of each register.
func countDefs(ctx *fnCtx, body []ir.Stmt) {
	use := func(r ir.Reg) {
		if r >= 0 && int(r) < len(ctx.uses) {
			ctx.uses[r]++
		}
	}
	for _, s := range body {
		switch s := s.(type) {
		case *ir.Inst:
			for d := range s.Defs() {
				if d >= 0 && int(d) < len(ctx.defs) {
					ctx.defs[d]++
					ctx.def[d] = s
				}
			}
			for _, r := range s.Args {
				use(r)
			}
		case *ir.If:
			use(s.Cond)
			countDefs(ctx, s.Then)
			countDefs(ctx, s.Else)
		case *ir.Loop:
			use(s.CondReg)
			countDefs(ctx, s.Cond)
			countDefs(ctx, s.Body)
			countDefs(ctx, s.Post)
		case *ir.Return:
			for _, r := range s.Values {
				use(r)
			}
		}
	}
}

// isTid reports whether local register r always holds tid() along axis 0:
// its only definition is OpTid 0 or a move from such a register.
func (ctx *fnCtx) isTid(r ir.Reg, depth int) bool {
	if r < 0 || int(r) >= len(ctx.defs) || ctx.defs[r] != 1 || depth > 16 {
		return false
	}
	in := ctx.def[r]
	switch in.Op { // only tid and moves of it carry tid's value
	case ir.OpTid:
		ax, ok := immInt(in.Imm)
		return ok && ax == 0
	case ir.OpMov:
		return len(in.Args) == 1 && ctx.isTid(in.Args[0], depth+1)
	}
	return false
}

// single reports whether local register r has exactly one definition, so
// a uniform value written to it may be computed once per launch.
func (ctx *fnCtx) single(r ir.Reg) bool { return ctx.defs[r] == 1 }

// errf makes a compile error at at.
func (c *compiler) errf(ctx *fnCtx, at pos.Pos, format string, args ...any) error {
	if !at.IsValid() {
		at = ctx.f.Pos
	}
	return &pos.Error{Pos: at, Msg: fmt.Sprintf("cpu: %s: ", ctx.f.Name) + fmt.Sprintf(format, args...)}
}

// reg checks a local register operand and returns its global index.
func (c *compiler) reg(ctx *fnCtx, r ir.Reg, pos pos.Pos) (int, ir.Type, error) {
	if r < 0 || int(r) >= len(ctx.f.Regs) {
		return 0, 0, c.errf(ctx, pos, "register %d out of range", r)
	}
	return ctx.base + int(r), ctx.f.Regs[r], nil
}

func (c *compiler) slot() int {
	c.p.nslots++
	return c.p.nslots - 1
}

// stmts compiles a statement list. Runs of instructions become one loop
// over instFns; control statements get their own stmtFn.
func (c *compiler) stmts(ctx *fnCtx, list []ir.Stmt) (stmtFn, error) {
	var items []stmtFn
	var run []instFn
	endRun := func() {
		if len(run) > 0 {
			items = append(items, runInsts(run))
			run = nil
		}
	}
	var fused map[*ir.Inst]*ir.Inst
	var dropped map[*ir.Inst]bool
	if c.fast {
		fused, dropped = contractions(ctx, list)
	}
	for in := range zeroCopyLoads(ctx, list) {
		if c.zeroCopy == nil {
			c.zeroCopy = map[*ir.Inst]bool{}
		}
		c.zeroCopy[in] = true
	}
	for _, s := range list {
		if in, ok := s.(*ir.Inst); ok {
			if dropped[in] {
				continue
			}
			var f instFn
			var err error
			if mul := fused[in]; mul != nil {
				f, err = c.fma(ctx, in, mul)
			} else {
				f, err = c.inst(ctx, in)
			}
			if err != nil {
				return nil, err
			}
			if f != nil {
				run = append(run, f)
			}
			continue
		}
		endRun()
		f, err := c.control(ctx, s)
		if err != nil {
			return nil, err
		}
		items = append(items, f)
	}
	endRun()
	return seq(items), nil
}

func runInsts(run []instFn) stmtFn {
	if len(run) == 1 {
		f := run[0]
		return func(fr *frame, m mask) (mask, error) { return m, f(fr, m) }
	}
	return func(fr *frame, m mask) (mask, error) {
		for _, f := range run {
			if err := f(fr, m); err != nil {
				return m, err
			}
		}
		return m, nil
	}
}

func seq(items []stmtFn) stmtFn {
	switch len(items) {
	case 0:
		return func(fr *frame, m mask) (mask, error) { return m, nil }
	case 1:
		return items[0]
	}
	return func(fr *frame, m mask) (mask, error) {
		var err error
		for _, it := range items {
			if m, err = it(fr, m); err != nil || m.empty() {
				return m, err
			}
		}
		return m, nil
	}
}

// control compiles If, Loop, Break, Continue and Return.
func (c *compiler) control(ctx *fnCtx, s ir.Stmt) (stmtFn, error) {
	switch s := s.(type) {
	case *ir.If:
		return c.ifStmt(ctx, s)
	case *ir.Loop:
		return c.loop(ctx, s)
	case *ir.Break:
		return c.jump(ctx, flagExit, "break")
	case *ir.Continue:
		return c.jump(ctx, flagCont, "continue")
	case *ir.Return:
		return c.ret(ctx, s)
	}
	return nil, c.errf(ctx, pos.Pos{}, "unknown statement %T", s)
}

// Loop marks, per lane, in the loop's flag vector.
const (
	flagExit = 1 // left the loop (break or false condition)
	flagCont = 2 // continue: goes on with Post
	flagFall = 3 // reached the end of Body this iteration
)

func (c *compiler) ifStmt(ctx *fnCtx, s *ir.If) (stmtFn, error) {
	cond, ct, err := c.reg(ctx, s.Cond, pos.Pos{})
	if err != nil {
		return nil, err
	}
	if ct != ir.Bool {
		return nil, c.errf(ctx, pos.Pos{}, "if condition has type %s", ct)
	}
	then, err := c.stmts(ctx, s.Then)
	if err != nil {
		return nil, err
	}
	els, err := c.stmts(ctx, s.Else)
	if err != nil {
		return nil, err
	}
	st, se, so := c.slot(), c.slot(), c.slot()
	return func(fr *frame, m mask) (mask, error) {
		t, e := split(fr, m, vec[bool](fr, cond), fr.slots[st], fr.slots[se])
		switch {
		case e.empty():
			return then(fr, m)
		case t.empty():
			return els(fr, m)
		}
		ft, err := then(fr, t)
		if err != nil {
			return ft, err
		}
		fe, err := els(fr, e)
		if err != nil {
			return fe, err
		}
		return union(fr, ft, fe, fr.slots[so]), nil
	}, nil
}

// loop runs the iterations while any lane is active. Lanes leave through a
// false condition or break (marked flagExit, collected at the end), or a
// return (simply gone); continue marks lanes that go on to Post.
func (c *compiler) loop(ctx *fnCtx, s *ir.Loop) (stmtFn, error) {
	condReg := -1
	if s.CondReg != ir.NoReg {
		r, t, err := c.reg(ctx, s.CondReg, pos.Pos{})
		if err != nil {
			return nil, err
		}
		if t != ir.Bool {
			return nil, c.errf(ctx, pos.Pos{}, "loop condition has type %s", t)
		}
		condReg = r
	}
	cond, err := c.stmts(ctx, s.Cond)
	if err != nil {
		return nil, err
	}
	fl := c.p.nflags
	c.p.nflags++
	ctx.loops = append(ctx.loops, fl)
	body, err := c.stmts(ctx, s.Body)
	ctx.loops = ctx.loops[:len(ctx.loops)-1]
	if err != nil {
		return nil, err
	}
	post, err := c.stmts(ctx, s.Post)
	if err != nil {
		return nil, err
	}
	l := &loopRun{cond: cond, condReg: condReg, body: body, post: post, flag: fl,
		sIn: c.slot(), sOut: c.slot(), sNext: [2]int{c.slot(), c.slot()}}
	return l.run, nil
}

type loopRun struct {
	cond, body, post stmtFn
	condReg          int
	flag             int
	sIn, sOut        int    // lanes after the condition; lanes leaving the loop
	sNext            [2]int // ping-pong lists for the next iteration's lanes
}

func (l *loopRun) run(fr *frame, in mask) (mask, error) {
	f := fr.flags[l.flag]
	cur := in
	for it := 0; !cur.empty(); it++ {
		if fr.ln.stoppedAfter(fr.base, cur.count(fr.n)) {
			return cur, errStopped
		}
		var err error
		if cur, err = l.cond(fr, cur); err != nil {
			return cur, err
		}
		if l.condReg >= 0 {
			var out mask
			cur, out = split(fr, cur, vec[bool](fr, l.condReg), fr.slots[l.sIn], fr.slots[l.sOut])
			setFlag(fr, out, f, flagExit)
			if cur.empty() {
				break
			}
		}
		fall, err := l.body(fr, cur)
		if err != nil {
			return fall, err
		}
		setFlag(fr, fall, f, flagFall)
		next := takeFlags(fr, cur, f, flagFall, flagCont, fr.slots[l.sNext[it&1]])
		if next.empty() {
			break
		}
		if cur, err = l.post(fr, next); err != nil {
			return cur, err
		}
	}
	return takeFlags(fr, in, f, flagExit, flagExit, fr.slots[l.sOut]), nil
}

// jump compiles break and continue: mark the lanes, which then leave the
// current statement list.
func (c *compiler) jump(ctx *fnCtx, v uint8, what string) (stmtFn, error) {
	if len(ctx.loops) == 0 {
		return nil, c.errf(ctx, pos.Pos{}, "%s outside a loop", what)
	}
	fl := ctx.loops[len(ctx.loops)-1]
	return func(fr *frame, m mask) (mask, error) {
		setFlag(fr, m, fr.flags[fl], v)
		return mask{}, nil
	}, nil
}

// ret ends the lanes; in a func it first stores the results the caller
// keeps, in a block kernel it tells the barriers.
func (c *compiler) ret(ctx *fnCtx, s *ir.Return) (stmtFn, error) {
	if ctx.kernel && c.p.blk != nil {
		return func(fr *frame, m mask) (mask, error) { retire(fr, m); return mask{}, nil }, nil
	}
	var movs []instFn
	for i, r := range s.Values {
		if ctx.results[i] < 0 {
			continue
		}
		v, t, err := c.reg(ctx, r, pos.Pos{})
		if err != nil {
			return nil, err
		}
		movs = append(movs, mkMov(t, ctx.results[i], v))
	}
	return func(fr *frame, m mask) (mask, error) {
		for _, mov := range movs {
			if err := mov(fr, m); err != nil {
				return mask{}, err
			}
		}
		return mask{}, nil
	}, nil
}

// runSetup computes the hoisted uniform registers for a frame's launch.
func (p *Program) runSetup(fr *frame) {
	fr.base, fr.n = 0, p.width
	for _, f := range p.setup {
		_ = f(fr, mask{all: true}) // hoisted instructions cannot fail
	}
}
