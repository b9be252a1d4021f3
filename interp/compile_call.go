package interp

import (
	"errors"
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
)

// fnCode is a compiled fn body. nest is the deepest expression nesting in
// it: a call adds it to Thread.evalDepth, so that deep recursion through
// deeply nested expressions is an error before Go's stack runs out.
type fnCode struct {
	body   execFn
	nest   int
	locals int // the frame's slots (FnDecl.NumLocals; on the machine, its registers)
	params int
	// declared is FnDecl.NumLocals: the frame's slots that are named,
	// which a call must start unset; the machine's temporaries above them
	// are written before they are read.
	declared int
	// reuse: no fn is declared in the body (FnDecl.Escapes, from the
	// resolver), so no closure keeps the call's frame, and calls at one
	// depth can share one.
	reuse bool
	// vm is the register code that runs the body (vm.go) when onVM; in
	// the fnCode itself, one load closer to the machine's calls.
	vm   vmCode
	onVM bool
	// vmReuse: onVM and reuse, the calls the machine makes without a Go
	// call (one test).
	vmReuse bool
}

// fnDecl compiles a fn declaration's body once and its binding, which
// makes a Closure over the frame the declaration runs in.
func (c *compiler) fnDecl(d *ast.FnDecl) execFn {
	saved, savedMax := c.nest, c.maxNest
	c.nest, c.maxNest = 0, 0
	code := &fnCode{locals: d.NumLocals, declared: d.NumLocals, params: len(d.Params), reuse: !d.Escapes}
	if vc := c.compileVM(d); vc != nil {
		code.vm, code.onVM, code.locals, code.vmReuse = *vc, true, vc.nregs, code.reuse
		code.body = func(th *Thread, fr *frame) (ctrl, error) { return th.runVM(code, fr) }
	} else {
		c.nest, c.maxNest = 0, 0
		code.body = c.block(d.Body.Stmts)
	}
	code.nest = c.maxNest + 1
	c.nest, c.maxNest = saved, savedMax
	set := c.storer(d.Name)
	return func(th *Thread, fr *frame) (ctrl, error) {
		set(th, fr, cell{v: &Closure{Decl: d, code: code, parent: fr, globals: th.globals}})
		return ctrlNone, nil
	}
}

// call compiles a call. A fn called with positional arguments gets them
// as cells into its frame; anything else is Thread.Call with boxed Args.
func (c *compiler) call(e *ast.CallExpr) evalFn {
	if a, ok := e.Fun.(*ast.AttrExpr); ok {
		return c.methodCall(e, a)
	}
	code := c.callArgs(e)
	if id, ok := e.Fun.(*ast.Ident); ok && id.Scope == ast.ScopeGlobal {
		if len(code.kws) == 0 && len(code.args) <= smallArgs {
			return code.globalFn(id)
		}
		// A call of a global fn reads the slot itself: most calls are.
		i := id.Index
		return func(th *Thread, fr *frame) (cell, error) {
			f := th.globals.vals[i]
			if f.v == nil {
				return f, th.undefined(id)
			}
			return code.invoke(th, fr, f.v)
		}
	}
	fn := c.value(e.Fun)
	return func(th *Thread, fr *frame) (cell, error) {
		f, err := fn(th, fr)
		if err != nil {
			return f, err
		}
		return code.invoke(th, fr, f.v)
	}
}

// callCode is a call's compiled arguments. They are compiled as operands:
// a builtin marked Operands gets array expressions deferred (sqrt(a * b)
// fuses); any other callee gets them materialised.
type callCode struct {
	e       *ast.CallExpr
	pos     ast.Pos
	args    []evalFn
	argPos  []ast.Pos
	kwNames []string
	kws     []evalFn
}

func (c *compiler) callArgs(e *ast.CallExpr) *callCode {
	code := &callCode{e: e, pos: e.Lparen, args: make([]evalFn, len(e.Args)), argPos: make([]ast.Pos, len(e.Args))}
	for i, a := range e.Args {
		code.args[i], code.argPos[i] = c.operand(a), a.Start()
	}
	for _, kw := range e.Kwargs {
		code.kwNames = append(code.kwNames, kw.Name.Name)
		code.kws = append(code.kws, c.value(kw.Value))
	}
	return code
}

// smallArgs is how many arguments a fn call passes in a buffer on the Go
// stack without zeroing a larger one.
const smallArgs = 2

// maxArgs is how many arguments a call passes in a buffer on the Go stack.
const maxArgs = 8

