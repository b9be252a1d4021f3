package interp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// Script tests: testdata/*.gs files, split into chunks by lines that are
// exactly "---". Each chunk runs in a fresh interpreter. In a chunk:
//   - `//> TEXT` (alone or at a line's end) expects the next output line
//     to be TEXT; the whole output must be exactly these lines;
//   - `### "REGEXP"` at a line's end expects an error on that line whose
//     message matches REGEXP. Compile errors must all be expected; a chunk
//     expecting a run-time error must fail with it.
//   - `//!cuda` anywhere in a chunk runs it only where a CUDA device is
//     present (`//!cuda2`: two devices), `//!nocuda` only where none is, and `//!cpu` only when the
//     chunks run with the cpu as default device.
// GSCRIPT_TEST_DEVICE runs every chunk with that default device (the GPU
// run uses cuda:0: the same chunks must give the same output there).

type chunk struct {
	file     string
	line     int // first line of the chunk in the file
	src      string
	want     []string
	wantErrs map[int][]*regexp.Regexp // chunk line -> patterns
}

var (
	outMarker = regexp.MustCompile(`//> ?(.*)$`)
	errMarker = regexp.MustCompile(`###\s*("(?:[^"\\]|\\.)*")\s*$`)
)

func readChunks(t *testing.T, path string) []chunk {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var chunks []chunk
	lines := strings.Split(string(data), "\n")
	start := 0
	flush := func(end int) {
		c := chunk{file: filepath.Base(path), line: start + 1, wantErrs: map[int][]*regexp.Regexp{}}
		var src []string
		for i, l := range lines[start:end] {
			if m := errMarker.FindStringSubmatch(l); m != nil {
				// The marker's text between the quotes is a regexp as is.
				re, err := regexp.Compile(m[1][1 : len(m[1])-1])
				if err != nil {
					t.Fatalf("%s:%d: bad error marker: %v", path, start+i+1, err)
				}
				c.wantErrs[i+1] = append(c.wantErrs[i+1], re)
				l = l[:len(l)-len(m[0])]
			}
			if m := outMarker.FindStringSubmatch(l); m != nil {
				c.want = append(c.want, m[1])
			}
			src = append(src, l)
		}
		c.src = strings.Join(src, "\n")
		chunks = append(chunks, c)
	}
	for i, l := range lines {
		if l == "---" {
			flush(i)
			start = i + 1
		}
	}
	flush(len(lines))
	return chunks
}

func TestScripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.gs")
	if len(files) == 0 {
		t.Fatal("no testdata/*.gs files")
	}
	for _, path := range files {
		for _, c := range readChunks(t, path) {
			t.Run(fmt.Sprintf("%s:%d", c.file, c.line), func(t *testing.T) { runChunk(t, c) })
		}
	}
}

func runChunk(t *testing.T, c chunk) {
	hasCUDA := mem.CUDADeviceCount() > 0
	dev := os.Getenv("GSCRIPT_TEST_DEVICE")
	switch {
	case strings.Contains(c.src, "//!cuda2") && mem.CUDADeviceCount() < 2:
		t.Skip("needs two CUDA devices")
	case strings.Contains(c.src, "//!cuda") && !hasCUDA:
		t.Skip("needs a CUDA device")
	case strings.Contains(c.src, "//!nocuda") && hasCUDA:
		t.Skip("only without a CUDA device")
	case strings.Contains(c.src, "//!cpu") && (dev != "" && dev != "cpu" || dev == "" && hasCUDA):
		t.Skip("only on the cpu device")
	}
	var out, errOut bytes.Buffer
	in, err := interp.New(interp.Options{
		Stdout: &out, Stderr: &errOut, Device: dev,
		Predeclared: stdlib.Universe(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err = in.Exec(ctx, c.file, []byte(c.src))
	checkErrors(t, c, err)
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if out.Len() == 0 {
		got = nil
	}
	if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
		t.Errorf("%s:%d: output differs\n--- got\n%s\n--- want\n%s", c.file, c.line, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
	}
}

// errPositions flattens an error into (chunk line, message) pairs.
func errPositions(err error) []*ast.Error {
	var list ast.ErrorList
	if errors.As(err, &list) {
		return list
	}
	var ee *interp.EvalError
	if errors.As(err, &ee) {
		return []*ast.Error{{Pos: ee.Pos, Msg: ee.Msg}}
	}
	return []*ast.Error{{Msg: err.Error()}}
}

func checkErrors(t *testing.T, c chunk, err error) {
	t.Helper()
	matched := map[*regexp.Regexp]bool{}
	if err != nil {
		if strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s:%d: internal error (a panic): %v", c.file, c.line, err)
		}
		for _, e := range errPositions(err) {
			ok := false
			for _, re := range c.wantErrs[e.Pos.Line] {
				if re.MatchString(e.Msg) {
					matched[re], ok = true, true
				}
			}
			if !ok {
				t.Errorf("%s:%d: unexpected error at chunk %v: %s", c.file, c.line, e.Pos, e.Msg)
			}
		}
	}
	for line, res := range c.wantErrs {
		for _, re := range res {
			if !matched[re] {
				t.Errorf("%s:%d: expected error %q at chunk line %d, got %v", c.file, c.line, re, line, err)
			}
		}
	}
}
