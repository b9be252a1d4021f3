package dist

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Group is one rank's connections to every other rank: a TCP connection
// per pair (a full mesh), set up through the store. The cpu collectives
// run over it; the NCCL path uses it to compare calls and exchange its id.
// One goroutine uses a Group at a time.
type Group struct {
	cfg    Config
	store  *Client
	server *Store // the store, when this rank serves it
	peers  []*peer
	comms  map[int]*Comm // NCCL communicators, by CUDA ordinal
	// scratch is where reductions read incoming segments.
	scratch []byte
	err     error // the first failure: every later call returns it
}

// peer is the connection to one other rank.
type peer struct {
	rank int
	conn net.Conn
	r    *bufio.Reader
}

// The kinds of frame on a peer connection: a header of kind, seven zero
// bytes and the payload's length (8 bytes, big-endian), then the payload.
const (
	frameData  = 'd'
	frameCheck = 'c'
	frameAbort = 'a' // the sender failed; the payload is its error
	frameBye   = 'b' // the sender's script ended
)

const helloMagic = "gscript-dist-1"

// relayed ends the message of a failure another rank passed on.
const relayed = "stopped on it"

// Open joins the run cfg describes: rank 0 serves the store (unless the
// launcher does), every rank publishes the address it listens on and
// connects to every other. It fails after cfg's timeout naming the ranks
// that never came.
func Open(ctx context.Context, cfg Config) (*Group, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Group{cfg: cfg, peers: make([]*peer, cfg.WorldSize)}
	if err := g.open(ctx); err != nil {
		g.shutdown(nil)
		return nil, err
	}
	return g, nil
}

func (g *Group) open(ctx context.Context) error {
	c := &g.cfg
	if c.Rank == 0 && !c.AgentStore {
		_, port, err := net.SplitHostPort(c.Master)
		if err != nil {
			return fmt.Errorf("the store's address %q: %w", c.Master, err)
		}
		if g.server, err = Listen(":" + port); err != nil {
			return fmt.Errorf("rank 0: %w (another run on this port? set MASTER_PORT)", err)
		}
	}
	var err error
	if g.store, err = Dial(ctx, c.Master, c.Wait()); err != nil {
		return fmt.Errorf("rank %d: %w", c.Rank, err)
	}
	if err := g.store.Join(c.Rank); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(g.store.LocalIP().String(), "0"))
	if err != nil {
		return fmt.Errorf("rank %d: listening for the other ranks: %w", c.Rank, err)
	}
	defer ln.Close()
	if err := g.store.Set(addrKey(c.Rank), []byte(ln.Addr().String())); err != nil {
		return err
	}
	addrs, err := g.waitAll(ctx, "addr/", "joined")
	if err != nil {
		return err
	}
	return g.connect(ctx, ln, addrs)
}

func addrKey(r int) string { return "addr/" + strconv.Itoa(r) }

// waitAll waits for every rank's key prefix+rank; a timeout names the
// ranks that never set theirs.
func (g *Group) waitAll(ctx context.Context, prefix, what string) ([][]byte, error) {
	ks := make([]string, g.cfg.WorldSize)
	for r := range ks {
		ks[r] = prefix + strconv.Itoa(r)
	}
	vals, err := g.store.Wait(ctx, ks, g.cfg.Wait())
	var me *MissingError
	if errors.As(err, &me) {
		return nil, fmt.Errorf("rank %d: %s never %s (waited %v at %s; %s)", g.cfg.Rank,
			rankList(missingRanks(me.Keys, prefix)), what, me.Timeout, g.cfg.Master, EnvTimeout+" sets the wait in seconds")
	}
	return vals, err
}

// rankList is "rank 3" or "ranks 2, 3".
func rankList(rs []int) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = strconv.Itoa(r)
	}
	if len(rs) == 1 {
		return "rank " + s[0]
	}
	return "ranks " + strings.Join(s, ", ")
}

