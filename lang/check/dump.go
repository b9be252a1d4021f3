package check

import (
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Dump prints a kernel's IR in a stable text form, one instruction per
// line, for tests and debugging:
//
//	kernel saxpy(x: array[f32], y: array[f32], a: f32) tid=1
//	  r0:f32 = param a
//	  r1:i32 = tid 0
//	  r3:f32 = load x[r2]
//	  store y[r2] = r6
//	  if r4 { ... } else { ... }
//	  loop { cond ... while rN; body ...; post ... }
//	func f0 g(a: f32) -> f32
//	  ...
//
// A block kernel's header shows its block shape, and shared and local
// arrays are listed after the header of the kernel or func that has them;
// accesses to them name the space: load shared t[r1, r2].
func Dump(k *ir.Kernel) string {
	d := dumper{k: k}
	if k.Entry != nil {
		d.header("kernel", -1, k.Entry)
		if k.IsBlock() {
			fmt.Fprintf(&d.b, " %s", blockString(k.Block))
		}
		if k.TidDims > 0 {
			fmt.Fprintf(&d.b, " tid=%d", k.TidDims)
		}
		if k.UsesAtomics {
			d.b.WriteString(" atomics")
		}
		if k.UsesPrint {
			d.b.WriteString(" print")
		}
		if k.FastMath {
			d.b.WriteString(" fast")
		}
		d.b.WriteByte('\n')
		d.buffers("shared", k.Shared)
		d.buffers("local", k.Entry.Locals)
		d.stmts(k.Entry, k.Entry.Body, 1)
	}
	for i, f := range k.Funcs {
		if f == nil {
			continue
		}
		d.header("func", i, f)
		d.b.WriteByte('\n')
		d.buffers("local", f.Locals)
		d.stmts(f, f.Body, 1)
	}
	return d.b.String()
}

type dumper struct {
	b strings.Builder
	k *ir.Kernel
}

func (d *dumper) buffers(what string, bs []ir.Buffer) {
	for _, buf := range bs {
		dims := make([]string, len(buf.Dims))
		for i, n := range buf.Dims {
			dims[i] = fmt.Sprint(n)
		}
		d.line(1, "%s %s: %s[%s]", what, buf.Name, buf.Elem, strings.Join(dims, ", "))
	}
}

func (d *dumper) header(kind string, idx int, f *ir.Func) {
	d.b.WriteString(kind)
	if idx >= 0 {
		fmt.Fprintf(&d.b, " f%d", idx)
	}
	fmt.Fprintf(&d.b, " %s(", f.Name)
	for i, p := range f.Params {
		if i > 0 {
			d.b.WriteString(", ")
		}
		if p.IsArray() {
			fmt.Fprintf(&d.b, "%s: %s", p.Name, arrayTypeString(p.Elem, p.NDim))
		} else {
			fmt.Fprintf(&d.b, "%s: %s", p.Name, p.Elem)
		}
	}
	d.b.WriteByte(')')
	switch len(f.Results) {
	case 0:
	case 1:
		fmt.Fprintf(&d.b, " -> %s", f.Results[0])
	default:
		ts := make([]string, len(f.Results))
		for i, t := range f.Results {
			ts[i] = t.String()
		}
		fmt.Fprintf(&d.b, " -> (%s)", strings.Join(ts, ", "))
	}
}

func (d *dumper) line(depth int, format string, args ...any) {
	d.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(&d.b, format, args...)
	d.b.WriteByte('\n')
}

func (d *dumper) stmts(f *ir.Func, list []ir.Stmt, depth int) {
	for _, s := range list {
		switch s := s.(type) {
		case *ir.Inst:
			d.line(depth, "%s", instString(d.k, f, s))
		case *ir.If:
			d.line(depth, "if r%d {", s.Cond)
			d.stmts(f, s.Then, depth+1)
			if len(s.Else) > 0 {
				d.line(depth, "} else {")
				d.stmts(f, s.Else, depth+1)
			}
			d.line(depth, "}")
		case *ir.Loop:
			d.loop(f, s, depth)
		case *ir.Break:
			d.line(depth, "break")
		case *ir.Continue:
			d.line(depth, "continue")
		case *ir.Return:
			d.line(depth, "%s", strings.TrimRight("return "+regList(s.Values), " "))
		}
	}
}

func (d *dumper) loop(f *ir.Func, l *ir.Loop, depth int) {
	d.line(depth, "loop {")
	if len(l.Cond) > 0 || l.CondReg != ir.NoReg {
		d.line(depth+1, "cond:")
		d.stmts(f, l.Cond, depth+2)
		d.line(depth+2, "while r%d", l.CondReg)
	}
	d.line(depth+1, "body:")
	d.stmts(f, l.Body, depth+2)
	if len(l.Post) > 0 {
		d.line(depth+1, "post:")
		d.stmts(f, l.Post, depth+2)
	}
	d.line(depth, "}")
}

func regList(rs []ir.Reg) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("r%d", r)
	}
	return strings.Join(parts, ", ")
}

