package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const mainSrc = `import "lib/util.gs"

struct Particle { pos: vec3, mass: f32 }

const N = 64

kernel step(ps: array[Particle], dt: f32) {
    let i = tid()
    let p = ps[i]
    let v = p.pos * dt
    ps[i].mass = p.mass + v.x
}

fn double(x) {
    return x * 2
}

array a: f32[N, 2] = 1.0
let total = double(util.scale(sum(a)))
let bad = missing_name
print( total )
print("𝔸", nope)
`

// writeScripts puts main.gs and the lib/util.gs it imports in a
// directory and returns main's URI and util's.
func writeScripts(t *testing.T) (string, string) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	util := filepath.Join(dir, "lib", "util.gs")
	if err := os.WriteFile(util, []byte("fn scale(x) {\n    return x * 3\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return pathURI(filepath.Join(dir, "main.gs")), pathURI(util)
}

func open(c *client, uri, src string) PublishDiagnosticsParams {
	c.send(0, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "gscript", Version: 1, Text: src}})
	return c.diagnostics()
}

// TestSession drives the server through the pipes as an editor would,
// request by request.
func TestSession(t *testing.T) {
	uri, utilURI := writeScripts(t)
	c := startServer(t)
	if m := c.call("textDocument/hover", at(uri, 0, 0)); m.Error == nil || m.Error.Code != codeServerNotInitialized {
		t.Fatalf("a request before initialize: %+v, want error %d", m, codeServerNotInitialized)
	}
	var init struct {
		Capabilities struct {
			TextDocumentSync struct{ Change int } `json:"textDocumentSync"`
			HoverProvider    bool                 `json:"hoverProvider"`
		} `json:"capabilities"`
	}
	c.result("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}}, &init)
	if init.Capabilities.TextDocumentSync.Change != syncIncremental || !init.Capabilities.HoverProvider {
		t.Fatalf("capabilities: %+v", init)
	}
	c.send(0, "initialized", map[string]any{})
	if m := c.call("initialize", map[string]any{"capabilities": map[string]any{}}); m.Error == nil || m.Error.Code != -32600 {
		t.Fatalf("a second initialize: %+v, want InvalidRequest", m)
	}

	diags := open(c, uri, mainSrc)
	want := []Diagnostic{
		{Range: Range{Start: Position{19, 10}, End: Position{19, 22}}, Severity: 1, Source: "gscript", Message: "undefined: missing_name"},
		{Range: Range{Start: Position{21, 12}, End: Position{21, 16}}, Severity: 1, Source: "gscript", Message: "undefined: nope"},
	}
	if !slices.Equal(diags.Diagnostics, want) || diags.URI != uri {
		t.Fatalf("diagnostics %+v\nwant %+v", diags, want)
	}
	t.Run("hover", func(t *testing.T) { testHover(t, c, uri) })
	t.Run("completion", func(t *testing.T) { testCompletion(t, c, uri) })
	t.Run("navigation", func(t *testing.T) { testNavigation(t, c, uri, utilURI) })
	t.Run("signature", func(t *testing.T) { testSignature(t, c, uri) })
	t.Run("format", func(t *testing.T) { testFormat(t, c, uri) })
	t.Run("change", func(t *testing.T) { testChange(t, c, uri) })
	t.Run("robust", func(t *testing.T) { testRobust(t, c, uri) })

	c.result("shutdown", nil, new(any))
	if m := c.call("textDocument/hover", at(uri, 0, 0)); m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("a request after shutdown: %+v, want InvalidRequest", m)
	}
	c.send(0, "exit", nil)
	if code := <-c.status; code != 0 {
		t.Errorf("exit after shutdown: status %d, want 0", code)
	}
}

