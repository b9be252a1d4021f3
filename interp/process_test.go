package interp_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

func execOpts(t *testing.T, opts interp.Options, src string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	opts.Stdout, opts.Device, opts.Predeclared = &out, "cpu", stdlib.Universe()
	in, err := interp.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	err = in.Exec(context.Background(), "t.gs", []byte(src))
	return out.String(), err
}

func TestArgv(t *testing.T) {
	out, err := execOpts(t, interp.Options{}, `print(argv, len(argv))`)
	if err != nil || out != "[] 0\n" {
		t.Errorf("default argv: %q, %v", out, err)
	}
	out, err = execOpts(t, interp.Options{Argv: []string{"s.gs", "-n", "3"}}, `print(argv, type(argv[2]))`)
	if err != nil || out != "[\"s.gs\", \"-n\", \"3\"] string\n" {
		t.Errorf("argv: %q, %v", out, err)
	}
	// A compiled program knows argv, env and exit as predeclared names.
	if _, err := interp.Compile("p.gs", []byte(`print(argv, env, exit)`), stdlib.Universe()); err != nil {
		t.Errorf("Compile: %v", err)
	}
}

// TestEnvIsGranted: env reads only what Options.Env grants.
func TestEnvIsGranted(t *testing.T) {
	_, err := execOpts(t, interp.Options{}, "\nenv(\"HOME\", \"x\")")
	var ee *interp.EvalError
	if !errors.Is(err, interp.ErrNoEnvAccess) || !errors.As(err, &ee) || ee.Pos.Line != 2 {
		t.Errorf("env without access: %v", err)
	}
	vars := map[string]string{"N": "12"}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	out, err := execOpts(t, interp.Options{Env: lookup}, `print(env("N"), env("M"), env("M", 7), int(env("N")) + 1)`)
	if err != nil || out != "12 nil 7 13\n" {
		t.Errorf("env: %q, %v", out, err)
	}
	if _, err := execOpts(t, interp.Options{Env: lookup}, `env(1)`); err == nil || !strings.Contains(err.Error(), "name must be a string") {
		t.Errorf("env(1): %v", err)
	}
}

// TestExit: exit ends the script at once with an error that carries the
// status, found with errors.As, after restoring the scopes.
func TestExit(t *testing.T) {
	out, err := execOpts(t, interp.Options{}, "fn f() {\n  device \"cpu\" { exit(3) }\n}\nprint(\"a\")\nf()\nprint(\"b\")")
	var xe *interp.ExitError
	if out != "a\n" || !errors.As(err, &xe) || xe.Code != 3 {
		t.Fatalf("exit(3): out %q, err %v", out, err)
	}
	if _, err := execOpts(t, interp.Options{}, "exit()"); !errors.As(err, &xe) || xe.Code != 0 {
		t.Errorf("exit(): %v", err)
	}
	for _, src := range []string{"exit(256)", "exit(-1)", `exit("1")`, "exit(1.0)"} {
		_, err := execOpts(t, interp.Options{}, src)
		if errors.As(err, &xe) || err == nil || !strings.Contains(err.Error(), "0 to 255") {
			t.Errorf("%s: %v", src, err)
		}
	}
}
