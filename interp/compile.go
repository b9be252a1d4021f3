package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
)

// The compiled engine (HOST.md section 1): host code is compiled once per
// chunk, program or imported file, after check, into Go closures over
// resolved slots, and run without walking the tree again. An expression
// becomes an evalFn, a statement an execFn, a condition a condFn; each
// closure holds its operands' closures, positions and slot numbers, and
// the Thread and frame arrive as arguments, so compiled code is immutable
// and a Program's code is shared by every interpreter that runs it.

// evalFn evaluates an expression.
type evalFn func(th *Thread, fr *frame) (cell, error)

// execFn runs a statement; ctrl says how it ended.
type execFn func(th *Thread, fr *frame) (ctrl, error)

// condFn evaluates a condition (only bools are conditions).
type condFn func(th *Thread, fr *frame) (bool, error)

// ctrl says how a statement list ended.
type ctrl uint8

const (
	ctrlNone ctrl = iota
	ctrlBreak
	ctrlContinue
	ctrlReturn
)

// frame is a fn call's local slots; parent is the frame the fn was declared
// in (closures capture frames by reference). Top-level code runs with a nil
// frame and uses the global table.
type frame struct {
	parent *frame
	slots  []cell
	result cell
}

// compiler compiles one file's host code. nest tracks how deeply the
// expressions of the fn being compiled nest, so that a call can count its
// Go stack (see fnCode.nest).
type compiler struct {
	nest, maxNest int
}

// chunk is a compiled statement list (a file's top level).
type chunk struct {
	run  execFn
	last evalFn // a REPL entry's final expression, for its value; or nil
	nest int    // the deepest expression nesting at top level
}

// compileChunk compiles a file's top-level statements; with lastValue, a
// final expression statement is compiled apart (chunk.last), to give the
// entry's value.
func compileChunk(stmts []ast.Stmt, lastValue bool) (ch *chunk) {
	defer func() {
		// A compiler bug must not take the embedding program down: the
		// chunk then fails when it runs, as a run-time panic does.
		if r := recover(); r != nil {
			err := &EvalError{Msg: fmt.Sprintf("internal error: compiling: %v", r), internal: true}
			if len(stmts) > 0 {
				err.Pos = stmts[0].Start()
			}
			ch = &chunk{run: func(*Thread, *frame) (ctrl, error) { return ctrlNone, err }}
		}
	}()
	c := &compiler{}
	var last evalFn
	if n := len(stmts); lastValue && n > 0 {
		if es, ok := stmts[n-1].(*ast.ExprStmt); ok {
			stmts = stmts[:n-1]
			at := es.Start()
			x := c.value(es.X)
			last = func(th *Thread, fr *frame) (cell, error) {
				th.lastPos = &at
				return x(th, fr)
			}
		}
	}
	run := c.block(stmts)
	return &chunk{run: run, last: last, nest: c.maxNest}
}

// block compiles a statement list: the fn, kernel and func declarations
// (and imports, consts, structs) in it are bound first, so that they can be
// used before they appear.
func (c *compiler) block(stmts []ast.Stmt) execFn {
	var hoists, body []execFn
	for _, s := range stmts {
		if h := c.hoist(s); h != nil {
			hoists = append(hoists, h)
			continue
		}
		if x := c.stmt(s); x != nil {
			body = append(body, x)
		}
	}
	run := seq(body)
	if len(hoists) == 0 {
		return run
	}
	bind := seq(hoists)
	return func(th *Thread, fr *frame) (ctrl, error) {
		if _, err := bind(th, fr); err != nil {
			return ctrlNone, err
		}
		return run(th, fr)
	}
}

// seq runs statements in order until one ends the list.
func seq(list []execFn) execFn {
	switch len(list) {
	case 0:
		return func(*Thread, *frame) (ctrl, error) { return ctrlNone, nil }
	case 1:
		return list[0]
	case 2:
		a, b := list[0], list[1]
		return func(th *Thread, fr *frame) (ctrl, error) {
			if c, err := a(th, fr); err != nil || c != ctrlNone {
				return c, err
			}
			return b(th, fr)
		}
	}
	return func(th *Thread, fr *frame) (ctrl, error) {
		for _, s := range list {
			if c, err := s(th, fr); err != nil || c != ctrlNone {
				return c, err
			}
		}
		return ctrlNone, nil
	}
}