// connect dials the lower ranks and accepts the higher ones: each pair
// gets one connection, named by the dialer's hello.
func (g *Group) connect(ctx context.Context, ln net.Listener, addrs [][]byte) error {
	me := g.cfg.Rank
	deadline := time.Now().Add(g.cfg.Wait())
	var d net.Dialer
	for r := range me {
		conn, err := d.DialContext(ctx, "tcp", string(addrs[r]))
		if err != nil {
			return fmt.Errorf("rank %d: connecting to rank %d at %s: %w", me, r, addrs[r], err)
		}
		hello := binary.BigEndian.AppendUint32([]byte(helloMagic), uint32(me))
		if _, err := conn.Write(hello); err != nil {
			conn.Close()
			return fmt.Errorf("rank %d: connecting to rank %d: %w", me, r, err)
		}
		g.peers[r] = newPeer(r, conn)
	}
	ln.(*net.TCPListener).SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { ln.(*net.TCPListener).SetDeadline(time.Now()) })
	defer stop()
	for n := me + 1; n < g.cfg.WorldSize; {
		conn, err := ln.Accept()
		if err != nil {
			return fmt.Errorf("rank %d: %s did not connect within %v: %w", me, rankList(g.absent(me+1)), g.cfg.Wait(), err)
		}
		r, ok := readHello(conn, deadline, g.cfg.WorldSize)
		if !ok || r <= me || g.peers[r] != nil {
			conn.Close() // not a rank of this run
			continue
		}
		g.peers[r] = newPeer(r, conn)
		n++
	}
	return nil
}

// absent lists the ranks from lo up that have no connection yet.
func (g *Group) absent(lo int) []int {
	var out []int
	for r := lo; r < len(g.peers); r++ {
		if g.peers[r] == nil {
			out = append(out, r)
		}
	}
	return out
}

func readHello(conn net.Conn, deadline time.Time, world int) (int, bool) {
	conn.SetDeadline(deadline)
	defer conn.SetDeadline(time.Time{})
	buf := make([]byte, len(helloMagic)+4)
	if _, err := io.ReadFull(conn, buf); err != nil || string(buf[:len(helloMagic)]) != helloMagic {
		return 0, false
	}
	r := int(binary.BigEndian.Uint32(buf[len(helloMagic):]))
	return r, r < world
}

// socketBuffer is each connection's kernel buffer size: large messages
// move in fewer, longer writes and reads.
const socketBuffer = 4 << 20

func newPeer(r int, conn net.Conn) *peer {
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
		tc.SetReadBuffer(socketBuffer)
		tc.SetWriteBuffer(socketBuffer)
	}
	return &peer{rank: r, conn: conn, r: bufio.NewReaderSize(conn, 1<<16)}
}

// Config is the group's configuration.
func (g *Group) Config() Config { return g.cfg }

// Store is the connection to the store (the NCCL path exchanges its id
// through it).
func (g *Group) Store() *Client { return g.store }

// Err is the failure that ended the group, if any.
func (g *Group) Err() error { return g.err }

// Close says goodbye to the other ranks (a rank that then waits for this
// one is told its script ended) and closes every connection.
func (g *Group) Close() error {
	if g.err == nil {
		g.err = errors.New("the distributed group is closed")
		g.shutdown([]byte{})
	}
	return nil
}

// shutdown sends every peer a last frame, a bye for an empty msg and an
// abort carrying a longer one (none for nil), and closes the connections
// and the store.
func (g *Group) shutdown(msg []byte) {
	for _, c := range g.comms {
		c.close(len(msg) > 0)
	}
	var wg sync.WaitGroup
	for _, p := range g.peers {
		if p == nil {
			continue
		}
		wg.Go(func() {
			p.conn.SetWriteDeadline(time.Now().Add(time.Second))
			if msg != nil {
				kind := byte(frameBye)
				if len(msg) > 0 {
					kind = frameAbort
				}
				writeFrame(p.conn, kind, msg)
			}
			p.conn.Close()
		})
	}
	wg.Wait()
	if g.store != nil {
		g.store.conn.SetDeadline(time.Now().Add(time.Second))
		if len(msg) > 0 {
			g.store.Set(FaultKey, msg)
		} else if msg != nil {
			g.store.Leave()
		}
		g.store.Close()
	}
	if g.server != nil {
		g.server.Close()
	}
}

// fail ends the group with err: the other ranks are sent it, so that a
// rank waiting on this one fails at once, naming the cause.
func (g *Group) fail(err error) error {
	if g.err == nil {
		g.err = err
		msg := err.Error()
		if errors.Is(err, context.Canceled) {
			msg = fmt.Sprintf("rank %d was interrupted", g.cfg.Rank)
		}
		g.shutdown([]byte(msg))
	}
	return err
}

// begin starts a collective over peers: their deadline is the timeout,
// and ctx's cancellation ends the waits. end (the returned func) records
// a failure.
func (g *Group) begin(ctx context.Context, peers []*peer) (end func(error) error, err error) {
	if g.err != nil {
		return nil, g.err
	}
	peers = slices.DeleteFunc(peers, func(p *peer) bool { return p == nil }) // world size 1
	deadline := time.Now().Add(g.cfg.Wait())
	for _, p := range peers {
		p.conn.SetDeadline(deadline)
	}
	stop := context.AfterFunc(ctx, func() {
		for _, p := range peers {
			p.conn.SetDeadline(time.Now())
		}
	})
	return func(err error) error {
		stop()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return g.fail(err)
	}, nil
}

