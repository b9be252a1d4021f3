package docs_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/stdlib"
)

// This file tests docs/editors/gscript.tmLanguage.json with a small
// TextMate tokenizer over Go's regexp: the grammar keeps to RE2 patterns
// (no lookaround, no backreferences), so every editor's Oniguruma reads
// them the same way.

type capture struct {
	Name string `json:"name"`
}

type rawRule struct {
	Name          string             `json:"name"`
	Match         string             `json:"match"`
	Begin         string             `json:"begin"`
	End           string             `json:"end"`
	Include       string             `json:"include"`
	Captures      map[string]capture `json:"captures"`
	BeginCaptures map[string]capture `json:"beginCaptures"`
	EndCaptures   map[string]capture `json:"endCaptures"`
	Patterns      []rawRule          `json:"patterns"`
}

type rawGrammar struct {
	ScopeName  string             `json:"scopeName"`
	Patterns   []rawRule          `json:"patterns"`
	Repository map[string]rawRule `json:"repository"`
}

// pattern is one compiled regexp in two forms: as written, for a search
// from the start of the line, and wrapped so that a search from column c
// sees the character before c (for \b and \B) but cannot match before c.
type pattern struct {
	src   string
	whole *regexp.Regexp
	after *regexp.Regexp // \A(?s:.)(?s:.*?)(src): group 1 is the match
}

func compile(t *testing.T, where, src string) *pattern {
	t.Helper()
	whole, err := regexp.Compile(src)
	if err != nil {
		t.Fatalf("%s: %q does not compile with Go's regexp (keep the grammar RE2-compatible): %v", where, src, err)
	}
	return &pattern{src, whole, regexp.MustCompile(`\A(?s:.)(?s:.*?)(` + src + `)`)}
}

// find is the leftmost match of p in line at or after col: the indices
// of the match and of its groups, or nil.
func (p *pattern) find(line string, col int) []int {
	if col == 0 {
		return p.whole.FindStringSubmatchIndex(line)
	}
	if col > len(line) {
		return nil
	}
	m := p.after.FindStringSubmatchIndex(line[col-1:])
	if m == nil {
		return nil
	}
	out := make([]int, 0, len(m)-2)
	for i := 2; i < len(m); i++ {
		if m[i] < 0 {
			out = append(out, -1)
		} else {
			out = append(out, m[i]+col-1)
		}
	}
	return out
}

type rule struct {
	name                         string
	match, begin, end            *pattern
	captures, beginCaps, endCaps map[string]capture
	patterns                     []*rule
}

type grammar struct {
	scopeName string
	top       []*rule
}

func loadGrammar(t *testing.T) *grammar {
	t.Helper()
	data, err := os.ReadFile("../../docs/editors/gscript.tmLanguage.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw rawGrammar
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("gscript.tmLanguage.json: %v", err)
	}
	var build func(where string, rs []rawRule, depth int) []*rule
	build = func(where string, rs []rawRule, depth int) []*rule {
		if depth > 10 {
			t.Fatalf("%s: includes nest too deep", where)
		}
		var out []*rule
		for i, r := range rs {
			w := where + "[" + strings.TrimSpace(r.Name+" "+r.Include) + "#" + itoaN(i) + "]"
			if r.Include != "" {
				name, ok := strings.CutPrefix(r.Include, "#")
				inc, found := raw.Repository[name]
				if !ok || !found {
					t.Fatalf("%s: include %q is not in the repository", w, r.Include)
				}
				out = append(out, build(w, inc.Patterns, depth+1)...)
				continue
			}
			nr := &rule{name: r.Name, captures: r.Captures, beginCaps: r.BeginCaptures, endCaps: r.EndCaptures}
			switch {
			case r.Match != "":
				nr.match = compile(t, w, r.Match)
			case r.Begin != "" && r.End != "":
				nr.begin = compile(t, w, r.Begin)
				nr.end = compile(t, w, r.End)
				nr.patterns = build(w, r.Patterns, depth+1)
			default:
				t.Fatalf("%s: a rule needs match, or begin and end", w)
			}
			out = append(out, nr)
		}
		return out
	}
	return &grammar{scopeName: raw.ScopeName, top: build("patterns", raw.Patterns, 0)}
}

// token is a run of a line with the scopes that cover it, outermost first
// (the grammar's scopeName left out). Text no rule matched has no scopes.
type token struct {
	text   string
	col    int
	scopes []string
}

func (tk token) scope() string { return strings.Join(tk.scopes, " ") }

