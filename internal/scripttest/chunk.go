package scripttest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Reporter receives mismatches; testing.TB satisfies it. The harness's
// own tests pass a recorder, to see that mismatches are reported.
type Reporter interface {
	Errorf(format string, args ...any)
	Helper()
}

// Chunk is one script of a chunked test file.
type Chunk struct {
	File   string // the test file's base name
	Line   int    // the chunk's first line in the file
	Source string // the chunk's text, error markers cut out
	Want   []string
	// WantErrs maps a chunk line to the patterns expected there.
	WantErrs map[int][]*regexp.Regexp
	Tags     []string // the words of its //!TAG conditions

	wantLines []int // chunk line of each Want entry
}

var (
	outMarker = regexp.MustCompile(`//> ?(.*)$`)
	errMarker = regexp.MustCompile(`###\s*("(?:[^"\\]|\\.)*")\s*$`)
	tagMarker = regexp.MustCompile(`//!(\w+)`)
)

// knownTags are the conditions Skip understands; any other //!TAG is a
// typo that would silently run a chunk everywhere, so Read rejects it.
var knownTags = []string{"cuda", "cuda2", "nocuda", "cpu"}

// Name is file:line of the chunk's first line: the subtest name.
func (c *Chunk) Name() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }

// fileLine is the file:line of chunk line n.
func (c *Chunk) fileLine(n int) string { return fmt.Sprintf("%s:%d", c.File, c.Line+n-1) }

// Has reports whether the chunk carries //!tag.
func (c *Chunk) Has(tag string) bool { return slices.Contains(c.Tags, tag) }

// ReadFile splits the file at path into chunks.
func ReadFile(path string) ([]*Chunk, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(filepath.Base(path), string(data))
}

// Glob reads every file matching pattern, in name order. No match is an
// error: a test that finds no scripts would pass vacuously.
func Glob(pattern string) ([]*Chunk, error) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no files match %s", pattern)
	}
	var all []*Chunk
	for _, f := range files {
		chunks, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		all = append(all, chunks...)
	}
	return all, nil
}

// Parse splits the text of the file named file into chunks.
func Parse(file, text string) ([]*Chunk, error) {
	lines := strings.Split(text, "\n")
	var chunks []*Chunk
	start := 0
	for i := 0; i <= len(lines); i++ {
		if i < len(lines) && lines[i] != "---" {
			continue
		}
		c, err := parseChunk(file, start+1, lines[start:i])
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, c)
		start = i + 1
	}
	return chunks, nil
}

// CutMarkers splits a line of a test file into its code, white space at
// its end trimmed, and the error markers at its end, in their order on
// the line (each `### "REGEXP"`, as written); col is the byte offset of
// the first marker's "###", or -1 when the line has none. The formatter
// (lang/format.Chunked) cuts markers as Parse does and puts them back.
func CutMarkers(line string) (code string, markers []string, col int) {
	code, col = line, -1
	// Markers are cut from the end, so several on a line come in reverse.
	for m := errMarker.FindStringIndex(code); m != nil; m = errMarker.FindStringIndex(code) {
		markers = append([]string{strings.TrimSpace(code[m[0]:])}, markers...)
		col = m[0]
		code = strings.TrimRight(code[:m[0]], " \t")
	}
	return code, markers, col
}

func parseChunk(file string, first int, lines []string) (*Chunk, error) {
	c := &Chunk{File: file, Line: first, WantErrs: map[int][]*regexp.Regexp{}}
	src := make([]string, len(lines))
	for i, l := range lines {
		n := i + 1
		code, markers, _ := CutMarkers(l)
		for _, m := range markers {
			quoted := errMarker.FindStringSubmatch(m)[1]
			re, err := regexp.Compile(quoted[1 : len(quoted)-1])
			if err != nil {
				return nil, fmt.Errorf("%s: bad error marker: %v", c.fileLine(n), err)
			}
			c.WantErrs[n] = append(c.WantErrs[n], re)
		}
		if m := outMarker.FindStringSubmatch(code); m != nil {
			c.Want = append(c.Want, m[1])
			c.wantLines = append(c.wantLines, n)
		}
		for _, m := range tagMarker.FindAllStringSubmatch(code, -1) {
			if !slices.Contains(knownTags, m[1]) {
				return nil, fmt.Errorf("%s: unknown condition //!%s (known: %v)", c.fileLine(n), m[1], knownTags)
			}
			c.Tags = append(c.Tags, m[1])
		}
		src[i] = code
	}
	c.Source = strings.Join(src, "\n")
	return c, nil
}