func hoverText(t *testing.T, c *client, uri string, line, char int) string {
	t.Helper()
	var h *Hover
	c.result("textDocument/hover", at(uri, line, char), &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

func testHover(t *testing.T, c *client, uri string) {
	for _, tc := range []struct {
		line, char int
		want       string
	}{
		{9, 8, "let v: `vec3`"},                            // a kernel variable's static type, at its declaration
		{10, 17, "let p: `Particle`"},                      // and at a use
		{6, 12, "ps: array[Particle]"},                     // a kernel parameter
		{18, 31, "sum(a, axis=, keepdims=false)"},          // a builtin's signature from the help table
		{18, 34, "dtype `f32`, shape `[N, 2]`"},            // an array's declared dtype and shape
		{18, 13, "fn double(x)"},                           // a fn's header
		{2, 9, "struct Particle { pos: vec3, mass: f32 }"}, // a struct
		{10, 12, "Particle.mass: f32"},                     // a field
		{18, 25, "fn scale(x)"},                            // an import's fn
		{0, 9, "loads " + filepath.Join(filepath.Dir(uriPath(uri)), "lib", "util.gs")}, // an import: the file it loads
	} {
		if got := hoverText(t, c, uri, tc.line, tc.char); !strings.Contains(got, tc.want) {
			t.Errorf("hover at %d:%d: %q, want it to contain %q", tc.line, tc.char, got, tc.want)
		}
	}
	if got := hoverText(t, c, uri, 1, 0); got != "" {
		t.Errorf("hover on an empty line: %q", got)
	}
}

func labels(t *testing.T, c *client, uri string, line, char int) []string {
	t.Helper()
	var l CompletionList
	c.result("textDocument/completion", at(uri, line, char), &l)
	var out []string
	for _, it := range l.Items {
		out = append(out, it.Label)
	}
	return out
}

// has fails unless got holds every name of want and none of not.
func has(t *testing.T, what string, got []string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s: %v lacks %q", what, got, w)
		}
	}
	for _, n := range not {
		if slices.Contains(got, n) {
			t.Errorf("%s: %v has %q", what, got, n)
		}
	}
}

func testCompletion(t *testing.T, c *client, uri string) {
	has(t, "in a kernel", labels(t, c, uri, 7, 12), []string{"tid", "ps", "dt", "N", "Particle", "sqrt", "let"}, []string{"total", "double", "zeros", "p"})
	has(t, "a prefix", labels(t, c, uri, 7, 14), []string{"tid"}, []string{"tanh", "ps"})
	has(t, "host code", labels(t, c, uri, 20, 0), []string{"double", "total", "a", "util", "zeros", "kernel", "tape", "step"}, []string{"tid", "p"})
	has(t, "struct fields", labels(t, c, uri, 10, 19), []string{"pos", "mass"}, []string{"x"})
	has(t, "vector components", labels(t, c, uri, 10, 28), []string{"x", "y", "z"}, []string{"w", "pos"})
	has(t, "an import's names", labels(t, c, uri, 18, 24), []string{"scale"}, nil)
}

func testNavigation(t *testing.T, c *client, uri, utilURI string) {
	var loc *Location
	c.result("textDocument/definition", at(uri, 18, 14), &loc)
	if loc == nil || loc.URI != uri || loc.Range.Start != (Position{13, 3}) {
		t.Errorf("definition of double: %+v", loc)
	}
	c.result("textDocument/definition", at(uri, 18, 25), &loc)
	if loc == nil || loc.URI != utilURI || loc.Range.Start != (Position{0, 3}) {
		t.Errorf("definition of util.scale: %+v, want %s 0:3", loc, utilURI)
	}
	c.result("textDocument/definition", at(uri, 10, 11), &loc)
	if loc == nil || loc.Range.Start != (Position{2, 29}) {
		t.Errorf("definition of a field: %+v, want 2:29", loc)
	}
	var refs []Location
	params := ReferenceParams{TextDocumentPositionParams: at(uri, 8, 13)}
	params.Context.IncludeDeclaration = true
	c.result("textDocument/references", params, &refs)
	if len(refs) != 3 || refs[0].Range.Start != (Position{6, 12}) || refs[1].Range.Start != (Position{8, 12}) {
		t.Errorf("references of ps: %+v", refs)
	}
	var syms []DocumentSymbol
	c.result("textDocument/documentSymbol", DocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}}, &syms)
	var names []string
	for _, s := range syms {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "util Particle N step double a total bad" || len(syms[1].Children) != 2 {
		t.Errorf("symbols: %v (%+v)", names, syms)
	}
	if syms[3].Range.End != (Position{11, 1}) || syms[3].Kind != symFunction {
		t.Errorf("the kernel's symbol: %+v", syms[3])
	}
}

