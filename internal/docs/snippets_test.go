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

func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	return files
}

// TestSnippets runs every ```gscript block of docs/*.md on the cpu, each in
// a fresh interpreter whose files are a temporary directory, and compares
// its output with the ```output block that follows it, if any.
func TestSnippets(t *testing.T) {
	ran := 0
	for _, path := range docFiles(t) {
		name := "docs/" + filepath.Base(path)
		blocks := fences(t, path)
		for i, b := range blocks {
			if b.lang != "gscript" {
				continue
			}
			var want *block
			if i+1 < len(blocks) && blocks[i+1].lang == "output" {
				want = &blocks[i+1]
			}
			ran++
			t.Run(strings.TrimSuffix(filepath.Base(path), ".md")+"_"+strconv.Itoa(b.line), func(t *testing.T) {
				got, err := run(t, name, b)
				if err != nil {
					t.Fatalf("%s:%d: the block fails: %v\noutput:\n%s", name, b.line, err, got)
				}
				if want != nil && got != want.text {
					t.Fatalf("%s:%d: the block prints\n%s\nbut the output block at line %d says\n%s",
						name, b.line, got, want.line, want.text)
				}
			})
		}
	}
	if ran < 20 {
		t.Fatalf("only %d ```gscript blocks in docs/*.md; the extractor has likely broken", ran)
	}
}

func run(t *testing.T, name string, b block) (string, error) {
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
	// Lines are counted from the block's first line, so that an error's
	// line plus the fence's line is the line in the Markdown file.
	src := strings.Repeat("\n", b.line) + b.text
	err = in.Exec(context.Background(), name, []byte(src))
	return out.String(), err
}
