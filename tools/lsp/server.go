package lsp

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/stdlib"
)

// Server is one language server session: the documents the client has
// open and the state of the protocol's lifecycle.
type Server struct {
	conn        jsonrpc2.Conn
	docs        map[string]*document // by URI
	state       lifecycle
	predeclared func(name string) bool
	names       []string // the predeclared host names, sorted
	version     string
	exit        chan int
}

type lifecycle uint8

const (
	starting     lifecycle = iota // before initialize
	running                       // initialized
	shuttingDown                  // after shutdown: only exit is served
)

// document is an open document.
type document struct {
	uri, path string
	version   int
	text      *text
	parser    *parser
	an        *analysis
	// good is the last analysis without syntax errors, of text goodText:
	// while a line is half typed (`v.`) the statement around it does
	// not parse, and completion looks up the names there.
	good     *analysis
	goodText *text
}

// Serve runs a server over r and w (stdin and stdout for `gscript lsp`)
// until the client sends exit or closes r, and returns the process's
// exit status as the specification says: 0 after shutdown, else 1.
func Serve(ctx context.Context, r io.Reader, w io.Writer, version string) int {
	s, err := newServer(version)
	if err != nil {
		return 1
	}
	s.conn = jsonrpc2.NewConn(newLenientStream(jsonrpc2.NewHeaderStream(rwc{r, w})), jsonrpc2.WithCodec(stdCodec{}))
	s.conn.Go(ctx, s.handle)
	select {
	case code := <-s.exit:
		// The connection is closed without waiting: closing a real pipe
		// does not end the read blocked on it, so waiting would hang the
		// server until the client closes stdin, which it need not do.
		go s.conn.Close()
		return code
	case <-s.conn.Done():
		if s.state == shuttingDown {
			return 0
		}
		return 1
	}
}

func newServer(version string) (*Server, error) {
	in, err := interp.New(interp.Options{Stdout: io.Discard, Stderr: io.Discard, Predeclared: stdlib.Universe()})
	if err != nil {
		return nil, err
	}
	defer in.Close()
	names := in.PredeclaredNames()
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return &Server{
		docs: map[string]*document{}, predeclared: func(n string) bool { return set[n] },
		names: names, version: version, exit: make(chan int, 1),
	}, nil
}

// rwc joins the two halves of stdio into the stream's connection.
type rwc struct {
	io.Reader
	io.Writer
}

func (c rwc) Close() error {
	if cl, ok := c.Reader.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}

// stdCodec decodes params and encodes results with encoding/json, whose
// rules (case-insensitive field names, omitempty) the protocol types
// here are written for.
type stdCodec struct{}

func (stdCodec) Marshal(v any) ([]byte, error)      { return json.Marshal(v) }
func (stdCodec) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// errorCode values of the LSP beyond JSON-RPC's.
const (
	codeServerNotInitialized = -32002
	codeRequestFailed        = -32803
)

// handle serves one message in the order it came: a didChange is applied
// before the hover that follows it. Requests before initialize are
// refused and notifications dropped, as are both after shutdown.
func (s *Server) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	method := req.Method()
	switch {
	case method == "exit":
		s.exitCode()
		return nil, nil
	case method == "initialize" && s.state == starting:
		s.state = running
		return InitializeResult{Capabilities: capabilities(), ServerInfo: serverInfo{"gscript", s.version}}, nil
	case s.state == starting:
		return nil, notifyOr(req, jsonrpc2.NewError(codeServerNotInitialized, "the server is not initialized"))
	case s.state == shuttingDown:
		return nil, notifyOr(req, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down"))
	case method == "initialize":
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is already initialized")
	}
	h, ok := handlers[method]
	if !ok {
		if strings.HasPrefix(method, "$/") || !req.IsCall() {
			return nil, nil // optional notifications and $/ requests may be ignored
		}
		return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not supported: "+method)
	}
	return h(s, ctx, json.RawMessage(req.Params()))
}

// notifyOr is err for a request; a notification gets no reply.
func notifyOr(req *jsonrpc2.Request, err error) error {
	if req.IsCall() {
		return err
	}
	return nil
}

// exitCode ends Serve: 0 when shutdown came first.
func (s *Server) exitCode() {
	code := 1
	if s.state == shuttingDown {
		code = 0
	}
	select {
	case s.exit <- code:
	default:
	}
}

