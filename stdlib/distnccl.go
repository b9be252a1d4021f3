package stdlib

import (
	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/dist"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Collectives on CUDA arrays: NCCL calls queued on gscript's stream of
// the array's device through RunDeviceOp, which orders them after the
// arrays' other work, checks their access and lets a capture record them.

// ncclOp runs f over arrays (all on one device) with the group's
// communicator of that device.
func ncclOp(th *interp.Thread, g *dist.Group, name string, arrays []*mem.Array, names []string, f func(c *dist.Comm, ptrs []uintptr) error) error {
	dev := arrays[0].Device()
	c, err := g.NCCL(th.Context(), dev)
	if err != nil {
		return interrupted(err)
	}
	return th.RunDeviceOp(name, dev, arrays, names, func(_ *backend.Env, ptrs []uintptr) error { return f(c, ptrs) })
}

func ncclAllReduce(th *interp.Thread, g *dist.Group, a *mem.Array, op dist.Op) error {
	return ncclOp(th, g, "all_reduce", []*mem.Array{a}, []string{"a"}, func(c *dist.Comm, p []uintptr) error {
		return c.AllReduce(p[0], p[0], a.Size(), a.DType(), op)
	})
}

func ncclBroadcast(th *interp.Thread, g *dist.Group, a *mem.Array, root int) error {
	return ncclOp(th, g, "broadcast", []*mem.Array{a}, []string{"a"}, func(c *dist.Comm, p []uintptr) error {
		return c.Broadcast(p[0], a.Size(), a.DType(), root)
	})
}

func ncclReduce(th *interp.Thread, g *dist.Group, a *mem.Array, op dist.Op, root int) error {
	return ncclOp(th, g, "reduce", []*mem.Array{a}, []string{"a"}, func(c *dist.Comm, p []uintptr) error {
		return c.Reduce(p[0], a.Size(), a.DType(), op, root)
	})
}

func ncclAllGather(th *interp.Thread, g *dist.Group, a, out *mem.Array) error {
	return ncclOp(th, g, "all_gather", []*mem.Array{a, out}, []string{"a", "out"}, func(c *dist.Comm, p []uintptr) error {
		return c.AllGather(p[0], p[1], a.Size(), a.DType())
	})
}

func ncclReduceScatter(th *interp.Thread, g *dist.Group, a, out *mem.Array, op dist.Op) error {
	return ncclOp(th, g, "reduce_scatter", []*mem.Array{a, out}, []string{"a", "out"}, func(c *dist.Comm, p []uintptr) error {
		return c.ReduceScatter(p[0], p[1], out.Size(), a.DType(), op)
	})
}

func ncclPointToPoint(th *interp.Thread, g *dist.Group, a *mem.Array, peer int, sending bool) error {
	return ncclOp(th, g, map[bool]string{true: "send", false: "recv"}[sending], []*mem.Array{a}, []string{"a"}, func(c *dist.Comm, p []uintptr) error {
		return c.SendRecv(p[0], a.Size(), a.DType(), peer, sending)
	})
}
