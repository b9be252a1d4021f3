package syntax

import (
	"fmt"
	"strings"
	"testing"
)

func TestTokensKeepComments(t *testing.T) {
	src := "#!/usr/bin/env gscript\n// head\nlet x = {\"a\": 1} // tail\r\nfn f() {\n    // inside\n}\n"
	toks, err := Tokens("t.gs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		if tk.Kind == Comment || tk.Kind == DictOpen {
			got = append(got, fmt.Sprintf("%d:%d %s", tk.Pos.Line, tk.Pos.Col, tk.Text))
		}
	}
	want := "1:1 #!/usr/bin/env gscript|2:1 // head|3:9 {|3:18 // tail|5:5 // inside"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("comments and dicts:\n got %s\nwant %s", s, want)
	}
	if last := toks[len(toks)-1]; last.Kind != EOF {
		t.Errorf("last token %v, want EOF", last)
	}
}

// TestTokensSameAsParser: the stream less its comments is what the
// parser reads, in the same order.
func TestTokensSameAsParser(t *testing.T) {
	src := []byte("let a = 1 // c\n// d\nif a > 0 { print(a) }\n")
	toks, _ := Tokens("t.gs", src)
	var code []string
	for _, tk := range toks {
		if tk.Kind != Comment {
			code = append(code, tk.Text)
		}
	}
	var parsed []string
	for _, tk := range scan("t.gs", src).toks {
		parsed = append(parsed, tk.Value)
	}
	if strings.Join(code, " ") != strings.Join(parsed, " ") {
		t.Errorf("stream %q\nparser %q", code, parsed)
	}
}

func TestTokensReportErrors(t *testing.T) {
	_, err := Tokens("t.gs", []byte("let s = \"open\n"))
	if err == nil || !strings.Contains(err.Error(), "t.gs:1:9") {
		t.Errorf("err = %v, want a positioned scanner error", err)
	}
}
