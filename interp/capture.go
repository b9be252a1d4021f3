package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Graph is a captured CUDA graph, ready to replay.
type Graph struct {
	Name string
	g    *mem.Graph
}

func (*Graph) Type() string { return "graph" }
func (g *Graph) String() string {
	return fmt.Sprintf("<graph %s on %s: %d nodes>", g.Name, g.g.Device(), g.g.Nodes())
}

// Device is the device the graph runs on.
func (g *Graph) Device() mem.Device { return g.g.Device() }

// Nodes is the number of nodes of the captured graph.
func (g *Graph) Nodes() int { return g.g.Nodes() }

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
	if th.capture != nil {
		return ctrlNone, th.errorAt(s.Pos, fmt.Errorf("capture blocks do not nest (already capturing on %s)", th.capture.Device()))
	}
	// Work queued before the block, on any device, finishes first: waits
	// are not allowed once the stream captures.
	err = th.syncUsed()
	if err == nil {
		th.capture, err = mem.BeginCapture(dev, th.Tracker)
	}
	if err != nil {
		return ctrlNone, th.errorAt(s.Pos, err)
	}
	th.devices = append(th.devices, dev)
	c, bodyErr := th.execBlock(s.Body.Stmts, fr)
	th.devices = th.devices[:len(th.devices)-1]
	g, endErr := th.capture.End(bodyErr == nil)
	th.capture = nil
	if bodyErr != nil {
		return c, bodyErr
	}
	if endErr != nil {
		return ctrlNone, th.errorAt(s.Pos, endErr)
	}
	v := &Graph{Name: s.Name.Name, g: g}
	th.store(s.Name, v, fr)
	return c, nil
}

// Replay queues g times on its device's stream (asynchronously, like a
// launch).
func (th *Thread) Replay(g *Graph, times int) error {
	if th.capture != nil {
		return fmt.Errorf("replay inside a capture block is not supported")
	}
	th.markUsed(g.Device())
	return g.g.Replay(times, th.step)
}
