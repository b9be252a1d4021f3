package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/words"
	"github.com/gscript-lang/gscript/stdlib"
)

// signatureHelp shows the signature of the call the cursor is in: a
// builtin's from the help table (each of its forms), or the document's
// fn, kernel (in a launch too), func or struct constructor, with the
// argument the cursor is at.
func (s *Server) signatureHelp(_ context.Context, params json.RawMessage) (any, error) {
	d, off, err := s.position(params)
	if err != nil {
		return nil, err
	}
	name, arg, ok := callAt(d.text.src, off)
	if !ok {
		return nil, nil
	}
	sigs := d.signatures(name, off)
	if len(sigs) == 0 {
		return nil, nil
	}
	active := 0
	for i, sg := range sigs {
		if len(sg.Parameters) > arg {
			active = i
			break
		}
	}
	return SignatureHelp{Signatures: sigs, ActiveSignature: active, ActiveParameter: arg}, nil
}

// signatures are the forms of the callable name at off.
func (d *document) signatures(name string, off int) []SignatureInformation {
	if sym := d.an.idx.scopeAt(off).lookup(name); sym != nil {
		label := d.declText(sym)
		if st, ok := sym.decl.(*ast.StructDecl); ok {
			label = constructor(st)
		}
		if !strings.Contains(label, "(") {
			return nil
		}
		return []SignatureInformation{signature(label, "")}
	}
	doc, ok := stdlib.LookupDoc(name)
	if !ok {
		return nil
	}
	var out []SignatureInformation
	for _, form := range strings.Split(doc.Sig, " | ") {
		if strings.Contains(form, "(") {
			out = append(out, signature(form, doc.Summary))
		}
	}
	return out
}

// constructor is a struct's constructor signature, S(a: f32, b: vec3).
func constructor(st *ast.StructDecl) string {
	var fields []string
	for _, f := range st.Fields {
		fields = append(fields, f.Name.Name+": "+typeString(f.Type))
	}
	return st.Name.Name + "(" + strings.Join(fields, ", ") + ")"
}

// signature splits label's parameter list (inside its first brackets,
// at the commas outside nested ones) into parameters, located by their
// UTF-16 offsets in label.
func signature(label, doc string) SignatureInformation {
	sig := SignatureInformation{Label: label, Documentation: doc, Parameters: []ParameterInformation{}}
	open := strings.IndexByte(label, '(')
	depth, start := 0, open+1
	for i := open; i < len(label); i++ {
		switch label[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		}
		if depth == 1 && label[i] == ',' || depth == 0 {
			if part := strings.TrimSpace(label[start:i]); part != "" {
				lo := start + strings.Index(label[start:i], part)
				sig.Parameters = append(sig.Parameters, ParameterInformation{Label: [2]int{utf16Count(label[:lo]), utf16Count(label[:lo+len(part)])}})
			}
			start = i + 1
		}
		if depth == 0 {
			break
		}
	}
	return sig
}

// callAt finds the call whose parentheses hold offset off: the callee's
// name (a launch's kernel, before its [...] dimensions) and how many
// arguments come before the cursor. It scans src from the start, past
// strings and comments, keeping the open brackets.
func callAt(src string, off int) (name string, arg int, ok bool) {
	type open struct {
		at, commas int
		c          byte
	}
	var stack []open
	for i := 0; i < off && i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			i = words.StringEnd(src, i)
		case '/':
			if strings.HasPrefix(src[i:], "//") {
				for i < off && i < len(src) && src[i] != '\n' {
					i++
				}
			}
		case '(', '[', '{':
			stack = append(stack, open{at: i, c: c})
		case ')', ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if len(stack) > 0 {
				stack[len(stack)-1].commas++
			}
		}
	}
	if len(stack) == 0 || stack[len(stack)-1].c != '(' {
		return "", 0, false
	}
	top := stack[len(stack)-1]
	before := strings.TrimRight(src[:top.at], " \t")
	if strings.HasSuffix(before, "]") && len(stack) >= 1 {
		before = strings.TrimRight(src[:matchingOpen(src, len(before)-1)], " \t")
	}
	name = trailingIdent(before)
	return name, top.commas, name != ""
}

// matchingOpen is the offset of the "[" that the "]" at end closes.
func matchingOpen(src string, end int) int {
	depth := 0
	for i := end; i >= 0; i-- {
		switch src[i] {
		case ']', ')':
			depth++
		case '[', '(':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return 0
}
