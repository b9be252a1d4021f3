package format

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/internal/scripttest"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// Chunked formats a chunked script test, the format of internal/scripttest
// (the testdata/*.gs files): chunks between lines that are exactly "---",
// each a script of its own, whose `### "REGEXP"` markers at a line's end
// expect an error on that line. Each chunk is formatted as Source formats
// a script, its markers cut first and put back at the end of the output
// line that holds their line's code; the "---" lines stay. Two kinds of
// chunk are kept as written: one that does not parse (a test of syntax
// errors: its errors are what it tests), and one with a marker on a line
// that the layout would split over several lines (a one-line kernel, say)
// or that holds no code, since which of the new lines the error lands on
// depends on the token it is at, which only running the test tells. The
// result must read back (scripttest.Parse) as the same chunks, expecting
// the same output, errors and conditions, or Chunked returns an error.
func Chunked(name string, src []byte) ([]byte, error) {
	before, err := scripttest.Parse(name, string(src))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	var chunks []string
	var errs ast.ErrorList
	start := 0
	for i := 0; i <= len(lines); i++ {
		if i < len(lines) && lines[i] != "---" {
			continue
		}
		c, err := formatChunk(name, start+1, lines[start:i])
		if err != nil {
			errs = append(errs, asList(err)...)
		}
		chunks = append(chunks, c)
		start = i + 1
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	out := []byte(strings.TrimRight(strings.Join(chunks, "\n---\n"), "\n") + "\n")
	if err := sameChunks(name, before, out); err != nil {
		return nil, err
	}
	return out, nil
}

// marks are the error markers cut from one line, and the column where
// the first began.
type marks struct {
	text []string
	col  int
}

// formatChunk formats the chunk whose lines start at file line first.
func formatChunk(name string, first int, lines []string) (string, error) {
	code := make([]string, len(lines))
	cut := map[int]marks{} // by file line
	for i, l := range lines {
		var m marks
		code[i], m.text, m.col = scripttest.CutMarkers(l)
		if m.text != nil {
			cut[first+i] = m
		}
	}
	// Newlines in front number the chunk's lines as the file's, for
	// positions in errors and the line map.
	src := []byte(strings.Repeat("\n", first-1) + strings.Join(code, "\n"))
	if _, err := syntax.Parse(name, src); err != nil {
		return strings.Join(lines, "\n"), nil
	}
	out, lineOf, err := source(name, src)
	if err != nil {
		return "", err
	}
	outLines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for line, m := range cut {
		o, ok := lineOf[line]
		if !ok || o < 0 {
			return strings.Join(lines, "\n"), nil
		}
		outLines[o-1] = placeMarks(outLines[o-1], m)
	}
	return strings.Join(outLines, "\n"), nil
}

// placeMarks puts markers back at the end of a line: at their source
// column where the line leaves room (tests align them by hand, as they
// do comments), else after one space.
func placeMarks(line string, m marks) string {
	pad := max(m.col-len(line), 1)
	return line + strings.Repeat(" ", pad) + strings.Join(m.text, " ")
}

// sameChunks checks that out reads back as the chunks before: the same
// number, each expecting the same output lines, conditions and error
// patterns (their lines follow the code, which the layout moves).
func sameChunks(name string, before []*scripttest.Chunk, out []byte) error {
	after, err := scripttest.Parse(name, string(out))
	if err != nil {
		return internalError(ast.Pos{File: name, Line: 1, Col: 1}, "the formatted test does not read back: %v", err)
	}
	if len(after) != len(before) {
		return internalError(ast.Pos{File: name, Line: 1, Col: 1}, "formatting would make %d chunks of %d", len(after), len(before))
	}
	for i, b := range before {
		a := after[i]
		at := ast.Pos{File: name, Line: b.Line, Col: 1}
		switch {
		case !slices.Equal(a.Want, b.Want):
			return internalError(at, "formatting would change the output this chunk expects (white space at a //> line's end?)")
		case !slices.Equal(a.Tags, b.Tags):
			return internalError(at, "formatting would change this chunk's conditions")
		case !slices.Equal(patterns(a), patterns(b)):
			return internalError(at, "formatting would change the errors this chunk expects")
		}
	}
	return nil
}

// patterns lists a chunk's error patterns in line order.
func patterns(c *scripttest.Chunk) []string {
	var out []string
	for _, line := range slices.Sorted(maps.Keys(c.WantErrs)) {
		for _, re := range c.WantErrs[line] {
			out = append(out, re.String())
		}
	}
	return out
}

// asList is err's positioned errors, or err as one without a position.
func asList(err error) ast.ErrorList {
	var list ast.ErrorList
	if errors.As(err, &list) {
		return list
	}
	return ast.ErrorList{{Msg: fmt.Sprint(err)}}
}
