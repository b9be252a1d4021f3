package interp

import (
	"errors"
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/token"
)

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
	slots  []Value
	result Value
}

// execBlock runs a statement list after binding the fn, kernel and func
// declarations in it (declarations are hoisted to the start of their block).
func (th *Thread) execBlock(stmts []ast.Stmt, fr *frame) (ctrl, error) {
	for _, s := range stmts {
		if err := th.hoist(s, fr); err != nil {
			return ctrlNone, err
		}
	}
	for _, s := range stmts {
		c, err := th.exec(s, fr)
		if err != nil || c != ctrlNone {
			return c, err
		}
	}
	return ctrlNone, nil
}

func (th *Thread) hoist(s ast.Stmt, fr *frame) error {
	switch d := s.(type) {
	case *ast.FnDecl:
		th.store(d.Name, &Closure{Decl: d, parent: fr, globals: th.globals}, fr)
	case *ast.KernelDecl:
		k := th.info.Kernels[d]
		if k == nil {
			return th.errorAt(d.Pos, fmt.Errorf("kernel %s was not compiled", d.Name.Name))
		}
		th.store(d.Name, &Kernel{Name: d.Name.Name, IR: k, Params: th.info.Signatures[d]}, fr)
	case *ast.FuncDecl:
		th.store(d.Name, &DeviceFunc{Name: d.Name.Name}, fr)
	case *ast.ImportStmt:
		return th.execImport(d, fr)
	case *ast.ConstDecl:
		// Bound before the chunk runs, so that host code may use a const
		// declared further down, as kernels may.
		v, err := hostConst(th.info.Consts[d])
		if err != nil {
			return th.errorAt(d.Value.Start(), err)
		}
		th.store(d.Name, v, fr)
	case *ast.StructDecl:
		th.store(d.Name, &StructType{S: th.info.Structs[d]}, fr)
	}
	return nil
}

// store binds a resolved name.
func (th *Thread) store(id *ast.Ident, v Value, fr *frame) {
	switch id.Scope {
	case ast.ScopeLocal:
		f := fr
		for d := id.Depth; d > 0; d-- {
			f = f.parent
		}
		f.slots[id.Index] = v
	case ast.ScopeGlobal:
		th.globals.vals[id.Index] = v
	}
}

// load reads a resolved name.
func (th *Thread) load(id *ast.Ident, fr *frame) (Value, error) {
	var v Value
	switch id.Scope {
	case ast.ScopeLocal:
		f := fr
		for d := id.Depth; d > 0; d-- {
			f = f.parent
		}
		v = f.slots[id.Index]
	case ast.ScopeGlobal:
		v = th.globals.vals[id.Index]
	case ast.ScopePredeclared:
		v = th.in.predeclared[id.Name]
	}
	if v == nil {
		return nil, th.errorAt(id.Pos, fmt.Errorf("%s is used before it is defined", id.Name))
	}
	return v, nil
}

func (th *Thread) exec(s ast.Stmt, fr *frame) (ctrl, error) {
	th.lastPos = s.Start()
	switch s := s.(type) {
	case *ast.ExprStmt:
		_, err := th.eval(s.X, fr)
		return ctrlNone, err
	case *ast.LetStmt:
		return ctrlNone, th.execLet(s, fr)
	case *ast.AssignStmt:
		return ctrlNone, th.execAssign(s, fr)
	case *ast.IfStmt:
		return th.execIf(s, fr)
	case *ast.ForStmt:
		return th.execFor(s, fr)
	case *ast.WhileStmt:
		return th.execWhile(s, fr)
	case *ast.BranchStmt:
		if s.Tok == "break" {
			return ctrlBreak, nil
		}
		return ctrlContinue, nil
	case *ast.ReturnStmt:
		fr.result = Nil
		if s.Value != nil {
			v, err := th.eval(s.Value, fr)
			if err != nil {
				return ctrlNone, err
			}
			fr.result = v
		}
		return ctrlReturn, nil
	case *ast.AssertStmt:
		return ctrlNone, th.execAssert(s, fr)
	case *ast.Block:
		return th.execBlock(s.Stmts, fr)
	case *ast.FnDecl, *ast.KernelDecl, *ast.FuncDecl, *ast.ImportStmt, *ast.ConstDecl, *ast.StructDecl:
		return ctrlNone, nil // bound by hoist
	case *ast.ArrayDecl:
		return ctrlNone, th.execArrayDecl(s, fr)
	case *ast.LaunchStmt:
		return ctrlNone, th.execLaunch(s, fr)
	case *ast.DeviceBlock:
		return th.execDeviceBlock(s, fr)
	case *ast.AllocatorBlock:
		return th.execAllocatorBlock(s, fr)
	case *ast.CaptureBlock:
		return th.execCapture(s, fr)
	}
	return ctrlNone, th.errorAt(s.Start(), fmt.Errorf("unsupported statement %T", s))
}

