package dist

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gscript-lang/gscript/lang/ir"
)

// The cpu collectives: every rank calls the same ones in the same order,
// on buffers of the same size. Each returns an error naming the rank that
// failed, and after a failure the group is done (no partial result is
// ever returned as success).

// others are every peer but this rank, in rank order.
func (g *Group) others() []*peer {
	var out []*peer
	for _, p := range g.peers {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}

func (g *Group) next() *peer { return g.peers[(g.cfg.Rank+1)%g.cfg.WorldSize] }
func (g *Group) prev() *peer {
	return g.peers[(g.cfg.Rank+g.cfg.WorldSize-1)%g.cfg.WorldSize]
}

// Check compares desc, this rank's description of a collective call,
// with every other rank's: a mismatch is the same error on every rank,
// naming the ranks on each side. It is also a barrier.
func (g *Group) Check(ctx context.Context, what, desc string) error {
	end, err := g.begin(ctx, g.others())
	if err != nil {
		return err
	}
	descs := make([]string, g.cfg.WorldSize)
	descs[g.cfg.Rank] = desc
	err = g.exchange(g.others(), what, []byte(desc), func(r int, b []byte) { descs[r] = string(b) })
	if err == nil {
		err = mismatch(what, descs)
	}
	return end(err)
}

// Gather sends msg (a short message, at most 1 MiB) to every other rank
// and returns every rank's, this rank's included, in rank order.
func (g *Group) Gather(ctx context.Context, what string, msg []byte) ([][]byte, error) {
	end, err := g.begin(ctx, g.others())
	if err != nil {
		return nil, err
	}
	msgs := make([][]byte, g.cfg.WorldSize)
	msgs[g.cfg.Rank] = msg
	err = g.exchange(g.others(), what, msg, func(r int, b []byte) { msgs[r] = b })
	return msgs, end(err)
}

// CheckPair is Check between this rank and other only (send and recv):
// this rank's desc goes to other, whose own must be want.
func (g *Group) CheckPair(ctx context.Context, what string, other int, desc, want string) error {
	p, err := g.peer(other, what)
	if err != nil {
		return err
	}
	end, err := g.begin(ctx, []*peer{p})
	if err != nil {
		return err
	}
	var theirs string
	err = g.exchange([]*peer{p}, what, []byte(desc), func(_ int, b []byte) { theirs = string(b) })
	if err == nil && theirs != want {
		err = fmt.Errorf("%s: rank %d has %s, rank %d has %s (a send on one rank meets a recv of the same dtype and shape on the other)", what, g.cfg.Rank, desc, other, theirs)
	}
	return end(err)
}

func (g *Group) peer(r int, what string) (*peer, error) {
	switch {
	case r < 0 || r >= g.cfg.WorldSize:
		return nil, fmt.Errorf("%s: rank %d is outside a world of %d ranks", what, r, g.cfg.WorldSize)
	case r == g.cfg.Rank:
		return nil, fmt.Errorf("%s: rank %d is this rank", what, r)
	}
	return g.peers[r], nil
}

// exchange sends msg to each of peers and reads one check frame from
// each, in rank order.
func (g *Group) exchange(peers []*peer, what string, msg []byte, got func(int, []byte)) error {
	var wg sync.WaitGroup
	errs := make([]error, len(peers))
	for i, p := range peers {
		wg.Go(func() { errs[i] = g.send(p, frameCheck, msg, what) })
	}
	var err error
	for _, p := range peers {
		b, rerr := g.recv(p, frameCheck, nil, what)
		if rerr != nil {
			err = rerr
			break
		}
		got(p.rank, b)
	}
	if err != nil {
		g.unblock(peers...)
	}
	wg.Wait()
	if err == nil {
		for _, e := range errs {
			if e != nil {
				return e
			}
		}
	}
	return err
}

// unblock makes writes to peers that are blocked return: the failure
// ends the group, whose abort frame then follows (a write cut short
// leaves a partial frame, after which the peer sees the connection
// close instead of the abort).
func (g *Group) unblock(peers ...*peer) {
	for _, p := range peers {
		p.conn.SetWriteDeadline(time.Now())
	}
}

// mismatch reports descriptions that differ: the first rank's against
// each group of ranks that disagree with it.
func mismatch(what string, descs []string) error {
	groups := map[string][]int{}
	var order []string
	for r, d := range descs {
		if _, ok := groups[d]; !ok {
			order = append(order, d)
		}
		groups[d] = append(groups[d], r)
	}
	if len(order) == 1 {
		return nil
	}
	var parts []string
	for _, d := range order {
		parts = append(parts, fmt.Sprintf("%s %s", rankList(groups[d]), d))
	}
	return fmt.Errorf("%s: the ranks disagree: %s (every rank calls the same collectives in the same order, on arrays of one dtype and shape)", what, strings.Join(parts, "; "))
}

// Barrier returns once every rank has called it.
func (g *Group) Barrier(ctx context.Context) error { return g.Check(ctx, "barrier", "barrier") }

// chunk is the byte range of part i of n elements of size sz split into
// k parts as evenly as possible.
func chunk(n, sz, k, i int) (lo, hi int) { return i * n / k * sz, (i + 1) * n / k * sz }

// AllReduce reduces buf (elements of t) over every rank with op, in place:
// a ring, reduce-scatter then all-gather, so each rank sends and receives
// about twice buf whatever the world size, and every rank ends with the
// same bytes.
func (g *Group) AllReduce(ctx context.Context, buf []byte, t ir.Type, op Op) error {
	end, err := g.begin(ctx, []*peer{g.next(), g.prev()})
	if err != nil {
		return err
	}
	n, sz, k := len(buf)/t.Size(), t.Size(), g.cfg.WorldSize
	err = g.ringReduceScatter("all_reduce", buf, t, op, func(i int) (int, int) { return chunk(n, sz, k, i) })
	if err == nil {
		err = g.ringAllGather("all_reduce", buf, func(i int) (int, int) { return chunk(n, sz, k, i) })
	}
	if err == nil && op == Avg {
		divide(buf, t, k)
	}
	return end(err)
}

// ringReduceScatter leaves part r of buf, reduced over every rank, on rank
// r: at step s rank r sends part r-s-1 on and adds part r-s-2 from the
// previous rank into its own.
func (g *Group) ringReduceScatter(what string, buf []byte, t ir.Type, op Op, part func(int) (int, int)) error {
	k, r := g.cfg.WorldSize, g.cfg.Rank
	for s := range k - 1 {
		slo, shi := part(mod(r-s-1, k))
		rlo, rhi := part(mod(r-s-2, k))
		err := g.sendWhile(what, buf[slo:shi], func() error { return g.recvCombine(g.prev(), buf[rlo:rhi], t, op, what) })
		if err != nil {
			return err
		}
	}
	return nil
}

// ringAllGather passes each rank's own part r of buf around the ring: at
// step s rank r sends part r-s and receives part r-s-1.
func (g *Group) ringAllGather(what string, buf []byte, part func(int) (int, int)) error {
	k, r := g.cfg.WorldSize, g.cfg.Rank
	for s := range k - 1 {
		slo, shi := part(mod(r-s, k))
		rlo, rhi := part(mod(r-s-1, k))
		if err := g.sendRecv(what, buf[slo:shi], buf[rlo:rhi]); err != nil {
			return err
		}
	}
	return nil
}

func mod(a, k int) int { return ((a % k) + k) % k }

// sendRecv sends out to the next rank while receiving in from the
// previous one.
func (g *Group) sendRecv(what string, out, in []byte) error {
	return g.sendWhile(what, out, func() error {
		_, err := g.recv(g.prev(), frameData, in, what)
		return err
	})
}

// sendWhile sends out to the next rank while recv runs (both at once:
// neither waits for the other's buffer room).
func (g *Group) sendWhile(what string, out []byte, recv func() error) error {
	var serr error
	done := make(chan struct{})
	go func() { serr = g.send(g.next(), frameData, out, what); close(done) }()
	rerr := recv()
	if rerr != nil {
		g.unblock(g.next())
	}
	<-done
	if rerr != nil {
		return rerr
	}
	return serr
}

// Broadcast copies root's buf into every other rank's.
func (g *Group) Broadcast(ctx context.Context, buf []byte, root int) error {
	if g.cfg.Rank != root {
		return g.recvFrom(ctx, "broadcast", buf, root)
	}
	return g.sendAll(ctx, "broadcast", buf)
}

func (g *Group) recvFrom(ctx context.Context, what string, buf []byte, src int) error {
	p, err := g.peer(src, what)
	if err != nil {
		return err
	}
	end, err := g.begin(ctx, []*peer{p})
	if err != nil {
		return err
	}
	_, err = g.recv(p, frameData, buf, what)
	return end(err)
}

func (g *Group) sendAll(ctx context.Context, what string, buf []byte) error {
	peers := g.others()
	end, err := g.begin(ctx, peers)
	if err != nil {
		return err
	}
	errs := make([]error, len(peers))
	var wg sync.WaitGroup
	for i, p := range peers {
		wg.Go(func() { errs[i] = g.send(p, frameData, buf, what) })
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return end(e)
		}
	}
	return end(nil)
}

