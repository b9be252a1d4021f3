package scripttest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/pos"
)

// recorder is a Reporter that keeps what it is told.
type recorder struct{ msgs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

const sample = `// first
print(1)        //> 1
let x = y       ### "undefined: y"
---
//!cuda
print(2)  //> 2
//> 3
---
f(a, b)  ### "undefined: a" ### "undefined: \"?b"`

func mustParse(t *testing.T) []*Chunk {
	t.Helper()
	chunks, err := Parse("s.gs", sample)
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 3 {
		t.Fatalf("%d chunks, want 3", len(chunks))
	}
	return chunks
}

func TestParse(t *testing.T) {
	c := mustParse(t)
	if c[0].Name() != "s.gs:1" || c[1].Name() != "s.gs:5" || c[2].Name() != "s.gs:9" {
		t.Errorf("names %s %s %s", c[0].Name(), c[1].Name(), c[2].Name())
	}
	if got := c[0].Source; got != "// first\nprint(1)        //> 1\nlet x = y" {
		t.Errorf("source %q: the marker must be cut", got)
	}
	if strings.Join(c[1].Want, "|") != "2|3" || c[1].wantLines[1] != 3 || !c[1].Has("cuda") || c[0].Has("cuda") {
		t.Errorf("chunk 2: want %q at %v, tags %v", c[1].Want, c[1].wantLines, c[1].Tags)
	}
	if res := c[2].WantErrs[1]; len(res) != 2 || c[2].Source != "f(a, b)" {
		t.Errorf("two markers on a line: %v, source %q", res, c[2].Source)
	}
	if !c[2].WantErrs[1][1].MatchString(`undefined: "b`) {
		t.Errorf(`\" in a marker must match a quote: %v`, c[2].WantErrs[1][1])
	}
}

// TestCutMarkers: the code less its markers, the markers in line order,
// and where the first began; a ### inside the code or not at the end is
// no marker.
func TestCutMarkers(t *testing.T) {
	for _, tc := range []struct {
		line, code, markers string
		col                 int
	}{
		{`f(a, b)  ### "a" ### "\"b"`, "f(a, b)", `### "a"|### "\"b"`, 9},
		{`let x = y ###"u"  `, "let x = y", `###"u"`, 10},
		{`print("###")`, `print("###")`, "", -1},
		{`x ### "a" y`, `x ### "a" y`, "", -1},
	} {
		code, markers, col := CutMarkers(tc.line)
		if code != tc.code || strings.Join(markers, "|") != tc.markers || col != tc.col {
			t.Errorf("CutMarkers(%q) = %q, %q, %d; want %q, %q, %d", tc.line, code, markers, col, tc.code, tc.markers, tc.col)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for src, want := range map[string]string{
		"a\n---\nb //!gpu": `s.gs:3: unknown condition //!gpu`,
		"a\nb ### \"(\"":   `s.gs:2: bad error marker`,
	} {
		if _, err := Parse("s.gs", src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", src, err, want)
		}
	}
}

func TestGlob(t *testing.T) {
	dir := t.TempDir()
	if _, err := Glob(filepath.Join(dir, "*.gs")); err == nil {
		t.Error("Glob of no files must fail")
	}
	for _, name := range []string{"b.gs", "a.gs"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x\n---\ny"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	chunks, err := Glob(filepath.Join(dir, "*.gs"))
	if err != nil || len(chunks) != 4 || chunks[0].File != "a.gs" || chunks[3].Name() != "b.gs:3" {
		t.Fatalf("Glob = %v, %v", chunks, err)
	}
}

// check runs f on a fresh recorder and compares what it reported with
// want, substrings one per expected report.
func check(t *testing.T, name string, f func(r Reporter), want ...string) {
	t.Helper()
	var r recorder
	f(&r)
	if len(r.msgs) != len(want) {
		t.Errorf("%s: %d reports, want %d:\n%s", name, len(r.msgs), len(want), strings.Join(r.msgs, "\n"))
		return
	}
	for i, w := range want {
		if !strings.Contains(r.msgs[i], w) {
			t.Errorf("%s: report %q does not contain %q", name, r.msgs[i], w)
		}
	}
}

func TestCheckOutput(t *testing.T) {
	c := mustParse(t)[1]
	check(t, "same", func(r Reporter) { c.CheckOutput(r, "2\n3\n") })
	check(t, "no final newline", func(r Reporter) { c.CheckOutput(r, "2\n3") })
	check(t, "wrong", func(r Reporter) { c.CheckOutput(r, "2\n4\n") }, "s.gs:7: output line 2 differs\n got: 4\nwant: 3")
	check(t, "missing", func(r Reporter) { c.CheckOutput(r, "2\n") }, "s.gs:7: output ended after 1 lines")
	check(t, "none", func(r Reporter) { c.CheckOutput(r, "") }, "s.gs:6: output ended after 0 lines")
	check(t, "extra", func(r Reporter) { c.CheckOutput(r, "2\n3\n4\n") }, "s.gs:5: unexpected output after 2 lines:\n4")
	none := mustParse(t)[2]
	check(t, "none wanted", func(r Reporter) { none.CheckOutput(r, "") })
}

func at(line int, msg string) *pos.Error {
	return &pos.Error{Pos: pos.Pos{File: "s.gs", Line: line, Col: 1}, Msg: msg}
}

func TestCheckErrors(t *testing.T) {
	c := mustParse(t)
	first, two := c[0], c[2]
	check(t, "expected", func(r Reporter) { first.CheckErrors(r, at(3, "undefined: y")) })
	check(t, "wrapped", func(r Reporter) { first.CheckErrors(r, fmt.Errorf("run: %w", at(3, "undefined: y"))) })
	check(t, "missing", func(r Reporter) { first.CheckErrors(r, nil) }, `s.gs:3: expected error "undefined: y" did not occur (got no error)`)
	check(t, "wrong line", func(r Reporter) { first.CheckErrors(r, at(2, "undefined: y")) },
		"s.gs:2: unexpected error: undefined: y", `s.gs:3: expected error "undefined: y" did not occur (got s.gs:2: undefined: y)`)
	check(t, "wrong message", func(r Reporter) { first.CheckErrors(r, at(3, "undefined: z")) },
		"s.gs:3: unexpected error: undefined: z", `s.gs:3: expected error`)
	check(t, "no position", func(r Reporter) { first.CheckErrors(r, errors.New("undefined: y")) },
		"s.gs:1 (no position): unexpected error", `s.gs:3: expected error`)
	check(t, "none expected", func(r Reporter) { c[1].CheckErrors(r, at(2, "boom")) }, "s.gs:6: unexpected error: boom")
	both := pos.ErrorList{at(1, "undefined: a"), at(1, "undefined: b")}
	check(t, "list", func(r Reporter) { two.CheckErrors(r, both) })
	check(t, "one of two", func(r Reporter) { two.CheckErrors(r, both[:1]) }, `s.gs:9: expected error "undefined:`)
}

func TestSkip(t *testing.T) {
	src := "//!cuda\n---\n//!cuda2\n---\n//!nocuda\n---\n//!cpu\n---\nplain"
	chunks, err := Parse("s.gs", src)
	if err != nil {
		t.Fatal(err)
	}
	// Which of the five chunks run in each env, as a string of 1s and 0s.
	for _, tc := range []struct {
		env  Env
		runs string
	}{
		{Env{Device: "cpu"}, "00111"},
		{Env{Device: "cpu", CUDADevices: 1}, "10011"},
		{Env{Device: "cuda:0", CUDADevices: 1}, "10001"},
		{Env{Device: "cuda:0", CUDADevices: 2}, "11001"},
		{Env{Device: "cpu", CUDADevices: 2, DeviceOnly: true}, "00011"},
		{Env{Device: "cuda:1", CUDADevices: 2, DeviceOnly: true}, "11001"},
	} {
		var got strings.Builder
		for _, c := range chunks {
			got.WriteString(map[bool]string{true: "1", false: "0"}[c.Skip(tc.env) == ""])
		}
		if got.String() != tc.runs {
			t.Errorf("%+v: runs %s, want %s", tc.env, got.String(), tc.runs)
		}
	}
}
