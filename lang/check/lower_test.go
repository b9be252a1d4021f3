package check

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

var update = flag.Bool("update", false, "rewrite testdata/lower/*.ir from the current lowering")

// TestLowering compares the IR of each testdata/lower/*.gs with its .ir
// golden file (reviewed by hand; regenerate with -update).
func TestLowering(t *testing.T) {
	files, _ := filepath.Glob("testdata/lower/*.gs")
	if len(files) == 0 {
		t.Fatal("no lowering tests")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := parse(t, string(src))
			info, err := newTestChecker().Check(f)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			for _, s := range f.Stmts {
				if kd, ok := s.(*ast.KernelDecl); ok {
					validate(t, info.Kernels[kd])
					out.WriteString(Dump(info.Kernels[kd]))
				}
			}
			golden := strings.TrimSuffix(path, ".gs") + ".ir"
			if *update {
				if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != string(want) {
				t.Errorf("IR differs from %s:\n%s", golden, out.String())
			}
		})
	}
}
