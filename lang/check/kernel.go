package check

import (
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// funcInfo is a checked device func signature and the func environment its
// body sees (the funcs visible where it was declared).
type funcInfo struct {
	decl   *ast.FuncDecl
	name   string
	sig    []dtype.Param // the parameters as declared
	params []ir.Param    // sig flattened (dtype.FlattenParams)
	result dtype.Type    // invalid for none; a compound one returns its lanes
	// badResult is true when the declared result type was an error:
	// calls then yield an invalid operand instead of "no value".
	badResult bool
	// readsMem: the func reads an array parameter, itself or through a
	// func it calls, so its result may differ between threads that pass
	// it the same arguments.
	readsMem bool
	env      map[string]*funcInfo
}

// kernelChecker checks and lowers the kernels and funcs of one chunk.
type kernelChecker struct {
	c    *Checker
	r    *resolver
	errs *ast.ErrorList
	env  map[string]*funcInfo // earlier chunks' funcs plus this chunk's
	// funcsOK is false when a func of this chunk failed to check; kernels
	// are then still checked but their callees are not lowered.
	funcsOK bool
	sigs    map[*ast.KernelDecl][]dtype.Param
}

func newKernelChecker(c *Checker, r *resolver, errs *ast.ErrorList) *kernelChecker {
	env := make(map[string]*funcInfo, len(c.funcs)+len(r.funcs))
	for k, v := range c.funcs {
		env[k] = v
	}
	return &kernelChecker{c: c, r: r, errs: errs, env: env, sigs: map[*ast.KernelDecl][]dtype.Param{}}
}

// isHostName reports whether name is a host variable some kernel might
// wrongly try to use.
func (kc *kernelChecker) isHostName(name string) bool {
	return kc.c.hostNames[name] || kc.r.declared[name]
}

// run checks funcs first (signatures, bodies, recursion), then checks and
// lowers every kernel.
func (kc *kernelChecker) run(kernels []*ast.KernelDecl, funcs []*ast.FuncDecl) map[*ast.KernelDecl]*ir.Kernel {
	infos := make([]*funcInfo, len(funcs))
	for i, d := range funcs {
		infos[i] = kc.signature(d)
		kc.env[d.Name.Name] = infos[i]
	}
	before := len(*kc.errs)
	edges := map[*funcInfo][]callEdge{}
	for _, fi := range infos {
		b := newBody(kc, "func", fi.name, fi.env, nil)
		b.lowerFunc(fi)
		edges[fi], fi.readsMem = b.edges, b.readsMem
	}
	kc.checkRecursion(infos, edges)
	propagateReads(infos, edges)
	kc.funcsOK = len(*kc.errs) == before
	out := make(map[*ast.KernelDecl]*ir.Kernel, len(kernels))
	for _, d := range kernels {
		out[d] = kc.kernel(d)
	}
	return out
}

// signature checks a func's parameter and result types.
func (kc *kernelChecker) signature(d *ast.FuncDecl) *funcInfo {
	fi := &funcInfo{decl: d, name: d.Name.Name, env: kc.env}
	fi.sig = kc.params("func", d.Name.Name, d.Params)
	fi.params = dtype.FlattenParams(fi.sig)
	if d.Result != nil {
		fi.result = kc.valueType(d.Result, "func result")
		fi.badResult = !fi.result.Valid()
	}
	return fi
}

// params checks parameter types.
func (kc *kernelChecker) params(kind, name string, ps []*ast.Param) []dtype.Param {
	out := make([]dtype.Param, 0, len(ps))
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Name.Name] {
			kc.errs.Add(p.Name.Pos, "duplicate parameter %s", p.Name.Name)
		}
		seen[p.Name.Name] = true
		// Type stays invalid after an error: the body then treats the
		// parameter as poisoned (see body.bindParam).
		sp := dtype.Param{Name: p.Name.Name}
		if p.Type == nil {
			kc.errs.Add(p.Name.Pos, "%s %s: parameter %s needs a type", kind, name, p.Name.Name)
		} else {
			sp.Type, sp.NDim = kc.paramType(p.Type)
		}
		out = append(out, sp)
	}
	return out
}

// paramType checks a value or array type. An array of a compound type
// has at most 4 axes with its lanes' (dtype's Decisions).
func (kc *kernelChecker) paramType(t *ast.TypeExpr) (dtype.Type, int) {
	if t.Name != "array" {
		return kc.valueType(t, "parameter"), 0
	}
	if t.Elem == nil || t.Elem.Name == "array" {
		kc.errs.Add(t.Pos, "array element type must be one of %s or a vector type", scalarNameList)
		return dtype.Type{}, 1
	}
	elem := kc.valueType(t.Elem, "array element")
	ndim := t.NDim
	if ndim == 0 {
		ndim = 1
	}
	if most := 4 - len(elem.Dims()); ndim < 1 || ndim > most {
		kc.errs.Add(t.Pos, "array rank %d out of range 1..%d%s", t.NDim, most, rankNote(elem))
		return dtype.Type{}, 1
	}
	return elem, ndim
}

