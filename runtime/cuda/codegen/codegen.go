package codegen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// Options select how a kernel is generated.
type Options struct {
	// Debug adds bounds checks to every array access and division-by-zero
	// checks to integer division; the first failure is recorded in
	// ErrorSymbol and ends the failing thread.
	Debug bool
	// UnitStride promises that every array argument's innermost stride is
	// 1 (contiguous rows), so the innermost index is used unscaled. The
	// launcher picks this variant when the arguments allow it.
	UnitStride bool
	// Index32 promises that every element offset of every array argument
	// (sum of index times stride, in elements) fits in an int32, so
	// offsets are computed in 32-bit arithmetic: one IMAD per axis on
	// the GPU instead of a 64-bit multiply, which a compute-bound loop
	// over a vec3 array (j * strides[0] per iteration) pays for. The
	// launcher picks this variant when the arguments allow it.
	Index32 bool
	// FastMath prints the kernel as if its ir.Kernel.FastMath were set
	// (config.fast_math). Either prints float arithmetic as plain C
	// operators and rsqrt as rsqrtf/rsqrt, for NVRTC's --use_fast_math to
	// contract and approximate (doc.go).
	FastMath bool
	// Vector prints each run of loads or stores of the lanes of one
	// element (a vec2, vec4, vec2d ... of an array parameter; vec.go) as
	// 8- or 16-byte vector accesses. It promises that every array
	// argument VectorNeeds names keeps its need (alignment, unit innermost
	// stride); the launcher picks this variant when the arguments allow
	// it. Debug builds ignore it.
	Vector bool
}

// gen holds the state of one Source call.
type gen struct {
	k    *ir.Kernel
	opts Options
	// vector: print lane runs as vector accesses (Options.Vector, not
	// Debug)
	vector bool
	ids    map[*ir.Inst]int
	need   map[string]bool
	// generated helpers (block.go), in the order they are printed
	gened    []string
	genNames map[string]bool

	// per function
	f       *ir.Func
	entry   bool
	res     string // the result struct of a device func of several results
	b       strings.Builder
	depth   int
	loops   []int        // label numbers of the enclosing loops, innermost last
	labels  int          // next label number
	contUse map[int]bool // labels some continue jumps to

	last pos.Pos // script position of the last position marker
}

// Source returns CUDA C++ for kernel k: one extern "C" __global__ entry named
// EntryName(k) plus a __device__ function for each of k.Funcs, preceded by
// the helpers they use. The output depends only on k and opts (it is hashed
// for the kernel cache). Malformed IR gives an *pos.Error at the offending
// instruction's position; Source never panics on it.
func Source(k *ir.Kernel, opts Options) (string, error) {
	if k == nil || k.Entry == nil {
		return "", &pos.Error{Msg: "codegen: nil kernel"}
	}
	if err := ir.Verify(k); err != nil {
		return "", err
	}
	opts.FastMath = opts.FastMath || k.FastMath
	g := &gen{k: k, opts: opts, vector: opts.Vector && !opts.Debug, ids: map[*ir.Inst]int{}, need: map[string]bool{}, genNames: map[string]bool{}}
	walkKernel(k, func(_ *ir.Func, in *ir.Inst) { g.ids[in] = len(g.ids) })
	if opts.Debug {
		g.use("gs_error")
	}
	var protos, defs []string
	for i, f := range k.Funcs {
		sig, err := g.funcSig(i, f)
		if err != nil {
			return "", err
		}
		g.res = resultName(i, f)
		body, err := g.body(f, false)
		if err != nil {
			return "", err
		}
		if len(f.Results) > 1 {
			protos = append(protos, resultStruct(i, f))
		}
		protos = append(protos, sig+";\n")
		defs = append(defs, sig+" {\n"+body+"}\n")
	}
	entryCode := g.entryCode
	if k.IsBlock() {
		entryCode = g.blockEntry
	}
	entry, err := entryCode()
	if err != nil {
		return "", err
	}
	return g.assemble(protos, defs, entry), nil
}