func (th *Thread) execLet(s *ast.LetStmt, fr *frame) error {
	v, err := th.eval(s.Value, fr)
	if err != nil {
		return err
	}
	if len(s.Names) != 1 {
		l, ok := v.(*List)
		if !ok || len(l.Elems) != len(s.Names) {
			return th.errorAt(s.Pos, fmt.Errorf("cannot unpack %s into %d names", describe(v), len(s.Names)))
		}
		for i, id := range s.Names {
			th.store(id, l.Elems[i], fr)
		}
		return nil
	}
	if s.Type != nil {
		if v, err = convertAnnotated(v, s.Type); err != nil {
			return th.errorAt(s.Value.Start(), err)
		}
	}
	th.store(s.Names[0], v, fr)
	return nil
}

func (th *Thread) execAssign(s *ast.AssignStmt, fr *frame) error {
	v, err := th.evalOperand(s.Value, fr)
	if err != nil {
		return err
	}
	op := s.Op.Compound() // token.Add for +=, token.Invalid for =
	if id, ok := s.Target.(*ast.Ident); ok && op != token.Invalid {
		old, err := th.load(id, fr)
		if err != nil {
			return err
		}
		if a, ok := old.(*Array); ok {
			// NumPy: y += expr writes into y, one kernel.
			err := th.updateArray(a, op, v)
			if err != nil {
				err = nameFreed(err, []ast.Expr{s.Target, s.Value}, []Value{a, v})
			}
			return th.errorAt(s.OpPos, err)
		}
	}
	if t, ok := s.Target.(*ast.IndexExpr); ok {
		// y[...] = expr stays deferred: written into the view in place.
		return th.assignIndex(t, op, v, s.Value.Start(), s.OpPos, fr)
	}
	if v, err = th.materialise(v); err != nil {
		return th.errorAt(s.Value.Start(), err)
	}
	switch t := s.Target.(type) {
	case *ast.Ident:
		if op != token.Invalid {
			old, err := th.load(t, fr)
			if err != nil {
				return err
			}
			if v, err = binary(th, op, old, v); err != nil {
				return th.errorAt(s.OpPos, err)
			}
		}
		th.store(t, v, fr)
		return nil
	case *ast.AttrExpr:
		x, err := th.eval(t.X, fr)
		if err != nil {
			return err
		}
		if vec, ok := x.(*Vector); ok && !isStruct(vec) {
			return th.errorAt(t.Name.Pos, th.assignComponent(t.X, vec, t.Name.Name, nil, op, v, fr))
		}
		if op != token.Invalid {
			old, err := getAttr(th, x, t.Name.Name)
			if err != nil {
				return th.errorAt(t.Name.Pos, err)
			}
			if v, err = binary(th, op, old, v); err != nil {
				return th.errorAt(s.OpPos, err)
			}
		}
		return th.errorAt(t.Name.Pos, setAttr(x, t.Name.Name, v))
	}
	return th.errorAt(s.Pos, fmt.Errorf("cannot assign to this expression"))
}