// rankNote explains a compound array's lower rank limit.
func rankNote(t dtype.Type) string {
	if t.IsScalar() {
		return ""
	}
	return fmt.Sprintf(" (an array of %s has %d more axes for its lanes, 4 in all)", t, len(t.Dims()))
}

// valueType checks a scalar, vector, matrix, quaternion or struct type name;
// arrays are an error here.
func (kc *kernelChecker) valueType(t *ast.TypeExpr, what string) dtype.Type {
	if t.Name == "array" {
		kc.errs.Add(t.Pos, "%s cannot be an array", what)
		return dtype.Type{}
	}
	if ct, ok := dtype.ByName(t.Name); ok {
		return ct
	}
	if s, ok := kc.structType(t.Name); ok {
		if s == nil { // its declaration had an error, reported there
			return dtype.Type{}
		}
		return s.Type()
	}
	kc.errs.Add(t.Pos, "unknown type %s (want one of %s, a vector type: vec3, mat33, quat ..., or a struct)", t.Name, scalarNameList)
	return dtype.Type{}
}

// structType is the struct type a kernel or func names name, if it is one:
// a top-level struct of this chunk or of an earlier one (a kernel body's
// own names do not hide it: types and values live apart). ok with a nil
// struct is a struct whose declaration had an error, already reported:
// treat its uses as poisoned. Bodies reach it as b.kc.structType.
func (kc *kernelChecker) structType(name string) (*dtype.Struct, bool) {
	return kc.r.structNamed(name)
}

// propagateReads marks the funcs that call a func that reads memory;
// funcs of earlier chunks are final already.
func propagateReads(infos []*funcInfo, edges map[*funcInfo][]callEdge) {
	for changed := true; changed; {
		changed = false
		for _, fi := range infos {
			for _, e := range edges[fi] {
				if e.callee.readsMem && !fi.readsMem {
					fi.readsMem, changed = true, true
				}
			}
		}
	}
}

// callEdge is a func call found while checking a func body.
type callEdge struct {
	callee *funcInfo
	pos    ast.Pos
}

// checkRecursion reports each call cycle among this chunk's funcs once.
// Funcs of earlier chunks cannot call into this chunk, so cycles are local.
func (kc *kernelChecker) checkRecursion(infos []*funcInfo, edges map[*funcInfo][]callEdge) {
	const (
		white = iota
		grey
		black
	)
	color := map[*funcInfo]int{}
	var stack []*funcInfo
	var visit func(fi *funcInfo)
	visit = func(fi *funcInfo) {
		color[fi] = grey
		stack = append(stack, fi)
		for _, e := range edges[fi] {
			switch color[e.callee] {
			case grey:
				kc.reportCycle(stack, e)
			case white:
				if _, local := edges[e.callee]; local {
					visit(e.callee)
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[fi] = black
	}
	for _, fi := range infos {
		if color[fi] == white {
			visit(fi)
		}
	}
}

func (kc *kernelChecker) reportCycle(stack []*funcInfo, e callEdge) {
	start := 0
	for i, fi := range stack {
		if fi == e.callee {
			start = i
		}
	}
	var names []string
	for _, fi := range stack[start:] {
		names = append(names, fi.name)
	}
	names = append(names, e.callee.name)
	kc.errs.Add(e.pos, "recursive func call: %s (funcs cannot recurse)", strings.Join(names, " -> "))
}

// kernelState is the lowering state of one kernel: the funcs it reaches,
// indexed as OpCall.Callee.
type kernelState struct {
	k     *ir.Kernel
	index map[*funcInfo]int
}

// kernel checks and lowers one kernel.
func (kc *kernelChecker) kernel(d *ast.KernelDecl) *ir.Kernel {
	sig := kc.params("kernel", d.Name.Name, d.Params)
	kc.sigs[d] = sig
	ks := &kernelState{k: &ir.Kernel{FastMath: d.Fast}, index: map[*funcInfo]int{}}
	b := newBody(kc, "kernel", d.Name.Name, kc.env, ks)
	b.fn = &ir.Func{Name: d.Name.Name, Pos: d.Pos, Params: dtype.FlattenParams(sig)}
	b.sig = sig
	ks.k.Entry = b.fn
	b.lower(d.Body, func() { b.blockShape(d) })
	ks.k.TidDims, ks.k.Block = b.tidDims, b.block
	b.uni.check(b.errs)
	return ks.k
}

// callee returns fi's index in the kernel's Funcs, lowering it on first
// use. Errors were reported when fi itself was checked, so they are
// dropped here.
func (ks *kernelState) callee(kc *kernelChecker, fi *funcInfo) int {
	if idx, ok := ks.index[fi]; ok {
		return idx
	}
	idx := len(ks.k.Funcs)
	ks.index[fi] = idx
	ks.k.Funcs = append(ks.k.Funcs, nil)
	var discard ast.ErrorList
	sub := &kernelChecker{c: kc.c, r: kc.r, errs: &discard, env: kc.env, funcsOK: true}
	b := newBody(sub, "func", fi.name, fi.env, ks)
	ks.k.Funcs[idx] = b.lowerFunc(fi)
	return idx
}
