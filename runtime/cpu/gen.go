//go:build ignore

// gen writes ops_gen.go: one tight lane loop per (value op, type class) of
// lang/ir's op table, and valueOps, the table of makers inst.go dispatches
// through. The loops are generated rather than written with a per-lane
// func value because Go does not inline func values, and a call per lane
// costs about 4x (measured).
//
// It ranges over ir.Ops(): every value op (FormSame with a ResultSame or
// ResultBool rule, outside block kernels' ops, and FormSelect) must have,
// for each type it is defined for, either a lane expression in exprs or an
// entry in elsewhere saying which hand-written code runs it. A missing row
// fails generation, naming the op. TestGeneratedOpsFresh fails when
// ops_gen.go is not what this writes.
//
// Usage: go run gen.go [-out file] (default ops_gen.go).
package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"go/format"
	"os"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
)

// key is one type class of an op: its lane loop serves the types in ts.
type key struct {
	op ir.Op
	ts ir.TypeSet
}

// Single-type classes, for ops whose loop differs per type.
const (
	f32 = ir.TypeSet(1 << ir.F32)
	f64 = ir.TypeSet(1 << ir.F64)
)

// exprs is each class's lane expression over A[i], B[i], C[i] (of the
// operand type T; A is bool for select). An entry that assigns D[i] itself
// is the loop's whole statement.
var exprs = map[key]string{
	{ir.OpNeg, ir.Nums}:    "-A[i]",
	{ir.OpNot, ir.Bools}:   "!A[i]",
	{ir.OpBitNot, ir.Ints}: "^A[i]",

	{ir.OpAdd, ir.Nums}:   "A[i] + B[i]",
	{ir.OpSub, ir.Nums}:   "A[i] - B[i]",
	{ir.OpMul, ir.Nums}:   "A[i] * B[i]",
	{ir.OpDiv, ir.Floats}: "A[i] / B[i]",
	{ir.OpAnd, ir.Ints}:   "A[i] & B[i]",
	{ir.OpOr, ir.Ints}:    "A[i] | B[i]",
	{ir.OpXor, ir.Ints}:   "A[i] ^ B[i]",
	{ir.OpAnd, ir.Bools}:  "A[i] && B[i]",
	{ir.OpOr, ir.Bools}:   "A[i] || B[i]",
	{ir.OpXor, ir.Bools}:  "A[i] != B[i]",

	{ir.OpEq, ir.Scalars}: "A[i] == B[i]",
	{ir.OpNe, ir.Scalars}: "A[i] != B[i]",
	{ir.OpLt, ir.Nums}:    "A[i] < B[i]",
	{ir.OpLe, ir.Nums}:    "A[i] <= B[i]",
	{ir.OpGt, ir.Nums}:    "A[i] > B[i]",
	{ir.OpGe, ir.Nums}:    "A[i] >= B[i]",

	{ir.OpSqrt, ir.Floats}: "T(math.Sqrt(float64(A[i])))",
	// rsqrt is 1/sqrt with two roundings in T, as the CUDA backend's
	// 1.0f/sqrtf(x) (rsqrtf is approximate).
	{ir.OpRsqrt, ir.Floats}: "1 / T(math.Sqrt(float64(A[i])))",
	{ir.OpSin, ir.Floats}:   "T(math.Sin(float64(A[i])))",
	{ir.OpCos, ir.Floats}:   "T(math.Cos(float64(A[i])))",
	{ir.OpTan, ir.Floats}:   "T(math.Tan(float64(A[i])))",
	{ir.OpAsin, ir.Floats}:  "T(math.Asin(float64(A[i])))",
	{ir.OpAcos, ir.Floats}:  "T(math.Acos(float64(A[i])))",
	{ir.OpAtan, ir.Floats}:  "T(math.Atan(float64(A[i])))",
	{ir.OpSinh, ir.Floats}:  "T(math.Sinh(float64(A[i])))",
	{ir.OpCosh, ir.Floats}:  "T(math.Cosh(float64(A[i])))",
	{ir.OpTanh, ir.Floats}:  "T(math.Tanh(float64(A[i])))",
	{ir.OpExp, ir.Floats}:   "T(math.Exp(float64(A[i])))",
	{ir.OpExp2, ir.Floats}:  "T(math.Exp2(float64(A[i])))",
	{ir.OpLog, ir.Floats}:   "T(math.Log(float64(A[i])))",
	{ir.OpLog2, ir.Floats}:  "T(math.Log2(float64(A[i])))",
	{ir.OpLog10, ir.Floats}: "T(math.Log10(float64(A[i])))",
	{ir.OpFloor, ir.Floats}: "T(math.Floor(float64(A[i])))",
	{ir.OpCeil, ir.Floats}:  "T(math.Ceil(float64(A[i])))",
	{ir.OpRound, ir.Floats}: "T(math.Round(float64(A[i])))",
	{ir.OpTrunc, ir.Floats}: "T(math.Trunc(float64(A[i])))",
	{ir.OpAbs, ir.Ints}:     "ir.IAbs(A[i])",
	{ir.OpAbs, ir.Floats}:   "T(math.Abs(float64(A[i])))",
	{ir.OpSign, ir.Ints}:    "ir.ISign(A[i])",
	{ir.OpSign, ir.Floats}:  "ir.FSign(A[i])",

	{ir.OpIsNan, ir.Floats}:    "A[i] != A[i]",
	{ir.OpIsInf, ir.Floats}:    "math.IsInf(float64(A[i]), 0)",
	{ir.OpIsFinite, ir.Floats}: "!math.IsInf(float64(A[i]), 0) && A[i] == A[i]",

	{ir.OpAtan2, ir.Floats}: "T(math.Atan2(float64(A[i]), float64(B[i])))",
	{ir.OpPow, ir.Floats}:   "T(math.Pow(float64(A[i]), float64(B[i])))",
	{ir.OpMin, ir.Ints}:     "min(A[i], B[i])",
	{ir.OpMin, ir.Floats}:   "ir.FMin(A[i], B[i])",
	{ir.OpMax, ir.Ints}:     "max(A[i], B[i])",
	{ir.OpMax, ir.Floats}:   "ir.FMax(A[i], B[i])",
	{ir.OpClamp, ir.Ints}:   "min(max(A[i], B[i]), C[i])",
	{ir.OpClamp, ir.Floats}: "ir.FMin(ir.FMax(A[i], B[i]), C[i])",
	// f32 fma rounds once, through ir.FMA32 (math.FMA is f64 only).
	{ir.OpFma, f32}: "ir.FMA32(A[i], B[i], C[i])",
	{ir.OpFma, f64}: "math.FMA(A[i], B[i], C[i])",

	{ir.OpSelect, ir.Scalars}: "if A[i] { D[i] = B[i] } else { D[i] = C[i] }",
}

