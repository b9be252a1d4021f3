package codegen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
)

func (g *gen) arrayParam(in *ir.Inst) (ir.Param, error) {
	if in.Param < 0 || in.Param >= len(g.f.Params) || !g.f.Params[in.Param].IsArray() {
		return ir.Param{}, g.instErr(in, "parameter %d is not an array parameter", in.Param)
	}
	return g.f.Params[in.Param], nil
}

// root is the C expression for the entry parameter index of array
// parameter p of the current function (Debug builds).
func (g *gen) root(p int) string {
	if g.entry {
		return strconv.Itoa(p)
	}
	return fmt.Sprintf("gs_root%d", p)
}

// element checks the array parameter and index registers of an access and
// returns the C pointer to the element: the offset is sum idx_k*stride_k in
// 64-bit. In Debug builds every index is first checked against its extent;
// the unsigned compare also catches negative indices.
//
// A field access (field set) indexes every axis but the last, the byte
// axis, whose stride is 1: the pointer is to the element's first byte.
// UnitStride does not apply then, the last index being of another axis.
func (g *gen) element(in *ir.Inst, idx []ir.Reg, field bool) (string, ir.Type, error) {
	if in.Space != ir.SpaceParam {
		return g.bufferElement(in, idx, field)
	}
	p, err := g.arrayParam(in)
	if err != nil {
		return "", ir.Invalid, err
	}
	if len(idx) != p.NDim-b2i(field) {
		return "", ir.Invalid, g.instErr(in, "indexes %s (%d dimensions) with %d indices", p.Name, p.NDim, len(idx))
	}
	name := pname(g.f, in.Param)
	terms := make([]string, len(idx))
	for k, r := range idx {
		x, t, err := g.reg(r, in.Pos)
		if err != nil {
			return "", ir.Invalid, err
		}
		if !t.IsInt() {
			return "", ir.Invalid, g.instErr(in, "index %d of %s is %s, not an integer", k, p.Name, t)
		}
		i := "(long long)" + x
		if g.opts.Debug {
			g.line("if ((unsigned long long)%s >= (unsigned long long)%s.shape[%d]) gs_fail(%d, %d, %s, %d, %s, %s.shape[%d]);",
				i, name, k, ErrBounds, g.ids[in], g.root(in.Param), k, i, name, k)
		}
		terms[k] = g.indexTerm(i, x, fmt.Sprintf("%s.strides[%d]", name, k))
		if g.opts.UnitStride && !field && k == len(idx)-1 {
			terms[k] = g.index(i, x)
		}
	}
	ct, _ := ctype(p.Elem)
	off := "(" + sum(terms) + ")"
	if g.opts.Index32 {
		off = "(long long)" + off
	}
	return fmt.Sprintf("((%s*)%s.data + %s)", ct, name, off), p.Elem, nil
}

// index is index register x as a term of an offset: 64-bit (i, the
// register widened), or 32-bit in an Index32 build.
func (g *gen) index(i, x string) string {
	if g.opts.Index32 {
		return "(int)" + x
	}
	return i
}

// indexTerm is index times stride, in the build's offset width.
func (g *gen) indexTerm(i, x, stride string) string {
	if g.opts.Index32 {
		return fmt.Sprintf("(int)%s * (int)%s", x, stride)
	}
	return fmt.Sprintf("%s * %s", i, stride)
}

// sum is the C sum of terms, "0" for none (a field access to a 1-D byte
// array, which holds one element).
func sum(terms []string) string {
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, " + ")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// buffer is the shared or local array an access or shape names, and its
// C name.
func (g *gen) buffer(in *ir.Inst) (ir.Buffer, string, error) {
	bs, name := g.f.Locals, localName
	if in.Space == ir.SpaceShared {
		if !g.entry {
			return ir.Buffer{}, "", g.instErr(in, "names a shared array in device func %s", g.f.Name)
		}
		bs, name = g.k.Shared, sharedName
	} else if in.Space != ir.SpaceLocal {
		return ir.Buffer{}, "", g.instErr(in, "names an array in space %s", in.Space)
	}
	if in.Param < 0 || in.Param >= len(bs) {
		return ir.Buffer{}, "", g.instErr(in, "%s array %d out of range (%d)", in.Space, in.Param, len(bs))
	}
	return bs[in.Param], name(in.Param, bs[in.Param]), nil
}

