package dist

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Store is the key-value store the ranks meet at (torch's TCPStore, JAX's
// coordinator): rank 0, or the launcher, serves it; each rank sets its
// address and waits for the others'. Values are set once and never change
// (a second set of a key is ignored). Each rank's connection is also its
// life line: when the connection of a rank that joined closes before the
// rank leaves, the store sets FaultKey, naming the rank.
type Store struct {
	ln    net.Listener
	mu    sync.Mutex
	vals  map[string][]byte
	added chan struct{} // closed and replaced on every set: wakes waiters
	conns map[net.Conn]bool
	done  chan struct{}
}

// The requests of the store's protocol: an op byte, a count, then that
// many fields, each a 4-byte big-endian length and its bytes. A wait's
// reply is ok and the values, or missing and the keys that never came.
const (
	opSet   = 's'
	opWait  = 'w'
	opJoin  = 'j' // this connection is rank N's (the field)
	opLeave = 'l' // rank N ends cleanly: its connection's close is no fault

	replyOK      = 'o'
	replyMissing = 'm'
)

// FaultKey is set to the first fault of the run: a rank whose connection
// to the store closed without leaving, or a rank's own failure.
const FaultKey = "fault"

// maxField bounds a field, so a stray connection cannot make the store
// allocate without limit.
const maxField = 1 << 20

// Serve serves a store on ln until Close.
func Serve(ln net.Listener) *Store {
	s := &Store{ln: ln, vals: map[string][]byte{}, added: make(chan struct{}), conns: map[net.Conn]bool{}, done: make(chan struct{})}
	go s.accept()
	return s
}

// Listen serves a store on addr (HOST:PORT; the host may be empty for
// every interface).
func Listen(addr string) (*Store, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serving the store on %s: %w", addr, err)
	}
	return Serve(ln), nil
}

// Addr is where the store listens.
func (s *Store) Addr() net.Addr { return s.ln.Addr() }

// Close stops the store and drops its connections.
func (s *Store) Close() error {
	err := s.ln.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
	default:
		close(s.done)
	}
	for c := range s.conns {
		c.Close()
	}
	return err
}

func (s *Store) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = true
		s.mu.Unlock()
		go s.serve(c)
	}
}

// serve answers one connection's requests in order; the connection of a
// rank that joined and did not leave is a fault when it closes.
func (s *Store) serve(c net.Conn) {
	rank := ""
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		c.Close()
		if rank != "" {
			s.set(FaultKey, []byte("rank "+rank+" closed its connection to the store (it exited, crashed or was killed)"))
		}
	}()
	r, w := bufio.NewReader(c), bufio.NewWriter(c)
	for {
		op, fields, err := readMsg(r)
		if err != nil {
			return
		}
		switch {
		case op == opJoin && len(fields) == 1:
			rank = string(fields[0])
		case op == opLeave:
			rank = ""
		}
		if err := s.answer(w, op, fields); err != nil || w.Flush() != nil {
			return
		}
	}
}

func (s *Store) answer(w io.Writer, op byte, fields [][]byte) error {
	switch {
	case op == opJoin || op == opLeave:
		return writeMsg(w, replyOK)
	case op == opSet && len(fields) == 2:
		s.set(string(fields[0]), fields[1])
		return writeMsg(w, replyOK)
	case op == opWait && len(fields) >= 1 && len(fields[0]) == 8:
		d := time.Duration(binary.BigEndian.Uint64(fields[0]))
		vals, missing := s.wait(keys(fields[1:]), d)
		if missing != nil {
			return writeMsg(w, replyMissing, missing...)
		}
		return writeMsg(w, replyOK, vals...)
	}
	return errors.New("bad request")
}

func keys(fields [][]byte) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = string(f)
	}
	return out
}

func (s *Store) set(k string, v []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.vals[k]; ok {
		return
	}
	s.vals[k] = v
	close(s.added)
	s.added = make(chan struct{})
}

// wait returns the keys' values once all are set, or after d the keys
// still missing.
func (s *Store) wait(ks []string, d time.Duration) (vals, missing [][]byte) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		vals, missing = nil, nil
		for _, k := range ks {
			if v, ok := s.vals[k]; ok {
				vals = append(vals, v)
			} else {
				missing = append(missing, []byte(k))
			}
		}
		added := s.added
		s.mu.Unlock()
		if missing == nil {
			return vals, nil
		}
		select {
		case <-added:
		case <-deadline.C:
			return nil, missing
		case <-s.done:
			return nil, missing
		}
	}
}