// Reduce reduces buf over every rank into root's buf; the others' are
// left as they were. Root adds the others' buffers in rank order.
func (g *Group) Reduce(ctx context.Context, buf []byte, t ir.Type, op Op, root int) error {
	if g.cfg.Rank != root {
		p, err := g.peer(root, "reduce")
		if err != nil {
			return err
		}
		end, err := g.begin(ctx, []*peer{p})
		if err != nil {
			return err
		}
		return end(g.send(p, frameData, buf, "reduce"))
	}
	peers := g.others()
	end, err := g.begin(ctx, peers)
	if err != nil {
		return err
	}
	for _, p := range peers {
		if err := g.recvCombine(p, buf, t, op, "reduce"); err != nil {
			return end(err)
		}
	}
	if op == Avg {
		divide(buf, t, g.cfg.WorldSize)
	}
	return end(nil)
}

// AllGather puts rank r's in at part r of out (len(out) = world * len(in)).
func (g *Group) AllGather(ctx context.Context, in, out []byte) error {
	end, err := g.begin(ctx, []*peer{g.next(), g.prev()})
	if err != nil {
		return err
	}
	n := len(in)
	copy(out[g.cfg.Rank*n:], in)
	return end(g.ringAllGather("all_gather", out, func(i int) (int, int) { return i * n, (i + 1) * n }))
}

