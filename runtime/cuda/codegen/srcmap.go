package codegen

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/pos"
)

// posMarker starts the comment line that ties the generated lines after it
// to a script position: `// gs:pos LINE:COL "FILE"`. Comments (unlike
// #line directives, which carry no column) leave NVRTC's line numbers
// those of the generated file, so MapLog can find the marker above any
// line it reports.
const posMarker = "// gs:pos "

// ScriptPos returns the script position of line n (1-based) of generated
// source src: that of the last position marker at or above it.
func ScriptPos(src string, n int) (pos.Pos, bool) {
	var pos pos.Pos
	found := false
	for i, line := range strings.SplitN(src, "\n", n+1) {
		if i >= n {
			break
		}
		if p, ok := parseMarker(line); ok {
			pos, found = p, true
		}
	}
	return pos, found
}

func parseMarker(line string) (pos.Pos, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(line, " "), posMarker)
	if !ok {
		return pos.Pos{}, false
	}
	lc, file, _ := strings.Cut(rest, " ")
	l, c, _ := strings.Cut(lc, ":")
	ln, err1 := strconv.Atoi(l)
	col, err2 := strconv.Atoi(c)
	f, err3 := strconv.Unquote(file)
	if err1 != nil || err2 != nil || err3 != nil {
		return pos.Pos{}, false
	}
	return pos.Pos{File: f, Line: ln, Col: col}, true
}

// nvrtcMessage matches NVRTC's "NAME(LINE): error: ..." log lines.
var nvrtcMessage = regexp.MustCompile(`^(.+)\((\d+)\): (.*)$`)

// MapLog rewrites NVRTC's messages about the generated file name (as
// given to NVRTC) to start with the script position of the line they
// name: "FILE:LINE:COL: error: ...". Other lines (NVRTC's echo of the
// generated line, the summary) are kept after them as a secondary clue.
// first is the position of the first message mapped (ok false if none).
func MapLog(log, name, src string) (out string, first pos.Pos, ok bool) {
	lines := strings.Split(log, "\n")
	for i, line := range lines {
		m := nvrtcMessage.FindStringSubmatch(line)
		if m == nil || m[1] != name {
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err != nil {
			continue
		}
		pos, found := ScriptPos(src, n)
		if !found {
			continue
		}
		lines[i] = pos.String() + ": " + m[3] + " (generated " + name + " line " + m[2] + ")"
		if !ok {
			first, ok = pos, true
		}
	}
	return strings.Join(lines, "\n"), first, ok
}
