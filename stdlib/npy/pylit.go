package npy

import (
	"fmt"
	"strconv"
	"strings"
)

// The .npy header is a Python dict literal. NumPy reads it with
// ast.literal_eval; we parse the small literal subset that can appear there
// (strings, ints, True/False/None, tuples, lists, dicts) ourselves, so that
// nothing is evaluated and every malformed header is an error value.

// pyTuple, pyList and pyDict are parsed Python containers; strings are Go
// strings, ints int64, booleans bool and None pyNone.
type (
	pyTuple []any
	pyList  []any
	pyDict  []pyItem
	pyNone  struct{}
)

type pyItem struct {
	key   string
	value any
}

// maxDepth bounds container nesting: a hostile header like "((((((..."
// must not exhaust the stack.
const maxDepth = 32

type litParser struct {
	src   []byte
	pos   int
	depth int
}

// parseDict parses a whole header: one dict literal, then only whitespace.
func parseDict(src []byte) (pyDict, error) {
	p := &litParser{src: src}
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '{' {
		return nil, fmt.Errorf("header is not a dict literal: %q", clip(src))
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return nil, p.errorf("unexpected %q after the header dict", p.src[p.pos])
	}
	return v.(pyDict), nil
}

func (p *litParser) errorf(format string, args ...any) error {
	return fmt.Errorf("malformed header at byte %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *litParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\v', 0:
			// NUL: some writers pad with zero bytes instead of spaces.
			p.pos++
		default:
			return
		}
	}
}

// value parses one literal starting at the next non-space byte.
func (p *litParser) value() (any, error) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return nil, p.errorf("unexpected end of header")
	}
	c := p.src[p.pos]
	switch {
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || c == '+' || (c >= '0' && c <= '9'):
		return p.integer()
	case c == '(' || c == '[' || c == '{':
		return p.container(c)
	case isIdentByte(c):
		return p.name()
	}
	return nil, p.errorf("unexpected %q", c)
}

func isIdentByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// name parses True, False and None, the only names literal_eval accepts.
func (p *litParser) name() (any, error) {
	start := p.pos
	for p.pos < len(p.src) && isIdentByte(p.src[p.pos]) {
		p.pos++
	}
	switch s := string(p.src[start:p.pos]); s {
	case "True":
		return true, nil
	case "False":
		return false, nil
	case "None":
		return pyNone{}, nil
	default:
		p.pos = start
		return nil, p.errorf("unexpected name %q (only literals are allowed)", clip([]byte(s)))
	}
}

// integer parses a decimal int. A trailing L (Python 2 long, as written by
// NumPy under Python 2) is accepted, as NumPy's own reader does.
func (p *litParser) integer() (any, error) {
	start := p.pos
	if c := p.src[p.pos]; c == '-' || c == '+' {
		p.pos++
	}
	digits := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == digits {
		return nil, p.errorf("expected digits after sign")
	}
	text := string(p.src[start:p.pos])
	if p.pos < len(p.src) && (p.src[p.pos] == 'L' || p.src[p.pos] == 'l') {
		p.pos++
	}
	if p.pos < len(p.src) && (isIdentByte(p.src[p.pos]) || p.src[p.pos] == '.') {
		return nil, p.errorf("malformed number %q", clip(p.src[start:p.pos+1]))
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return nil, p.errorf("integer %s is out of range", clip([]byte(text)))
	}
	return n, nil
}

// str parses a quoted string with Python's common escapes.
func (p *litParser) str() (any, error) {
	quote := p.src[p.pos]
	p.pos++
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		switch {
		case c == quote:
			return b.String(), nil
		case c == '\n':
			return nil, p.errorf("newline in string")
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return nil, err
			}
		default:
			b.WriteByte(c)
		}
	}
	return nil, p.errorf("unterminated string")
}

var simpleEscapes = map[byte]byte{'\\': '\\', '\'': '\'', '"': '"', 'n': '\n', 't': '\t', 'r': '\r', '0': 0}