// assignIndex stores v, which may be a deferred array expression (valPos
// is its position), into an element or a view.
func (th *Thread) assignIndex(t *ast.IndexExpr, op token.Op, v Value, valPos, opPos ast.Pos, fr *frame) error {
	x, err := th.eval(t.X, fr)
	if err != nil {
		return err
	}
	if t.Slices() {
		cs, err := th.evalComps(t.Indices, fr)
		if err != nil {
			return err
		}
		return th.assignSlice(t, x, cs, op, v, opPos)
	}
	idx, err := th.evalList(t.Indices, fr)
	if err != nil {
		return err
	}
	if a, ok := x.(*Array); ok && len(idx) < a.NDim() {
		// m[i] = v writes the row m[i], a view.
		cs := make([]comp, len(idx))
		for k, iv := range idx {
			if cs[k].i, err = toInt(iv); err != nil {
				return th.errorAt(t.Indices[k].Start(), fmt.Errorf("array index: %v", err))
			}
		}
		return th.assignSlice(t, x, cs, op, v, opPos)
	}
	if v, err = th.materialise(v); err != nil {
		return th.errorAt(valPos, err)
	}
	if vec, ok := x.(*Vector); ok && !isStruct(vec) {
		return th.errorAt(t.Lbrack, th.assignComponent(t.X, vec, "", idx, op, v, fr))
	}
	if op != token.Invalid {
		old, err := index(th, x, idx)
		if err != nil {
			return th.errorAt(t.Lbrack, err)
		}
		if v, err = binary(th, op, old, v); err != nil {
			return th.errorAt(opPos, err)
		}
	}
	return th.errorAt(t.Lbrack, setIndex(th, x, idx, v))
}

// assignSlice writes v (combined with the view's old value by op, for
// y[2:10] += v) into the view of x that cs select.
func (th *Thread) assignSlice(t *ast.IndexExpr, x Value, cs []comp, op token.Op, v Value, opPos ast.Pos) error {
	a, ok := x.(*Array)
	if !ok {
		return th.errorAt(t.Lbrack, fmt.Errorf("not yet supported: assigning to a slice of a %s (build a new one with +)", x.Type()))
	}
	view, err := viewOf(a, cs)
	if err != nil {
		return th.errorAt(t.Lbrack, err)
	}
	if op != token.Invalid {
		// y[2:10] += v: one kernel, in place (updateArray).
		return th.errorAt(opPos, th.updateArray(a.wrap(view), op, v))
	}
	if a.Compound() {
		return th.errorAt(t.Lbrack, th.assignCompound(a.wrap(view), v))
	}
	return th.errorAt(t.Lbrack, th.AssignView(view, v))
}

func (th *Thread) execIf(s *ast.IfStmt, fr *frame) (ctrl, error) {
	c, err := th.cond(s.Cond, fr)
	if err != nil {
		return ctrlNone, err
	}
	if c {
		return th.execBlock(s.Then.Stmts, fr)
	}
	if s.Else != nil {
		return th.exec(s.Else, fr)
	}
	return ctrlNone, nil
}

// cond evaluates a condition: only bools are conditions.
func (th *Thread) cond(e ast.Expr, fr *frame) (bool, error) {
	v, err := th.eval(e, fr)
	if err != nil {
		return false, err
	}
	b, ok := v.(Bool)
	if !ok {
		return false, th.errorAt(e.Start(), fmt.Errorf("condition must be a bool, not %s", v.Type()))
	}
	return bool(b), nil
}

func (th *Thread) execWhile(s *ast.WhileStmt, fr *frame) (ctrl, error) {
	for {
		if err := th.step(); err != nil {
			return ctrlNone, th.errorAt(s.Pos, err)
		}
		c, err := th.cond(s.Cond, fr)
		if err != nil || !c {
			return ctrlNone, err
		}
		r, err := th.execBlock(s.Body.Stmts, fr)
		if err != nil {
			return ctrlNone, err
		}
		if r == ctrlBreak {
			return ctrlNone, nil
		}
		if r == ctrlReturn {
			return r, nil
		}
	}
}

