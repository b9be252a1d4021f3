package interp

import (
	"errors"
	"fmt"
)

// The process builtins, argv, env and exit, are the interpreter's own
// (not stdlib's): what they show of the host process is the embedding
// program's choice, through Options.Argv and Options.Env.

// ExitError is what Exec, Run and Call return (inside an *EvalError, so
// errors.As finds it) when the script called exit(code): the script
// stopped there, after the usual clean-up (scopes restored, devices
// synchronized). The CLI exits with Code; an embedding program decides.
// exit(0) is an ExitError too: the script did not run to its end.
type ExitError struct {
	Code int
}

func (e *ExitError) Error() string { return fmt.Sprintf("exit(%d)", e.Code) }

// ErrNoEnvAccess is the error of env() in an interpreter whose embedding
// program did not grant the environment (Options.Env).
var ErrNoEnvAccess = errors.New("environment access is not allowed in this interpreter")

// processNames are the predeclared names the interpreter itself defines,
// besides dtypes and memory kinds (universe): Compile must know them.
var processNames = []string{"config", "_", "argv", "env", "exit"}

// processBuiltins binds argv, env and exit for an interpreter made with
// opts. argv is a fresh list per interpreter: scripts may change it.
func processBuiltins(opts Options) map[string]Value {
	argv := make([]Value, len(opts.Argv))
	for i, a := range opts.Argv {
		argv[i] = String(a)
	}
	lookup := opts.Env
	return map[string]Value{
		"argv": listOf(argv),
		"env":  &Builtin{Name: "env", Fn: func(th *Thread, args *Args) (Value, error) { return envFn(lookup, args) }},
		"exit": &Builtin{Name: "exit", Fn: exitFn},
	}
}

// envFn is env(name[, default]): the variable's value, else default, else
// nil.
func envFn(lookup func(string) (string, bool), args *Args) (Value, error) {
	if err := args.Check(1, 2); err != nil {
		return nil, err
	}
	name, ok := args.Positional[0].(String)
	if !ok {
		return nil, fmt.Errorf("env: the name must be a string, not %s", describe(args.Positional[0]))
	}
	if lookup == nil {
		return nil, fmt.Errorf("env: %w", ErrNoEnvAccess)
	}
	if v, ok := lookup(string(name)); ok {
		return String(v), nil
	}
	if len(args.Positional) == 2 {
		return args.Positional[1], nil
	}
	return Nil, nil
}

// exitFn is exit([code]): code 0 to 255 (what a process can return; the
// shell would see a larger one modulo 256).
func exitFn(th *Thread, args *Args) (Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	code := 0
	if len(args.Positional) == 1 {
		n, ok := args.Positional[0].(Int)
		if !ok || n < 0 || n > 255 {
			return nil, fmt.Errorf("exit: the status must be an int from 0 to 255, not %s", describe(args.Positional[0]))
		}
		code = int(n)
	}
	return nil, &ExitError{Code: code}
}
