package lsp

import "testing"

// TestCallAt: the call around the cursor (marked |) and the argument it
// is at, past strings, comments and nested calls; a launch's kernel.
func TestCallAt(t *testing.T) {
	for _, tc := range []struct {
		src, name string
		arg       int
	}{
		{"f(|", "f", 0},
		{"f(g(1, 2), |", "f", 1},
		{"f(g(1, |", "g", 1},
		{`print("a(b, c", |`, "print", 1},
		{"f(1, // x, y\n  |", "f", 1},
		{"launch step[n, m](a, |", "step", 1},
		{"launch util.k[grid(cdiv(n, 256))](|", "k", 0},
		{"x = [1, |", "", 0},
		{"x = (1 + |", "", 0},
		{"f(1)|", "", 0},
	} {
		off := len(tc.src) - len("|")
		src := tc.src[:off]
		name, arg, ok := callAt(src, off)
		if name != tc.name || ok != (tc.name != "") || ok && arg != tc.arg {
			t.Errorf("callAt(%q) = %q, %d, %v; want %q, %d", tc.src, name, arg, ok, tc.name, tc.arg)
		}
	}
}