func (th *Thread) execFor(s *ast.ForStmt, fr *frame) (ctrl, error) {
	body := func(v Value) (ctrl, bool, error) {
		if err := th.step(); err != nil {
			return ctrlNone, true, th.errorAt(s.Pos, err)
		}
		if s.VarUsed {
			th.store(s.Var, v, fr)
		}
		r, err := th.execBlock(s.Body.Stmts, fr)
		switch {
		case err != nil:
			return ctrlNone, true, err
		case r == ctrlBreak:
			return ctrlNone, true, nil
		case r == ctrlReturn:
			return r, true, nil
		}
		return ctrlNone, false, nil
	}
	if call, ok := s.Iter.(*ast.CallExpr); ok && isPredeclared(call.Fun, "range") {
		lo, hi, step, err := th.rangeArgs(call, fr)
		if err != nil {
			return ctrlNone, err
		}
		// Counting the iterations first keeps the counter from overflowing:
		// the step after the last value is never taken.
		i := lo
		for n := RangeLen(lo, hi, step); n > 0; n, i = n-1, i+step {
			var v Value
			if s.VarUsed {
				v = Int(i) // boxing allocates: only for a variable the body reads
			}
			if r, done, err := body(v); done {
				return r, err
			}
		}
		return ctrlNone, nil
	}
	it, err := th.eval(s.Iter, fr)
	if err != nil {
		return ctrlNone, err
	}
	elems, err := iterate(th, it)
	if err != nil {
		return ctrlNone, th.errorAt(s.Iter.Start(), err)
	}
	for _, v := range elems {
		if r, done, err := body(v); done {
			return r, err
		}
	}
	return ctrlNone, nil
}

func isPredeclared(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name && id.Scope == ast.ScopePredeclared
}

// RangeLen is the number of values of range(lo, hi, step), computed
// without overflow (the distance between two int64s fits a uint64).
func RangeLen(lo, hi, step int64) uint64 {
	switch {
	case step > 0 && lo < hi:
		return (uint64(hi)-uint64(lo)-1)/uint64(step) + 1
	case step < 0 && lo > hi:
		return (uint64(lo)-uint64(hi)-1)/(-uint64(step)) + 1
	}
	return 0
}

// rangeArgs evaluates range(stop) / range(start, stop[, step]).
func (th *Thread) rangeArgs(call *ast.CallExpr, fr *frame) (lo, hi, step int64, err error) {
	if len(call.Kwargs) > 0 || len(call.Args) < 1 || len(call.Args) > 3 {
		return 0, 0, 0, th.errorAt(call.Lparen, fmt.Errorf("range takes 1 to 3 int arguments"))
	}
	vals := make([]int64, len(call.Args))
	for i, a := range call.Args {
		v, err := th.eval(a, fr)
		if err != nil {
			return 0, 0, 0, err
		}
		n, ok := v.(Int)
		if !ok {
			return 0, 0, 0, th.errorAt(a.Start(), fmt.Errorf("range argument must be an int, not %s", v.Type()))
		}
		vals[i] = int64(n)
	}
	lo, step = 0, 1
	switch len(vals) {
	case 1:
		hi = vals[0]
	case 2:
		lo, hi = vals[0], vals[1]
	case 3:
		lo, hi, step = vals[0], vals[1], vals[2]
	}
	if step == 0 {
		return 0, 0, 0, th.errorAt(call.Args[2].Start(), fmt.Errorf("range step must not be zero"))
	}
	return lo, hi, step, nil
}

func (th *Thread) execAssert(s *ast.AssertStmt, fr *frame) error {
	ok, err := th.cond(s.Cond, fr)
	if err != nil || ok {
		return err
	}
	msg := "assertion failed"
	if s.Msg != nil {
		m, err := th.eval(s.Msg, fr)
		if err != nil {
			return err
		}
		msg += ": " + m.String()
	}
	return th.errorAt(s.Pos, fmt.Errorf("%s", msg))
}

// ---- expressions ----

