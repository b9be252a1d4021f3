package interp_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// refGscript is a reference gscript binary (an older build) to compare
// this engine with: go test ./interp -run TestDiffEngines -gscript.ref=PATH.
// The compiled engine replaced the tree-walker this way: every generated
// program and every script of the corpus printed the same under both.
var refGscript = flag.String("gscript.ref", "", "a reference gscript binary for TestDiffEngines")

// TestDiffEngines runs generated host programs and the repository's
// scripts under this engine and the reference binary, and compares what
// they print and the first line of any error.
func TestDiffEngines(t *testing.T) {
	if *refGscript == "" {
		t.Skip("no -gscript.ref binary to compare with")
	}
	dir := t.TempDir()
	var files []string
	for seed := range 400 {
		// Each program twice: at top level (globals, the closures) and as
		// a fn's body (locals, the register machine).
		for _, inFn := range []bool{false, true} {
			name := filepath.Join(dir, fmt.Sprintf("gen%03d_%v.gs", seed, inFn))
			src := genProgram(rand.New(rand.NewPCG(uint64(seed), 7)), inFn)
			if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
	}
	// The examples run in a copy: some write files beside themselves.
	examples := filepath.Join(dir, "examples")
	if err := os.CopyFS(examples, os.DirFS("../examples")); err != nil {
		t.Fatal(err)
	}
	for _, glob := range []string{"../internal/conformance/testdata/*.gs", filepath.Join(examples, "*.gs")} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	same := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := runRef(f)
		got := runHere(t, f, src)
		if got != want {
			t.Errorf("%s: this engine printed\n%s\nthe reference\n%s", f, got, want)
			continue
		}
		same++
	}
	t.Logf("%d of %d programs printed the same", same, len(files))
}

func runRef(file string) string {
	cmd := exec.Command(*refGscript, "run", "--device", "cpu", filepath.Base(file))
	cmd.Dir = filepath.Dir(file)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Run()
	return out.String() + firstLine(errb.String())
}

func runHere(t *testing.T, file string, src []byte) string {
	var out bytes.Buffer
	wd, _ := os.Getwd()
	if err := os.Chdir(filepath.Dir(file)); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	in, err := interp.New(interp.Options{Stdout: &out, Stderr: &out, Device: "cpu", Predeclared: stdlib.Universe(), Files: interp.AllFiles(), Env: os.LookupEnv, Argv: []string{filepath.Base(file)}})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	err = in.Exec(context.Background(), filepath.Base(file), src)
	if err != nil {
		return out.String() + firstLine(err.Error())
	}
	return out.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// genProgram writes a random host program: ints, floats, bools and nil in
// variables, a list, every operator, ifs, loops, fns (recursive ones
// bounded) and prints, where any step may fail (overflow, division by
// zero, a type error) as well as succeed. It keeps to what v2 and v3
// define alike, so that a v2 build can be the reference.
//
// With inFn the statements are the body of a fn, run once: its variables
// are locals, and a return may end it early.
func genProgram(r *rand.Rand, inFn bool) string {
	g := &gen{r: r, vars: []string{"a", "b", "c"}, inFn: inFn}
	var b strings.Builder
	b.WriteString("fn f(x, y) {\n    if x < 1 { return y }\n    return f(x - 1, y + x)\n}\n")
	depth := 0
	if inFn {
		b.WriteString("fn main() {\n")
		depth = 1
	}
	ind := strings.Repeat("    ", depth)
	b.WriteString(ind + "let a = 7\n" + ind + "let b = -3\n" + ind + "let c = 2.5\n")
	for range 12 {
		b.WriteString(g.stmt(depth))
	}
	b.WriteString(ind + "print(a, b, c)\n")
	if inFn {
		b.WriteString("}\nprint(main())\n")
	}
	return b.String()
}

type gen struct {
	r     *rand.Rand
	vars  []string
	inFn  bool // statements of a fn's body: return is allowed
	loops int  // loops around the statement being written
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) expr(depth int) string {
	if depth > 2 || g.r.IntN(3) == 0 {
		// No strings or lists as operands: v3 gave them operators (s * n,
		// l * n, ordered lists) that v2, the reference, refuses.
		return g.pick(g.vars[g.r.IntN(len(g.vars))], fmt.Sprint(g.r.IntN(2000)-1000), "1.5", "0", "true", "nil", "9223372036854775807", "f(3, 1)")
	}
	op := g.pick("+", "-", "*", "/", "%", "<", "<=", "==", "!=", ">", "&", "|", "^", "<<", ">>", "&&", "||")
	if g.r.IntN(6) == 0 {
		return g.pick("-", "!", "~") + g.expr(depth+1)
	}
	if g.r.IntN(8) == 0 {
		return g.pick("len", "int", "float", "abs") + "(" + g.expr(depth+1) + ")"
	}
	return "(" + g.expr(depth+1) + " " + op + " " + g.expr(depth+1) + ")"
}

func (g *gen) stmt(depth int) string {
	ind := strings.Repeat("    ", depth+0)
	switch k := g.r.IntN(12); {
	case k == 8 && depth < 3:
		// a bounded while loop; its counter is the loop's own
		n := fmt.Sprintf("n%d", depth)
		g.loops++
		body := g.stmt(depth + 1)
		g.loops--
		return ind + "let " + n + " = 0\n" + ind + "while " + n + " < " + fmt.Sprint(g.r.IntN(4)) + " {\n" +
			ind + "    " + n + " += 1\n" + body + ind + "}\n"
	case k == 9 && depth < 3:
		g.loops++
		body := g.stmt(depth + 1)
		g.loops--
		return ind + "for v in [a, b, " + g.expr(1) + "] {\n" + ind + "    c = v\n" + body + ind + "}\n"
	case k == 10 && g.loops > 0:
		return ind + "if " + g.expr(1) + " { " + g.pick("break", "continue") + " }\n"
	case k == 11 && g.inFn:
		return ind + "if " + g.expr(1) + " { return " + g.expr(1) + " }\n"
	case k < 3:
		return ind + g.vars[g.r.IntN(len(g.vars))] + " " + g.pick("=", "+=", "-=", "*=") + " " + g.expr(0) + "\n"
	case k == 3 && depth < 3:
		return ind + "if " + g.expr(0) + " {\n" + g.stmt(depth+1) + ind + "} else {\n" + g.stmt(depth+1) + ind + "}\n"
	case k == 4 && depth < 3:
		g.loops++
		body := g.stmt(depth + 1)
		g.loops--
		return ind + "for i in range(" + fmt.Sprint(g.r.IntN(5)) + ") {\n" + ind + "    a += i\n" + body + ind + "}\n"
	case k == 5:
		return ind + "print(" + g.expr(0) + ")\n"
	case k == 6:
		return ind + "let l = [a, b, c]\n" + ind + "l[" + fmt.Sprint(g.r.IntN(4)) + "] = " + g.expr(0) + "\n" +
			ind + "l.append(" + g.expr(1) + ")\n" + ind + "print(l, l[" + fmt.Sprint(g.r.IntN(9)-4) + "])\n"
	}
	return ind + "print(f(" + fmt.Sprint(g.r.IntN(20)) + ", " + g.expr(0) + "))\n"
}
