package stdlib

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/dist"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// The distributed builtins (SCALE.md sections 1 and 4): the rank queries
// read interp.Options.Dist; the collectives run over a dist.Group opened
// on the first one (cpu arrays) or NCCL (CUDA arrays, distnccl.go). A
// script alone is rank 0 of 1 and every collective is then a copy.

func distFuncs() map[string]fn {
	return map[string]fn{
		"rank":             rankOf(func(c *dist.Config) int { return c.Rank }, 0),
		"world_size":       rankOf(func(c *dist.Config) int { return c.WorldSize }, 1),
		"local_rank":       rankOf(func(c *dist.Config) int { return c.LocalRank }, 0),
		"local_world_size": rankOf(func(c *dist.Config) int { return c.LocalWorldSize }, 1),
		"is_distributed":   isDistributed, "barrier": barrier,
		"all_reduce": allReduce, "broadcast": broadcast, "reduce": reduceTo,
		"all_gather": allGather, "reduce_scatter": reduceScatter, "send": sendTo, "recv": recvFrom,
	}
}

func rankOf(get func(*dist.Config) int, alone int) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := args.Check(0, 0); err != nil {
			return nil, err
		}
		if c := th.Dist(); c != nil {
			return interp.Int(get(c)), nil
		}
		return interp.Int(alone), nil
	}
}

func isDistributed(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	return interp.Bool(th.Dist() != nil), nil
}

// groupKey keeps a thread's group (or the error that opening it gave).
type groupKey struct{}

type groupState struct {
	g   *dist.Group
	err error
}

// group is the thread's group, opened on first use; nil when the script
// runs alone.
func group(th *interp.Thread) (*dist.Group, error) {
	c := th.Dist()
	if c == nil {
		return nil, nil
	}
	if s, ok := th.Local(groupKey{}).(*groupState); ok {
		return s.g, s.err
	}
	g, err := dist.Open(th.Context(), *c)
	th.SetLocal(groupKey{}, &groupState{g, err})
	if err != nil {
		return nil, interrupted(err)
	}
	th.OnClose(g.Close)
	return g, nil
}

// interrupted maps a cancelled wait (Ctrl-C) to interp's error for it.
func interrupted(err error) error {
	if errors.Is(err, context.Canceled) {
		return interp.ErrInterrupted
	}
	return err
}

// collArg is positional argument i as an array a collective moves: live
// and contiguous (the collectives move whole buffers).
func collArg(args *interp.Args, i int) (*interp.Array, error) {
	a, err := anyArrayArg(args, i)
	if err != nil {
		return nil, err
	}
	if !a.A.IsContiguous() {
		name := args.ArgName(i)
		if name == "" {
			name = "the array"
		}
		return nil, fmt.Errorf("%s: %s is a view that is not contiguous; collectives move whole buffers: use a copy (let c = %s.to(%s.device), then copy(%[2]s, c) after)",
			args.Fn, name, name, name)
	}
	return a, nil
}

// reducible refuses struct arrays for the reductions (vectors reduce lane
// by lane) and ops their dtype has no meaning for.
func reducible(args *interp.Args, a *interp.Array, op dist.Op) error {
	if a.Elem.St != nil {
		return fmt.Errorf("%s of an array of %s: reductions need numbers", args.Fn, a.ElemType())
	}
	if err := dist.CheckOp(op, a.A.DType()); err != nil {
		return fmt.Errorf("%s: %v", args.Fn, err)
	}
	return nil
}

func opArg(args *interp.Args, i int) (dist.Op, error) {
	v := args.Get(i, "op")
	if v == nil {
		return dist.Sum, nil
	}
	s, ok := v.(interp.String)
	if !ok {
		return 0, fmt.Errorf(`%s: op must be a string ("sum", "prod", "min", "max" or "avg"), not %s`, args.Fn, v.Type())
	}
	op, err := dist.ParseOp(string(s))
	if err != nil {
		return 0, fmt.Errorf("%s: %v", args.Fn, err)
	}
	return op, nil
}

// rankArg reads a rank argument (root=, dst, src) and checks it names a
// rank of the world.
func rankArg(th *interp.Thread, args *interp.Args, i int, name string, def int) (int, error) {
	v := args.Get(i, name)
	if v == nil {
		return def, nil
	}
	n, ok := v.(interp.Int)
	if !ok {
		return 0, fmt.Errorf("%s: %s must be an int rank, not %s", args.Fn, name, v.Type())
	}
	world := worldSize(th)
	if n < 0 || int(n) >= world {
		return 0, fmt.Errorf("%s: %s=%d is not a rank of a world of %d (ranks 0 to %d)", args.Fn, name, n, world, world-1)
	}
	return int(n), nil
}

// describeCall is a call as checked mode compares it.
func describeCall(args *interp.Args, a *interp.Array, extra string) string {
	dev := "cpu"
	if a.A.Device().IsCUDA() {
		dev = "cuda"
	}
	s := fmt.Sprintf("%s %s%s on %s", args.Fn, a.ElemType(), shapeString(a.Shape()), dev)
	if extra != "" {
		s += " " + extra
	}
	return s
}