// elsewhere are the classes of value ops that hand-written code in
// runtime/cpu runs (valueOps has no entry for them), and why.
var elsewhere = map[key]string{
	{ir.OpMov, ir.Scalars}: "ops.go's mkMov copies registers by element size",
	{ir.OpDiv, ir.Ints}:    "leaf.go's mkIdiv checks for a zero divisor, an error with a position",
	{ir.OpRem, ir.Ints}:    "leaf.go's mkIdiv checks for a zero divisor, an error with a position",
}

// constraints are the type parameter constraints of ops.go for the
// classes of more than one type (a one-type class gets a plain loop).
var constraints = map[ir.TypeSet]string{
	ir.Ints: "integer", ir.Floats: "float", ir.Nums: "number", ir.Bools: "~bool", ir.Scalars: "comparable",
}

// suffixes tell an op's loops apart when it has several classes.
var suffixes = map[ir.TypeSet]string{
	ir.Ints: "Int", ir.Floats: "Float", ir.Nums: "Num", ir.Bools: "Bool", ir.Scalars: "All", f32: "F32", f64: "F64",
}

var goTypes = map[ir.Type]string{
	ir.Bool: "bool", ir.U8: "uint8", ir.I32: "int32", ir.I64: "int64", ir.U32: "uint32", ir.U64: "uint64",
	ir.F32: "float32", ir.F64: "float64",
}

