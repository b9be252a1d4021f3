package check

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/syntax"
)

// TestMutationsNoPanic replaces single tokens of the type-check sources
// with odd ones: the checker must never panic (Check turns a panic into an
// "internal checker error"), and whatever passes must lower to well-typed
// IR.
func TestMutationsNoPanic(t *testing.T) {
	// f16 and array[f16] are unknown types: they poison the names they declare.
	reps := []string{"", "1.5", "x", "true", "tid()", "f32", "x[0]", "sq(1)", "array[f32]", "f16", "array[f16]"}
	for _, c := range checkChunks(t) {
		toks := strings.Fields(codeOf(c))
		for i := range toks {
			for _, rep := range reps {
				m := append([]string{}, toks...)
				m[i] = rep
				src := "func sq(a: f32) -> f32 { return a }\n" + strings.Join(m, " ")
				f, err := syntax.Parse("t.gs", []byte(src))
				if err != nil {
					continue
				}
				info, err := newTestChecker().Check(f)
				if err != nil {
					if strings.Contains(err.Error(), "internal checker error") {
						t.Errorf("%s\n%v", src, err)
					}
					continue
				}
				for _, k := range info.Kernels {
					validate(t, k)
				}
			}
		}
	}
}