func shapeString(sh []int) string {
	parts := make([]string, len(sh))
	for i, d := range sh {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// checkCall runs checked mode's comparison of the call's description
// over the group (a world of one has nothing to compare: its calls pay
// no formatting).
func checkCall(th *interp.Thread, g *dist.Group, what string, desc func() string) error {
	if c := g.Config(); c.Unchecked || c.WorldSize == 1 {
		return nil
	}
	return interrupted(g.Check(th.Context(), what, desc()))
}

// hostBuf is a cpu array's bytes, after the work queued on it.
func hostBuf(a *mem.Array) ([]byte, error) {
	if err := a.SyncForHost(); err != nil {
		return nil, err
	}
	return a.HostBytes()
}

// withBytes calls f with a's bytes (cpu) and keeps a alive meanwhile.
func withBytes(a *mem.Array, f func([]byte) error) error {
	b, err := hostBuf(a)
	if err != nil {
		return err
	}
	err = f(b)
	runtime.KeepAlive(a)
	return interrupted(err)
}

// onCUDA reports whether a collective of a goes through NCCL: a CUDA
// array in a distributed run.
func onCUDA(a *mem.Array) bool { return a.Device().IsCUDA() }

func allReduce(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2, "op"); err != nil {
		return nil, err
	}
	a, err := collArg(args, 0)
	if err != nil {
		return nil, err
	}
	op, err := opArg(args, 1)
	if err == nil {
		err = reducible(args, a, op)
	}
	if err != nil {
		return nil, err
	}
	g, err := group(th)
	if g == nil || err != nil {
		return interp.Nil, err // alone: the sum over one rank is a itself
	}
	if err := checkCall(th, g, "all_reduce", func() string { return describeCall(args, a, "op="+op.String()) }); err != nil {
		return nil, err
	}
	if onCUDA(a.A) {
		return interp.Nil, ncclAllReduce(th, g, a.A, op)
	}
	return interp.Nil, withBytes(a.A, func(b []byte) error { return g.AllReduce(th.Context(), b, a.A.DType(), op) })
}

func broadcast(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2, "root"); err != nil {
		return nil, err
	}
	a, err := collArg(args, 0)
	if err != nil {
		return nil, err
	}
	root, err := rankArg(th, args, 1, "root", 0)
	if err != nil {
		return nil, err
	}
	g, err := group(th)
	if g == nil || err != nil {
		return interp.Nil, err
	}
	if err := checkCall(th, g, "broadcast", func() string { return describeCall(args, a, fmt.Sprintf("root=%d", root)) }); err != nil {
		return nil, err
	}
	if onCUDA(a.A) {
		return interp.Nil, ncclBroadcast(th, g, a.A, root)
	}
	return interp.Nil, withBytes(a.A, func(b []byte) error { return g.Broadcast(th.Context(), b, root) })
}

func reduceTo(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 3, "root", "op"); err != nil {
		return nil, err
	}
	a, err := collArg(args, 0)
	if err != nil {
		return nil, err
	}
	root, err := rankArg(th, args, 1, "root", 0)
	if err != nil {
		return nil, err
	}
	op, err := opArg(args, 2)
	if err == nil {
		err = reducible(args, a, op)
	}
	if err != nil {
		return nil, err
	}
	g, err := group(th)
	if g == nil || err != nil {
		return interp.Nil, err
	}
	if err := checkCall(th, g, "reduce", func() string { return describeCall(args, a, fmt.Sprintf("root=%d op=%s", root, op)) }); err != nil {
		return nil, err
	}
	if onCUDA(a.A) {
		return interp.Nil, ncclReduce(th, g, a.A, op, root)
	}
	return interp.Nil, withBytes(a.A, func(b []byte) error { return g.Reduce(th.Context(), b, a.A.DType(), op, root) })
}

// worldSize is the number of ranks (1 alone).
func worldSize(th *interp.Thread) int {
	if c := th.Dist(); c != nil {
		return c.WorldSize
	}
	return 1
}

// outArg is out= checked against the shape a collective gives, or a new
// array of that shape on a's device.
func outArg(th *interp.Thread, args *interp.Args, a *interp.Array, shape []int) (*interp.Array, error) {
	v := args.Kwarg("out")
	if v == nil {
		out, err := th.NewArrayUninit(a.A.DType(), shape, interp.String(a.A.Device().String()), nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", args.Fn, err)
		}
		return &interp.Array{A: out, Elem: a.Elem}, nil
	}
	out, ok := v.(*interp.Array)
	switch {
	case !ok:
		return nil, fmt.Errorf("%s: out= must be an array, not %s", args.Fn, v.Type())
	case out.A.Freed():
		return nil, mem.ErrFreed
	case out.ElemType() != a.ElemType() || !slices.Equal(out.A.Shape(), shape):
		return nil, fmt.Errorf("%s: out= is %s%s; this call gives %s%s", args.Fn, out.ElemType(), shapeString(out.A.Shape()), a.ElemType(), shapeString(shape))
	case out.A.Device() != a.A.Device():
		return nil, fmt.Errorf("%s: out= is on %s, the array on %s", args.Fn, out.A.Device(), a.A.Device())
	case !out.A.IsContiguous():
		return nil, fmt.Errorf("%s: out= is a view that is not contiguous", args.Fn)
	}
	return out, nil
}