// lineState is the begin/end rule open at the end of a line, or nil.
type lineState struct{ open *rule }

// tokenizeLine tokenizes one line (without its newline) from state st.
func (g *grammar) tokenizeLine(line string, st lineState) ([]token, lineState) {
	var toks []token
	emit := func(from, to int, scopes []string) {
		if to > from {
			toks = append(toks, token{line[from:to], from, slices.Clone(scopes)})
		}
	}
	// emitMatch splits a match into its capture groups' scopes.
	emitMatch := func(m []int, base []string, caps map[string]capture) {
		start, end := m[0], m[1]
		if c, ok := caps["0"]; ok {
			base = append(slices.Clone(base), c.Name)
		}
		pos := start
		for g := 1; 2*g+1 < len(m); g++ {
			c, ok := caps[itoaN(g)]
			gs, ge := m[2*g], m[2*g+1]
			if !ok || gs < 0 || gs < pos {
				continue
			}
			emit(pos, gs, base)
			emit(gs, ge, append(slices.Clone(base), c.Name))
			pos = ge
		}
		emit(pos, end, base)
	}
	col := 0
	for col <= len(line) {
		var cands []*rule
		var outer []string
		if st.open != nil {
			outer = nonEmpty(st.open.name)
			cands = st.open.patterns
			// The end pattern wins a tie with the rule's own patterns.
			if m := st.open.end.find(line, col); m != nil {
				best, bestRule := m, (*rule)(nil)
				for _, r := range cands {
					if rm := first(r, line, col); rm != nil && rm[0] < best[0] {
						best, bestRule = rm, r
					}
				}
				emit(col, best[0], outer)
				if bestRule == nil {
					emitMatch(best, outer, st.open.endCaps)
					st.open = nil
				} else {
					col = g.apply(bestRule, best, outer, emit, emitMatch, &st)
					continue
				}
				col = advance(best, col)
				continue
			}
		} else {
			cands = g.top
		}
		var best []int
		var bestRule *rule
		for _, r := range cands {
			if m := first(r, line, col); m != nil && (best == nil || m[0] < best[0]) {
				best, bestRule = m, r
			}
		}
		if best == nil {
			emit(col, len(line), outer)
			break
		}
		emit(col, best[0], outer)
		col = g.apply(bestRule, best, outer, emit, emitMatch, &st)
	}
	return toks, st
}

func (g *grammar) apply(r *rule, m []int, outer []string, emit func(int, int, []string),
	emitMatch func([]int, []string, map[string]capture), st *lineState) int {
	scopes := append(slices.Clone(outer), nonEmpty(r.name)...)
	if r.match != nil {
		emitMatch(m, scopes, r.captures)
	} else {
		emitMatch(m, scopes, r.beginCaps)
		st.open = r
	}
	return advance(m, m[0])
}

// advance moves past a match, by one byte at least (an empty match must
// not stop the tokenizer).
func advance(m []int, col int) int {
	if m[1] > col {
		return m[1]
	}
	return col + 1
}

func first(r *rule, line string, col int) []int {
	if r.match != nil {
		return r.match.find(line, col)
	}
	return r.begin.find(line, col)
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

func itoaN(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}

// scriptFiles lists every example, benchmark and testdata script.
func scriptFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"examples/*.gs", "bench/*.gs", "bench/*/*.gs", "*/testdata/*.gs", "*/*/testdata/*.gs", "*/*/*/testdata/*.gs"} {
		m, err := filepath.Glob("../../" + pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d scripts found", len(files))
	}
	return files
}

var contextual = []string{"adjoint", "allocator", "array", "block", "device", "fast", "grid", "requires_grad", "tape"}

func isKeywordScope(s string) bool {
	return strings.Contains(s, "keyword.") || strings.Contains(s, "storage.") || strings.Contains(s, "constant.language")
}

func isStringOrComment(s string) bool {
	return strings.Contains(s, "string.") || strings.Contains(s, "comment.")
}