func signatureAt(t *testing.T, c *client, uri string, line, char int) (string, int) {
	t.Helper()
	var h *SignatureHelp
	c.result("textDocument/signatureHelp", at(uri, line, char), &h)
	if h == nil {
		return "", -1
	}
	return h.Signatures[h.ActiveSignature].Label, h.ActiveParameter
}

func testSignature(t *testing.T, c *client, uri string) {
	if label, arg := signatureAt(t, c, uri, 18, 34); !strings.HasPrefix(label, "sum(") || arg != 0 {
		t.Errorf("inside sum(: %q %d", label, arg)
	}
	if label, arg := signatureAt(t, c, uri, 18, 19); label != "fn double(x)" || arg != 0 {
		t.Errorf("inside double(: %q %d", label, arg)
	}
	if label, _ := signatureAt(t, c, uri, 4, 3); label != "" {
		t.Errorf("outside a call: %q", label)
	}
}

func testFormat(t *testing.T, c *client, uri string) {
	var edits []TextEdit
	c.result("textDocument/formatting", DocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}}, &edits)
	if len(edits) != 1 || !strings.Contains(edits[0].NewText, "\nprint(total)\n") || edits[0].Range.End != (Position{22, 0}) {
		t.Errorf("formatting: %+v", edits)
	}
}

func change(c *client, uri string, version int, r Range, text string) PublishDiagnosticsParams {
	c.send(0, "textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: version},
		ContentChanges: []TextDocumentContentChangeEvent{{Range: &r, Text: text}},
	})
	return c.diagnostics()
}

func testChange(t *testing.T, c *client, uri string) {
	// Fix both errors; the second edit's columns are UTF-16 ones, past the 𝔸.
	change(c, uri, 2, Range{Position{19, 10}, Position{19, 22}}, "total")
	d := change(c, uri, 3, Range{Position{21, 12}, Position{21, 16}}, "bad")
	if len(d.Diagnostics) != 0 || *d.Version != 3 {
		t.Fatalf("after the fixes: %+v", d)
	}
	if got := hoverText(t, c, uri, 21, 13); !strings.Contains(got, "let bad = total") {
		t.Errorf("hover after the edits: %q", got)
	}
	// A half-typed line: a syntax error, and completion still knows v.
	d = change(c, uri, 4, Range{Position{10, 29}, Position{10, 29}}, "\n    let w = v.")
	if len(d.Diagnostics) != 1 || d.Diagnostics[0].Range.Start != (Position{12, 0}) { // the "}" after v.
		t.Errorf("the half-typed line's diagnostics: %+v", d)
	}
	has(t, "components while typing", labels(t, c, uri, 11, 14), []string{"x", "y", "z"}, nil)
	var edits []TextEdit
	c.result("textDocument/formatting", DocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}}, &edits)
	if len(edits) != 0 {
		t.Errorf("formatting a document with syntax errors: %+v", edits)
	}
	change(c, uri, 5, Range{Position{11, 0}, Position{12, 0}}, "")
	d = change(c, uri, 6, Range{Position{22, 0}, Position{22, 0}}, "config.")
	has(t, "config's settings", labels(t, c, uri, 22, 7), []string{"launch_access", "prefetch"}, nil)
	change(c, uri, 7, Range{Position{22, 0}, Position{22, 7}}, "a.")
	has(t, "an array's attributes", labels(t, c, uri, 22, 2), []string{"shape", "dtype"}, []string{"launch_access"})
	d = change(c, uri, 8, Range{Position{22, 0}, Position{22, 2}}, "")
	if len(d.Diagnostics) != 0 {
		t.Errorf("back to a clean document: %+v", d)
	}
}