// bufferElement is the C pointer to an element of a shared or local
// array: C order over its static extents, in 32-bit arithmetic (ir.Verify
// bounds a buffer at 2^30 bytes, so every in-bounds offset fits). Debug
// builds check each index at full width first; the record's parameter is
// -1 and DebugInfo names the buffer from the instruction.
func (g *gen) bufferElement(in *ir.Inst, idx []ir.Reg, field bool) (string, ir.Type, error) {
	b, name, err := g.buffer(in)
	if err != nil {
		return "", ir.Invalid, err
	}
	if len(idx) != len(b.Dims)-b2i(field) {
		return "", ir.Invalid, g.instErr(in, "indexes %s (%d dimensions) with %d indices", b.Name, len(b.Dims), len(idx))
	}
	terms := make([]string, len(idx))
	stride := b.Len()
	for k, r := range idx {
		x, t, err := g.reg(r, in.Pos)
		if err != nil {
			return "", ir.Invalid, err
		}
		if !t.IsInt() {
			return "", ir.Invalid, g.instErr(in, "index %d of %s is %s, not an integer", k, b.Name, t)
		}
		d := b.Dims[k]
		if g.opts.Debug {
			g.line("if ((unsigned long long)(long long)%s >= %dull) gs_fail(%d, %d, -1, %d, (long long)%s, %d);",
				x, d, ErrBounds, g.ids[in], k, x, d)
		}
		stride /= d
		terms[k] = "(int)" + x
		if stride != 1 {
			terms[k] += fmt.Sprintf(" * %d", stride)
		}
	}
	return fmt.Sprintf("(%s + (%s))", name, sum(terms)), b.Elem, nil
}

func (g *gen) load(in *ir.Inst) error {
	d, dt, err := g.reg(in.Dst, in.Pos)
	if err != nil {
		return err
	}
	ptr, et, err := g.element(in, in.Args, false)
	if err != nil {
		return err
	}
	if dt != et {
		return g.instErr(in, "loads %s into a %s register", et, dt)
	}
	g.line("%s = *%s;", d, ptr)
	return nil
}

func (g *gen) store(in *ir.Inst) error {
	if len(in.Args) == 0 {
		return g.instErr(in, "has no value")
	}
	v, vt, err := g.reg(in.Args[len(in.Args)-1], in.Pos)
	if err != nil {
		return err
	}
	ptr, et, err := g.element(in, in.Args[:len(in.Args)-1], false)
	if err != nil {
		return err
	}
	if vt != et {
		return g.instErr(in, "stores %s into an array of %s", vt, et)
	}
	g.line("*%s = %s;", ptr, v)
	return nil
}

// field is the C lvalue of a field access: the t at byte Imm of the
// element of a byte array that idx names, a typed access at an address
// the launch check (backend.CheckFields) or ir.Verify keeps aligned. A
// bool is its byte, as the cpu reads it (any nonzero byte is true).
func (g *gen) field(in *ir.Inst, idx []ir.Reg, t ir.Type) (string, error) {
	ptr, et, err := g.element(in, idx, true)
	if err != nil {
		return "", err
	}
	off, ok := ir.FieldOffset(in.Imm)
	if et != ir.U8 || !ok {
		return "", g.instErr(in, "at byte %v of an array of %s", in.Imm, et)
	}
	ct, ok := ctype(t)
	if t == ir.Bool {
		ct = "unsigned char"
	}
	if !ok {
		return "", g.instErr(in, "of type %s", t)
	}
	return fmt.Sprintf("*(%s*)(%s + %d)", ct, ptr, off), nil
}

