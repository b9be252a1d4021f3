package stdlib

import (
	"errors"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/dist"
	"github.com/gscript-lang/gscript/runtime/mem"
)

var errNoNCCLYet = errors.New("collectives on CUDA arrays across ranks are not yet supported (NCCL): use cpu arrays")

func ncclAllReduce(th *interp.Thread, g *dist.Group, src, dst *mem.Array, op dist.Op) error {
	return errNoNCCLYet
}
func ncclBroadcast(th *interp.Thread, g *dist.Group, a *mem.Array, root int) error {
	return errNoNCCLYet
}
func ncclReduce(th *interp.Thread, g *dist.Group, a *mem.Array, op dist.Op, root int) error {
	return errNoNCCLYet
}
func ncclAllGather(th *interp.Thread, g *dist.Group, a, out *mem.Array) error { return errNoNCCLYet }
func ncclReduceScatter(th *interp.Thread, g *dist.Group, a, out *mem.Array, op dist.Op) error {
	return errNoNCCLYet
}
func ncclPointToPoint(th *interp.Thread, g *dist.Group, a *mem.Array, peer int, sending bool) error {
	return errNoNCCLYet
}