// invoke evaluates the arguments and calls fn with them.
func (k *callCode) invoke(th *Thread, fr *frame, fn Value) (cell, error) {
	if cl, ok := fn.(*Closure); ok && len(k.kws) == 0 {
		if len(k.args) <= smallArgs {
			a0, a1, err := k.smallArgs(th, fr)
			if err != nil {
				return cell{}, err
			}
			return k.callSmall(th, cl, a0, a1)
		}
		if len(k.args) <= maxArgs {
			var buf [maxArgs]cell
			return k.callFn(th, fr, cl, buf[:len(k.args)])
		}
	}
	if err := th.step(); err != nil {
		return cell{}, th.errorAt(k.pos, err)
	}
	return k.callValue(th, fr, fn, nil, nil)
}

// globalFn compiles the call of a global with at most smallArgs
// positional arguments, the shape of most calls and of recursion: when
// the global holds a fn, its arguments are evaluated into Go variables
// and from there go into its frame (callSmall). A call with one argument
// (fib(n - 1)) is compiled apart, with arg, callSmall and runBody
// inlined by hand: Go does not inline them, and calls are what recursion
// spends its time on (fib is 10% faster for it).
func (k *callCode) globalFn(id *ast.Ident) evalFn {
	i := id.Index
	if len(k.args) == 1 {
		a := k.args[0]
		return func(th *Thread, fr *frame) (cell, error) {
			f := th.globals.vals[i].v
			cl, ok := f.(*Closure)
			if !ok {
				return k.notFn(th, fr, f, id)
			}
			x, err := a(th, fr)
			if err != nil {
				return cell{}, err
			}
			if !x.number() {
				if x, err = th.mat(x); err != nil {
					return cell{}, th.errorAt(k.argPos[0], err)
				}
			}
			if err := th.step(); err != nil {
				return cell{}, th.errorAt(k.pos, err)
			}
			rec := th.reusedRecord(cl.code)
			if rec == nil || cl.code.params != 1 {
				buf := [1]cell{x}
				r, err := th.callClosure(cl, buf[:], nil, nil, &k.pos)
				return k.returned(th, r, err)
			}
			nf := th.push(rec, cl, &k.pos)
			nf.slots[0] = x
			caller := th.globals
			th.globals = cl.globals
			r, err := cl.code.body(th, nf)
			th.globals = caller
			return k.returned(th, th.finish(cl, nf, r), err)
		}
	}
	return func(th *Thread, fr *frame) (cell, error) {
		f := th.globals.vals[i].v
		cl, ok := f.(*Closure)
		if !ok {
			return k.notFn(th, fr, f, id)
		}
		a0, a1, err := k.smallArgs(th, fr)
		if err != nil {
			return cell{}, err
		}
		return k.callSmall(th, cl, a0, a1)
	}
}

// notFn calls f, the value of the global id, when it is not a fn.
func (k *callCode) notFn(th *Thread, fr *frame, f Value, id *ast.Ident) (cell, error) {
	if f == nil {
		return cell{}, th.undefined(id)
	}
	return k.invoke(th, fr, f)
}

// smallArgs evaluates a call's arguments when it has at most smallArgs
// of them: the first into a0, the second into a1.
func (k *callCode) smallArgs(th *Thread, fr *frame) (a0, a1 cell, err error) {
	if len(k.args) > 0 {
		if a0, err = k.arg(th, fr, 0); err == nil && len(k.args) > 1 {
			a1, err = k.arg(th, fr, 1)
		}
	}
	return a0, a1, err
}

// arg evaluates argument i of a fn call (an array expression is
// materialised: a fn gets arrays).
func (k *callCode) arg(th *Thread, fr *frame, i int) (cell, error) {
	v, err := k.args[i](th, fr)
	if err != nil {
		return cell{}, err
	}
	if !v.number() {
		if v, err = th.mat(v); err != nil {
			return cell{}, th.errorAt(k.argPos[i], err)
		}
	}
	return v, nil
}

// callFn calls a fn with its arguments evaluated into buf.
func (k *callCode) callFn(th *Thread, fr *frame, cl *Closure, buf []cell) (cell, error) {
	for i := range k.args {
		v, err := k.arg(th, fr, i)
		if err != nil {
			return cell{}, err
		}
		buf[i] = v
	}
	if err := th.step(); err != nil {
		return cell{}, th.errorAt(k.pos, err)
	}
	r, err := th.callClosure(cl, buf, nil, nil, &k.pos)
	return k.returned(th, r, err)
}

// returned positions a fn call's error at the call.
func (k *callCode) returned(th *Thread, r cell, err error) (cell, error) {
	if err != nil {
		return r, th.errorAt(k.pos, err)
	}
	return r, nil
}

