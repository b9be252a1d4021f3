package repl

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/gscript-lang/gscript/interp"
)

// TestImportAtThePrompt: an entry imports relative to the working
// directory, a second import reuses the loaded file, and Tab completes
// the keyword and the import's names.
func TestImportAtThePrompt(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("h.gs", []byte("print(\"h loaded\")\nlet size = 3\nfn twice(x) { return 2 * x }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rd := &fakeReader{lines: []string{`import "h.gs"`, "h.twice(h.size)", `import "h.gs"`, "h.twice(1)"}}
	var out, errOut bytes.Buffer
	opts := testOptions(rd, &out, &errOut)
	opts.Interp.Files = interp.AllFiles()
	runWithTimeout(t, opts)
	if out.String() != "h loaded\n6\n2\n" || errOut.String() != "" {
		t.Fatalf("stdout %q, stderr %q", out.String(), errOut.String())
	}

	s, err := newSession(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	s.exec(context.Background(), `import "h.gs"`)
	for _, c := range []struct {
		before string
		want   []string
		n      int
	}{
		{"imp", []string{"ort"}, 3},
		{"h.", []string{"size", "twice"}, 0},
		{"h.tw", []string{"ice"}, 2},
	} {
		if got, n := s.complete(c.before, len(c.before)); !reflect.DeepEqual(got, c.want) || n != c.n {
			t.Errorf("complete(%q) = %q, %d; want %q, %d", c.before, got, n, c.want, c.n)
		}
	}
}
