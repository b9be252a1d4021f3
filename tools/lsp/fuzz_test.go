package lsp

import (
	"context"
	"encoding/json"
	"testing"
)

// FuzzRequests opens any source (the repository's scripts cut at a few
// places are the seeds) and asks every position request at a spread of
// positions, in and out of the document, and formatting and symbols: no
// input may panic the server. (A panic in a handler would reach the
// client as an internal error; here it fails the test.)
func FuzzRequests(f *testing.F) {
	for _, src := range repoScripts(&testing.T{}) {
		f.Add(string(src), 7)
		f.Add(string(src[:len(src)/2]), 3)
		f.Add(string(src[:len(src)/3])+"\n}(\"", 5)
	}
	f.Add(mainSrc, 1)
	s, err := newServer("fuzz")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string, step int) {
		step = max(1, step%50)
		d := &document{uri: "file:///f.gs", path: "/f.gs", text: newText(src), parser: newParser()}
		s.docs = map[string]*document{d.uri: d}
		d.an = s.analyze(d)
		s.diagnostics(d)
		ctx := context.Background()
		doc := DocumentParams{TextDocument: TextDocumentIdentifier{URI: d.uri}}
		for _, h := range []handler{(*Server).documentSymbol, (*Server).formatting} {
			if _, err := h(s, ctx, marshal(t, doc)); err != nil {
				t.Fatal(err)
			}
		}
		for line := -1; line <= len(d.text.lines); line += step {
			for _, char := range []int{-1, 0, 4, 9, 17, 1000} {
				p := marshal(t, at(d.uri, line, char))
				for _, h := range []handler{(*Server).hover, (*Server).completion, (*Server).definition, (*Server).references, (*Server).signatureHelp} {
					if _, err := h(s, ctx, p); err != nil {
						t.Fatalf("line %d char %d: %v", line, char, err)
					}
				}
			}
		}
	})
}

func marshal(t *testing.T, v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