func writeMsg(w io.Writer, op byte, fields ...[]byte) error {
	buf := []byte{op}
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(fields)))
	for _, f := range fields {
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(f)))
		buf = append(buf, f...)
	}
	_, err := w.Write(buf)
	return err
}

func readMsg(r io.Reader) (byte, [][]byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(head[1:])
	if n > 1<<16 {
		return 0, nil, errors.New("too many fields")
	}
	fields := make([][]byte, n)
	for i := range fields {
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return 0, nil, err
		}
		m := binary.BigEndian.Uint32(l[:])
		if m > maxField {
			return 0, nil, errors.New("field too long")
		}
		fields[i] = make([]byte, m)
		if _, err := io.ReadFull(r, fields[i]); err != nil {
			return 0, nil, err
		}
	}
	return head[0], fields, nil
}

// Client is one rank's connection to the store; one goroutine uses it at
// a time.
type Client struct {
	conn net.Conn
	r    *bufio.Reader
	addr string
}

// Dial connects to the store at addr, retrying until the timeout: rank 0
// may start serving after the others start.
func Dial(ctx context.Context, addr string, timeout time.Duration) (*Client, error) {
	end := time.Now().Add(timeout)
	var d net.Dialer
	for {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			return &Client{conn: c, r: bufio.NewReader(c), addr: addr}, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if time.Now().After(end) {
			return nil, fmt.Errorf("no store at %s after %v (is rank 0 running? MASTER_ADDR and MASTER_PORT name its host and port): %w", addr, timeout, err)
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// LocalIP is this end's address of the connection to the store: the
// interface the other ranks reach this host through.
func (c *Client) LocalIP() net.IP { return c.conn.LocalAddr().(*net.TCPAddr).IP }

// Close drops the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Set stores v under k, unless k has a value.
func (c *Client) Set(k string, v []byte) error {
	_, _, err := c.request(opSet, []byte(k), v)
	return err
}

// Join makes this connection rank's life line (see Store).
func (c *Client) Join(rank int) error {
	_, _, err := c.request(opJoin, []byte(strconv.Itoa(rank)))
	return err
}

// Leave says the rank ends cleanly: its connection may close.
func (c *Client) Leave() error {
	_, _, err := c.request(opLeave)
	return err
}

// MissingError is a wait that timed out: the keys that were never set.
type MissingError struct {
	Keys    []string
	Timeout time.Duration
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%v passed without %v", e.Timeout, e.Keys)
}

// Wait returns the keys' values once every one is set, or a
// *MissingError after timeout.
func (c *Client) Wait(ctx context.Context, ks []string, timeout time.Duration) ([][]byte, error) {
	fields := [][]byte{binary.BigEndian.AppendUint64(nil, uint64(timeout))}
	for _, k := range ks {
		fields = append(fields, []byte(k))
	}
	stop := context.AfterFunc(ctx, func() { c.conn.SetDeadline(time.Now()) })
	defer stop()
	op, vals, err := c.request(opWait, fields...)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	if op == replyMissing {
		return nil, &MissingError{Keys: keys(vals), Timeout: timeout}
	}
	if len(vals) != len(ks) {
		return nil, fmt.Errorf("the store at %s answered %d values for %d keys", c.addr, len(vals), len(ks))
	}
	return vals, nil
}

func (c *Client) request(op byte, fields ...[]byte) (byte, [][]byte, error) {
	if err := writeMsg(c.conn, op, fields...); err != nil {
		return 0, nil, fmt.Errorf("the store at %s: %w", c.addr, err)
	}
	r, vals, err := readMsg(c.r)
	if err != nil {
		return 0, nil, fmt.Errorf("the store at %s closed the connection (rank 0 or the launcher ended?): %w", c.addr, err)
	}
	if r != replyOK && r != replyMissing {
		return 0, nil, fmt.Errorf("the store at %s answered %q", c.addr, r)
	}
	return r, vals, nil
}

// missingRanks turns missing keys "<prefix><rank>" into rank numbers.
func missingRanks(keys []string, prefix string) []int {
	var out []int
	for _, k := range keys {
		var r int
		if _, err := fmt.Sscanf(k, prefix+"%d", &r); err == nil {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}