func (g *gen) loadField(in *ir.Inst) error {
	d, dt, err := g.reg(in.Dst, in.Pos)
	if err != nil {
		return err
	}
	lv, err := g.field(in, in.Args, dt)
	if err != nil {
		return err
	}
	if dt == ir.Bool {
		lv = "(" + lv + " != 0)"
	}
	g.line("%s = %s;", d, lv)
	return nil
}

func (g *gen) storeField(in *ir.Inst) error {
	if len(in.Args) == 0 {
		return g.instErr(in, "has no value")
	}
	v, vt, err := g.reg(in.Args[len(in.Args)-1], in.Pos)
	if err != nil {
		return err
	}
	lv, err := g.field(in, in.Args[:len(in.Args)-1], vt)
	if err != nil {
		return err
	}
	if vt == ir.Bool {
		v = "(unsigned char)" + v
	}
	g.line("%s = %s;", lv, v)
	return nil
}

// atomic emits an atomic read-modify-write; the old value goes to Dst when
// there is one. Signed 64-bit add/sub/CAS use the unsigned long long
// overloads (two's complement makes them the same operation); sub adds the
// negation; float min/max are CAS loops; float CAS compares bits.
func (g *gen) atomic(in *ir.Inst) error {
	nv := 1
	if in.Op == ir.OpAtomicCAS {
		nv = 2
	}
	if len(in.Args) < nv {
		return g.instErr(in, "has %d operands", len(in.Args))
	}
	vals := make([]string, nv)
	split := len(in.Args) - nv
	var vt ir.Type
	for i, r := range in.Args[split:] {
		var err error
		var t ir.Type
		if vals[i], t, err = g.reg(r, in.Pos); err != nil {
			return err
		}
		if i > 0 && t != vt {
			return g.instErr(in, "compare is %s, value is %s", vt, t)
		}
		vt = t
	}
	ptr, et, err := g.element(in, in.Args[:split], false)
	if err != nil {
		return err
	}
	if vt != et {
		return g.instErr(in, "value is %s, array holds %s", vt, et)
	}
	if in.Space == ir.SpaceLocal {
		return g.localAtomic(in, et, ptr, vals)
	}
	expr := g.atomicExpr(in.Op, et, ptr, vals)
	if expr == "" {
		return g.instErr(in, "does not apply to %s", et)
	}
	if in.Dst == ir.NoReg {
		g.line("%s;", expr)
		return nil
	}
	d, dt, err := g.reg(in.Dst, in.Pos)
	if err != nil {
		return err
	}
	if dt != et {
		return g.instErr(in, "old value %s into a %s register", et, dt)
	}
	g.line("%s = %s;", d, expr)
	return nil
}

// localAtomic is an atomic on a local array, which belongs to its thread
// alone: a plain read-modify-write is atomic there (and CUDA has no
// atomics on local memory). It computes what the CUDA atomics do: the
// instruction's add or sub, min and max as atomicMin/Max and
// gs_atomic_min_T, and CAS comparing bits.
func (g *gen) localAtomic(in *ir.Inst, t ir.Type, ptr string, v []string) error {
	ct, ok := ctype(t)
	if !ok || !ir.Atomics.Has(t) {
		return g.instErr(in, "does not apply to %s", t)
	}
	var next string
	switch in.Op { // each atomic's update of a local array, as a CAS loop
	case ir.OpAtomicAdd, ir.OpAtomicSub, ir.OpAtomicMin, ir.OpAtomicMax:
		op := map[ir.Op]ir.Op{ir.OpAtomicAdd: ir.OpAdd, ir.OpAtomicSub: ir.OpSub, ir.OpAtomicMin: ir.OpMin, ir.OpAtomicMax: ir.OpMax}[in.Op]
		next = g.arith(op, t, "gs_old", v[0])
	case ir.OpAtomicCAS:
		next = fmt.Sprintf("%s == %s ? %s : gs_old", bitsOf(t, "gs_old"), bitsOf(t, v[0]), v[1])
	default:
		return g.instErr(in, "is not an atomic")
	}
	g.line("{")
	g.depth++
	g.line("%s gs_old = *%s;", ct, ptr)
	g.line("*%s = %s;", ptr, next)
	if in.Dst != ir.NoReg {
		d, dt, err := g.reg(in.Dst, in.Pos)
		if err != nil {
			return err
		}
		if dt != t {
			return g.instErr(in, "old value %s into a %s register", t, dt)
		}
		g.line("%s = gs_old;", d)
	}
	g.depth--
	g.line("}")
	return nil
}

