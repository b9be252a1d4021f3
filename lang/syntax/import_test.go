package syntax

import (
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

func TestImport(t *testing.T) {
	tests := []struct{ src, want string }{
		{`import "util.gs"`, `(import "util.gs" as util)`},
		{`import "lib/more/h2.gs"; h2.f(1)`, `(import "lib/more/h2.gs" as h2); (call (. h2 f) 1)`},
		{`import "../x\u00e9.gs"`, `(import "../xé.gs" as xé)`},
		{`import "grid.gs"`, `(import "grid.gs" as grid)`},
		{`launch util.k[n](a)`, `(launch util.k [n] [a] _)`},
		{`launch util.k[grid(n)](a) on d`, `(launch util.k grid[n] [a] d)`},
	}
	for _, tt := range tests {
		if got := dumpFile(mustParse(t, tt.src)); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestImportName(t *testing.T) {
	f := mustParse(t, `import "a/b.gs"`)
	s := f.Stmts[0].(*ast.ImportStmt)
	if s.Name.Pos != s.PathPos || s.PathPos.Col != 8 || s.Pos.Col != 1 {
		t.Fatalf("positions: import %v, path %v, name %v", s.Pos, s.PathPos, s.Name.Pos)
	}
}

func TestImportErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`import "util.txt"`, `1:8: import path "util.txt" must name a .gs file`},
		{`import "my-util.gs"`, `1:8: cannot import "my-util.gs": its base name "my-util" is not a name a script can use`},
		{`import "2d.gs"`, `its base name "2d" is not a name`},
		{`import "for.gs"`, `its base name "for" is not a name`},
		{`import "dir/.gs"`, `its base name "" is not a name`},
		{`import util`, `1:8: unexpected name util`},
		{`let import = 1`, `1:5: unexpected keyword import`},
	}
	for _, tt := range tests {
		_, err := Parse("t.gs", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.src, err, tt.want)
		}
	}
}

func TestImportIsAKeyword(t *testing.T) {
	if !slices.Contains(Keywords(), "import") {
		t.Fatal("Keywords() lacks import")
	}
}
