package interp

import (
	"fmt"

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

// Replay queues g times on its device's stream (asynchronously, like a
// launch).
func (th *Thread) Replay(g *Graph, times int) error {
	if th.capture != nil {
		return fmt.Errorf("replay inside a capture block is not supported")
	}
	th.markUsed(g.Device())
	return g.g.Replay(times, th.step)
}
