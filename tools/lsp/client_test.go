package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// client speaks the protocol to a server over pipes, as an editor does:
// Content-Length frames, numbered requests, notifications kept aside
// until a test asks for them.
type client struct {
	t      *testing.T
	w      io.WriteCloser
	r      *bufio.Reader
	rf     *os.File
	id     int
	notes  []message
	status chan int
}

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// startServer runs Serve over two os.Pipe pairs; status gets its exit
// status.
func startServer(t *testing.T) *client {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, w: inW, r: bufio.NewReader(outR), rf: outR, status: make(chan int, 1)}
	go func() {
		c.status <- Serve(context.Background(), inR, outW, "test")
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return c
}

func (c *client) writeRaw(body string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) send(id int, method string, params any) {
	c.t.Helper()
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	if id > 0 {
		m["id"] = id
	}
	b, err := json.Marshal(m)
	if err != nil {
		c.t.Fatal(err)
	}
	c.writeRaw(string(b))
}

// read reads one frame, failing the test after ten seconds.
func (c *client) read() message {
	c.t.Helper()
	c.rf.SetReadDeadline(time.Now().Add(10 * time.Second))
	n := -1
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			c.t.Fatalf("reading a header: %v", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		c.t.Fatalf("reading a body: %v", err)
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		c.t.Fatalf("a frame that is no message: %q", body)
	}
	return m
}

// call sends a request and returns its response, keeping the
// notifications that come before it.
func (c *client) call(method string, params any) message {
	c.t.Helper()
	c.id++
	c.send(c.id, method, params)
	for {
		m := c.read()
		if m.Method != "" {
			c.notes = append(c.notes, m)
			continue
		}
		if string(m.ID) != strconv.Itoa(c.id) {
			c.t.Fatalf("%s: a response to id %s, want %d", method, m.ID, c.id)
		}
		return m
	}
}

// result is a call's result decoded into v; an error response fails.
func (c *client) result(method string, params, v any) {
	c.t.Helper()
	m := c.call(method, params)
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	if err := json.Unmarshal(m.Result, v); err != nil {
		c.t.Fatalf("%s: result %s: %v", method, m.Result, err)
	}
}

// note waits for the next notification of method.
func (c *client) note(method string) json.RawMessage {
	c.t.Helper()
	for {
		for i, m := range c.notes {
			if m.Method == method {
				c.notes = append(c.notes[:i], c.notes[i+1:]...)
				return m.Params
			}
		}
		c.notes = append(c.notes, c.read())
	}
}

func (c *client) diagnostics() PublishDiagnosticsParams {
	c.t.Helper()
	var p PublishDiagnosticsParams
	if err := json.Unmarshal(c.note("textDocument/publishDiagnostics"), &p); err != nil {
		c.t.Fatal(err)
	}
	return p
}

func at(uri string, line, char int) TextDocumentPositionParams {
	return TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Position: Position{Line: line, Character: char}}
}
