package interp

import "github.com/gscript-lang/gscript/runtime/mem"

// Prefetch is prefetch(a, dev) (MEMORY.md section 8): a's bytes move to
// dev in the order of the work queued on a's device, whose later waits
// then report a failure of the migration. Advice and explain_access are
// mem.Array.Advise and mem.AccessState.Explain (AccessState).
func (th *Thread) Prefetch(a *mem.Array, dev mem.Device) error {
	if err := a.Prefetch(dev); err != nil {
		return err
	}
	th.markUsed(a.Device())
	return nil
}