// bitsOf is x's bits as an integer, for comparisons that see -0 and +0
// apart and a NaN as equal to itself, as atomicCAS does.
func bitsOf(t ir.Type, x string) string {
	switch t {
	case ir.F32:
		return "__float_as_uint(" + x + ")"
	case ir.F64:
		return "__double_as_longlong(" + x + ")"
	}
	return x
}

// atomicFuncs are CUDA's read-modify-writes; sub is add of the negation and
// CAS has its own cases in atomicExpr.
var atomicFuncs = map[ir.Op]string{ir.OpAtomicAdd: "atomicAdd", ir.OpAtomicMin: "atomicMin", ir.OpAtomicMax: "atomicMax"}

func (g *gen) atomicExpr(op ir.Op, t ir.Type, ptr string, v []string) string {
	if t == ir.Bool || t == ir.U8 || t == ir.Invalid {
		return ""
	}
	ct, _ := ctype(t)
	if op == ir.OpAtomicSub {
		op = ir.OpAtomicAdd
		if t.IsFloat() {
			v = []string{"-" + v[0]}
		} else {
			v = []string{fmt.Sprintf("(%s)(0u - (%s)%s)", ct, utype(t), v[0])}
		}
	}
	switch {
	case op == ir.OpAtomicCAS && t == ir.F32:
		return fmt.Sprintf("__uint_as_float(atomicCAS((unsigned int*)%s, __float_as_uint(%s), __float_as_uint(%s)))", ptr, v[0], v[1])
	case op == ir.OpAtomicCAS && t == ir.F64:
		return fmt.Sprintf("__longlong_as_double((long long)atomicCAS((unsigned long long*)%s, "+
			"(unsigned long long)__double_as_longlong(%s), (unsigned long long)__double_as_longlong(%s)))", ptr, v[0], v[1])
	case (op == ir.OpAtomicMin || op == ir.OpAtomicMax) && t.IsFloat():
		fn := map[ir.Op]string{ir.OpAtomicMin: "min", ir.OpAtomicMax: "max"}[op]
		name := fmt.Sprintf("gs_atomic_%s_%s", fn, t)
		g.use(name)
		return fmt.Sprintf("%s(%s, %s)", name, ptr, v[0])
	case op == ir.OpAtomicCAS && t == ir.I64:
		return fmt.Sprintf("(long long)atomicCAS((unsigned long long*)%s, (unsigned long long)%s, (unsigned long long)%s)", ptr, v[0], v[1])
	case op == ir.OpAtomicCAS:
		return fmt.Sprintf("atomicCAS(%s, %s, %s)", ptr, v[0], v[1])
	case op == ir.OpAtomicAdd && t == ir.I64:
		return fmt.Sprintf("(long long)atomicAdd((unsigned long long*)%s, (unsigned long long)%s)", ptr, v[0])
	}
	fn, ok := atomicFuncs[op]
	if !ok {
		return "" // an atomic this backend does not implement: atomic reports it
	}
	return fmt.Sprintf("%s(%s, %s)", fn, ptr, v[0])
}

