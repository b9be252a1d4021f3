package dist

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/internal/cudadev"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// NCCLInfo describes the NCCL library for `gscript devices`: its version
// and path, or why there is none.
func NCCLInfo() (string, error) {
	n, err := cuda.LoadNCCL()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("NCCL %s (%s)", n.VersionString(), n.Path()), nil
}

// Comm is the group's NCCL communicator on one CUDA device: collectives
// on CUDA arrays queue on gscript's stream of that device (so a capture
// records them). Two watchdogs abort the communicator, so that waits for
// the stream end instead of hanging: one polls ncclCommGetAsyncError (a
// peer NCCL saw fail), one waits for the store's FaultKey (a rank that
// failed, or whose connection to the store closed: killed).
type Comm struct {
	lib  *cuda.NCCL
	dev  *cudadev.Dev
	comm cuda.Comm
	rank int

	mu     sync.Mutex
	err    error // the asynchronous error that aborted the communicator
	closed bool
	stop   chan struct{}
	faults *Client // the fault watchdog's connection to the store
}

// watchdogEvery is how often the watchdog polls the communicator.
const watchdogEvery = 100 * time.Millisecond

// NCCL returns the group's communicator on dev, made on first use: the
// ranks check that no two share a GPU, rank 0 makes the unique id and
// shares it through the store, and every rank joins.
func (g *Group) NCCL(ctx context.Context, dev mem.Device) (*Comm, error) {
	if g.err != nil {
		return nil, g.err
	}
	if c := g.comms[dev.Ordinal]; c != nil {
		return c, c.Err()
	}
	lib, err := cuda.LoadNCCL()
	if err != nil {
		return nil, fmt.Errorf("collectives on CUDA arrays use NCCL: %w", err)
	}
	d, err := cudadev.Get(dev.Ordinal)
	if err != nil {
		return nil, err
	}
	if err := g.oneRankPerGPU(ctx, d); err != nil {
		return nil, g.fail(err)
	}
	id, err := g.uniqueID(ctx, lib, len(g.comms))
	if err != nil {
		return nil, g.fail(err)
	}
	var comm cuda.Comm
	err = relaxed(d, func() error {
		var err error
		comm, err = lib.CommInitRankScalable(g.cfg.WorldSize, g.cfg.Rank, []cuda.UniqueID{id})
		return err
	})
	if err != nil {
		return nil, g.fail(fmt.Errorf("rank %d: joining the NCCL communicator on %s: %w%s", g.cfg.Rank, dev, err, duplicateHint(err)))
	}
	c := &Comm{lib: lib, dev: d, comm: comm, rank: g.cfg.Rank, stop: make(chan struct{})}
	go c.watch()
	go c.watchFaults(g.cfg.Master)
	if g.comms == nil {
		g.comms = map[int]*Comm{}
	}
	g.comms[dev.Ordinal] = c
	return c, nil
}

// oneRankPerGPU compares the ranks' GPUs (host and PCI address): NCCL
// refuses two ranks on one GPU ("Duplicate GPU detected"), which gscript
// reports first, on every rank, with the remedy.
func (g *Group) oneRankPerGPU(ctx context.Context, d *cudadev.Dev) error {
	host, _ := os.Hostname()
	i := d.Info
	me := fmt.Sprintf("%s %04x:%02x:%02x", host, i.PCIDomain, i.PCIBus, i.PCIDevice)
	all, err := g.Gather(ctx, "NCCL setup", []byte(me+" cuda:"+strconv.Itoa(d.Ordinal)))
	if err != nil {
		return err
	}
	seen := map[string]int{}
	for r, m := range all {
		s := string(m)
		gpu := s[:strings.LastIndexByte(s, ' ')]
		if first, ok := seen[gpu]; ok {
			return fmt.Errorf("ranks %d and %d both use one GPU (%s): NCCL runs one rank per GPU (it refuses the second: \"Duplicate GPU detected\"); "+
				"start at most as many ranks per node as it has GPUs (each rank's default device is cuda:local_rank()), or use cpu arrays for more ranks", first, r, s[strings.IndexByte(s, ' ')+1:])
		}
		seen[gpu] = r
	}
	return nil
}

// duplicateHint adds the remedy to NCCL's own refusal of a shared GPU.
func duplicateHint(err error) string {
	if cuda.IsCode(err, cuda.NCCLInvalidUsage) {
		return " (two ranks on one GPU? NCCL runs one rank per GPU: use one rank per GPU, or cpu arrays)"
	}
	return ""
}