// callSmall calls cl with the call's arguments, evaluated: a0 and a1 (as
// many as the call has).
func (k *callCode) callSmall(th *Thread, cl *Closure, a0, a1 cell) (cell, error) {
	if err := th.step(); err != nil {
		return cell{}, th.errorAt(k.pos, err)
	}
	n := len(k.args)
	rec := th.reusedRecord(cl.code)
	if rec == nil || cl.code.params != n {
		buf := [smallArgs]cell{a0, a1}
		r, err := th.callClosure(cl, buf[:n], nil, nil, &k.pos)
		return k.returned(th, r, err)
	}
	nf := th.push(rec, cl, &k.pos)
	if n > 0 {
		nf.slots[0] = a0
		if n > 1 {
			nf.slots[1] = a1
		}
	}
	r, err := th.runBody(cl, nf)
	return k.returned(th, th.finish(cl, nf, r), err)
}

// callValue calls any callable with boxed Args, or with m the method m
// of recv.
func (k *callCode) callValue(th *Thread, fr *frame, fn Value, m *method, recv Value) (cell, error) {
	th.lastPos = &k.pos
	b, operands := fn.(*Builtin)
	operands = operands && b.Operands
	var a *Args
	if m != nil {
		// The methods of lists, strings and dicts keep no Args: theirs
		// come from the thread's stack of them (methodArgs).
		a = th.methodArgs(len(k.args))
		defer th.releaseArgs()
	} else {
		a = &Args{Positional: make([]Value, len(k.args))}
	}
	a.Pos, a.exprs = k.pos, k.e.Args
	for i, f := range k.args {
		v, err := f(th, fr)
		if err != nil {
			return cell{}, err
		}
		if !operands {
			if v, err = th.mat(v); err != nil {
				return cell{}, th.errorAt(k.argPos[i], err)
			}
		}
		a.Positional[i] = v.box()
	}
	if len(k.kws) > 0 {
		a.Names, a.Kw = k.kwNames, append(a.Kw[:0], make([]Value, len(k.kws))...)
		for i, f := range k.kws {
			v, err := f(th, fr)
			if err != nil {
				return cell{}, err
			}
			a.Kw[i] = v.box()
		}
	}
	var v Value
	var err error
	if m != nil {
		a.Fn = m.full
		v, err = m.fn(th, recv, a)
	} else {
		v, err = th.call(fn, a)
	}
	if err != nil {
		return cell{}, th.errorAt(k.pos, nameFreed(err, k.e.Args, a.Positional))
	}
	return cell{v: v}, nil
}

// methodArgs is an Args for a method call with n positional arguments,
// reused: a method that calls back into the script (sort's key=) takes the
// next one, so a call in progress never shares its Args.
func (th *Thread) methodArgs(n int) *Args {
	if th.argDepth == len(th.argPool) {
		th.argPool = append(th.argPool, &Args{})
	}
	a := th.argPool[th.argDepth]
	th.argDepth++
	if cap(a.Positional) < n {
		a.Positional = make([]Value, n)
	}
	a.Positional = a.Positional[:n]
	return a
}

// releaseArgs returns the last methodArgs, dropping its values.
func (th *Thread) releaseArgs() {
	th.argDepth--
	a := th.argPool[th.argDepth]
	clear(a.Positional)
	clear(a.Kw)
	a.Positional, a.Names, a.Kw = a.Positional[:0], nil, a.Kw[:0]
}

// methodCall compiles x.name(args). A list's, string's or dict's method
// is looked up once, here, and called without a bound method.
func (c *compiler) methodCall(e *ast.CallExpr, a *ast.AttrExpr) evalFn {
	recv := c.operand(a.X)
	code := c.callArgs(e)
	name, namePos, xpos := a.Name.Name, a.Name.Pos, a.X.Start()
	listM, strM, dictM := findMethod(listMethods, name), findMethod(stringMethods, name), findMethod(dictMethods, name)
	return func(th *Thread, fr *frame) (cell, error) {
		x, err := recv(th, fr)
		if err != nil {
			return x, err
		}
		if d, ok := x.v.(Deferred); ok && name == "astype" {
			return code.invoke(th, fr, asType(d)) // (a * b).astype(f64) fuses
		}
		if x, err = th.mat(x); err != nil {
			return cell{}, th.errorAt(xpos, err)
		}
		var meth *method
		switch l := x.v.(type) {
		case *List:
			if name == "append" && len(code.args) == 1 && len(code.kws) == 0 {
				return code.appendOne(th, fr, l)
			}
			meth = listM
		case String:
			meth = strM
		case *Dict:
			meth = dictM
		}
		if meth != nil {
			if err := th.step(); err != nil {
				return cell{}, th.errorAt(code.pos, err)
			}
			return code.callValue(th, fr, nil, meth, x.v)
		}
		m, err := getAttr(th, x.box(), name)
		if err != nil {
			return cell{}, th.errorAt(namePos, err)
		}
		return code.invoke(th, fr, m)
	}
}