func writeFrame(w io.Writer, kind byte, payload []byte) error {
	var head [16]byte
	head[0] = kind
	binary.BigEndian.PutUint64(head[8:], uint64(len(payload)))
	bufs := net.Buffers{head[:], payload}
	_, err := bufs.WriteTo(w)
	return err
}

// send writes one frame to p.
func (g *Group) send(p *peer, kind byte, payload []byte, what string) error {
	if err := writeFrame(p.conn, kind, payload); err != nil {
		return g.peerError(p, what, err)
	}
	return nil
}

// recv reads one frame of kind from p into buf, which must be its exact
// size; with buf nil it reads a frame of any size (a check).
func (g *Group) recv(p *peer, kind byte, buf []byte, what string) ([]byte, error) {
	n, err := g.recvHeader(p, kind, buf == nil, len(buf), what)
	if err != nil {
		return nil, err
	}
	if buf == nil {
		buf = make([]byte, n)
	}
	if _, err := io.ReadFull(p.r, buf); err != nil {
		return nil, g.peerError(p, what, err)
	}
	return buf, nil
}

// segment is how much of a reduction's incoming data is read before it
// is combined: a piece that is still in cache when it is added (a whole
// part of a large buffer would not be).
const segment = 256 << 10

// recvCombine reads a data frame of len(dst) bytes from p and combines it
// into dst (dst op= frame) segment by segment.
func (g *Group) recvCombine(p *peer, dst []byte, t ir.Type, op Op, what string) error {
	if _, err := g.recvHeader(p, frameData, false, len(dst), what); err != nil {
		return err
	}
	if cap(g.scratch) < segment {
		g.scratch = make([]byte, segment)
	}
	tmp := g.scratch[:segment]
	for off := 0; off < len(dst); off += segment {
		m := min(segment, len(dst)-off)
		if _, err := io.ReadFull(p.r, tmp[:m]); err != nil {
			return g.peerError(p, what, err)
		}
		combine(dst[off:off+m], tmp[:m], t, op)
	}
	return nil
}

// recvHeader reads a frame's header: a frame of kind whose payload is
// want bytes (any size, up to maxField, with anySize); an abort or a bye
// from p is its error.
func (g *Group) recvHeader(p *peer, kind byte, anySize bool, want int, what string) (uint64, error) {
	var head [16]byte
	if _, err := io.ReadFull(p.r, head[:]); err != nil {
		return 0, g.peerError(p, what, err)
	}
	n := binary.BigEndian.Uint64(head[8:])
	switch head[0] {
	case frameAbort, frameBye:
		msg := make([]byte, min(n, maxField))
		io.ReadFull(p.r, msg)
		if head[0] == frameBye {
			return 0, fmt.Errorf("%s: rank %d's script ended (it finished, or failed before this call) while rank %d waited for it", what, p.rank, g.cfg.Rank)
		}
		if strings.Contains(string(msg), relayed) {
			return 0, errors.New(string(msg))
		}
		return 0, fmt.Errorf("%s; rank %d %s", msg, p.rank, relayed)
	case kind:
	default:
		return 0, fmt.Errorf("%s: rank %d is in another kind of call (its frame %q; the ranks do not call the same collectives in the same order)", what, p.rank, head[0])
	}
	switch {
	case anySize && n > maxField:
		return 0, fmt.Errorf("%s: rank %d sent a %d-byte check", what, p.rank, n)
	case !anySize && n != uint64(want):
		return 0, fmt.Errorf("%s: rank %d sent %d bytes where rank %d expects %d (the ranks' arrays differ in size)", what, p.rank, n, g.cfg.Rank, want)
	}
	return n, nil
}

// peerError names the rank a connection failed with, and how.
func (g *Group) peerError(p *peer, what string, err error) error {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("%s: rank %d did not answer within %v (%s sets the wait in seconds)", what, p.rank, g.cfg.Wait(), EnvTimeout)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed), isReset(err):
		return fmt.Errorf("%s: rank %d closed its connection (it exited, crashed or was killed)", what, p.rank)
	}
	return fmt.Errorf("%s: rank %d: %w", what, p.rank, err)
}

func isReset(err error) bool {
	var se *os.SyscallError
	return errors.As(err, &se) && (strings.Contains(se.Err.Error(), "reset") || strings.Contains(se.Err.Error(), "broken pipe"))
}