func (th *Thread) evalList(es []ast.Expr, fr *frame) ([]Value, error) {
	out := make([]Value, len(es))
	for i, e := range es {
		v, err := th.eval(e, fr)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// eval evaluates e and materialises an array expression (one fused
// kernel): every consumer of a value but an operator gets a computed one.
func (th *Thread) eval(e ast.Expr, fr *frame) (Value, error) {
	v, err := th.evalOperand(e, fr)
	if err != nil {
		return nil, err
	}
	if v, err = th.materialise(v); err != nil {
		return nil, th.errorAt(e.Start(), err)
	}
	return v, nil
}

// evalOperand evaluates e, leaving an array expression deferred (the
// operands of operators). Evaluation recurses on the Go stack once per nested
// expression, and fn calls multiply that (2000 calls each 1000 levels
// deep would overflow Go's 1 GB stack): the depth is bounded as a whole.
func (th *Thread) evalOperand(e ast.Expr, fr *frame) (Value, error) {
	if th.evalDepth >= maxEvalDepth {
		return nil, th.errorAt(e.Start(), errEvalDepth)
	}
	th.evalDepth++
	v, err := th.evalExpr(e, fr)
	th.evalDepth--
	return v, err
}

func (th *Thread) evalExpr(e ast.Expr, fr *frame) (Value, error) {
	switch e := e.(type) {
	case *ast.Ident:
		return th.load(e, fr)
	case *ast.BasicLit:
		return literal(e)
	case *ast.BoolLit:
		return Bool(e.Value), nil
	case *ast.NilLit:
		return Nil, nil
	case *ast.ParenExpr:
		return th.evalOperand(e.X, fr)
	case *ast.ListLit:
		elems, err := th.evalList(e.Elems, fr)
		if err != nil {
			return nil, err
		}
		return &List{Elems: elems}, nil
	case *ast.UnaryExpr:
		x, err := th.evalOperand(e.X, fr)
		if err != nil {
			return nil, err
		}
		v, err := th.unaryOp(e.Op, x)
		if err != nil {
			err = nameFreed(err, []ast.Expr{e.X}, []Value{x})
		}
		return v, th.errorAt(e.Pos, err)
	case *ast.BinaryExpr:
		return th.evalBinary(e, fr)
	case *ast.CallExpr:
		return th.evalCall(e, fr)
	case *ast.IndexExpr:
		return th.evalIndex(e, fr)
	case *ast.AttrExpr:
		x, err := th.evalOperand(e.X, fr)
		if err != nil {
			return nil, err
		}
		if d, ok := x.(Deferred); ok && e.Name.Name == "astype" {
			return asType(d), nil // (a * b).astype(f64) fuses
		}
		if x, err = th.materialise(x); err != nil {
			return nil, th.errorAt(e.X.Start(), err)
		}
		v, err := getAttr(th, x, e.Name.Name)
		return v, th.errorAt(e.Name.Pos, err)
	}
	return nil, th.errorAt(e.Start(), fmt.Errorf("unsupported expression %T", e))
}

func literal(e *ast.BasicLit) (Value, error) {
	switch v := e.Value.(type) {
	case uint64:
		if v > 1<<63-1 {
			return nil, &EvalError{Pos: e.Pos, Msg: fmt.Sprintf("integer literal %s overflows int", e.Raw)}
		}
		return Int(v), nil
	case float64:
		return Float(v), nil
	case string:
		return String(v), nil
	}
	return nil, &EvalError{Pos: e.Pos, Msg: fmt.Sprintf("bad literal %s", e.Raw)}
}

func (th *Thread) evalBinary(e *ast.BinaryExpr, fr *frame) (Value, error) {
	if e.Op.IsLogical() {
		a, err := th.cond(e.X, fr)
		if err != nil {
			return nil, err
		}
		if a == (e.Op == token.LOr) {
			return Bool(a), nil
		}
		b, err := th.cond(e.Y, fr)
		return Bool(b), err
	}
	x, err := th.evalOperand(e.X, fr)
	if err != nil {
		return nil, err
	}
	y, err := th.evalOperand(e.Y, fr)
	if err != nil {
		return nil, err
	}
	if e.Op == token.MatMul {
		v, err := th.matmulOp(e, x, y)
		return v, th.errorAt(e.OpPos, err)
	}
	v, err := binary(th, e.Op, x, y)
	if err != nil { // the operands' slices only on the error path: binary ops are the host's hot path
		err = nameFreed(err, []ast.Expr{e.X, e.Y}, []Value{x, y})
	}
	return v, th.errorAt(e.OpPos, err)
}

// matmulOp is a @ b: a call of the predeclared matmul (NumPy's operator),
// whatever a script binds to the name.
func (th *Thread) matmulOp(e *ast.BinaryExpr, x, y Value) (Value, error) {
	f, ok := th.in.predeclared["matmul"]
	if !ok {
		return nil, errors.New("matmul is not available: the @ operator calls matmul(a, b)")
	}
	var err error
	if x, err = th.materialise(x); err != nil {
		return nil, err
	}
	if y, err = th.materialise(y); err != nil {
		return nil, err
	}
	return th.Call(f, &Args{Pos: e.OpPos, Positional: []Value{x, y}, exprs: []ast.Expr{e.X, e.Y}})
}

// evalIndex reads an element, or makes a view (arrays) or a copy (lists,
// strings) when a component is a slice.
func (th *Thread) evalIndex(e *ast.IndexExpr, fr *frame) (Value, error) {
	x, err := th.eval(e.X, fr)
	if err != nil {
		return nil, err
	}
	if e.Slices() {
		cs, err := th.evalComps(e.Indices, fr)
		if err != nil {
			return nil, err
		}
		v, err := sliceValue(x, cs)
		return v, th.errorAt(e.Lbrack, err)
	}
	idx, err := th.evalList(e.Indices, fr)
	if err != nil {
		return nil, err
	}
	v, err := index(th, x, idx)
	return v, th.errorAt(e.Lbrack, err)
}

func (th *Thread) evalCall(e *ast.CallExpr, fr *frame) (Value, error) {
	fn, err := th.eval(e.Fun, fr)
	if err != nil {
		return nil, err
	}
	args := &Args{Pos: e.Lparen, exprs: e.Args}
	if args.Positional, err = th.evalArgs(fn, e.Args, fr); err != nil {
		return nil, err
	}
	for _, kw := range e.Kwargs {
		v, err := th.eval(kw.Value, fr)
		if err != nil {
			return nil, err
		}
		args.Names = append(args.Names, kw.Name.Name)
		args.Kw = append(args.Kw, v)
	}
	v, err := th.Call(fn, args)
	if err != nil {
		err = nameFreed(err, e.Args, args.Positional)
	}
	return v, th.errorAt(e.Lparen, err)
}

// evalArgs evaluates a call's positional arguments; a builtin marked
// Operands gets array expressions deferred (sqrt(a * b) fuses).
func (th *Thread) evalArgs(fn Value, es []ast.Expr, fr *frame) ([]Value, error) {
	if b, ok := fn.(*Builtin); !ok || !b.Operands {
		return th.evalList(es, fr)
	}
	out := make([]Value, len(es))
	for i, e := range es {
		v, err := th.evalOperand(e, fr)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Call calls a callable value: a fn, a builtin, a dtype (conversion) or a
// struct type (construction).
func (th *Thread) Call(fn Value, args *Args) (Value, error) {
	if err := th.step(); err != nil {
		return nil, err
	}
	switch f := fn.(type) {
	case *Builtin:
		args.Fn = f.Name
		return f.Fn(th, args)
	case *Closure:
		return th.callClosure(f, args)
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

func (th *Thread) callClosure(c *Closure, args *Args) (Value, error) {
	d := c.Decl
	if len(th.calls) >= maxCallDepth {
		return nil, fmt.Errorf("call stack too deep (%d fn calls): unbounded recursion?", maxCallDepth)
	}
	fr := &frame{parent: c.parent, slots: make([]Value, d.NumLocals)}
	if len(args.Positional) > len(d.Params) {
		return nil, fmt.Errorf("fn %s takes %d arguments, got %d", d.Name.Name, len(d.Params), len(args.Positional))
	}
	copy(fr.slots, args.Positional)
	for i, name := range args.Names {
		k := paramIndex(d, name)
		if k < 0 {
			return nil, fmt.Errorf("fn %s has no parameter %s", d.Name.Name, name)
		}
		if fr.slots[k] != nil {
			return nil, fmt.Errorf("fn %s got parameter %s twice", d.Name.Name, name)
		}
		fr.slots[k] = args.Kw[i]
	}
	for i, p := range d.Params {
		if fr.slots[i] == nil {
			return nil, fmt.Errorf("fn %s: missing argument %s", d.Name.Name, p.Name.Name)
		}
	}
	th.calls = append(th.calls, CallFrame{Name: d.Name.Name, Pos: args.Pos})
	caller := th.globals
	th.globals = c.globals // a program's fn called after an Exec chunk, or the reverse
	r, err := th.execBlock(d.Body.Stmts, fr)
	th.globals = caller
	th.calls = th.calls[:len(th.calls)-1]
	if err != nil {
		return nil, err
	}
	if r == ctrlReturn {
		return fr.result, nil
	}
	return Nil, nil
}

func paramIndex(d *ast.FnDecl, name string) int {
	for i, p := range d.Params {
		if p.Name.Name == name {
			return i
		}
	}
	return -1
}
