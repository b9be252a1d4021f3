package mem

import (
	"fmt"
	"slices"
)

// Explanation is explain_access(target, a) (MEMORY.md section 9): the
// decision of can_access with its grounds, as the launch checks see it.
type Explanation struct {
	Accessible bool          // can_access: proven accessible
	Access     Accessibility // the tri-state decision
	Kind       Kind
	Owner      Device
	Target     Device
	Rule       string   // the section 4 rule that decided
	Facts      []string // what it read, as "name=value"
	Remedy     string   // the one step that would make it accessible; "" when it is
	Text       string   // the same in two or three sentences
}

// DefaultExplainName names the array in remedies when the caller has no
// name for it: the parameter of explain_access(dev, a).
const DefaultExplainName = "a"

// Explain is explain_access(target, a) for an array called name in
// remedies (""; DefaultExplainName): the very decision CanAccess makes
// (the same cache), with its rule, facts and remedy. A freed array, or a
// target device this process cannot use, is an error.
func (s *AccessState) Explain(target Device, a *Array, name string) (Explanation, error) {
	if a.Freed() {
		return Explanation{}, ErrFreed
	}
	if err := CheckDevice(target); err != nil {
		return Explanation{}, err
	}
	if name == "" {
		name = DefaultExplainName
	}
	return explain(target, a.Device(), a.Kind(), s.CanAccess(target, a), name), nil
}

// explain words a decision; it is pure.
func explain(target, owner Device, kind Kind, r AccessResult, name string) Explanation {
	e := Explanation{Accessible: r.Access == Accessible, Access: r.Access, Kind: kind, Owner: owner, Target: target,
		Rule: r.Rule, Facts: slices.Clone(r.Facts), Remedy: r.Fix.Remedy(target, owner, name)}
	verb := "can access"
	switch r.Access {
	case Inaccessible:
		verb = "cannot access"
	case AccessUnknown:
		verb = "is not proven to access"
	}
	e.Text = fmt.Sprintf("%s %s %s, a %s array on %s. Rule: %s; here %s.", target, verb, name, kind, owner, r.Rule, r.Reason)
	if e.Remedy != "" {
		e.Text += " Remedy: " + e.Remedy + "."
	}
	return e
}