type handler func(s *Server, ctx context.Context, params json.RawMessage) (any, error)

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"initialized":                 func(*Server, context.Context, json.RawMessage) (any, error) { return nil, nil },
		"shutdown":                    (*Server).shutdown,
		"textDocument/didOpen":        (*Server).didOpen,
		"textDocument/didChange":      (*Server).didChange,
		"textDocument/didClose":       (*Server).didClose,
		"textDocument/hover":          (*Server).hover,
		"textDocument/completion":     (*Server).completion,
		"textDocument/definition":     (*Server).definition,
		"textDocument/references":     (*Server).references,
		"textDocument/documentSymbol": (*Server).documentSymbol,
		"textDocument/formatting":     (*Server).formatting,
		"textDocument/signatureHelp":  (*Server).signatureHelp,
	}
}

func (s *Server) shutdown(context.Context, json.RawMessage) (any, error) {
	s.state = shuttingDown
	return nil, nil
}

// decode reads params into v; a shape the method does not take is
// InvalidParams.
func decode(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return nil
}

func (s *Server) didOpen(ctx context.Context, params json.RawMessage) (any, error) {
	var p DidOpenTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d := &document{uri: p.TextDocument.URI, path: uriPath(p.TextDocument.URI), version: p.TextDocument.Version, text: newText(p.TextDocument.Text), parser: newParser()}
	s.docs[d.uri] = d
	s.update(ctx, d)
	return nil, nil
}

func (s *Server) didChange(ctx context.Context, params json.RawMessage) (any, error) {
	var p DidChangeTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil, nil // a change of a document not open: nothing to apply it to
	}
	for _, c := range p.ContentChanges {
		d.text = d.text.edit(c)
	}
	d.version = p.TextDocument.Version
	s.update(ctx, d)
	return nil, nil
}

func (s *Server) didClose(ctx context.Context, params json.RawMessage) (any, error) {
	var p DidCloseTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil, nil
	}
	delete(s.docs, d.uri)
	// A closed document's diagnostics are the client's to forget; the
	// documents that import it read it from disk again.
	s.conn.Notify(ctx, "textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: d.uri, Diagnostics: []Diagnostic{}})
	for _, o := range s.docs {
		if o.an.deps[d.path] {
			s.update(ctx, o)
		}
	}
	return nil, nil
}

// update re-analyzes d and publishes its diagnostics.
// The open documents that import d (directly or not) are analysed again
// too, since they read its text.
func (s *Server) update(ctx context.Context, d *document) {
	s.updateFrom(ctx, d, map[*document]bool{})
}

func (s *Server) updateFrom(ctx context.Context, d *document, done map[*document]bool) {
	done[d] = true
	d.an = s.analyze(d)
	if d.an.parsed {
		d.good, d.goodText = d.an, d.text
	}
	v := d.version
	s.conn.Notify(ctx, "textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: s.diagnostics(d)})
	for _, o := range s.docs {
		if !done[o] && o.an != nil && o.an.deps[d.path] {
			s.updateFrom(ctx, o, done)
		}
	}
}

// diagnostics are d's errors as `gscript check` reports them, each at the
// token it names. An error in an imported file stands at the import,
// with that file's position in the message.
func (s *Server) diagnostics(d *document) []Diagnostic {
	out := []Diagnostic{}
	for _, e := range d.an.errs {
		at, msg := e.Pos, e.Msg
		if at.File != d.path && at.IsValid() {
			msg = e.Error()
			at = d.an.importAt(at.File)
		}
		out = append(out, Diagnostic{Range: d.text.tokenRange(at), Severity: severityError, Source: "gscript", Message: msg})
	}
	return out
}

// importAt is the position of the import that loads path (directly or
// through the files it imports), or the file's start.
func (a *analysis) importAt(path string) ast.Pos {
	for s, m := range a.imports {
		if m.path == path {
			return s.PathPos
		}
	}
	for _, st := range a.file.Stmts {
		if s, ok := st.(*ast.ImportStmt); ok {
			return s.PathPos
		}
	}
	return ast.Pos{Line: 1, Col: 1}
}

// doc is the open document a request names.
func (s *Server) doc(uri string) (*document, error) {
	d := s.docs[uri]
	if d == nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, "document not open: "+uri)
	}
	return d, nil
}

// readFile reads an imported file: the editor's text when it is open.
func (s *Server) readFile(path string) ([]byte, error) {
	for _, d := range s.docs {
		if d.path == path {
			return []byte(d.text.src), nil
		}
	}
	return os.ReadFile(path)
}

// uriPath is the file path of a file: URI (the URI itself otherwise,
// as the name positions carry). A Windows drive path comes as /C:/x.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return filepath.FromSlash(p)
}

// pathURI is the file: URI of a path.
func pathURI(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
