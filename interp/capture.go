package interp

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Graph is a captured CUDA graph, ready to replay.
type Graph struct {
	Name  string
	dev   *mem.CUDADev
	exec  cuda.GraphExec
	nodes int
}

func (*Graph) Type() string { return "graph" }
func (g *Graph) String() string {
	return fmt.Sprintf("<graph %s on %s: %d nodes>", g.Name, g.dev.Device, g.nodes)
}

// Device is the device the graph runs on.
func (g *Graph) Device() mem.Device { return g.dev.Device }

// Nodes is the number of nodes of the captured graph.
func (g *Graph) Nodes() int { return g.nodes }

// execCapture runs `capture NAME [on DEV] { body }` (LANGUAGE.md section 7,
// MEMORY.md section 6): the body's host code runs once while its launches,
// copies and fills are recorded into a graph on the device's stream in
// global mode. Allocations that are not capture-safe are refused by
// runtime/mem before any CUDA call, frees are queued until the capture
// ends, and any error ends the capture cleanly, discarding the graph.
func (th *Thread) execCapture(s *ast.CaptureBlock, fr *frame) (ctrl, error) {
	var devArg Value
	if s.Device != nil {
		v, err := th.eval(s.Device, fr)
		if err != nil {
			return ctrlNone, err
		}
		devArg = v
	}
	dev, err := th.DeviceArg(devArg)
	pos := s.Pos
	if s.Device != nil {
		pos = s.Device.Start()
	}
	if err != nil {
		return ctrlNone, th.errorAt(pos, err)
	}
	if !dev.IsCUDA() {
		return ctrlNone, th.errorAt(pos, fmt.Errorf("cannot capture on %s: capture records CUDA graphs; capture on a CUDA device", dev))
	}
	if th.capturing != nil {
		return ctrlNone, th.errorAt(s.Pos, fmt.Errorf("capture blocks do not nest (already capturing on %s)", th.capturing.Device))
	}
	d, err := th.cudaDevice(dev.Ordinal)
	if err == nil {
		err = th.beginCapture(d)
	}
	if err != nil {
		return ctrlNone, th.errorAt(s.Pos, err)
	}
	th.devices = append(th.devices, dev)
	c, bodyErr := th.execBlock(s.Body.Stmts, fr)
	th.devices = th.devices[:len(th.devices)-1]
	g, endErr := th.endCapture(d, bodyErr == nil)
	if bodyErr != nil {
		return c, bodyErr
	}
	if endErr != nil {
		return ctrlNone, th.errorAt(s.Pos, endErr)
	}
	g.Name = s.Name.Name
	th.store(s.Name, g, fr)
	return c, nil
}

// beginCapture makes the capture-time state: the managed pool exists
// before the stream records, allocators that are not capture-safe are
// refused, frees are queued, and host waits on the device are refused.
func (th *Thread) beginCapture(d *mem.CUDADev) error {
	if err := mem.PrepareCapture(d.Device); err != nil {
		return err
	}
	// Work queued before the block, on any device, finishes first: waits
	// are not allowed once the stream captures.
	if err := d.Sync(); err != nil {
		return err
	}
	if err := th.syncUsed(); err != nil {
		return err
	}
	if err := th.Tracker.SetCapturing(true); err != nil {
		return err
	}
	err := d.Ctx.Do(func() error { return d.Drv.StreamBeginCapture(d.Stream, cuda.CaptureModeGlobal) })
	if err != nil {
		th.Tracker.SetCapturing(false)
		return fmt.Errorf("starting the capture on %s: %w", d.Device, err)
	}
	d.SetCapturing(true)
	th.capturing = d
	return nil
}

// endCapture ends the stream's capture whatever happened in the block, so
// the device stays usable; keep says whether to instantiate the graph.
func (th *Thread) endCapture(d *mem.CUDADev, keep bool) (*Graph, error) {
	th.capturing = nil
	d.SetCapturing(false)
	var g *Graph
	err := d.Ctx.Do(func() error {
		graph, err := d.Drv.StreamEndCapture(d.Stream)
		if err != nil || graph == 0 {
			if err == nil {
				err = errors.New("the capture produced no graph")
			}
			return fmt.Errorf("ending the capture on %s: %w", d.Device, err)
		}
		defer d.Drv.GraphDestroy(graph)
		if !keep {
			return nil
		}
		nodes, err := d.Drv.GraphNodeCount(graph)
		if err != nil {
			return err
		}
		exec, err := d.Drv.GraphInstantiate(graph, cuda.GraphInstantiateAutoFreeOnLaunch)
		if err != nil {
			return fmt.Errorf("instantiating the graph on %s: %w", d.Device, err)
		}
		g = &Graph{dev: d, exec: exec, nodes: nodes}
		runtime.AddCleanup(g, func(e cuda.GraphExec) {
			d.Ctx.Do(func() error { return d.Drv.GraphExecDestroy(e) })
		}, exec)
		return nil
	})
	// Frees requested during the capture run now, in their own contexts.
	if ferr := th.Tracker.SetCapturing(false); ferr != nil {
		th.Warn(ferr.Error())
	}
	return g, err
}

// Replay queues g times on its device's stream (asynchronously, like a
// launch).
func (th *Thread) Replay(g *Graph, times int) error {
	if times < 0 {
		return fmt.Errorf("replay: negative count %d", times)
	}
	if th.capturing != nil {
		return fmt.Errorf("replay inside a capture block is not supported")
	}
	d := g.dev
	err := d.Ctx.Do(func() error {
		for i := 0; i < times; i++ {
			if err := th.step(); err != nil {
				return err
			}
			if err := d.Drv.GraphLaunch(g.exec, d.Stream); err != nil {
				return err
			}
		}
		return nil
	})
	th.markUsed(d)
	runtime.KeepAlive(g)
	return err
}
