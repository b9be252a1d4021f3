package check

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// splitChunks splits a script file into the chunks between lines that
// are exactly "---" (the script-test separator).
func splitChunks(src string) []string {
	var chunks []string
	var cur []string
	for _, line := range strings.Split(src, "\n") {
		if line == "---" {
			chunks = append(chunks, strings.Join(cur, "\n"))
			cur = nil
			continue
		}
		cur = append(cur, line)
	}
	return append(chunks, strings.Join(cur, "\n"))
}

// fuzzSeeds returns the interpreter's script chunks, the lowering sources
// and every chunk of this package's check scripts.
func fuzzSeeds(f *testing.F) []string {
	var seeds []string
	scripts, _ := filepath.Glob("../../interp/testdata/*.gs")
	lower, _ := filepath.Glob("testdata/lower/*.gs")
	for _, path := range append(scripts, lower...) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, splitChunks(string(data))...)
	}
	for _, c := range checkChunks(f) {
		seeds = append(seeds, c.Source)
	}
	return seeds
}

// FuzzCheck parses and checks arbitrary sources. Inputs that do not parse
// are skipped. The checker must not panic (Check reports a recovered
// panic as an "internal checker error" without a position), every error
// must have a position, and a successful check must lower to well-typed
// IR. Chunks separated by "---" lines go through one Checker, as REPL
// entries do, so that state kept across chunks is fuzzed too.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		c := newTestChecker()
		for _, chunk := range splitChunks(src) {
			file, err := syntax.Parse("fuzz.gs", []byte(chunk))
			if err != nil {
				continue
			}
			checkOne(t, c, file)
		}
	})
}

// checkTimeLimit bounds one Check: checking is linear in the source (up
// to constant folding), so anything near a second is a bug.
const checkTimeLimit = 2 * time.Second

func checkOne(t *testing.T, c *Checker, file *ast.File) {
	start := time.Now()
	info, err := c.Check(file)
	if d := time.Since(start); d > checkTimeLimit {
		t.Fatalf("Check took %v (limit %v)", d, checkTimeLimit)
	}
	if err == nil {
		for _, k := range info.Kernels {
			validate(t, k)
		}
		return
	}
	var list ast.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error of type %T, not an ErrorList: %v", err, err)
	}
	for _, e := range list {
		if strings.Contains(e.Msg, "internal checker error") {
			t.Fatalf("checker panicked: %v", e)
		}
		if !e.Pos.IsValid() {
			t.Fatalf("error without a position: %v", e)
		}
	}
}