// entryCode emits the kernel's body as an inlined device function run for one
// launch thread (its linear index gs_lin), and the __global__ entry that
// runs gs_dims.per launch threads per CUDA thread, a block's width apart
// so that neighbouring CUDA threads still touch neighbouring elements. The
// launcher coarsens only launches far larger than the GPU (fewer, longer
// threads keep more memory traffic in flight: +7% on a streaming kernel
// on the H200); a return in the body ends one launch thread, not the loop.
func (g *gen) entryCode() (string, error) {
	f := g.k.Entry
	sig, err := g.entrySig()
	if err != nil {
		return "", err
	}
	ps, err := g.params(f)
	if err != nil {
		return "", err
	}
	name := EntryName(g.k)
	bodySig := fmt.Sprintf("static __device__ __forceinline__ void %s_body(%s)", name,
		strings.Join(append(ps, "const gs_launch& gs_dims", "long long gs_lin"), ", "))
	body, err := g.body(f, true)
	if err != nil {
		return "", err
	}
	args := make([]string, 0, len(f.Params)+2)
	for i := range f.Params {
		args = append(args, pname(f, i))
	}
	args = append(args, "gs_dims", "gs_lin")
	call := fmt.Sprintf("%s_body(%s);", name, strings.Join(args, ", "))
	var b strings.Builder
	b.WriteString("  long long gs_first = (long long)blockIdx.x * (long long)blockDim.x * gs_dims.per + (long long)threadIdx.x;\n")
	if unrollable(g.k, f) {
		// The launcher's coarsening factor as a constant: the unrolled
		// loop streams 1.5% faster than the general one (saxpy, H200).
		fmt.Fprintf(&b, `  if (gs_dims.per == %d) {
    #pragma unroll
    for (int gs_k = 0; gs_k < %d; gs_k++) {
      long long gs_lin = gs_first + (long long)gs_k * (long long)blockDim.x;
      if (gs_lin >= gs_dims.total) return;
      %s
    }
    return;
  }
`, CoarsenPer, CoarsenPer, call)
	}
	fmt.Fprintf(&b, `  for (long long gs_k = 0; gs_k < gs_dims.per; gs_k++) {
    long long gs_lin = gs_first + gs_k * (long long)blockDim.x;
    if (gs_lin >= gs_dims.total) return;
    %s
  }
`, call)
	return bodySig + " {\n" + body + "}\n\n" + sig + " {\n" + b.String() + "}\n", nil
}

// FlatBlock is the threads per block of every launch of a kernel without
// a block shape (the launcher's choice, declared to the compiler).
const FlatBlock = 256

// flatBlocksPerSM is the blocks of FlatBlock threads each multiprocessor
// must hold at once: __launch_bounds__ then caps registers at 64 a thread
// (half the H200's threads resident). Without it NVRTC gave the vec3
// n-body loop more registers and fewer resident threads: 16.6 TFLOP/s
// against 20.2 with the cap (H200, one probe; the three-array loop 19.1
// and 22.5). Streaming kernels need far fewer registers and do not notice.
const flatBlocksPerSM = 4

// CoarsenPer is the launch threads per CUDA thread of a coarsened launch,
// the factor the entry unrolls for.
const CoarsenPer = 4

// unrollLimit bounds the kernels whose body the entry repeats CoarsenPer
// times: small, loop-free (streaming) bodies gain from it; big ones would
// only compile slower.
const unrollLimit = 48

// unrollable reports whether kernel k's entry f is small and loop-free,
// counting the funcs it calls as part of it (a loop in a callee, as the
// n-body's interaction loop, makes the body anything but streaming).
func unrollable(k *ir.Kernel, f *ir.Func) bool {
	n, loops := 0, false
	seen := map[int]bool{} // each callee once: malformed recursive IR ends
	var walk func(ss []ir.Stmt)
	walk = func(ss []ir.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ir.Inst:
				n++
				if c := s.Callee; s.Op == ir.OpCall && c >= 0 && c < len(k.Funcs) && !seen[c] {
					seen[c] = true
					walk(k.Funcs[c].Body)
				}
			case *ir.If:
				walk(s.Then)
				walk(s.Else)
			case *ir.Loop:
				loops = true
			}
		}
	}
	walk(f.Body)
	return !loops && n <= unrollLimit
}

func errorf(at pos.Pos, format string, args ...any) error {
	return &pos.Error{Pos: at, Msg: fmt.Sprintf(format, args...)}
}

// use marks a helper (and its dependencies) as needed.
func (g *gen) use(name string) {
	if g.need[name] {
		return
	}
	g.need[name] = true
	for _, h := range helpers {
		if h.name == name {
			for _, d := range h.deps {
				g.use(d)
			}
		}
	}
}

// arrayStruct declares one array struct per rank (data, then the extents
// and strides in elements, only as many as the rank: fewer parameter bytes
// make a cheaper launch) and the launch geometry.
const arrayStruct = `struct gs_array1 { unsigned long long data; long long shape[1]; long long strides[1]; };
struct gs_array2 { unsigned long long data; long long shape[2]; long long strides[2]; };
struct gs_array3 { unsigned long long data; long long shape[3]; long long strides[3]; };
struct gs_array4 { unsigned long long data; long long shape[4]; long long strides[4]; };
struct gs_launch { long long n[4]; long long total; long long per; };  // extents (1 past the rank), their product, launch threads per CUDA thread
`