func testRobust(t *testing.T, c *client, uri string) {
	c.writeRaw(`{"jsonrpc": "2.0", "id": 99, "method": `)
	if m := c.read(); m.Error == nil || m.Error.Code != -32700 || string(m.ID) != "null" {
		t.Errorf("bad JSON: %+v, want a parse error with a null id", m)
	}
	c.writeRaw(`[{"jsonrpc": "2.0", "id": 98, "method": "shutdown"}]`)
	if m := c.read(); m.Error == nil || m.Error.Code != -32600 || string(m.ID) != "null" {
		t.Errorf("a batch (LSP has none): %+v, want an invalid request with a null id", m)
	}
	if m := c.call("textDocument/nope", map[string]any{}); m.Error == nil || m.Error.Code != -32601 {
		t.Errorf("an unknown method: %+v", m)
	}
	if m := c.call("textDocument/hover", "not an object"); m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("bad params: %+v", m)
	}
	if m := c.call("textDocument/hover", at("file:///not/open.gs", 0, 0)); m.Error == nil {
		t.Errorf("a document not open: %+v", m)
	}
	for _, p := range []Position{{-5, -5}, {999, 999}, {3, 999}} {
		for _, method := range []string{"textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/signatureHelp"} {
			if m := c.call(method, at(uri, p.Line, p.Character)); m.Error != nil {
				t.Errorf("%s at %v: %+v", method, p, m.Error)
			}
		}
	}
	d := change(c, uri, 9, Range{Position{999, 0}, Position{-1, 0}}, "}}}((\"")
	if len(d.Diagnostics) == 0 {
		t.Error("want errors for the garbage appended")
	}
	c.send(0, "$/cancelRequest", json.RawMessage(`{"id": 1}`))
	c.send(0, "workspace/didChangeConfiguration", map[string]any{})
}

// TestExitStatus: exit without shutdown ends with status 1, as does the
// client closing the server's stdin; notifications before initialize
// are dropped without a reply.
func TestExitStatus(t *testing.T) {
	c := startServer(t)
	c.send(0, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: "file:///a.gs", Text: "x"}})
	c.send(0, "exit", nil)
	if code := <-c.status; code != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", code)
	}
	c = startServer(t)
	c.result("initialize", map[string]any{"capabilities": map[string]any{}}, new(any))
	c.w.Close()
	if code := <-c.status; code != 1 {
		t.Errorf("stdin closed: status %d, want 1", code)
	}
}

// TestImports: an error in an imported file is shown at the import with
// its own position; the importer reads the editor's text of an open
// imported file, is checked again when that text changes, and reads the
// disk again when it is closed.
func TestImports(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
	lib := filepath.Join(dir, "lib", "dep.gs")
	if err := os.WriteFile(lib, []byte("let ok = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	uri, libURI := pathURI(filepath.Join(dir, "main.gs")), pathURI(lib)
	c := startServer(t)
	c.result("initialize", map[string]any{"capabilities": map[string]any{}}, new(any))
	if d := open(c, uri, "import \"lib/dep.gs\"\nprint(dep.ok)\n"); len(d.Diagnostics) != 0 {
		t.Fatalf("a clean import: %+v", d)
	}
	open(c, libURI, "let = 1\n") // the editor's text has an error, the disk's none
	d := c.diagnostics()
	if d.URI != uri || len(d.Diagnostics) != 1 || d.Diagnostics[0].Range.Start != (Position{0, 7}) || !strings.Contains(d.Diagnostics[0].Message, "dep.gs:1:5: unexpected") {
		t.Fatalf("the importer after the import's text changed: %+v", d)
	}
	c.send(0, "textDocument/didClose", DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: libURI}})
	if d := c.diagnostics(); d.URI != libURI || len(d.Diagnostics) != 0 {
		t.Fatalf("the closed file's diagnostics: %+v", d)
	}
	if d := c.diagnostics(); d.URI != uri || len(d.Diagnostics) != 0 {
		t.Fatalf("the importer after the import closed: %+v", d)
	}
}
