package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestHostBenchTwins: every bench/host script has its CPython twin and a
// row in run.sh, and every row of run.sh is a row of docs/benchmarks.md's
// host language table with the same goal, so a benchmark cannot be added
// (or renamed) on one side only.
func TestHostBenchTwins(t *testing.T) {
	runner, err := os.ReadFile("../../bench/host/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/benchmarks.md")
	if err != nil {
		t.Fatal(err)
	}
	// A row of run.sh: "program|script|goal", the program's quotes escaped.
	rows := regexp.MustCompile(`(?m)^\s*"((?:[^"\\]|\\.)*)\|(\w+)\|([^"|]*)"$`).FindAllStringSubmatch(string(runner), -1)
	if len(rows) < 8 {
		t.Fatalf("run.sh has %d rows, want the 8 of HOST.md section 4", len(rows))
	}
	var scripts []string
	for _, r := range rows {
		name, script, goal := strings.ReplaceAll(r[1], `\"`, `"`), r[2], r[3]
		scripts = append(scripts, script)
		for _, ext := range []string{".gs", ".py"} {
			if _, err := os.Stat("../../bench/host/" + script + ext); err != nil {
				t.Errorf("run.sh's row %q: %v", name, err)
			}
		}
		docRow := regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(name) + ` \|.*\| ` + regexp.QuoteMeta(goal) + ` \|$`)
		if !docRow.Match(doc) {
			t.Errorf("run.sh's row %q (goal %s) is not a row of docs/benchmarks.md's table", name, goal)
		}
	}
	files, _ := filepath.Glob("../../bench/host/*.[gp][sy]")
	for _, f := range files {
		if script := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)); !slices.Contains(scripts, script) {
			t.Errorf("%s is in no row of bench/host/run.sh", docName(f))
		}
	}
}