func (g *gen) assemble(protos, defs []string, entry string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Generated by gscript runtime/cuda/codegen for kernel %q (debug=%v, unit_stride=%v, index32=%v, vector=%v). Do not edit.\n",
		g.k.Entry.Name, g.opts.Debug, g.opts.UnitStride, g.opts.Index32, g.vector)
	if g.k.IsBlock() {
		b.WriteString("// Entry parameters: the kernel's parameters (struct gs_arrayN by value for arrays of rank N).\n")
		fmt.Fprintf(&b, "// Block kernel: launched with block %v (C order, last axis on x) over the grid, %d bytes of dynamic shared memory.\n\n",
			g.k.Block, SharedBytes(g.k))
	} else {
		b.WriteString("// Entry parameters: the kernel's parameters (struct gs_arrayN by value for arrays of rank N),\n")
		b.WriteString("// then struct gs_launch (launch extents, thread count, threads per CUDA thread).\n\n")
	}
	b.WriteString(arrayStruct)
	for _, h := range helpers {
		if g.need[h.name] {
			b.WriteString("\n" + h.text)
		}
	}
	for _, h := range g.gened {
		b.WriteString("\n" + h)
	}
	if len(protos) > 0 {
		b.WriteString("\n")
		for _, p := range protos {
			b.WriteString(p)
		}
	}
	for _, d := range defs {
		b.WriteString("\n" + d)
	}
	b.WriteString("\n" + entry)
	return b.String()
}

// pname is the C name of parameter i of the current function: the index
// prefix makes it unique and keeps it clear of C keywords and gs_ names.
func pname(f *ir.Func, i int) string { return fmt.Sprintf("p%d_%s", i, ident(f.Params[i].Name)) }

func funcName(i int, f *ir.Func) string { return fmt.Sprintf("gs_f%d_%s", i, ident(f.Name)) }

// resultName is the C type a func of several results returns: a struct
// of members v0, v1, ... (C has one return value; a struct stays in
// registers after inlining).
func resultName(i int, f *ir.Func) string { return funcName(i, f) + "_res" }

// resultStruct declares resultName(i, f); funcSig checked its types.
func resultStruct(i int, f *ir.Func) string {
	var b strings.Builder
	fmt.Fprintf(&b, "struct %s {", resultName(i, f))
	for k, t := range f.Results {
		ct, _ := ctype(t)
		fmt.Fprintf(&b, " %s v%d;", ct, k)
	}
	b.WriteString(" };\n")
	return b.String()
}

func (g *gen) params(f *ir.Func) ([]string, error) {
	var ps []string
	for i, p := range f.Params {
		if p.IsArray() {
			if p.NDim > 4 {
				return nil, errorf(f.Pos, "codegen: %s: array parameter %s has %d dimensions (at most 4)", f.Name, p.Name, p.NDim)
			}
			if _, ok := ctype(p.Elem); !ok {
				return nil, errorf(f.Pos, "codegen: %s: parameter %s has element type %s", f.Name, p.Name, p.Elem)
			}
			ps = append(ps, fmt.Sprintf("gs_array%d %s", p.NDim, pname(f, i)))
			continue
		}
		ct, ok := ctype(p.Elem)
		if !ok {
			return nil, errorf(f.Pos, "codegen: %s: parameter %s has type %s", f.Name, p.Name, p.Elem)
		}
		ps = append(ps, ct+" "+pname(f, i))
	}
	return ps, nil
}

// funcSig is a device func's signature. In Debug builds every array
// parameter i also gets "int gs_root<i>": the entry parameter index it came
// from, so that bounds errors inside funcs name the launch's array.
func (g *gen) funcSig(i int, f *ir.Func) (string, error) {
	ps, err := g.params(f)
	if err != nil {
		return "", err
	}
	if g.opts.Debug {
		for j, p := range f.Params {
			if p.IsArray() {
				ps = append(ps, fmt.Sprintf("int gs_root%d", j))
			}
		}
	}
	for _, t := range f.Results {
		if _, ok := ctype(t); !ok {
			return "", errorf(f.Pos, "codegen: func %s has result type %s", f.Name, t)
		}
	}
	ret := "void"
	switch len(f.Results) {
	case 0:
	case 1:
		ret, _ = ctype(f.Results[0])
	default:
		ret = resultName(i, f)
	}
	return fmt.Sprintf("static __device__ %s %s(%s)", ret, funcName(i, f), strings.Join(ps, ", ")), nil
}