// uniqueID is rank 0's ncclUniqueId for the group's communicator number
// seq, through the store: the ranks make their communicators in the same
// order (each rank's device may have another ordinal).
func (g *Group) uniqueID(ctx context.Context, lib *cuda.NCCL, seq int) (cuda.UniqueID, error) {
	key := "nccl/" + strconv.Itoa(seq)
	var id cuda.UniqueID
	if g.cfg.Rank == 0 {
		var err error
		if id, err = lib.GetUniqueID(); err != nil {
			return id, err
		}
		return id, g.store.Set(key, id[:])
	}
	vals, err := g.store.Wait(ctx, []string{key}, g.cfg.Wait())
	var me *MissingError
	if errors.As(err, &me) {
		return id, fmt.Errorf("rank %d: rank 0 did not share NCCL's id within %v (it is not calling the same collective on a CUDA array?)", g.cfg.Rank, me.Timeout)
	}
	if err != nil {
		return id, err
	}
	copy(id[:], vals[0])
	return id, nil
}

// relaxed runs f in d's context; while d's stream is captured, in
// relaxed capture mode (NCCL's set-up allocates, which global mode would
// count against the capture).
func relaxed(d *cudadev.Dev, f func() error) error {
	return d.Ctx.Do(func() error {
		if d.Capturing() {
			prev, err := d.Drv.ThreadExchangeStreamCaptureMode(cuda.CaptureModeRelaxed)
			if err != nil {
				return err
			}
			defer d.Drv.ThreadExchangeStreamCaptureMode(prev)
		}
		return f()
	})
}

// watch polls the communicator's asynchronous error until it is closed;
// an error aborts the communicator, which ends its kernels.
func (c *Comm) watch() {
	t := time.NewTicker(watchdogEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		c.mu.Lock()
		err := error(nil)
		if !c.closed {
			err = c.lib.CommGetAsyncError(c.comm)
		}
		c.mu.Unlock()
		if err != nil && !cuda.IsCode(err, cuda.NCCLInProgress) {
			c.abort(fmt.Errorf("NCCL on cuda:%d: %w%s (another rank failed or was killed?)", c.dev.Ordinal, err, lastError(c.lib, c.comm)))
			return
		}
	}
}

// watchFaults waits on a connection of its own for the store's FaultKey
// and aborts the communicator when a fault is set. A store that goes away
// is no fault: rank 0, which may serve it, ends with its script.
func (c *Comm) watchFaults(addr string) {
	w, err := Dial(context.Background(), addr, time.Second)
	if err != nil {
		return
	}
	c.mu.Lock()
	closed := c.closed
	c.faults = w
	c.mu.Unlock()
	if closed {
		w.Close()
		return
	}
	for {
		vals, err := w.Wait(context.Background(), []string{FaultKey}, time.Hour)
		var me *MissingError
		switch {
		case errors.As(err, &me):
			continue
		case err == nil:
			c.abort(fmt.Errorf("NCCL on cuda:%d: aborted: %s", c.dev.Ordinal, vals[0]))
		}
		return
	}
}

// abort records err and aborts the communicator (once), in the device's
// context. It waits for a call being queued (queue holds mu): NCCL must
// not free a communicator another thread is calling.
func (c *Comm) abort(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.err = err
	c.dev.Ctx.Do(func() error { return c.lib.CommAbort(c.comm) })
	c.shut()
}

// shut marks the communicator closed and stops its watchdogs; the caller
// holds mu.
func (c *Comm) shut() {
	c.closed = true
	close(c.stop)
	if c.faults != nil {
		c.faults.Close()
	}
}

func lastError(lib *cuda.NCCL, c cuda.Comm) string {
	if s := lib.LastError(c); s != "" {
		return ": " + s
	}
	return ""
}

// Err is the error that aborted the communicator, if any.
func (c *Comm) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.errLocked()
}

func (c *Comm) errLocked() error {
	if c.err == nil && c.closed {
		return errors.New("the NCCL communicator is closed")
	}
	return c.err
}

// close ends the watchdog and frees the communicator (aborting it when
// the group failed: its peers may be gone).
func (c *Comm) close(abort bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.shut()
	c.dev.Ctx.Do(func() error {
		if abort {
			return c.lib.CommAbort(c.comm)
		}
		return c.lib.CommDestroy(c.comm)
	})
}