func (p *litParser) escape(b *strings.Builder) error {
	if p.pos >= len(p.src) {
		return p.errorf("unterminated string")
	}
	c := p.src[p.pos]
	p.pos++
	if r, ok := simpleEscapes[c]; ok {
		b.WriteByte(r)
		return nil
	}
	if c == 'x' && p.pos+2 <= len(p.src) {
		v, err := strconv.ParseUint(string(p.src[p.pos:p.pos+2]), 16, 8)
		if err == nil {
			p.pos += 2
			b.WriteByte(byte(v))
			return nil
		}
	}
	return p.errorf("unsupported escape \\%c in string", c)
}

// container parses a tuple, list or dict. Python's one-element tuple "(3,)"
// and trailing commas are accepted; "(3)" is the int 3, as in Python.
func (p *litParser) container(open byte) (any, error) {
	if p.depth >= maxDepth {
		return nil, p.errorf("nesting deeper than %d", maxDepth)
	}
	p.depth++
	defer func() { p.depth-- }()
	p.pos++
	if open == '{' {
		return p.dictBody()
	}
	close := byte(')')
	if open == '[' {
		close = ']'
	}
	var items []any
	sawComma := false
	for {
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == close {
			p.pos++
			break
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		more, err := p.separator(close)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		sawComma = true
	}
	if open == '[' {
		return pyList(items), nil
	}
	if len(items) == 1 && !sawComma {
		return items[0], nil // parenthesized expression, not a tuple
	}
	return pyTuple(items), nil
}

// separator consumes a ',' (more=true) or the closing byte (more=false).
func (p *litParser) separator(close byte) (more bool, err error) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return false, p.errorf("unexpected end of header, expected ',' or %q", close)
	}
	switch p.src[p.pos] {
	case ',':
		p.pos++
		return true, nil
	case close:
		p.pos++
		return false, nil
	}
	return false, p.errorf("unexpected %q, expected ',' or %q", p.src[p.pos], close)
}

func (p *litParser) dictBody() (any, error) {
	d := pyDict{}
	for {
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			return d, nil
		}
		it, err := p.dictItem()
		if err != nil {
			return nil, err
		}
		for _, old := range d {
			if old.key == it.key {
				return nil, p.errorf("duplicate key '%s'", clip([]byte(it.key)))
			}
		}
		d = append(d, it)
		more, err := p.separator('}')
		if err != nil {
			return nil, err
		}
		if !more {
			return d, nil
		}
	}
}

func (p *litParser) dictItem() (pyItem, error) {
	at := p.pos
	k, err := p.value()
	if err != nil {
		return pyItem{}, err
	}
	key, ok := k.(string)
	if !ok {
		p.pos = at
		return pyItem{}, p.errorf("dict key %s is not a string", repr(k))
	}
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != ':' {
		return pyItem{}, p.errorf("expected ':' after key '%s'", clip([]byte(key)))
	}
	p.pos++
	v, err := p.value()
	if err != nil {
		return pyItem{}, err
	}
	return pyItem{key, v}, nil
}

// repr formats a parsed value the way Python prints it, for messages.
func repr(v any) string {
	switch v := v.(type) {
	case string:
		return "'" + string(clip([]byte(v))) + "'"
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		if v {
			return "True"
		}
		return "False"
	case pyNone:
		return "None"
	case pyTuple:
		if len(v) == 1 {
			return "(" + repr(v[0]) + ",)"
		}
		return "(" + joinRepr(v) + ")"
	case pyList:
		return "[" + joinRepr(v) + "]"
	case pyDict:
		parts := make([]string, len(v))
		for i, it := range v {
			parts[i] = repr(it.key) + ": " + repr(it.value)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

func joinRepr(items []any) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = repr(it)
	}
	s := strings.Join(parts, ", ")
	return string(clip([]byte(s)))
}

// clip shortens text quoted in messages: headers may be long and hostile.
func clip(b []byte) []byte {
	const max = 80
	if len(b) <= max {
		return b
	}
	out := append([]byte{}, b[:max]...)
	return append(out, "..."...)
}
