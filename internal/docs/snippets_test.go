package docs_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// block is one fenced code block of a Markdown file.
type block struct {
	lang string // the info string: "gscript", "output", ...
	line int    // the line of the opening fence
	text string
}

// fences reads the fenced blocks of a Markdown file.
func fences(t *testing.T, path string) []block {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	var cur *block
	var body strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &block{lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: n}
			body.Reset()
		case cur != nil && trimmed == "```":
			cur.text = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: unterminated code block", path, cur.line)
	}
	return out
}

// docFiles lists the Markdown files whose blocks are checked: docs/*.md
// and the README.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	return append(files, "../../README.md")
}

// docName is a doc file's path from the repository root.
func docName(path string) string { return strings.TrimPrefix(path, "../../") }

// The fences of gscript code (internal/docs/doc.go says when to use each).
const (
	fenceRun     = "gscript"         // run on the cpu; an ```output block after it is compared
	fenceNoRun   = "gscript-norun"   // parsed and checked, not run
	fenceNoCheck = "gscript-nocheck" // neither
)

// TestSnippets runs every ```gscript block of the docs on the cpu, each in a
// fresh interpreter whose files are a temporary directory, and compares its
// output with the ```output block that follows it, if any, and its error
// with the ```error block after that, if any (without one, an error fails
// the test); it checks every ```gscript-norun block without running it. An
// ```output or ```error block must follow a ```gscript block (an error
// block may follow its output block): anywhere else it would never be
// compared.
func TestSnippets(t *testing.T) {
	ran := 0
	for _, path := range docFiles(t) {
		name := docName(path)
		blocks := fences(t, path)
		for i, b := range blocks {
			if (b.lang == "output" || b.lang == "error") && !followsRun(blocks, i) {
				t.Errorf("%s:%d: an %s block that does not follow a ```%s block", name, b.line, b.lang, fenceRun)
			}
			if strings.HasPrefix(b.lang, "gscript") && b.lang != fenceRun && b.lang != fenceNoRun && b.lang != fenceNoCheck {
				t.Errorf("%s:%d: unknown fence ```%s (```%s, ```%s or ```%s)", name, b.line, b.lang, fenceRun, fenceNoRun, fenceNoCheck)
			}
			if b.lang != fenceRun && b.lang != fenceNoRun {
				continue
			}
			want, wantErr := expected(blocks, i)
			ran++
			t.Run(strings.TrimSuffix(filepath.Base(path), ".md")+"_"+strconv.Itoa(b.line), func(t *testing.T) {
				checkBlock(t, name, b, want, wantErr)
			})
		}
	}
	if ran < 20 {
		t.Fatalf("only %d ```gscript blocks in the docs; the extractor has likely broken", ran)
	}
}

// followsRun reports whether blocks[i] comes right after a ```gscript
// block, or is an error block right after that block's output block.
func followsRun(blocks []block, i int) bool {
	switch {
	case i > 0 && blocks[i-1].lang == fenceRun:
		return true
	case blocks[i].lang == "error" && i > 1 && blocks[i-1].lang == "output":
		return blocks[i-2].lang == fenceRun
	}
	return false
}

// expected finds the output and error blocks that follow blocks[i] (nil
// where there is none).
func expected(blocks []block, i int) (out, errBlock *block) {
	j := i + 1
	if j < len(blocks) && blocks[j].lang == "output" {
		out = &blocks[j]
		j++
	}
	if j < len(blocks) && blocks[j].lang == "error" {
		errBlock = &blocks[j]
	}
	return out, errBlock
}

// checkBlock runs (or, for a norun block, checks) one block and compares
// what it prints with want and its error with wantErr, when there are
// those.
func checkBlock(t *testing.T, name string, b block, want, wantErr *block) {
	if b.lang == fenceNoRun {
		if err := check(t, name, b); err != nil {
			t.Fatalf("%s:%d: the block does not check: %v", name, b.line, err)
		}
		return
	}
	got, err := run(t, name, b, wantErr != nil)
	switch {
	case wantErr == nil && err != nil:
		t.Fatalf("%s:%d: the block fails: %v\noutput:\n%s", name, b.line, err, got)
	case wantErr != nil && err == nil:
		t.Fatalf("%s:%d: the block does not fail, but the error block at line %d says\n%s", name, b.line, wantErr.line, wantErr.text)
	case wantErr != nil && err.Error()+"\n" != wantErr.text:
		t.Fatalf("%s:%d: the block fails with\n%v\nbut the error block at line %d says\n%s", name, b.line, err, wantErr.line, wantErr.text)
	}
	if want != nil && got != want.text {
		t.Fatalf("%s:%d: the block prints\n%s\nbut the output block at line %d says\n%s",
			name, b.line, got, want.line, want.text)
	}
}

// check parses and checks a block without running it.
func check(t *testing.T, name string, b block) error {
	in, err := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	return in.Check(name, []byte(blockSource(b)))
}

// blockSource is a block's text after as many newlines as the fence's line
// number, so that an error's line is the line in the Markdown file.
func blockSource(b block) string { return strings.Repeat("\n", b.line) + b.text }

// run runs a block. A block whose error is shown (shown) runs as the file
// example.gs with its lines counted from its first line, so that the error
// a reader sees does not depend on where the block sits in its page; any
// other runs as the Markdown file, at its lines there.
func run(t *testing.T, name string, b block, shown bool) (string, error) {
	dir := t.TempDir()
	files, err := interp.RootedFiles(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	env := map[string]string{"HOME": "/home/user"}
	in, err := interp.New(interp.Options{
		Stdout: &out, Stderr: &out, Device: "cpu",
		Predeclared: stdlib.Universe(), Files: files,
		Argv:     []string{"snippet.gs"},
		Env:      func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		MaxSteps: 10_000_000,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := blockSource(b)
	if shown {
		name, src = "example.gs", b.text
	}
	err = in.Exec(context.Background(), name, []byte(src))
	return out.String(), err
}