// appendOne is l.append(x), the loop's way of building a list, without
// the method call's Args; an int or float stays unboxed (appendCell).
func (k *callCode) appendOne(th *Thread, fr *frame, l *List) (cell, error) {
	if err := th.step(); err != nil {
		return cell{}, th.errorAt(k.pos, err)
	}
	v, err := k.args[0](th, fr)
	if err == nil {
		v, err = th.mat(v)
	}
	if err != nil {
		return cell{}, th.errorAt(k.argPos[0], err)
	}
	if err := l.appendCell(th, v); err != nil {
		return cell{}, th.errorAt(k.pos, fmt.Errorf("list.append: %w", err))
	}
	return cell{v: Nil}, nil
}

// Call calls a callable value: a fn, a builtin, a dtype (conversion) or a
// struct type (construction).
func (th *Thread) Call(fn Value, args *Args) (Value, error) {
	if err := th.step(); err != nil {
		return nil, err
	}
	return th.call(fn, args)
}

func (th *Thread) call(fn Value, args *Args) (Value, error) {
	switch f := fn.(type) {
	case *Builtin:
		args.Fn = f.Name
		return f.Fn(th, args)
	case *Closure:
		if len(args.Positional) > maxArgs {
			return nil, fmt.Errorf("fn %s takes %d arguments, got %d", f.Decl.Name.Name, len(f.Decl.Params), len(args.Positional))
		}
		var buf [maxArgs]cell
		for i, v := range args.Positional {
			buf[i] = cell{v: v}
		}
		pos := args.Pos
		r, err := th.callClosure(f, buf[:len(args.Positional)], args.Names, args.Kw, &pos)
		return r.box(), err
	case DType:
		args.Fn = f.String()
		return convertCall(f, args)
	case VecType:
		args.Fn = f.String()
		return construct(f, args)
	case *StructType:
		return f.construct(args)
	case *DeviceFunc:
		return nil, fmt.Errorf("func %s is a device function: call it from a kernel", f.Name)
	case *Kernel:
		return nil, fmt.Errorf("kernel %s cannot be called: use launch %s[n](...)", f.Name, f.Name)
	}
	return nil, fmt.Errorf("%s is not callable", fn.Type())
}

// callRecord is one depth of the thread's call stack: the call running
// there (a backtrace's CallFrame) and the frame that calls at this depth
// reuse.
type callRecord struct {
	fn    *ast.FnDecl
	pos   *ast.Pos
	frame frame
	ret   vmReturn // where a call the register machine made returns to
}

// errDepth is the error of fn calls nested past Options.MaxDepth.
var errDepth = errors.New("call stack too deep")

func errArgCount(cl *Closure, n int) error {
	d := cl.Decl
	return fmt.Errorf("fn %s takes %d arguments, got %d", d.Name.Name, len(d.Params), n)
}

// callClosure runs a fn with its positional arguments (cells) and keyword
// arguments.
func (th *Thread) callClosure(cl *Closure, args []cell, names []string, kw []Value, pos *ast.Pos) (cell, error) {
	d := cl.Decl
	if len(args) > len(d.Params) {
		return cell{}, errArgCount(cl, len(args))
	}
	fr, err := th.enter(cl, pos)
	if err != nil {
		return cell{}, err
	}
	for i, a := range args {
		fr.slots[i] = a
	}
	if len(args) < len(d.Params) || len(names) > 0 {
		if err := bindParams(d, fr, names, kw); err != nil {
			th.leave(cl, fr)
			return cell{}, err
		}
	}
	return th.runFn(cl, fr)
}

// runFn runs cl's body in fr, the frame enter gave it, and leaves it.
func (th *Thread) runFn(cl *Closure, fr *frame) (cell, error) {
	r, err := th.runBody(cl, fr)
	return th.finish(cl, fr, r), err
}

// runBody runs cl's body in fr, with cl's globals.
func (th *Thread) runBody(cl *Closure, fr *frame) (ctrl, error) {
	caller := th.globals
	th.globals = cl.globals // a program's fn called after an Exec chunk, or the reverse
	r, err := cl.code.body(th, fr)
	th.globals = caller
	return r, err
}

