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
	body execFn
	nest int
	// escapes: a fn is declared in the body (FnDecl.Escapes, from the
	// resolver), and its closure may keep the call's frame, which must
	// then be the call's own.
	escapes bool
}

// fnDecl compiles a fn declaration's body once and its binding, which
// makes a Closure over the frame the declaration runs in.
func (c *compiler) fnDecl(d *ast.FnDecl) execFn {
	saved, savedMax := c.nest, c.maxNest
	c.nest, c.maxNest = 0, 0
	code := &fnCode{body: c.block(d.Body.Stmts), escapes: d.Escapes}
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
	if err := th.step(); err != nil {
		return cell{}, th.errorAt(k.pos, err)
	}
	if cl, ok := fn.(*Closure); ok && len(k.kws) == 0 {
		if len(k.args) <= smallArgs {
			var buf [smallArgs]cell
			return k.callFn(th, fr, cl, buf[:len(k.args)])
		}
		if len(k.args) <= maxArgs {
			var buf [maxArgs]cell
			return k.callFn(th, fr, cl, buf[:len(k.args)])
		}
	}
	return k.callValue(th, fr, fn, nil, nil)
}

// callFn calls a fn with the arguments evaluated into buf.
func (k *callCode) callFn(th *Thread, fr *frame, cl *Closure, buf []cell) (cell, error) {
	for i, a := range k.args {
		v, err := a(th, fr)
		if err != nil {
			return cell{}, err
		}
		if _, ok := v.v.(Deferred); ok {
			if v, err = th.mat(v); err != nil {
				return cell{}, th.errorAt(k.argPos[i], err)
			}
		}
		buf[i] = v
	}
	r, err := th.callClosure(cl, buf, nil, nil, &k.pos)
	if err != nil {
		return r, th.errorAt(k.pos, err)
	}
	return r, nil
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

// callSite is one fn call on the thread's stack: the fn and the position
// of the call (a backtrace's CallFrame, two words to push).
type callSite struct {
	fn  *ast.FnDecl
	pos *ast.Pos
}

// errDepth is the error of fn calls nested past Options.MaxDepth.
var errDepth = errors.New("call stack too deep")

// callClosure runs a fn with its positional arguments (cells) and keyword
// arguments. A fn in which no other fn is declared (FnDecl.Escapes false)
// runs in a frame the thread reuses for every call at its depth, so that
// such calls allocate nothing.
func (th *Thread) callClosure(cl *Closure, args []cell, names []string, kw []Value, pos *ast.Pos) (cell, error) {
	d := cl.Decl
	if len(th.calls) >= th.maxDepth {
		return cell{}, fmt.Errorf("%w: more than %d nested fn calls (the interpreter's MaxDepth): unbounded recursion?", errDepth, th.maxDepth)
	}
	if th.evalDepth+cl.code.nest > maxEvalDepth {
		return cell{}, errEvalDepth
	}
	if len(args) > len(d.Params) {
		return cell{}, fmt.Errorf("fn %s takes %d arguments, got %d", d.Name.Name, len(d.Params), len(args))
	}
	fr := th.enter(cl)
	for i, a := range args { // not copy: a call of typedslicecopy costs more for one or two
		fr.slots[i] = a
	}
	if len(args) < len(d.Params) || len(names) > 0 {
		if err := bindParams(d, fr, names, kw); err != nil {
			th.leave(cl, fr)
			return cell{}, err
		}
	}
	th.calls = append(th.calls, callSite{d, pos})
	caller := th.globals
	th.globals = cl.globals // a program's fn called after an Exec chunk, or the reverse
	th.evalDepth += cl.code.nest
	r, err := cl.code.body(th, fr)
	th.evalDepth -= cl.code.nest
	th.globals = caller
	th.calls = th.calls[:len(th.calls)-1]
	result := cell{v: Nil}
	if r == ctrlReturn {
		result = fr.result
	}
	th.leave(cl, fr)
	return result, err
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

// enter gives a call of cl its frame: a new one when cl's body declares a
// fn (a closure may keep the frame), else the thread's frame for this call
// depth, cleared.
func (th *Thread) enter(cl *Closure) *frame {
	n := cl.Decl.NumLocals
	if cl.code.escapes {
		return &frame{parent: cl.parent, slots: make([]cell, n)}
	}
	depth := len(th.calls)
	for len(th.frames) <= depth {
		th.frames = append(th.frames, &frame{})
	}
	fr := th.frames[depth]
	if cap(fr.slots) < n {
		fr.slots = make([]cell, n)
	}
	fr.slots, fr.parent = fr.slots[:n], cl.parent
	return fr
}

// leave drops a reused frame's values, which would otherwise stay alive
// until the next call at its depth.
func (th *Thread) leave(cl *Closure, fr *frame) {
	if cl.code.escapes {
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