// TestGrammarScripts tokenizes every script line by line and checks what
// a broken grammar would get wrong: a string that does not close on its
// line (gscript strings cannot span lines), a comment line not covered by
// the comment scope, a reserved keyword outside strings and comments not
// highlighted as one, and invalid scopes in examples and benchmarks.
func TestGrammarScripts(t *testing.T) {
	g := loadGrammar(t)
	if g.scopeName != "source.gscript" {
		t.Errorf("scopeName %q, want source.gscript", g.scopeName)
	}
	reserved := map[string]bool{}
	for _, k := range syntax.Keywords() {
		if !slices.Contains(contextual, k) {
			reserved[k] = true
		}
	}
	type script struct {
		name  string
		first int // the line number of the first line
		src   string
	}
	var scripts []script
	for _, path := range scriptFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		scripts = append(scripts, script{strings.TrimPrefix(path, "../../"), 1, string(src)})
	}
	for _, path := range docFiles(t) {
		for _, b := range fences(t, path) {
			if strings.HasPrefix(b.lang, "gscript") {
				scripts = append(scripts, script{docName(path), b.line + 1, b.text})
			}
		}
	}
	for _, sc := range scripts {
		name := sc.name
		strict := !strings.Contains(name, "testdata")
		st := lineState{}
		for i, line := range strings.Split(sc.src, "\n") {
			where := name + ":" + itoaN(sc.first+i)
			var toks []token
			toks, st = g.tokenizeLine(strings.TrimSuffix(line, "\r"), st)
			if st.open != nil && !strings.Contains(st.open.name, "comment") {
				// Lexical-error chunks of the tests expect the error (###).
				if !strings.Contains(line, "###") {
					t.Errorf("%s: %s still open at the end of the line: %s", where, st.open.name, line)
				}
			}
			st = lineState{} // nothing in gscript spans lines
			if trimmed := strings.TrimSpace(line); strings.HasPrefix(trimmed, "//") {
				for _, tk := range toks {
					if strings.TrimSpace(tk.text) != "" && !strings.Contains(tk.scope(), "comment.line") {
						t.Errorf("%s: %q of a comment line has scopes %q", where, tk.text, tk.scope())
					}
				}
			}
			for _, tk := range toks {
				s := tk.scope()
				if reserved[tk.text] && !isStringOrComment(s) && !isKeywordScope(s) {
					t.Errorf("%s:%d: keyword %q has scopes %q", where, tk.col+1, tk.text, s)
				}
				if strict && strings.Contains(s, "invalid") {
					t.Errorf("%s:%d: %q is marked %q", where, tk.col+1, tk.text, s)
				}
			}
		}
	}
}

// scopeOf tokenizes line and returns the scopes of the token that is word
// at or after column from.
func scopeOf(t *testing.T, g *grammar, line, word string) string {
	t.Helper()
	toks, _ := g.tokenizeLine(line, lineState{})
	for _, tk := range toks {
		if tk.text == word {
			return tk.scope()
		}
	}
	t.Errorf("%q: no token %q in %v", line, word, toks)
	return ""
}

