package jupyter

import (
	"strings"
	"unicode/utf8"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/interp/repl"
	"github.com/gscript-lang/gscript/stdlib"
)

func (k *Kernel) kernelInfo(*message) (any, error) {
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       protocolVersion,
		"implementation":         "gscript",
		"implementation_version": k.opts.Version,
		"language_info": map[string]any{
			"name": "gscript", "version": k.opts.Version, "mimetype": "text/x-gscript", "file_extension": ".gs",
			"pygments_lexer": "go", "codemirror_mode": "go", // the closest highlighters Jupyter ships
		},
		"banner":     "gscript " + k.opts.Version + ": GPU array programs (help(NAME) for a builtin, :time CELL to time one)",
		"help_links": []any{},
	}, nil
}

type cursorRequest struct {
	Code      string `json:"code"`
	CursorPos int    `json:"cursor_pos"` // in Unicode code points
}

// byteOffset is the byte offset of the cursor's code point offset.
func byteOffset(code string, runes int) int {
	i := 0
	for n := 0; n < runes && i < len(code); n++ {
		_, w := utf8.DecodeRuneInString(code[i:])
		i += w
	}
	return i
}

// complete offers the REPL's completions (repl.Complete: keywords,
// builtins, the session's names, attributes after a dot, kernel
// builtins in a kernel body).
func (k *Kernel) complete(m *message) (any, error) {
	var req cursorRequest
	if err := parse(m, &req); err != nil {
		return nil, err
	}
	cur := byteOffset(req.Code, req.CursorPos)
	names, start := repl.Complete(k.in, k.last, req.Code, cur)
	if names == nil {
		names = []string{}
	}
	return map[string]any{
		"status": "ok", "matches": names, "metadata": map[string]any{},
		"cursor_start": utf8.RuneCountInString(req.Code[:start]), "cursor_end": utf8.RuneCountInString(req.Code[:cur]),
	}, nil
}

// inspect shows the help of the name at the cursor: a builtin's or a
// method's signature and summary (the table `gscript help` prints), or
// a global's type and value.
func (k *Kernel) inspect(m *message) (any, error) {
	var req cursorRequest
	if err := parse(m, &req); err != nil {
		return nil, err
	}
	text := k.describe(nameAt(req.Code, byteOffset(req.Code, req.CursorPos)))
	reply := map[string]any{"status": "ok", "found": text != "", "data": map[string]string{}, "metadata": map[string]any{}}
	if text != "" {
		reply["data"] = map[string]string{"text/plain": text}
	}
	return reply, nil
}

// nameAt is the dotted name around (or just before) byte offset cur.
func nameAt(code string, cur int) string {
	isName := func(c byte) bool {
		return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	lo, hi := cur, cur
	for lo > 0 && isName(code[lo-1]) {
		lo--
	}
	for hi < len(code) && isName(code[hi]) {
		hi++
	}
	return strings.Trim(code[lo:hi], ".")
}

// describe is the help text for a name ("" for none).
func (k *Kernel) describe(name string) string {
	if name == "" {
		return ""
	}
	var b strings.Builder
	if d, ok := stdlib.LookupDoc(name); ok {
		stdlib.WriteDoc(&b, d)
		return b.String()
	}
	base, attr, dotted := strings.Cut(name, ".")
	v := k.global(base)
	switch {
	case v == nil:
		return ""
	case dotted:
		if d, ok := stdlib.LookupDoc(v.Type() + "." + attr); ok { // a method: l.append
			stdlib.WriteDoc(&b, d)
			return b.String()
		}
		return ""
	}
	text := shown(v)
	if len(text) > maxInspect {
		text = text[:completeRunes([]byte(text[:maxInspect]))] + " ..."
	}
	return base + ": " + v.Type() + "\n" + text + "\n"
}

// maxInspect bounds the value text inspect shows.
const maxInspect = 4000

func (k *Kernel) global(name string) interp.Value {
	if name == "_" {
		return k.last
	}
	if v, ok := k.in.Global(name); ok {
		return v
	}
	return nil
}

// isComplete answers as the REPL decides whether to ask for another
// line (repl.Incomplete); the indent follows a line that opens a block.
func (k *Kernel) isComplete(m *message) (any, error) {
	var req struct {
		Code string `json:"code"`
	}
	if err := parse(m, &req); err != nil {
		return nil, err
	}
	if !repl.Incomplete(req.Code) {
		return map[string]any{"status": "complete"}, nil
	}
	last := req.Code[strings.LastIndexByte(req.Code, '\n')+1:]
	indent := last[:len(last)-len(strings.TrimLeft(last, " \t"))]
	if strings.HasSuffix(strings.TrimRight(last, " \t"), "{") {
		indent += "    "
	}
	return map[string]any{"status": "incomplete", "indent": indent}, nil
}

func (k *Kernel) history(*message) (any, error) {
	return map[string]any{"status": "ok", "history": []any{}}, nil
}

func (k *Kernel) commInfo(*message) (any, error) {
	return map[string]any{"status": "ok", "comms": map[string]any{}}, nil
}

func (k *Kernel) interruptRequest(*message) (any, error) {
	k.interrupt()
	return map[string]any{"status": "ok"}, nil
}

// shutdownRequest replies; handle then ends the kernel (Serve returns
// and the interpreter is closed). A restart is the client's: it starts
// a new kernel process, whose interpreter is new.
func (k *Kernel) shutdownRequest(m *message) (any, error) {
	var req struct {
		Restart bool `json:"restart"`
	}
	if err := parse(m, &req); err != nil {
		return nil, err
	}
	return map[string]any{"status": "ok", "restart": req.Restart}, nil
}