func paramName(f *ir.Func, i int) string {
	if i >= 0 && i < len(f.Params) {
		return f.Params[i].Name
	}
	return fmt.Sprintf("param%d", i)
}

// arrayName names the array an access or shape reads: a parameter by its
// name, a shared or local array by its space and name.
func arrayName(k *ir.Kernel, f *ir.Func, in *ir.Inst) string {
	var bs []ir.Buffer
	switch in.Space {
	case ir.SpaceParam:
		return paramName(f, in.Param)
	case ir.SpaceShared:
		bs = k.Shared
	case ir.SpaceLocal:
		bs = f.Locals
	}
	if in.Param >= 0 && in.Param < len(bs) {
		return in.Space.String() + " " + bs[in.Param].Name
	}
	return fmt.Sprintf("%s%d", in.Space, in.Param)
}

// instString prints one instruction: "rD:T = op operands" or, without a
// destination, "op operands"; a call's destinations are a list, "_" for a
// dropped result. The op table's Form decides the layout, so a new op
// prints without an edit here.
func instString(k *ir.Kernel, f *ir.Func, in *ir.Inst) string {
	rhs := strings.TrimRight(rhsString(k, f, in), " ")
	dsts := in.Dsts
	if in.Dst != ir.NoReg {
		dsts = []ir.Reg{in.Dst}
	}
	if len(dsts) == 0 {
		return rhs
	}
	parts := make([]string, len(dsts))
	for i, r := range dsts {
		parts[i] = "_"
		if r != ir.NoReg {
			parts[i] = fmt.Sprintf("r%d:%s", r, f.Regs[r])
		}
	}
	return strings.Join(parts, ", ") + " = " + rhs
}

func rhsString(k *ir.Kernel, f *ir.Func, in *ir.Inst) string {
	info, _ := in.Op.Info() // an unknown op prints as Op(N) with its operands
	switch {
	case in.Op == ir.OpConst || info.Axis == ir.AxisLaunch || info.Axis == ir.AxisBlock:
		return fmt.Sprintf("%s %v", in.Op, in.Imm)
	case in.Op == ir.OpParam:
		return "param " + paramName(f, in.Param)
	case in.Op == ir.OpShape:
		return fmt.Sprintf("shape %s %v", arrayName(k, f, in), in.Imm)
	case in.Op == ir.OpLoad:
		return fmt.Sprintf("load %s[%s]", arrayName(k, f, in), regList(in.Args))
	case in.Op == ir.OpStore:
		n := len(in.Args) - 1
		return fmt.Sprintf("store %s[%s] = r%d", arrayName(k, f, in), regList(in.Args[:n]), in.Args[n])
	case info.Form == ir.FormAccess:
		return fmt.Sprintf("%s %s %s", in.Op, arrayName(k, f, in), regList(in.Args))
	case info.Form == ir.FormField:
		return fmt.Sprintf("%s %s+%v %s", in.Op, arrayName(k, f, in), in.Imm, regList(in.Args))
	case info.Form == ir.FormCall:
		return callString(f, in)
	case info.Form == ir.FormPrint:
		return fmt.Sprintf("print %q %s", in.Format, regList(in.Args))
	}
	return fmt.Sprintf("%s %s", in.Op, regList(in.Args))
}

func callString(f *ir.Func, in *ir.Inst) string {
	parts := make([]string, len(in.Args))
	for i, r := range in.Args {
		if i < len(in.ArrayArgs) && in.ArrayArgs[i] >= 0 {
			parts[i] = paramName(f, in.ArrayArgs[i])
		} else {
			parts[i] = fmt.Sprintf("r%d", r)
		}
	}
	return fmt.Sprintf("call f%d(%s)", in.Callee, strings.Join(parts, ", "))
}
