package mem

import "fmt"

// AllocScope is one `allocator NAME [on DEVICE] { }` scope of a script.
type AllocScope struct {
	Alloc  Allocator
	Device *Device // nil: every device Alloc applies to
}

// appliesTo reports whether the scope chooses the allocator for dev: a
// scope restricted to a device says nothing about other devices, and an
// unrestricted one is skipped on devices its allocator does not serve (a
// CUDA allocator in scope leaves cpu arrays alone).
func (s AllocScope) appliesTo(dev Device) bool {
	return (s.Device == nil || *s.Device == dev) && s.Alloc.AppliesTo(dev)
}

// CheckApplies is the error for an allocator named for a device it does
// not serve (a `using` clause, an `allocator=` argument, `allocator NAME on
// DEVICE`, a per-device default).
func CheckApplies(a Allocator, dev Device) error {
	if !a.AppliesTo(dev) {
		return fmt.Errorf("allocator %s does not apply to device %s", a.Name(), dev)
	}
	return nil
}

// Choose is the allocator selection order of MEMORY.md section 2 for an
// array on dev, strongest first: explicit (the `using` clause or
// `allocator=` argument; nil for none), which must apply to dev; then the
// innermost of scopes (outermost first, as they were entered) that applies
// to dev; then the per-device default set by the embedding program; then
// the built-in default for dev. It reads no state but the registry's
// defaults and, for the built-in default, dev's capabilities.
func (r *Registry) Choose(explicit Allocator, scopes []AllocScope, dev Device) (Allocator, error) {
	if explicit != nil {
		if err := CheckApplies(explicit, dev); err != nil {
			return nil, err
		}
		return explicit, nil
	}
	for i := len(scopes) - 1; i >= 0; i-- {
		if scopes[i].appliesTo(dev) {
			return scopes[i].Alloc, nil
		}
	}
	return r.Default(dev), nil
}