// class is one lane loop to write.
type class struct {
	key
	info ir.OpInfo
	name string // the loop's func name
	expr string
}

func main() {
	out := flag.String("out", "ops_gen.go", "file to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	classes, err := plan()
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by gen.go; DO NOT EDIT.\n\npackage cpu\n\n")
	b.WriteString("import (\n\t\"math\"\n\n\t\"github.com/gscript-lang/gscript/lang/ir\"\n)\n\n")
	for _, c := range classes {
		writeLoop(&b, c)
	}
	writeTable(&b, classes)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return fmt.Errorf("generated code does not parse: %v", err)
	}
	return os.WriteFile(out, src, 0o644)
}

// valueOp reports whether the generator owns op: an element-wise op of
// registers whose result is its operand type or bool.
func valueOp(info ir.OpInfo) bool {
	switch info.Form {
	case ir.FormSame:
		return !info.Block && (info.Result == ir.ResultSame || info.Result == ir.ResultBool)
	case ir.FormSelect:
		return true
	}
	return false
}

// plan pairs every value op of the table with its classes, in Op order,
// and checks that their type sets cover the op's types exactly once.
func plan() ([]class, error) {
	byOp := map[ir.Op][]key{}
	for k := range exprs {
		byOp[k.op] = append(byOp[k.op], k)
	}
	for k := range elsewhere {
		byOp[k.op] = append(byOp[k.op], k)
	}
	var classes []class
	for _, op := range ir.Ops() {
		info, _ := op.Info()
		keys := byOp[op]
		delete(byOp, op)
		if !valueOp(info) {
			if len(keys) > 0 {
				return nil, fmt.Errorf("op %s is not a value op (form %d, result %d) but gen.go has entries for it", op, info.Form, info.Result)
			}
			continue
		}
		slices.SortFunc(keys, func(a, b key) int { return cmp.Compare(a.ts, b.ts) })
		var covered ir.TypeSet
		for _, k := range keys {
			if covered&k.ts != 0 || k.ts&^info.Types != 0 {
				return nil, fmt.Errorf("op %s: class %v overlaps another or has types outside the op's %v", op, k.ts.Types(), info.Types.Types())
			}
			covered |= k.ts
		}
		if covered != info.Types {
			return nil, fmt.Errorf("op %s has no lane expression in gen.go's exprs for %v, and no entry in elsewhere saying what in runtime/cpu runs it", op, (info.Types &^ covered).Types())
		}
		for _, k := range keys {
			e, ok := exprs[k]
			if !ok {
				continue
			}
			c := class{key: k, info: info, expr: e, name: "k" + camel(op.String())}
			if len(keys) > 1 {
				c.name += suffixes[k.ts]
			}
			if len(k.ts.Types()) > 1 && constraints[k.ts] == "" {
				return nil, fmt.Errorf("op %s: gen.go has no constraint for the class %v", op, k.ts.Types())
			}
			classes = append(classes, c)
		}
	}
	for op := range byOp {
		return nil, fmt.Errorf("gen.go has entries for %s, which is not an op of the table", op)
	}
	return classes, nil
}

