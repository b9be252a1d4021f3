package cuda

import "unsafe"

// Graph is a CUgraph; GraphExec is an instantiated CUgraphExec.
type (
	Graph     uintptr
	GraphExec uintptr
)

// CaptureMode is a CUstreamCaptureMode.
type CaptureMode int

const (
	CaptureModeGlobal      CaptureMode = 0 // unsafe calls fail on any thread while capturing
	CaptureModeThreadLocal CaptureMode = 1 // only on the capturing thread
	CaptureModeRelaxed     CaptureMode = 2 // no checks
)

// CaptureStatus is a CUstreamCaptureStatus.
type CaptureStatus int

const (
	CaptureStatusNone        CaptureStatus = 0
	CaptureStatusActive      CaptureStatus = 1
	CaptureStatusInvalidated CaptureStatus = 2
)

// StreamBeginCapture starts recording the work queued on s into a graph.
// s must not be the legacy default stream.
func (d *Driver) StreamBeginCapture(s Stream, mode CaptureMode) error {
	return d.call2(&d.cuStreamBeginCapture, uintptr(s), uintptr(mode))
}

// StreamEndCapture ends the capture on s and returns the graph.
func (d *Driver) StreamEndCapture(s Stream) (Graph, error) {
	var g Graph
	err := d.call2(&d.cuStreamEndCapture, uintptr(s), uintptr(unsafe.Pointer(&g)))
	return g, err
}

// StreamIsCapturing reports the capture status of s.
func (d *Driver) StreamIsCapturing(s Stream) (CaptureStatus, error) {
	var st int32
	err := d.call2(&d.cuStreamIsCapturing, uintptr(s), uintptr(unsafe.Pointer(&st)))
	return CaptureStatus(st), err
}

// GraphInstantiateAutoFreeOnLaunch (CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)
// frees a graph's unfreed allocations of the previous launch when it is
// launched again, so a graph with allocation nodes can replay many times.
const GraphInstantiateAutoFreeOnLaunch = 1

// ThreadExchangeStreamCaptureMode sets the calling thread's capture mode
// and returns the previous one: a thread switches to relaxed to make a
// call that global capture mode forbids (loading a module), then back.
func (d *Driver) ThreadExchangeStreamCaptureMode(mode CaptureMode) (CaptureMode, error) {
	m := int32(mode)
	err := d.call1(&d.cuThreadExchangeStreamCaptureMode, uintptr(unsafe.Pointer(&m)))
	return CaptureMode(m), err
}

// GraphInstantiate makes an executable graph (cuGraphInstantiateWithFlags,
// which cuda.h maps cuGraphInstantiate to).
func (d *Driver) GraphInstantiate(g Graph, flags uint64) (GraphExec, error) {
	var e GraphExec
	err := d.call3(&d.cuGraphInstantiate, uintptr(unsafe.Pointer(&e)), uintptr(g), uintptr(flags))
	return e, err
}

// GraphLaunch queues an executable graph on s.
func (d *Driver) GraphLaunch(e GraphExec, s Stream) error {
	return d.call2(&d.cuGraphLaunch, uintptr(e), uintptr(s))
}

// GraphDestroy destroys a graph (executable graphs made from it live on).
func (d *Driver) GraphDestroy(g Graph) error { return d.call1(&d.cuGraphDestroy, uintptr(g)) }

// GraphExecDestroy destroys an executable graph.
func (d *Driver) GraphExecDestroy(e GraphExec) error {
	return d.call1(&d.cuGraphExecDestroy, uintptr(e))
}

// GraphNodeCount is the number of nodes of g (cuGraphGetNodes with no
// node array).
func (d *Driver) GraphNodeCount(g Graph) (int, error) {
	var n uintptr
	err := d.call3(&d.cuGraphGetNodes, uintptr(g), 0, uintptr(unsafe.Pointer(&n)))
	return int(n), err
}