// finish is the result of a call whose body ended with r, and leaves fr.
func (th *Thread) finish(cl *Closure, fr *frame, r ctrl) cell {
	result := fr.result
	if r != ctrlReturn {
		result = cell{v: Nil}
	}
	th.leave(cl, fr)
	return result
}

// reusedRecord is the record of the depth a call of a fn (code) runs at
// when it can take the common way: the fn reuses frames, and the depth was
// entered before (so within MaxDepth) with a frame large enough. Else it
// is nil, and the call takes enterSlow's way.
func (th *Thread) reusedRecord(code *fnCode) *callRecord {
	depth := th.depth
	if !code.reuse || depth >= len(th.stack) || th.evalDepth+code.nest > maxEvalDepth {
		return nil
	}
	if rec := th.stack[depth]; code.locals <= cap(rec.frame.slots) {
		return rec
	}
	return nil
}

// push enters the call of cl made at pos at rec's depth (reusedRecord)
// and gives it rec's frame.
func (th *Thread) push(rec *callRecord, cl *Closure, pos *ast.Pos) *frame {
	rec.fn, rec.pos = cl.Decl, pos
	th.depth++
	th.evalDepth += cl.code.nest
	fr := &rec.frame
	fr.slots, fr.parent = fr.slots[:cl.code.locals], cl.parent
	return fr
}

// bindParams binds keyword arguments and checks that every parameter got
// a value.
func bindParams(d *ast.FnDecl, fr *frame, names []string, kw []Value) error {
	for i, name := range names {
		k := paramIndex(d, name)
		if k < 0 {
			return fmt.Errorf("fn %s has no parameter %s", d.Name.Name, name)
		}
		if fr.slots[k].v != nil {
			return fmt.Errorf("fn %s got parameter %s twice", d.Name.Name, name)
		}
		fr.slots[k] = cell{v: kw[i]}
	}
	for i, p := range d.Params {
		if fr.slots[i].v == nil {
			return fmt.Errorf("fn %s: missing argument %s", d.Name.Name, p.Name.Name)
		}
	}
	return nil
}

// enter pushes a call of cl made at pos and gives it its frame: a new one
// when cl's body declares a fn (a closure may keep the frame), else the
// frame of the call depth, which every such call at that depth reuses, so
// that calls allocate nothing. It fails past MaxDepth.
func (th *Thread) enter(cl *Closure, pos *ast.Pos) (*frame, error) {
	if rec := th.reusedRecord(cl.code); rec != nil {
		return th.push(rec, cl, pos), nil
	}
	return th.enterSlow(cl, pos, cl.code.nest)
}

// enterSlow is enter's way for a depth not entered before, a frame too
// small, a fn that needs a frame of its own, or a call past the limits.
func (th *Thread) enterSlow(cl *Closure, pos *ast.Pos, nest int) (*frame, error) {
	depth, code := th.depth, cl.code
	if depth >= th.maxDepth {
		return nil, fmt.Errorf("%w: more than %d nested fn calls (the interpreter's MaxDepth): unbounded recursion?", errDepth, th.maxDepth)
	}
	if th.evalDepth+nest > maxEvalDepth {
		return nil, errEvalDepth
	}
	if depth == len(th.stack) {
		th.stack = append(th.stack, &callRecord{})
	}
	rec := th.stack[depth]
	rec.fn, rec.pos = cl.Decl, pos
	th.depth++
	th.evalDepth += nest
	if !code.reuse {
		return &frame{parent: cl.parent, slots: make([]cell, code.locals)}, nil
	}
	fr := &rec.frame
	if cap(fr.slots) < code.locals {
		fr.slots = make([]cell, code.locals)
	}
	fr.slots, fr.parent = fr.slots[:code.locals], cl.parent
	return fr, nil
}

// leave pops the call enter pushed, dropping a reused frame's values,
// which would otherwise stay alive until the next call at its depth.
func (th *Thread) leave(cl *Closure, fr *frame) { th.leaveCode(cl.code, fr, cl.code.nest) }

// leaveCode is leave for a call of a fn compiled to code that counted
// nest against the Go stack's bound.
func (th *Thread) leaveCode(code *fnCode, fr *frame, nest int) {
	th.depth--
	th.evalDepth -= nest
	if !code.reuse {
		return
	}
	for i := range fr.slots {
		fr.slots[i].v = nil // the number words need not be cleared
	}
	fr.result, fr.parent = cell{}, nil
}

func paramIndex(d *ast.FnDecl, name string) int {
	for i, p := range d.Params {
		if p.Name.Name == name {
			return i
		}
	}
	return -1
}