// stmt compiles one statement; declarations (hoisted) compile to nil.
// Thread.lastPos, the position an internal error or a failed final
// synchronization is reported at, is set where work leaves the engine:
// builtin calls and launches.
func (c *compiler) stmt(s ast.Stmt) execFn {
	switch s := s.(type) {
	case *ast.ExprStmt:
		e := c.value(s.X)
		return func(th *Thread, fr *frame) (ctrl, error) {
			_, err := e(th, fr)
			return ctrlNone, err
		}
	case *ast.LetStmt:
		return c.let(s)
	case *ast.AssignStmt:
		return c.assign(s)
	case *ast.IfStmt:
		return c.ifStmt(s)
	case *ast.ForStmt:
		return c.forStmt(s)
	case *ast.WhileStmt:
		return c.while(s)
	case *ast.BranchStmt:
		r := ctrlContinue
		if s.Tok == "break" {
			r = ctrlBreak
		}
		return func(*Thread, *frame) (ctrl, error) { return r, nil }
	case *ast.ReturnStmt:
		return c.returnStmt(s)
	case *ast.AssertStmt:
		return c.assert(s)
	case *ast.Block:
		return c.block(s.Stmts)
	case *ast.TryStmt:
		return c.try(s)
	case *ast.FnDecl, *ast.KernelDecl, *ast.FuncDecl, *ast.ImportStmt, *ast.ConstDecl, *ast.StructDecl:
		return nil // bound by hoist
	case *ast.ArrayDecl:
		return c.arrayDecl(s)
	case *ast.LaunchStmt:
		return c.launch(s)
	case *ast.DeviceBlock:
		return c.deviceBlock(s)
	case *ast.AllocatorBlock:
		return c.allocatorBlock(s)
	case *ast.CaptureBlock:
		return c.capture(s)
	case *ast.TapeBlock:
		return c.tape(s)
	}
	pos := s.Start()
	err := fmt.Errorf("unsupported statement %T", s)
	return func(th *Thread, _ *frame) (ctrl, error) { return ctrlNone, th.errorAt(pos, err) }
}

// hoist compiles the binding of a declaration, run when its block starts;
// nil for any other statement.
func (c *compiler) hoist(s ast.Stmt) execFn {
	switch d := s.(type) {
	case *ast.FnDecl:
		return c.fnDecl(d)
	case *ast.KernelDecl:
		set := c.storer(d.Name)
		return func(th *Thread, fr *frame) (ctrl, error) {
			if th.info.Kernels[d] == nil {
				return ctrlNone, th.errorAt(d.Pos, fmt.Errorf("kernel %s was not compiled", d.Name.Name))
			}
			set(th, fr, cell{v: kernelValue(th.info, d)})
			return ctrlNone, nil
		}
	case *ast.FuncDecl:
		set := c.storer(d.Name)
		f := &DeviceFunc{Name: d.Name.Name}
		return func(th *Thread, fr *frame) (ctrl, error) {
			set(th, fr, cell{v: f})
			return ctrlNone, nil
		}
	case *ast.ImportStmt:
		set := c.storer(d.Name)
		return func(th *Thread, fr *frame) (ctrl, error) {
			m, err := th.execImport(d)
			if err == nil {
				set(th, fr, cell{v: m})
			}
			return ctrlNone, err
		}
	case *ast.ConstDecl:
		// Bound before the chunk runs, so that host code may use a const
		// declared further down, as kernels may.
		set := c.storer(d.Name)
		return func(th *Thread, fr *frame) (ctrl, error) {
			v, err := hostConst(th.info.Consts[d])
			if err != nil {
				return ctrlNone, th.errorAt(d.Value.Start(), err)
			}
			set(th, fr, valCell(v))
			return ctrlNone, nil
		}
	case *ast.StructDecl:
		set := c.storer(d.Name)
		return func(th *Thread, fr *frame) (ctrl, error) {
			set(th, fr, cell{v: &StructType{S: th.info.Structs[d]}})
			return ctrlNone, nil
		}
	}
	return nil
}

// storer compiles the store into a resolved name.
func (c *compiler) storer(id *ast.Ident) func(th *Thread, fr *frame, v cell) {
	i := id.Index
	switch id.Scope {
	case ast.ScopeLocal:
		if d := id.Depth; d > 0 {
			return func(_ *Thread, fr *frame, v cell) {
				for k := d; k > 0; k-- {
					fr = fr.parent
				}
				fr.slots[i] = v
			}
		}
		return func(_ *Thread, fr *frame, v cell) { fr.slots[i] = v }
	case ast.ScopeGlobal:
		return func(th *Thread, _ *frame, v cell) { th.globals.vals[i] = v }
	}
	return func(*Thread, *frame, cell) {} // a predeclared name is not assigned (check refuses it)
}