// ncclType is t's NCCL data type and op's reduction on it: bools are
// bytes whose or is max and whose and is min.
func ncclType(t ir.Type, op Op) (cuda.NCCLType, cuda.NCCLOp, error) {
	ops := [...]cuda.NCCLOp{Sum: cuda.NCCLSum, Prod: cuda.NCCLProd, Max: cuda.NCCLMax, Min: cuda.NCCLMin, Avg: cuda.NCCLAvg}
	nop := ops[op]
	switch t {
	case ir.Bool:
		nop = map[Op]cuda.NCCLOp{Sum: cuda.NCCLMax, Max: cuda.NCCLMax, Prod: cuda.NCCLMin, Min: cuda.NCCLMin}[op]
		return cuda.NCCLUint8, nop, nil
	case ir.U8:
		return cuda.NCCLUint8, nop, nil
	case ir.I32:
		return cuda.NCCLInt32, nop, nil
	case ir.U32:
		return cuda.NCCLUint32, nop, nil
	case ir.I64:
		return cuda.NCCLInt64, nop, nil
	case ir.U64:
		return cuda.NCCLUint64, nop, nil
	case ir.F32:
		return cuda.NCCLFloat32, nop, nil
	case ir.F64:
		return cuda.NCCLFloat64, nop, nil
	}
	return 0, 0, fmt.Errorf("NCCL has no type for %s", t)
}

// queue runs one NCCL call on the device's stream, in its context: the
// call returns once the work is queued (a capture records it). It holds
// mu meanwhile, so that a watchdog does not abort the communicator under
// the call.
func (c *Comm) queue(what string, f func(s cuda.Stream) error) error {
	c.mu.Lock()
	if err := c.errLocked(); err != nil {
		c.mu.Unlock()
		return err
	}
	err := relaxed(c.dev, func() error { return f(c.dev.Stream) })
	c.mu.Unlock()
	if err != nil {
		if aerr := c.Err(); aerr != nil {
			return aerr
		}
		return fmt.Errorf("%s on cuda:%d: %w%s", what, c.dev.Ordinal, err, lastError(c.lib, c.comm))
	}
	return nil
}

// AllReduce queues ncclAllReduce of n elements of t from send into recv
// (the same address: in place).
func (c *Comm) AllReduce(send, recv uintptr, n int, t ir.Type, op Op) error {
	nt, nop, err := ncclType(t, op)
	if err != nil || n == 0 {
		return err
	}
	return c.queue("all_reduce", func(s cuda.Stream) error {
		return c.lib.AllReduce(cuda.DevicePtr(send), cuda.DevicePtr(recv), n, nt, nop, c.comm, s)
	})
}

// Broadcast queues ncclBroadcast of root's n elements, in place.
func (c *Comm) Broadcast(buf uintptr, n int, t ir.Type, root int) error {
	nt, _, err := ncclType(t, Sum)
	if err != nil || n == 0 {
		return err
	}
	return c.queue("broadcast", func(s cuda.Stream) error {
		return c.lib.Broadcast(cuda.DevicePtr(buf), cuda.DevicePtr(buf), n, nt, root, c.comm, s)
	})
}

// Reduce queues ncclReduce in place: root's buffer gets the result.
func (c *Comm) Reduce(buf uintptr, n int, t ir.Type, op Op, root int) error {
	nt, nop, err := ncclType(t, op)
	if err != nil || n == 0 {
		return err
	}
	return c.queue("reduce", func(s cuda.Stream) error {
		return c.lib.Reduce(cuda.DevicePtr(buf), cuda.DevicePtr(buf), n, nt, nop, root, c.comm, s)
	})
}

// AllGather queues ncclAllGather of n elements per rank into out.
func (c *Comm) AllGather(in, out uintptr, n int, t ir.Type) error {
	nt, _, err := ncclType(t, Sum)
	if err != nil || n == 0 {
		return err
	}
	return c.queue("all_gather", func(s cuda.Stream) error {
		return c.lib.AllGather(cuda.DevicePtr(in), cuda.DevicePtr(out), n, nt, c.comm, s)
	})
}

// ReduceScatter queues ncclReduceScatter: n elements of the result per
// rank into out.
func (c *Comm) ReduceScatter(in, out uintptr, n int, t ir.Type, op Op) error {
	nt, nop, err := ncclType(t, op)
	if err != nil || n == 0 {
		return err
	}
	return c.queue("reduce_scatter", func(s cuda.Stream) error {
		return c.lib.ReduceScatter(cuda.DevicePtr(in), cuda.DevicePtr(out), n, nt, nop, c.comm, s)
	})
}

// SendRecv queues ncclSend (sending) or ncclRecv of n elements with peer.
func (c *Comm) SendRecv(buf uintptr, n int, t ir.Type, peer int, sending bool) error {
	nt, _, err := ncclType(t, Sum)
	if err != nil || n == 0 {
		return err
	}
	if sending {
		return c.queue("send", func(s cuda.Stream) error { return c.lib.Send(cuda.DevicePtr(buf), n, nt, peer, c.comm, s) })
	}
	return c.queue("recv", func(s cuda.Stream) error { return c.lib.Recv(cuda.DevicePtr(buf), n, nt, peer, c.comm, s) })
}
