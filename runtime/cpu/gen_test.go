package cpu

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedOpsFresh runs gen.go and fails when ops_gen.go is not what
// it writes now: an op added to lang/ir's table, or an expression changed
// in gen.go, without regenerating (as cmd/compile's ssa generate_test.go).
func TestGeneratedOpsFresh(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run gen.go with:", err)
	}
	out := filepath.Join(t.TempDir(), "ops_gen.go")
	cmd := exec.Command(gotool, "run", "gen.go", "-out", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("ops_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatal("ops_gen.go is stale: run go generate ./runtime/cpu")
	}
}