func allGather(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, "out"); err != nil {
		return nil, err
	}
	a, err := collArg(args, 0)
	if err != nil {
		return nil, err
	}
	w := worldSize(th)
	if a.A.NDim() >= mem.MaxDims {
		return nil, fmt.Errorf("all_gather: the result adds an axis to %d, past arrays' %d", a.A.NDim(), mem.MaxDims)
	}
	out, err := outArg(th, args, a, append([]int{w}, a.A.Shape()...))
	if err != nil {
		return nil, err
	}
	g, err := group(th)
	if err != nil {
		return nil, err
	}
	if g == nil {
		sub, err := out.A.Sub(0)
		if err != nil {
			return nil, err
		}
		return out, th.CopyArray(sub, a.A)
	}
	if err := checkCall(th, g, "all_gather", func() string { return describeCall(args, a, "") }); err != nil {
		return nil, err
	}
	if onCUDA(a.A) {
		return out, ncclAllGather(th, g, a.A, out.A)
	}
	return out, withBytes(a.A, func(in []byte) error {
		return withBytes(out.A, func(o []byte) error { return g.AllGather(th.Context(), in, o) })
	})
}

func reduceScatter(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, "out", "op"); err != nil {
		return nil, err
	}
	a, err := collArg(args, 0)
	if err != nil {
		return nil, err
	}
	op, err := opArg(args, -1)
	if err == nil {
		err = reducible(args, a, op)
	}
	if err != nil {
		return nil, err
	}
	w, sh := worldSize(th), a.A.Shape()
	if sh[0]%w != 0 {
		return nil, fmt.Errorf("reduce_scatter: axis 0 of %d does not split into %d equal parts, one per rank", sh[0], w)
	}
	out, err := outArg(th, args, a, append([]int{sh[0] / w}, sh[1:]...))
	if err != nil {
		return nil, err
	}
	g, err := group(th)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return out, th.CopyArray(out.A, a.A)
	}
	if err := checkCall(th, g, "reduce_scatter", func() string { return describeCall(args, a, "op="+op.String()) }); err != nil {
		return nil, err
	}
	if onCUDA(a.A) {
		return out, ncclReduceScatter(th, g, a.A, out.A, op)
	}
	return out, withBytes(a.A, func(in []byte) error {
		return withBytes(out.A, func(o []byte) error { return g.ReduceScatter(th.Context(), in, o, a.A.DType(), op) })
	})
}

// peerArg is send's dst or recv's src: another rank.
func peerArg(th *interp.Thread, args *interp.Args, name string) (int, error) {
	r, err := rankArg(th, args, 1, name, 0)
	if err == nil && (th.Dist() == nil || r == th.Dist().Rank) {
		err = fmt.Errorf("%s: %s=%d is this rank (a rank sends to and receives from the others)", args.Fn, name, r)
	}
	return r, err
}

func sendTo(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	return pointToPoint(th, args, "dst", true)
}

func recvFrom(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	return pointToPoint(th, args, "src", false)
}

// pointToPoint is send(a, dst) and recv(a, src): checked mode makes sure
// a send meets a recv of the same dtype and shape.
func pointToPoint(th *interp.Thread, args *interp.Args, name string, sending bool) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	a, err := collArg(args, 0)
	if err != nil {
		return nil, err
	}
	peer, err := peerArg(th, args, name)
	if err != nil {
		return nil, err
	}
	g, err := group(th)
	if err != nil {
		return nil, err
	}
	if !g.Config().Unchecked {
		what, mine, theirs := "send", "send", "recv"
		if !sending {
			what, mine, theirs = "recv", "recv", "send"
		}
		x := strings.TrimPrefix(describeCall(args, a, ""), args.Fn+" ")
		if err := interrupted(g.CheckPair(th.Context(), what, peer, mine+" "+x, theirs+" "+x)); err != nil {
			return nil, err
		}
	}
	if onCUDA(a.A) {
		return interp.Nil, ncclPointToPoint(th, g, a.A, peer, sending)
	}
	return interp.Nil, withBytes(a.A, func(b []byte) error {
		if sending {
			return g.Send(th.Context(), b, peer)
		}
		return g.Recv(th.Context(), b, peer)
	})
}

func barrier(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	g, err := group(th)
	if g == nil || err != nil {
		return interp.Nil, err
	}
	return interp.Nil, interrupted(g.Barrier(th.Context()))
}