// TestGrammarWords checks every keyword of syntax.Keywords (the contextual
// ones where they start something), every builtin function of stdlib's
// table of docs, the dtypes, numbers, operators and strings.
func TestGrammarWords(t *testing.T) {
	g := loadGrammar(t)
	ctx := map[string]string{
		"array":         "array x: f32[4]",
		"device":        `device "cpu" { }`,
		"allocator":     "allocator host { }",
		"block":         "kernel k(x: array[f32]) block(64) { }",
		"grid":          "launch k[grid(4)](x)",
		"fast":          "kernel k(x: array[f32]) block(64) fast { }",
		"tape":          "tape t { }",
		"adjoint":       "kernel k(x: array[f32]) adjoint k_adj { }",
		"requires_grad": "array x: f32[4] = 0.0 requires_grad",
	}
	for _, k := range syntax.Keywords() {
		line, ok := ctx[k]
		if !ok {
			line = "x " + k + " y"
		}
		if s := scopeOf(t, g, line, k); !isKeywordScope(s) {
			t.Errorf("keyword %q in %q has scopes %q", k, line, s)
		}
	}
	for _, k := range contextual {
		if !slices.Contains(syntax.Keywords(), k) {
			t.Errorf("%q is no longer a keyword of lang/syntax: update the test and the grammar", k)
		}
	}
	// fast after an adjoint clause, and the adjoint's name as a kernel's.
	adjFast := "kernel k(x: array[f32]) adjoint k_adj fast { }"
	if s := scopeOf(t, g, adjFast, "fast"); !isKeywordScope(s) {
		t.Errorf("fast in %q has scopes %q", adjFast, s)
	}
	if s := scopeOf(t, g, adjFast, "k_adj"); !strings.Contains(s, "entity.name.function") {
		t.Errorf("k_adj in %q has scopes %q", adjFast, s)
	}
	// Contextual words are names elsewhere.
	for _, line := range []string{"let device = 1", "let block = 2", "print(grid)", "let fast = 3", "let tape = 4", "let adjoint = 5"} {
		w := strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(line))[1]
		if s := scopeOf(t, g, line, w); isKeywordScope(s) {
			t.Errorf("%q in %q has scopes %q, want a name", w, line, s)
		}
	}
	for _, d := range stdlib.Docs() {
		if !strings.Contains(d.Sig, "(") {
			continue
		}
		line := "let v = " + d.Name + "(x)"
		if s := scopeOf(t, g, line, d.Name); !strings.Contains(s, "support.function") {
			t.Errorf("builtin %s in %q has scopes %q", d.Name, line, s)
		}
	}
	for _, dt := range []string{"bool", "u8", "i32", "i64", "u32", "u64", "f32", "f64"} {
		if s := scopeOf(t, g, "let x: "+dt+" = 1", dt); !strings.Contains(s, "support.type") {
			t.Errorf("dtype %s has scopes %q", dt, s)
		}
	}
	for _, n := range []string{"42", "0x2A", "0XFF_FF", "0b101", "0o17", "1_000_000", "1.5", ".5", "2.", "1e-3", "6.02E+23", "1_0.2_5e1_0"} {
		if s := scopeOf(t, g, "let x = "+n+" + y", n); !strings.Contains(s, "constant.numeric") {
			t.Errorf("number %s has scopes %q", n, s)
		}
	}
	for _, op := range []string{"@", "->", "+=", "==", "&&", "<<", "%", "~", "!=", "**", "**="} {
		if s := scopeOf(t, g, "a "+op+" b", op); !strings.Contains(s, "keyword.operator") {
			t.Errorf("operator %s has scopes %q", op, s)
		}
	}
	testGrammarHostWords(t, g)
	toks, st := g.tokenizeLine(`print("a\tb \"q\" %5.2f", x) // note`, lineState{})
	if st.open != nil {
		t.Fatalf("the string did not close: %v", toks)
	}
	want := map[string]string{`\t`: "constant.character.escape", `\"`: "constant.character.escape",
		"%5.2f": "constant.other.placeholder", "x": "variable.other", " note": "comment.line"}
	for _, tk := range toks {
		if w, ok := want[tk.text]; ok {
			if !strings.Contains(tk.scope(), w) {
				t.Errorf("%q has scopes %q, want %s", tk.text, tk.scope(), w)
			}
			delete(want, tk.text)
		}
	}
	for text := range want {
		t.Errorf("no token %q in %v", text, toks)
	}
	if s := scopeOf(t, g, "kernel saxpy(x: array[f32]) {", "saxpy"); !strings.Contains(s, "entity.name.function") {
		t.Errorf("a kernel's name has scopes %q", s)
	}
	if s := scopeOf(t, g, "struct Particle { pos: vec3 }", "Particle"); !strings.Contains(s, "entity.name.type.struct") {
		t.Errorf("a struct's name has scopes %q", s)
	}
	if _, st := g.tokenizeLine(`let s = "open`, lineState{}); st.open == nil {
		t.Errorf("an unterminated string is not open at the end of its line")
	}
}

// testGrammarHostWords checks the host language v3's words (HOST.md
// section 3): try and catch, and in as a for loop's keyword but an
// operator elsewhere, as is not in.
func testGrammarHostWords(t *testing.T, g *grammar) {
	t.Helper()
	cases := []struct{ line, word, want string }{
		{"try {", "try", "keyword.control"},
		{"} catch e {", "catch", "keyword.control"},
		{"for i in range(3) {", "in", "keyword.control"},
		{"for k, v in d.items() {", "in", "keyword.control"},
		{"for k, v in d.items() {", "for", "keyword.control"},
		{"if k in d {", "in", "keyword.operator.word"},
		{"let b = x not in l", "not", "keyword.operator.word"},
		{"let b = x not in l", "in", "keyword.operator.word"},
		{"let y = 2 ** 10", "**", "keyword.operator.arithmetic"},
		{"y **= 2", "**=", "keyword.operator.assignment.compound"},
	}
	for _, c := range cases {
		if s := scopeOf(t, g, c.line, c.word); !strings.Contains(s, c.want) {
			t.Errorf("%q in %q has scopes %q, want %s", c.word, c.line, s, c.want)
		}
	}
	// not is an operator only before in; elsewhere it is a name.
	if s := scopeOf(t, g, "print(not, in_range)", "not"); isKeywordScope(s) {
		t.Errorf("a lone not has scopes %q, want a name", s)
	}
}
