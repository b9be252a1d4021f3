package stdlib

import (
	"encoding/hex"
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// canAccess is can_access(dev, a): true only when MEMORY.md section 4's
// rules prove dev can dereference a (false means "not proven").
func canAccess(th *interp.Thread, args *interp.Args) (interp.Value, error) {
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
	return interp.Bool(th.AccessState().CanAccess(dev, a).Access == mem.Accessible), nil
}

func devicePair(th *interp.Thread, args *interp.Args) (owner, accessor mem.Device, err error) {
	if err = args.Check(2, 2); err != nil {
		return
	}
	if owner, err = th.DeviceArg(args.Positional[0]); err != nil {
		return
	}
	accessor, err = th.DeviceArg(args.Positional[1])
	return
}

// enablePeerAccess is enable_peer_access(owner, accessor): kernels on
// accessor may then use owner's device memory.
func enablePeerAccess(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	owner, accessor, err := devicePair(th, args)
	if err != nil {
		return nil, err
	}
	return interp.Nil, th.AccessState().EnablePeerAccess(owner, accessor)
}

// enableMempoolAccess is enable_mempool_access(owner, accessor): kernels on
// accessor may then use memory from owner's default pool.
func enableMempoolAccess(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	owner, accessor, err := devicePair(th, args)
	if err != nil {
		return nil, err
	}
	return interp.Nil, th.AccessState().EnableMempoolAccess(owner, accessor)
}

// ipcHandle is ipc_handle(a): the 64-byte handle as 128 hex digits, which
// another process passes to from_ipc.
func ipcHandle(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	a, err := memArg(args, 0)
	if err != nil {
		return nil, err
	}
	h, err := mem.IPCHandle(a)
	if err != nil {
		return nil, err
	}
	return interp.String(h.String()), nil
}

// fromIPC is from_ipc(handle, dtype, shape, device).
func fromIPC(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(4, 4); err != nil {
		return nil, err
	}
	s, ok := args.Positional[0].(interp.String)
	raw, err := hex.DecodeString(string(s))
	if !ok || err != nil || len(raw) != len(mem.IPCMemHandle{}) {
		return nil, fmt.Errorf("from_ipc: the handle must be the 128 hex digits ipc_handle returns")
	}
	var h mem.IPCMemHandle
	copy(h[:], raw)
	dt, ok := args.Positional[1].(interp.DType)
	if !ok {
		return nil, fmt.Errorf("from_ipc: the dtype must be a dtype such as f32, not %s", args.Positional[1].Type())
	}
	shape, err := interp.ShapeArg(args.Positional[2:3])
	if err != nil {
		return nil, fmt.Errorf("from_ipc: %v", err)
	}
	dev, err := th.DeviceArg(args.Positional[3])
	if err != nil {
		return nil, err
	}
	a, err := mem.FromIPC(th.Tracker, h, ir.Type(dt), shape, dev)
	if err != nil {
		return nil, err
	}
	return &interp.Array{A: a}, nil
}
