package format

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/gscript-lang/gscript/lang/syntax"
)

// FuzzFormat is seeded with every script of the repository. Whatever the
// input: no panic; a script that parses formats (the formatter's own check
// never fires), to the same tree, and formatting again changes nothing; a
// script that does not parse gets Parse's error and no output. `go test`
// runs the seeds only; `go test -fuzz FuzzFormat ./lang/format` explores.
func FuzzFormat(f *testing.F) {
	for _, src := range repoScripts(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want, perr := syntax.Parse("f.gs", src)
		out, err := Source("f.gs", src)
		if perr != nil {
			if out != nil || err == nil || err.Error() != perr.Error() {
				t.Fatalf("Source = %q, %v; want nil and Parse's %v", out, err, perr)
			}
			return
		}
		if err != nil {
			t.Fatalf("Source(%q): %v", src, err)
		}
		got, err := syntax.Parse("f.gs", out)
		if err != nil {
			t.Fatalf("output %q does not parse: %v", out, err)
		}
		if d := (&treeDiff{}); !d.equal(reflect.ValueOf(want), reflect.ValueOf(got)) {
			t.Fatalf("tree of %q changed near %v in %q", src, d.at, out)
		}
		again, err := Source("f.gs", out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent on %q:\n%q\n%q (%v)", src, out, again, err)
		}
	})
}