func (g *gen) entrySig() (string, error) {
	f := g.k.Entry
	if g.k.TidDims < 0 || g.k.TidDims > 4 {
		return "", errorf(f.Pos, "codegen: kernel %s: TidDims %d (want 0-4)", f.Name, g.k.TidDims)
	}
	ps, err := g.params(f)
	if err != nil {
		return "", err
	}
	if g.k.IsBlock() {
		bounds := strconv.Itoa(g.k.BlockThreads())
		if g.k.MinBlocks > 0 {
			bounds += ", " + strconv.Itoa(g.k.MinBlocks)
		}
		return fmt.Sprintf("extern \"C\" __global__ void __launch_bounds__(%s) %s(%s)", bounds, EntryName(g.k),
			strings.Join(ps, ", ")), nil
	}
	ps = append(ps, "gs_launch gs_dims")
	return fmt.Sprintf("extern \"C\" __global__ void __launch_bounds__(%d, %d) %s(%s)", FlatBlock, flatBlocksPerSM,
		EntryName(g.k), strings.Join(ps, ", ")), nil
}

// body emits a function body: thread decoding (entry), every register
// and local array declared and zeroed up front (so no goto jumps over an
// initialisation), then the statements.
func (g *gen) body(f *ir.Func, entry bool) (string, error) {
	g.f, g.entry, g.depth = f, entry, 1
	g.b.Reset()
	g.loops, g.contUse = nil, map[int]bool{}
	g.last = pos.Pos{}
	g.sourcePos(f.Pos) // the function's own lines (thread decoding, registers)
	switch {
	case entry && g.k.IsBlock():
		g.blockPrologue()
	case entry:
		g.threadIndex()
	}
	for r, t := range f.Regs {
		ct, ok := ctype(t)
		if !ok {
			return "", errorf(f.Pos, "codegen: %s: register r%d has type %s", f.Name, r, t)
		}
		g.line("%s r%d = 0;", ct, r)
	}
	if err := g.locals(f); err != nil {
		return "", err
	}
	if err := g.stmts(f.Body); err != nil {
		return "", err
	}
	if !entry && len(f.Results) > 0 && !endsInReturn(f.Body) {
		// Unreachable for checked IR (every path returns); keeps C well-formed.
		if len(f.Results) == 1 {
			ct, _ := ctype(f.Results[0])
			g.line("return (%s)0;", ct)
		} else {
			g.line("return %s{};", g.res)
		}
	}
	return g.b.String(), nil
}

func endsInReturn(ss []ir.Stmt) bool {
	if len(ss) == 0 {
		return false
	}
	_, ok := ss[len(ss)-1].(*ir.Return)
	return ok
}

// threadIndex decodes the launch thread gs_lin's position in C order (last
// axis fastest). The language caps a launch at 2^31-1 threads and the entry
// checks gs_lin < total, so gs_lin fits 32 bits and the divisions are 32-bit.
func (g *gen) threadIndex() {
	d := g.k.TidDims
	if d == 0 {
		return
	}
	if d == 1 {
		g.line("int gs_tid0 = (int)gs_lin;")
		return
	}
	g.line("unsigned int gs_rest = (unsigned int)gs_lin;")
	for a := d - 1; a > 0; a-- {
		g.line("int gs_tid%d = (int)(gs_rest %% (unsigned int)gs_dims.n[%d]);", a, a)
		g.line("gs_rest /= (unsigned int)gs_dims.n[%d];", a)
	}
	g.line("int gs_tid0 = (int)gs_rest;")
}

// sourcePos emits a position marker (see ScriptPos) when an instruction
// starts a new script position, so that NVRTC's messages about the lines
// after it can be mapped to the script's file, line and column.
func (g *gen) sourcePos(pos pos.Pos) {
	if !pos.IsValid() || (pos.Line == g.last.Line && pos.Col == g.last.Col && pos.File == g.last.File) {
		return
	}
	g.last = pos
	g.line("%s%d:%d %s", posMarker, pos.Line, pos.Col, strconv.Quote(pos.File))
}

func (g *gen) line(format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", g.depth))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *gen) stmts(ss []ir.Stmt) error {
	for i := 0; i < len(ss); i++ {
		if g.vector {
			if r, ok := findRun(g.f, ss, i); ok {
				if err := g.laneRun(r); err != nil {
					return err
				}
				i += r.span - 1
				continue
			}
		}
		if err := g.stmt(ss[i]); err != nil {
			return err
		}
	}
	return nil
}

