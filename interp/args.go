package interp

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/lang/ast"
)

// Args are a call's arguments: positional values, then keyword values.
type Args struct {
	Fn         string  // the callee's name, for messages
	Pos        ast.Pos // the call's '(' position
	Positional []Value
	Names      []string
	Kw         []Value
	exprs      []ast.Expr // the positional arguments' expressions, when called from a script
}

// ArgName is the variable positional argument i was passed as at the call
// site (`x` in f(x)), or "" when it was some other expression or the call
// came from Go: messages and remedies name the script's own variable.
func (a *Args) ArgName(i int) string {
	if i < 0 || i >= len(a.exprs) {
		return ""
	}
	if id, ok := a.exprs[i].(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// Check verifies the positional count is in [min, max] and that every
// keyword is one of kws.
func (a *Args) Check(min, max int, kws ...string) error {
	n := len(a.Positional)
	if n < min || n > max {
		want := fmt.Sprintf("%d to %d", min, max)
		switch {
		case min == max:
			want = fmt.Sprint(min)
		case max > 1<<20:
			want = fmt.Sprintf("at least %d", min)
		}
		return fmt.Errorf("%s takes %s positional arguments, got %d", a.Fn, want, n)
	}
	for i, name := range a.Names {
		if !slices.Contains(kws, name) {
			if len(kws) == 0 {
				return fmt.Errorf("%s takes no keyword arguments", a.Fn)
			}
			return fmt.Errorf("%s has no keyword argument %s (it takes %v)", a.Fn, name, kws)
		}
		if slices.Contains(a.Names[:i], name) {
			return fmt.Errorf("%s: keyword argument %s given twice", a.Fn, name)
		}
	}
	return nil
}

// Kwarg returns the keyword argument name, or nil.
func (a *Args) Kwarg(name string) Value {
	for i, n := range a.Names {
		if n == name {
			return a.Kw[i]
		}
	}
	return nil
}

// Get returns positional argument i if present, else keyword name, else nil.
func (a *Args) Get(i int, name string) Value {
	if i >= 0 && i < len(a.Positional) {
		return a.Positional[i]
	}
	return a.Kwarg(name)
}
