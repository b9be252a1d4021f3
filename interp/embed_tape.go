package interp

// The embedding API of tapes (docs/embedding.md): a Go program records
// what it runs through Exec, Run or Call on a tape, as `tape t { }` does
// in a script, and reads the gradients as *Array values (Array.Grad).

// Record runs fn with the interpreter's thread recording onto t.
func (in *Interp) Record(t *Tape, fn func() error) error { return in.th.RunTape(t, fn) }

// Backward is backward(t, ...) from Go: seeds pair outputs with their
// starting gradients (Int(1) for a loss).
func (in *Interp) Backward(t *Tape, seeds ...Seed) error { return in.th.Backward(t, seeds) }

// ZeroGrad is zero_grad(t).
func (in *Interp) ZeroGrad(t *Tape) error { return in.th.ZeroGrad(t) }

// RequireGrad gives a a zero-filled gradient, as requires_grad=true.
func (in *Interp) RequireGrad(a *Array) error { return in.th.RequireGrad(a.A) }

// Grad is a's gradient (nil when it has none), of a's shape, dtype and
// device: a view of a's buffer's gradient buffer.
func (a *Array) Grad() *Array {
	g := a.A.Grad()
	if g == nil {
		return nil
	}
	return a.wrap(g)
}