func (g *gen) stmt(s ir.Stmt) error {
	switch s := s.(type) {
	case *ir.Inst:
		if s == nil {
			return errorf(g.f.Pos, "codegen: %s: nil instruction", g.f.Name)
		}
		g.sourcePos(s.Pos)
		return g.inst(s)
	case *ir.If:
		if s == nil {
			return errorf(g.f.Pos, "codegen: %s: nil if", g.f.Name)
		}
		return g.ifStmt(s)
	case *ir.Loop:
		if s == nil {
			return errorf(g.f.Pos, "codegen: %s: nil loop", g.f.Name)
		}
		return g.loop(s)
	case *ir.Break:
		if len(g.loops) == 0 {
			return errorf(g.f.Pos, "codegen: %s: break outside a loop", g.f.Name)
		}
		g.line("break;")
		return nil
	case *ir.Continue:
		if len(g.loops) == 0 {
			return errorf(g.f.Pos, "codegen: %s: continue outside a loop", g.f.Name)
		}
		l := g.loops[len(g.loops)-1]
		if l < 0 {
			return errorf(g.f.Pos, "codegen: %s: continue in a loop's Cond or Post", g.f.Name)
		}
		g.contUse[l] = true
		g.line("goto gs_cont%d;", l)
		return nil
	case *ir.Return:
		if s == nil {
			return errorf(g.f.Pos, "codegen: %s: nil return", g.f.Name)
		}
		return g.ret(s)
	}
	return errorf(g.f.Pos, "codegen: %s: unknown statement %T", g.f.Name, s)
}

func (g *gen) ifStmt(s *ir.If) error {
	c, err := g.boolReg(s.Cond)
	if err != nil {
		return err
	}
	g.line("if (%s) {", c)
	g.depth++
	if err := g.stmts(s.Then); err != nil {
		return err
	}
	g.depth--
	if len(s.Else) > 0 {
		g.line("} else {")
		g.depth++
		if err := g.stmts(s.Else); err != nil {
			return err
		}
		g.depth--
	}
	g.line("}")
	return nil
}

// loop prints `for (;;) { cond; if (!c) break; { body } gs_contN:; post }`.
// continue is `goto gs_contN`, so it runs Post like the CPU executor; break
// is C's break (no switch statements are ever emitted, so it always leaves
// the loop).
func (g *gen) loop(s *ir.Loop) error {
	label := g.labels
	g.labels++
	g.line("for (;;) {")
	g.depth++
	g.loops = append(g.loops, -1) // a continue in Cond has no sensible target
	if err := g.stmts(s.Cond); err != nil {
		return err
	}
	if s.CondReg != ir.NoReg {
		c, err := g.boolReg(s.CondReg)
		if err != nil {
			return err
		}
		g.line("if (!%s) break;", c)
	}
	g.loops[len(g.loops)-1] = label
	g.line("{")
	g.depth++
	if err := g.stmts(s.Body); err != nil {
		return err
	}
	g.depth--
	g.line("}")
	if g.contUse[label] {
		g.line("gs_cont%d:;", label)
	}
	g.loops[len(g.loops)-1] = -1
	if err := g.stmts(s.Post); err != nil {
		return err
	}
	g.loops = g.loops[:len(g.loops)-1]
	g.depth--
	g.line("}")
	return nil
}

// ret returns nothing, the one result, or the struct of several results
// (ir.Verify matched Values to the func's results).
func (g *gen) ret(s *ir.Return) error {
	vs := make([]string, len(s.Values))
	for k, r := range s.Values {
		var err error
		if vs[k], _, err = g.reg(r, g.f.Pos); err != nil {
			return err
		}
	}
	switch len(vs) {
	case 0:
		g.line("return;")
	case 1:
		g.line("return %s;", vs[0])
	default:
		g.line("return %s{%s};", g.res, strings.Join(vs, ", "))
	}
	return nil
}

// reg checks register r of the current function and returns its C name.
func (g *gen) reg(r ir.Reg, pos pos.Pos) (string, ir.Type, error) {
	if r < 0 || int(r) >= len(g.f.Regs) {
		return "", ir.Invalid, errorf(pos, "codegen: %s: register %d out of range", g.f.Name, r)
	}
	return fmt.Sprintf("r%d", r), g.f.Regs[r], nil
}

func (g *gen) boolReg(r ir.Reg) (string, error) {
	c, t, err := g.reg(r, g.f.Pos)
	if err == nil && t != ir.Bool {
		err = errorf(g.f.Pos, "codegen: %s: condition r%d is %s, not bool", g.f.Name, r, t)
	}
	return c, err
}