func camel(name string) string {
	var b strings.Builder
	for _, w := range strings.Split(name, "_") {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// regs are the register parameters of a loop of arity n: d, a[, b[, c]].
func regs(n int) string { return strings.Join([]string{"d", "a", "b", "c"}[:n+1], ", ") }

// writeLoop writes the lane loop of c: unmasked over [0, n) when all
// lanes are active, else over the active lane list. A class of several
// types is a generic loop over T; one of a single type a plain loop.
func writeLoop(b *bytes.Buffer, c class) {
	n := c.info.Arity
	tparam, tn := "", "T"
	if ts := c.ts.Types(); len(ts) == 1 {
		tn = goTypes[ts[0]]
	} else {
		tparam = "[T " + constraints[c.ts] + "]"
	}
	dt, at := tn, tn
	if c.info.Result == ir.ResultBool {
		dt = "bool"
	}
	if c.info.Form == ir.FormSelect {
		at = "bool"
	}
	names, types := []string{"D", "A", "B", "C"}[:n+1], []string{dt, at, tn, tn}[:n+1]
	vecs := make([]string, n+1)
	for i, r := range strings.Split(regs(n), ", ") {
		vecs[i] = fmt.Sprintf("vec[%s](fr, %s)", types[i], r)
	}
	ops := names[1:]
	trims := make([]string, n)
	for i, v := range ops {
		trims[i] = v + "[:len(D)]"
	}
	body := "D[i] = " + c.expr
	if strings.Contains(c.expr, "D[i]") {
		body = c.expr
	}
	body = strings.ReplaceAll(body, "T(", tn+"(")
	fmt.Fprintf(b, "func %s%s(fr *frame, m mask, %s int) {\n", c.name, tparam, regs(n))
	fmt.Fprintf(b, "\t%s := %s\n", strings.Join(names, ", "), strings.Join(vecs, ", "))
	fmt.Fprintf(b, "\tif m.all {\n\t\tD = D[:fr.n]\n\t\t%s = %s\n", strings.Join(ops, ", "), strings.Join(trims, ", "))
	fmt.Fprintf(b, "\t\tfor i := range D {\n\t\t\t%s\n\t\t}\n\t\treturn\n\t}\n", body)
	fmt.Fprintf(b, "\tfor _, i := range m.idx {\n\t\t%s\n\t}\n}\n\n", body)
}

// writeTable writes valueOps: for each value op and operand type, the
// maker of its loop over registers d (the destination), a, b and c.
func writeTable(b *bytes.Buffer, classes []class) {
	b.WriteString("// valueOps[op][t] makes op's lane loop for operands of type t, for the\n")
	b.WriteString("// value ops of lang/ir's table (nil: run by hand-written code, see gen.go's\n")
	b.WriteString("// elsewhere, or not defined for t).\n")
	b.WriteString("var valueOps = [ir.NumOps][ir.F64 + 1]maker{\n")
	for i := 0; i < len(classes); {
		op := classes[i].op
		fmt.Fprintf(b, "\tir.Op%s: {\n", opConst(op))
		for ; i < len(classes) && classes[i].op == op; i++ {
			c := classes[i]
			params := strings.Split("d, a, b, c", ", ")
			for j := c.info.Arity + 1; j < 4; j++ {
				params[j] = "_"
			}
			for _, t := range c.ts.Types() {
				inst := c.name
				if len(c.ts.Types()) > 1 {
					inst += "[" + goTypes[t] + "]"
				}
				fmt.Fprintf(b, "\t\tir.%s: func(%s int) instFn {\n\t\t\treturn func(fr *frame, m mask) error { %s(fr, m, %s); return nil }\n\t\t},\n",
					typeConst(t), strings.Join(params, ", "), inst, regs(c.info.Arity))
			}
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
}

// opConst is the name of op's constant in lang/ir: its name camel-cased,
// but for those opConsts spell otherwise (OpIsNan for "isnan").
func opConst(op ir.Op) string {
	for _, n := range opConsts {
		if strings.EqualFold(n, op.String()) {
			return n
		}
	}
	return camel(op.String())
}

var opConsts = []string{"BitNot", "IsNan", "IsInf", "IsFinite"}

func typeConst(t ir.Type) string { return strings.ToUpper(t.String()[:1]) + t.String()[1:] }