// ReduceScatter reduces in (world parts of len(out)) over every rank and
// leaves part r of the result in rank r's out; in is not changed.
func (g *Group) ReduceScatter(ctx context.Context, in, out []byte, t ir.Type, op Op) error {
	end, err := g.begin(ctx, []*peer{g.next(), g.prev()})
	if err != nil {
		return err
	}
	work := slices.Clone(in)
	n := len(out)
	err = g.ringReduceScatter("reduce_scatter", work, t, op, func(i int) (int, int) { return i * n, (i + 1) * n })
	if err == nil {
		copy(out, work[g.cfg.Rank*n:])
		if op == Avg {
			divide(out, t, g.cfg.WorldSize)
		}
	}
	return end(err)
}

// Send sends buf to rank dst, which receives it with Recv.
func (g *Group) Send(ctx context.Context, buf []byte, dst int) error {
	p, err := g.peer(dst, "send")
	if err != nil {
		return err
	}
	end, err := g.begin(ctx, []*peer{p})
	if err != nil {
		return err
	}
	return end(g.send(p, frameData, buf, "send"))
}

// Recv fills buf with what rank src sent.
func (g *Group) Recv(ctx context.Context, buf []byte, src int) error {
	return g.recvFrom(ctx, "recv", buf, src)
}
