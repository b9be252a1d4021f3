package lsp

import (
	"fmt"
	"strings"
	"testing"
)

// script5000 is a script of n lines or more: kernels, funcs and fns in
// turn, each name its own, checking clean.
func script5000(n int) string {
	var b strings.Builder
	b.WriteString("struct Body { pos: vec3, mass: f32 }\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `kernel step%d(p: array[vec3], v: array[vec3], a: array[vec3], dt: f32) {
    let i = tid()
    v[i] += a[i] * dt
    p[i] += v[i] * dt
}

func energy%d(b: Body, s: f32) -> f32 {
    return 0.5 * b.mass * length_sq(b.pos) * s
}

fn host%d(x, y) {
    let z = x + y * %d
    if z > 3 {
        return z
    }
    return [z, x]
}

`, i, i, i, i)
	}
	return b.String()
}

// BenchmarkRecheck5000 is one keystroke in the middle of a 5000-line
// file: the edit applied, the file parsed (incrementally) and checked,
// its index rebuilt, as didChange does before publishing diagnostics.
// "digit" types and deletes a digit; "quote" a quote, which leaves a
// string open (a scanner error) until it is deleted again.
func BenchmarkRecheck5000(b *testing.B) {
	for _, typed := range []struct{ name, text string }{{"digit", "1"}, {"quote", "\""}} {
		b.Run(typed.name, func(b *testing.B) { recheck(b, typed.text) })
	}
}

func recheck(b *testing.B, typed string) {
	s, err := newServer("bench")
	if err != nil {
		b.Fatal(err)
	}
	src := script5000(5000)
	d := &document{uri: "file:///bench.gs", path: "/bench.gs", text: newText(src), parser: newParser()}
	if a := s.analyze(d); len(a.errs) != 0 {
		b.Fatalf("the generated script has errors: %v", a.errs)
	}
	mid := d.text.position(strings.Index(src, "let z = x + y * 200"))
	mid.Character += len("let z = x + y * 200")
	b.ResetTimer()
	for i := range b.N {
		text, end := typed, mid
		if i%2 == 1 {
			text, end.Character = "", end.Character+1
		}
		d.text = d.text.edit(TextDocumentContentChangeEvent{Range: &Range{Start: mid, End: end}, Text: text})
		if a := s.analyze(d); len(a.errs) != 0 && (i%2 == 1 || typed != "\"") {
			b.Fatal(a.errs)
		}
	}
}
