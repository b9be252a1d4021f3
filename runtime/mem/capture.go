package mem

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// The capture protocol (MEMORY.md section 6): BeginCapture makes the
// capture-time state and starts recording the device's stream in global
// mode; Capture.End stops recording whatever happened in between, so the
// device stays usable, and instantiates the graph when asked to.

// captures counts the captures in progress in the process. In global mode
// no thread may wait for a stream while any capture records, so launch
// ordering skips its waits then (the capture waited for every device
// before it began).
var captures atomic.Int32

// Capture is a graph capture in progress on one CUDA device.
type Capture struct {
	d *cudaDev
	t *Tracker

	mu      sync.Mutex
	managed []weak.Pointer[Buffer] // the managed buffers its launches use, once each
	seen    map[*Buffer]struct{}
}

// note lists managed buffers that a captured launch uses: the graph
// prefetches them before it replays (weak pointers: a graph does not keep
// arrays alive, as it never did).
func (c *Capture) note(bufs []*Buffer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range bufs {
		if _, ok := c.seen[b]; !ok {
			c.seen[b] = struct{}{}
			c.managed = append(c.managed, weak.Make(b))
		}
	}
}

// BeginCapture starts recording dev's stream for t's interpreter: the
// managed pool exists before the stream records, allocators that are not
// capture-safe are refused and frees are queued (Tracker.SetCapturing),
// and work queued before on dev finishes first. The caller waits for its
// other devices before: waits are not allowed once the stream captures.
func BeginCapture(dev Device, t *Tracker) (*Capture, error) {
	if !dev.IsCUDA() {
		return nil, fmt.Errorf("cannot capture on %s: capture records CUDA graphs; capture on a CUDA device", dev)
	}
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return nil, err
	}
	if err := PrepareCapture(dev); err != nil {
		return nil, err
	}
	if err := d.Sync(); err != nil {
		return nil, err
	}
	if err := t.SetCapturing(true); err != nil {
		return nil, err
	}
	err = d.Ctx.Do(func() error { return d.Drv.StreamBeginCapture(d.Stream, cuda.CaptureModeGlobal) })
	if err != nil {
		t.SetCapturing(false)
		return nil, fmt.Errorf("starting the capture on %s: %w", dev, err)
	}
	c := &Capture{d: d, t: t, seen: map[*Buffer]struct{}{}}
	d.SetCapturing(true)
	d.capture.Store(c)
	captures.Add(1)
	return c, nil
}

// Device is the device whose stream the capture records.
func (c *Capture) Device() Device { return c.d.Device }

// End stops the recording; keep says whether to instantiate the graph
// (false discards it: the block failed). Frees requested during the
// capture run now; a failure of theirs goes to the tracker's warning
// function. The managed arrays the captured launches use are then
// prefetched to the device, as a launch would (MEMORY.md section 8), so
// that replays do not fault.
func (c *Capture) End(keep bool) (*Graph, error) {
	d := c.d
	d.capture.Store(nil)
	d.SetCapturing(false)
	captures.Add(-1)
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
		g, err = instantiate(d, graph)
		return err
	})
	if ferr := c.t.SetCapturing(false); ferr != nil && c.t.Warn != nil {
		c.t.Warn(ferr)
	}
	if err != nil || g == nil {
		return g, err
	}
	c.mu.Lock()
	g.managed = c.managed
	c.mu.Unlock()
	return g, g.prefetch(false)
}

// instantiate makes the executable graph; it is destroyed when the Graph
// is garbage.
func instantiate(d *cudaDev, graph cuda.Graph) (*Graph, error) {
	nodes, err := d.Drv.GraphNodeCount(graph)
	if err != nil {
		return nil, err
	}
	exec, err := d.Drv.GraphInstantiate(graph, cuda.GraphInstantiateAutoFreeOnLaunch)
	if err != nil {
		return nil, fmt.Errorf("instantiating the graph on %s: %w", d.Device, err)
	}
	g := &Graph{d: d, exec: exec, nodes: nodes}
	runtime.AddCleanup(g, func(e cuda.GraphExec) {
		d.Ctx.Do(func() error { return d.Drv.GraphExecDestroy(e) })
	}, exec)
	return g, nil
}

// Graph is a captured CUDA graph, ready to replay.
type Graph struct {
	d     *cudaDev
	exec  cuda.GraphExec
	nodes int

	mu      sync.Mutex             // guards the fields below
	managed []weak.Pointer[Buffer] // the managed buffers its launches use
	bufs    []*Buffer              // scratch of prefetch
	batch   prefetchBatch
}

// prefetch applies the automatic prefetch to the graph's managed buffers
// that are still alive, as a launch of the graph would; replaying says
// that the graph is about to touch them. A buffer the graph touched last
// costs one comparison.
func (g *Graph) prefetch(replaying bool) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	at := placeOf(g.d.Device)
	for _, w := range g.managed {
		if b := w.Value(); b != nil && !b.a.freed.Load() && place(b.last.at.Load()) != at {
			g.bufs = append(g.bufs, b)
		}
	}
	if len(g.bufs) == 0 {
		return nil
	}
	err := g.d.autoPrefetch(g.bufs, &g.batch, replaying)
	clear(g.bufs)
	g.bufs = g.bufs[:0]
	return err
}

// Device is the device the graph runs on.
func (g *Graph) Device() Device { return g.d.Device }

// Nodes is the number of nodes of the captured graph.
func (g *Graph) Nodes() int { return g.nodes }

// Replay queues the graph times on its device's stream (asynchronously,
// like a launch). step runs before each replay and ends them with its
// error (a step budget, cancellation).
func (g *Graph) Replay(times int, step func() error) error {
	if times < 0 {
		return fmt.Errorf("replay: negative count %d", times)
	}
	if err := g.prefetch(true); err != nil {
		return err
	}
	d := g.d
	err := d.Ctx.Do(func() error {
		for range times {
			if err := step(); err != nil {
				return err
			}
			if err := d.Drv.GraphLaunch(g.exec, d.Stream); err != nil {
				return err
			}
		}
		return nil
	})
	runtime.KeepAlive(g)
	return err
}

// OrderLaunch orders a launch on dev that reads or writes a after the
// queued work on other devices' streams that may touch a: a cpu launch
// waits like a host access; a CUDA launch waits for the other devices
// (except while a capture records: it waited before it began) and records
// dev as a user of a. The common case, an array used on its own device
// only, costs an atomic load.
func (a *Array) OrderLaunch(dev Device) error {
	if !dev.IsCUDA() {
		return a.SyncForHost()
	}
	if captures.Load() == 0 {
		if err := a.WaitForUsers(dev); err != nil {
			return err
		}
	}
	a.NoteDeviceUse(dev)
	return nil
}
