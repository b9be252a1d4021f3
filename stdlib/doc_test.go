package stdlib_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestDocsCoverEveryName: every predeclared host name (the standard
// library's and the interpreter's own) has an entry in the doc table, and
// every host entry names a predeclared name. A new builtin fails here
// until its row is added to stdlib/doc.go.
func TestDocsCoverEveryName(t *testing.T) {
	in, err := interp.New(interp.Options{Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	names := in.PredeclaredNames()
	for _, n := range names {
		if d, ok := stdlib.LookupDoc(n); !ok || d.Kernel {
			t.Errorf("predeclared %s has no entry in the doc table: add a row for it to stdlib/doc.go (name, topic, signature, summary)", n)
		}
	}
	seen := map[string]bool{}
	for _, d := range stdlib.Docs() {
		if seen[d.Name] {
			t.Errorf("two doc entries for %s", d.Name)
		}
		seen[d.Name] = true
		if d.Sig == "" || d.Summary == "" || d.Topic == "" || strings.Contains(d.Summary, "\n") {
			t.Errorf("doc entry %s: want a signature, a one-line summary and a topic: %+v", d.Name, d)
		}
		if !d.Kernel && !slices.Contains(names, d.Name) {
			t.Errorf("doc entry %s names no predeclared host name (a removed builtin? a kernel builtin without Kernel set?)", d.Name)
		}
	}
}

// TestKernelDocsAreKernelBuiltins: the kernel-only entries name kernel
// builtins, which the checker knows (an unknown name is "undefined").
func TestKernelDocsAreKernelBuiltins(t *testing.T) {
	in, err := interp.New(interp.Options{Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	for _, d := range stdlib.Docs() {
		if !d.Kernel {
			continue
		}
		err := in.Check("k.gs", []byte("kernel k(x: array[f32]) {\n    "+d.Name+"()\n}\n"))
		if err != nil && (strings.Contains(err.Error(), "undefined: "+d.Name) || strings.Contains(err.Error(), "cannot use host builtin")) {
			t.Errorf("doc entry %s is marked Kernel but is no kernel builtin: %v", d.Name, err)
		}
	}
}

func TestHelpBuiltin(t *testing.T) {
	for src, want := range map[string]string{
		`help(zeros)`:             "zeros(shape, dtype=f32, device=, allocator=)\n    a new array of zeros",
		`help("tid")`:             "tid() | let i, j = tid() (kernels only)\n",
		`help(f32)`:               "f32\n    a dtype",
		`help(HOST)`:              "HOST\n    a memory kind",
		`help("argv")`:            "argv\n    the script's arguments",
		`help()`:                  "output and conversions:\n  float ",
		`help(sqrt)`:              "sqrt(x)\n    the square root, as a float",
		`help("fma")`:             "fma(a, b, c) (kernels only)\n    a * b + c, rounded once, in kernels",
		`help("print")`:           `print(values..., sep=" ", end="\n", file="stdout")`,
		"let l = []\nhelp(l.pop)": "list.pop([i])\n    removes and returns",
		`help("dict.get")`:        "dict.get(k[, default])\n",
		`help(sorted)`:            "sorted(x, key=, reverse=false)\n",
	} {
		var out strings.Builder
		in, err := interp.New(interp.Options{Stdout: &out, Predeclared: stdlib.Universe()})
		if err != nil {
			t.Fatal(err)
		}
		err = in.Exec(context.Background(), "t.gs", []byte(src))
		in.Close()
		if err != nil || !strings.Contains(out.String(), want) {
			t.Errorf("%s: %q, %v; want %q", src, out.String(), err, want)
		}
	}
	for src, want := range map[string]string{
		`help("nope")`:        `t.gs:1:5: help: no entry for nope (help() lists the builtins)`,
		"fn f() { }\nhelp(f)": "help: <fn f> is defined by the script, not a builtin",
		`help(1)`:             "help: want a builtin or its name, not int",
	} {
		in, _ := interp.New(interp.Options{Stdout: io.Discard, Predeclared: stdlib.Universe()})
		err := in.Exec(context.Background(), "t.gs", []byte(src))
		in.Close()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}

// TestDocsCoverKernelBuiltins: every name a kernel can call has an entry.
func TestDocsCoverKernelBuiltins(t *testing.T) {
	for _, n := range check.KernelBuiltins() {
		if _, ok := stdlib.LookupDoc(n); !ok {
			t.Errorf("kernel builtin %s has no entry in the doc table: add a row for it to stdlib/doc.go", n)
		}
	}
}