// call passes scalars by value and arrays as their gs_array (plus, in Debug
// builds, the entry parameter each array came from). The one result is
// assigned to its Dst; several come back in the callee's result struct,
// whose members the kept Dsts take (ir.Verify matched their types).
func (g *gen) call(in *ir.Inst) error {
	if in.Callee < 0 || in.Callee >= len(g.k.Funcs) {
		return g.instErr(in, "callee %d out of range", in.Callee)
	}
	cf := g.k.Funcs[in.Callee]
	if len(in.Args) != len(cf.Params) || len(in.ArrayArgs) != len(cf.Params) {
		return g.instErr(in, "passes %d args and %d array args to %s with %d parameters",
			len(in.Args), len(in.ArrayArgs), cf.Name, len(cf.Params))
	}
	var args, roots []string
	for i, p := range cf.Params {
		a, root, err := g.callArg(in, p, in.Args[i], in.ArrayArgs[i])
		if err != nil {
			return err
		}
		args = append(args, a)
		if p.IsArray() && g.opts.Debug {
			roots = append(roots, root)
		}
	}
	call := fmt.Sprintf("%s(%s)", funcName(in.Callee, cf), strings.Join(append(args, roots...), ", "))
	dsts := make([]string, len(in.Dsts)) // C names of the kept results, "" for dropped ones
	kept := 0
	for k, r := range in.Dsts {
		if r == ir.NoReg {
			continue
		}
		var err error
		if dsts[k], _, err = g.reg(r, in.Pos); err != nil {
			return err
		}
		kept++
	}
	switch {
	case kept == 0:
		g.line("%s;", call)
	case len(dsts) == 1:
		g.line("%s = %s;", dsts[0], call)
	default:
		g.line("{")
		g.depth++
		g.line("%s gs_res = %s;", resultName(in.Callee, cf), call)
		for k, d := range dsts {
			if d != "" {
				g.line("%s = gs_res.v%d;", d, k)
			}
		}
		g.depth--
		g.line("}")
	}
	return nil
}

func (g *gen) callArg(in *ir.Inst, p ir.Param, r ir.Reg, arr int) (arg, root string, err error) {
	if !p.IsArray() {
		x, t, err := g.reg(r, in.Pos)
		if err == nil && t != p.Elem {
			err = g.instErr(in, "passes %s for parameter %s of type %s", t, p.Name, p.Elem)
		}
		return x, "", err
	}
	if arr < 0 || arr >= len(g.f.Params) {
		return "", "", g.instErr(in, "array argument %d out of range for %s", arr, p.Name)
	}
	q := g.f.Params[arr]
	if q.Elem != p.Elem || q.NDim != p.NDim {
		return "", "", g.instErr(in, "passes array %s (%s, %d-D) for %s (%s, %d-D)", q.Name, q.Elem, q.NDim, p.Name, p.Elem, p.NDim)
	}
	return pname(g.f, arr), g.root(arr), nil
}

// print emits one device printf. Each "{}" becomes a conversion chosen by
// the argument's type. Floats print with %.9g (f32) and %.17g (f64): they
// round-trip but are not the shortest repr the host and CPU executor print.
func (g *gen) print(in *ir.Inst) error {
	parts := strings.Split(in.Format, "{}")
	if len(parts)-1 != len(in.Args) {
		return g.instErr(in, "format %q has %d placeholders for %d arguments", in.Format, len(parts)-1, len(in.Args))
	}
	var fmtb strings.Builder
	args := []string{""}
	for i, part := range parts {
		fmtb.WriteString(cString(strings.ReplaceAll(part, "%", "%%")))
		if i == len(in.Args) {
			break
		}
		x, t, err := g.reg(in.Args[i], in.Pos)
		if err != nil {
			return err
		}
		spec, arg := printfArg(t, x)
		fmtb.WriteString(spec)
		args = append(args, arg)
	}
	g.line("printf(\"%s\"%s);", fmtb.String(), strings.Join(args, ", "))
	return nil
}

func printfArg(t ir.Type, x string) (spec, arg string) {
	switch t {
	case ir.Bool:
		return "%s", fmt.Sprintf("(%s ? \"true\" : \"false\")", x)
	case ir.U8, ir.U32:
		return "%u", "(unsigned int)" + x
	case ir.I32:
		return "%d", x
	case ir.I64:
		return "%lld", x
	case ir.U64:
		return "%llu", x
	case ir.F32:
		return "%.9g", "(double)" + x
	}
	return "%.17g", x
}

// cString escapes text for a C string literal: quotes, backslashes, '?'
// (no trigraphs) and every byte outside printable ASCII as a 3-digit octal
// escape, so UTF-8 passes through byte for byte.
func cString(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\' || c == '?':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
