package check

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/internal/scripttest"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// Checker script tests: testdata/*.gs in the chunked format of
// internal/scripttest. Each chunk is parsed and checked by a fresh
// Checker; `###` markers give its errors, and a chunk without any must
// check cleanly and lower to well-typed IR.
func TestScripts(t *testing.T) {
	for _, c := range checkChunks(t) {
		t.Run(c.Name(), func(t *testing.T) {
			f, err := syntax.Parse(c.File, []byte(c.Source))
			if err != nil {
				t.Fatalf("%s: parse: %v", c.Name(), err)
			}
			info, err := newTestChecker().Check(f)
			if err != nil && strings.Contains(err.Error(), "internal checker error") {
				t.Fatalf("%s: checker panicked: %v", c.Name(), err)
			}
			c.CheckErrors(t, err)
			if err == nil {
				for _, k := range info.Kernels {
					validate(t, k)
				}
			}
		})
	}
}

// checkChunks reads the checker's script tests (not the lowering sources
// of testdata/lower, which have golden files of their own).
func checkChunks(t testing.TB) []*scripttest.Chunk {
	t.Helper()
	chunks, err := scripttest.Glob("testdata/*.gs")
	if err != nil {
		t.Fatal(err)
	}
	return chunks
}

// codeOf drops a chunk's comment lines, so that its tokens can be joined
// on one line (the mutation test does) without commenting out the code.
func codeOf(c *scripttest.Chunk) string {
	var code []string
	for _, l := range strings.Split(c.Source, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			code = append(code, l)
		}
	}
	return strings.Join(code, "\n")
}
