package stdlib

import (
	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/stdlib/fuse"
)

// power(a, b) is NumPy's power: a ** b, elementwise and broadcast when
// either is an array or an array expression (an expression that fuses),
// else the host's **.
func power(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	x, y := args.Positional[0], args.Positional[1]
	if anyArray(args.Positional) {
		return fuse.Binary(token.Pow, x, y)
	}
	return interp.Binary(token.Pow, x, y)
}
