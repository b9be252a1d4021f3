package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// RunDeviceOp runs op, device work that is not a kernel (a library call
// such as a matrix product), on dev over arrays named names. Each array
// passes the launch access check, is ordered after other devices' work on
// it and joins the automatic prefetch, as a launch's arguments do; op gets
// the thread's launch Env and each array's address, and queues its work as
// a launch would (so a capture block records it).
func (th *Thread) RunDeviceOp(name string, dev mem.Device, arrays []*mem.Array, names []string,
	op func(env *backend.Env, ptrs []uintptr) error) error {
	ptrs := make([]uintptr, len(arrays))
	th.launcher.prefetch.Start(dev)
	for i, a := range arrays {
		p, err := a.Ptr()
		if err != nil {
			return err
		}
		if err := th.launcher.launches.Check(th.Config.mode, name, names[i], names[i], dev, a); err != nil {
			return err
		}
		if err := a.OrderLaunch(dev); err != nil {
			return fmt.Errorf("%s: %s: %w", name, names[i], err)
		}
		th.launcher.prefetch.Add(a)
		ptrs[i] = p
	}
	if dev.IsCUDA() {
		th.markUsed(dev)
		if err := th.launcher.prefetch.Issue(); err != nil {
			return err
		}
	}
	return op(&th.launcher.env, ptrs)
}
