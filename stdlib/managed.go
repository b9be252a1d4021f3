package stdlib

import (
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Prefetch, advice and explain_access (MEMORY.md sections 8 and 9): the
// rules live in runtime/mem; these read the arguments.

// prefetch is prefetch(a, dev): a's bytes (a view's range) move to dev,
// a CUDA device or "cpu", in the order of a's device's work.
func prefetch(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	a, err := memArg(args, 0)
	if err != nil {
		return nil, err
	}
	dev, err := th.DeviceArg(args.Positional[1])
	if err != nil {
		return nil, err
	}
	return interp.Nil, th.Prefetch(a, dev)
}

// advise is advise(a, advice[, dev]): advice for a's bytes; dev (default
// a's own device) matters to preferred_location and accessed_by.
func advise(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 3); err != nil {
		return nil, err
	}
	a, err := memArg(args, 0)
	if err != nil {
		return nil, err
	}
	s, ok := args.Positional[1].(interp.String)
	if !ok {
		return nil, fmt.Errorf("advise: the advice is a string such as \"read_mostly\", not %s", args.Positional[1].Type())
	}
	adv, err := mem.ParseAdvice(string(s))
	if err != nil {
		return nil, err
	}
	dev := a.Device()
	if len(args.Positional) == 3 {
		if dev, err = th.DeviceArg(args.Positional[2]); err != nil {
			return nil, err
		}
	}
	return interp.Nil, a.Advise(adv, dev)
}

// explainAccess is explain_access(dev, a): can_access's decision with the
// rule that made it, the facts it read and the remedy, as a record that
// the REPL shows as its text.
func explainAccess(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	dev, err := th.DeviceArg(args.Positional[0])
	if err != nil {
		return nil, err
	}
	a, err := memArg(args, 1)
	if err != nil {
		return nil, err
	}
	e, err := th.AccessState().Explain(dev, a, args.ArgName(1))
	if err != nil {
		return nil, err
	}
	return explanationRecord(e), nil
}

func explanationRecord(e mem.Explanation) *interp.Record {
	facts := make([]interp.Value, len(e.Facts))
	for i, f := range e.Facts {
		facts[i] = interp.String(f)
	}
	return &interp.Record{
		Names: []string{"accessible", "kind", "owner", "target", "rule", "facts", "remedy", "text"},
		Values: []interp.Value{interp.Bool(e.Accessible), interp.Kind(e.Kind), interp.String(e.Owner.String()),
			interp.String(e.Target.String()), interp.String(e.Rule), interp.NewList(facts...), interp.String(e.Remedy), interp.String(e.Text)},
		Display: e.Text,
	}
}