func (c *compiler) let(s *ast.LetStmt) execFn {
	if len(s.Names) != 1 {
		return c.unpack(identTargets(c, s.Names), s.Value)
	}
	v := c.value(s.Value)
	set := c.storer(s.Names[0])
	if s.Type != nil {
		at, t := s.Value.Start(), s.Type
		return func(th *Thread, fr *frame) (ctrl, error) {
			x, err := v(th, fr)
			if err != nil {
				return ctrlNone, err
			}
			y, err := convertAnnotated(x.box(), t)
			if err != nil {
				return ctrlNone, th.errorAt(at, err)
			}
			set(th, fr, valCell(y))
			return ctrlNone, nil
		}
	}
	return func(th *Thread, fr *frame) (ctrl, error) {
		x, err := v(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		set(th, fr, x)
		return ctrlNone, nil
	}
}

func (c *compiler) ifStmt(s *ast.IfStmt) execFn {
	cond := c.cond(s.Cond)
	then := c.block(s.Then.Stmts)
	var els execFn
	switch e := s.Else.(type) {
	case *ast.Block:
		els = c.block(e.Stmts)
	case *ast.IfStmt:
		els = c.stmt(e)
	}
	if i, op, k, ok := slotCompare(s.Cond); ok {
		// if n < 2: an unboxed int in the slot is compared here, without
		// the condition's call.
		return func(th *Thread, fr *frame) (ctrl, error) {
			a := fr.slots[i]
			_, isInt := a.v.(intMark)
			ok := isInt && intCompare(op, int64(a.n), k)
			if !isInt {
				var err error
				if ok, err = cond(th, fr); err != nil {
					return ctrlNone, err
				}
			}
			switch {
			case ok:
				return then(th, fr)
			case els != nil:
				return els(th, fr)
			}
			return ctrlNone, nil
		}
	}
	if els == nil {
		return func(th *Thread, fr *frame) (ctrl, error) {
			ok, err := cond(th, fr)
			if err != nil || !ok {
				return ctrlNone, err
			}
			return then(th, fr)
		}
	}
	return func(th *Thread, fr *frame) (ctrl, error) {
		ok, err := cond(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		if ok {
			return then(th, fr)
		}
		return els(th, fr)
	}
}

func (c *compiler) while(s *ast.WhileStmt) execFn {
	cond := c.cond(s.Cond)
	body := c.block(s.Body.Stmts)
	pos := s.Pos
	return func(th *Thread, fr *frame) (ctrl, error) {
		for {
			ok, err := cond(th, fr)
			if err != nil || !ok {
				return ctrlNone, err
			}
			if r, done, err := loopBody(th, fr, body, pos); done {
				return r, err
			}
		}
	}
}

func (c *compiler) returnStmt(s *ast.ReturnStmt) execFn {
	if s.Value == nil {
		return func(_ *Thread, fr *frame) (ctrl, error) {
			fr.result = cell{v: Nil}
			return ctrlReturn, nil
		}
	}
	if id, ok := localSlot(s.Value); ok {
		i := id.Index
		return func(th *Thread, fr *frame) (ctrl, error) {
			if fr.result = fr.slots[i]; !fr.result.set() {
				return ctrlNone, th.undefined(id)
			}
			return ctrlReturn, nil
		}
	}
	v := c.value(s.Value)
	return func(th *Thread, fr *frame) (ctrl, error) {
		x, err := v(th, fr)
		if err != nil {
			return ctrlNone, err
		}
		if fr == nil {
			return ctrlNone, th.errorAt(s.Pos, fmt.Errorf("return outside a fn"))
		}
		fr.result = x
		return ctrlReturn, nil
	}
}

func (c *compiler) assert(s *ast.AssertStmt) execFn {
	cond := c.cond(s.Cond)
	var msg evalFn
	if s.Msg != nil {
		msg = c.value(s.Msg)
	}
	pos := s.Pos
	return func(th *Thread, fr *frame) (ctrl, error) {
		ok, err := cond(th, fr)
		if err != nil || ok {
			return ctrlNone, err
		}
		text := "assertion failed"
		if msg != nil {
			m, err := msg(th, fr)
			if err != nil {
				return ctrlNone, err
			}
			text += ": " + m.box().String()
		}
		return ctrlNone, th.errorAt(pos, fmt.Errorf("%s", text))
	}
}
