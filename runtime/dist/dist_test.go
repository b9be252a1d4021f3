package dist

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// world opens n ranks in this process against a store of the test's own.
func world(t *testing.T, n int, timeout time.Duration) []*Group {
	t.Helper()
	st, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	gs := make([]*Group, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := range n {
		wg.Go(func() {
			cfg := Config{Rank: r, WorldSize: n, LocalRank: r, LocalWorldSize: n, Master: st.Addr().String(), AgentStore: true, Timeout: timeout}
			gs[r], errs[r] = Open(context.Background(), cfg)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, g := range gs {
			g.Close()
		}
	})
	return gs
}

// each runs f on every rank at once and returns the ranks' errors.
func each(gs []*Group, f func(r int, g *Group) error) []error {
	errs := make([]error, len(gs))
	var wg sync.WaitGroup
	for r, g := range gs {
		wg.Go(func() { errs[r] = f(r, g) })
	}
	wg.Wait()
	return errs
}

func bytesOf[T any](x []T) []byte {
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), len(x)*int(unsafe.Sizeof(z)))
}

func noErrors(t *testing.T, errs []error) {
	t.Helper()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
}

// TestAllReduce: every op over 3 ranks, on lengths that do not split
// evenly into the ring's parts; every rank gets the same result.
func TestAllReduce(t *testing.T) {
	gs := world(t, 3, 5*time.Second)
	for _, op := range []Op{Sum, Prod, Max, Min, Avg} {
		for _, n := range []int{1, 2, 7} {
			bufs := make([][]float64, 3)
			errs := each(gs, func(r int, g *Group) error {
				bufs[r] = make([]float64, n)
				for i := range n {
					bufs[r][i] = float64(r + i + 1)
				}
				return g.AllReduce(context.Background(), bytesOf(bufs[r]), ir.F64, op)
			})
			noErrors(t, errs)
			for i := range n {
				a, b, c := float64(i+1), float64(i+2), float64(i+3)
				want := map[Op]float64{Sum: a + b + c, Prod: a * b * c, Max: c, Min: a, Avg: (a + b + c) / 3}[op]
				for r := range 3 {
					if bufs[r][i] != want {
						t.Errorf("%v n=%d: rank %d [%d] = %v, want %v", op, n, r, i, bufs[r][i], want)
					}
				}
			}
		}
	}
}

// TestGatherScatter: all_gather, reduce_scatter, broadcast, reduce and a
// send/recv pair over 4 ranks.
func TestGatherScatter(t *testing.T) {
	gs := world(t, 4, 5*time.Second)
	ctx := context.Background()
	outs := make([][]int32, 4)
	noErrors(t, each(gs, func(r int, g *Group) error {
		outs[r] = make([]int32, 8)
		return g.AllGather(ctx, bytesOf([]int32{int32(r), int32(10 * r)}), bytesOf(outs[r]))
	}))
	for r := range 4 {
		if want := []int32{0, 0, 1, 10, 2, 20, 3, 30}; !slices.Equal(outs[r], want) {
			t.Errorf("all_gather on rank %d: %v, want %v", r, outs[r], want)
		}
	}
	noErrors(t, each(gs, func(r int, g *Group) error {
		in := []int32{1, 2, 3, 4, 5, 6, 7, int32(r)}
		outs[r] = make([]int32, 2)
		return g.ReduceScatter(ctx, bytesOf(in), bytesOf(outs[r]), ir.I32, Sum)
	}))
	for r := range 4 {
		want := []int32{int32(4 * (2*r + 1)), int32(4 * (2*r + 2))}
		if r == 3 {
			want[1] = 0 + 1 + 2 + 3
		}
		if !slices.Equal(outs[r], want) {
			t.Errorf("reduce_scatter on rank %d: %v, want %v", r, outs[r], want)
		}
	}
	noErrors(t, each(gs, func(r int, g *Group) error {
		outs[r] = []int32{int32(r), 1}
		if err := g.Broadcast(ctx, bytesOf(outs[r]), 2); err != nil {
			return err
		}
		outs[r][1] = int32(r)
		return g.Reduce(ctx, bytesOf(outs[r]), ir.I32, Max, 1)
	}))
	for r := range 4 {
		want := []int32{2, int32(r)}
		if r == 1 {
			want = []int32{2, 3}
		}
		if !slices.Equal(outs[r], want) {
			t.Errorf("broadcast then reduce on rank %d: %v, want %v", r, outs[r], want)
		}
	}
	noErrors(t, each(gs, func(r int, g *Group) error {
		switch r {
		case 0:
			return g.Send(ctx, bytesOf([]int32{42}), 3)
		case 3:
			outs[r] = []int32{0}
			return g.Recv(ctx, bytesOf(outs[r]), 0)
		}
		return nil
	}))
	if outs[3][0] != 42 {
		t.Errorf("recv on rank 3: %v", outs[3])
	}
}

// TestMismatch: a description that differs is the same error on every
// rank, naming both sides; the group is then done.
func TestMismatch(t *testing.T) {
	gs := world(t, 3, 5*time.Second)
	errs := each(gs, func(r int, g *Group) error {
		d := "f32 [4] op=sum"
		if r == 2 {
			d = "f32 [5] op=sum"
		}
		return g.Check(context.Background(), "all_reduce", d)
	})
	for r, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "ranks 0, 1 f32 [4] op=sum; rank 2 f32 [5] op=sum") {
			t.Errorf("rank %d: %v", r, err)
		}
	}
	if err := gs[0].Barrier(context.Background()); err == nil {
		t.Error("a collective after a failure succeeded")
	}
	vals, err := storeFault(gs[1].cfg.Master)
	if err != nil || !strings.Contains(string(vals), "the ranks disagree") {
		t.Errorf("the store's fault: %q, %v", vals, err)
	}
}

// TestRankGone: a rank whose connections close makes the others fail
// naming it, at once rather than after the timeout.
func TestRankGone(t *testing.T) {
	gs := world(t, 3, 20*time.Second)
	start := time.Now()
	errs := each(gs, func(r int, g *Group) error {
		if r == 1 {
			for _, p := range g.others() {
				p.conn.Close() // as a killed process's kernel does
			}
			return nil
		}
		return g.AllReduce(context.Background(), bytesOf([]float32{1, 2, 3}), ir.F32, Sum)
	})
	for _, r := range []int{0, 2} {
		if errs[r] == nil || !strings.Contains(errs[r].Error(), "rank 1 closed its connection") {
			t.Errorf("rank %d: %v", r, errs[r])
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestTimeout: ranks that never come are named after the timeout; a
// cancelled context ends the wait at once.
func TestTimeout(t *testing.T) {
	st, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := Config{Rank: 1, WorldSize: 4, LocalWorldSize: 4, LocalRank: 1, Master: st.Addr().String(), AgentStore: true, Timeout: 200 * time.Millisecond}
	_, err = Open(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "ranks 0, 2, 3 never joined") {
		t.Errorf("got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Timeout = time.Minute
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err = Open(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// storeFault reads FaultKey of the store at addr.
func storeFault(addr string) ([]byte, error) {
	cl, err := Dial(context.Background(), addr, time.Second)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	vals, err := cl.Wait(context.Background(), []string{FaultKey}, time.Second)
	if err != nil {
		return nil, err
	}
	return vals[0], nil
}

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "alone"},
		{map[string]string{"RANK": "3", "WORLD_SIZE": "8", "LOCAL_RANK": "1", "LOCAL_WORLD_SIZE": "2", "MASTER_ADDR": "h0", "MASTER_PORT": "1234"},
			"torchrun 3/8 local 1/2 h0:1234"},
		{map[string]string{"RANK": "0", "WORLD_SIZE": "2", "MASTER_ADDR": "h0", "MASTER_PORT": "1234", "TORCHELASTIC_USE_AGENT_STORE": "True"},
			"torchrun 0/2 local 0/2 h0:1235"},
		{map[string]string{"SLURM_PROCID": "5", "SLURM_NTASKS": "8", "SLURM_LOCALID": "1", "SLURM_TASKS_PER_NODE": "4(x2)", "SLURM_JOB_NODELIST": "gpu[07-08]"},
			"srun 5/8 local 1/4 gpu07:29500"},
		{map[string]string{"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_LOCAL_RANK": "1"},
			"mpirun 1/2 local 1/2 127.0.0.1:29500"},
		{map[string]string{"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "4", "OMPI_COMM_WORLD_LOCAL_RANK": "1", "OMPI_COMM_WORLD_LOCAL_SIZE": "2"},
			"error: mpirun runs 4 ranks on several nodes: set MASTER_ADDR"},
		{map[string]string{"RANK": "2", "WORLD_SIZE": "2"}, "error: rank 2 is outside a world of 2 ranks"},
		{map[string]string{"RANK": "x", "WORLD_SIZE": "2"}, `error: RANK="x" is not a rank`},
	} {
		c, ok, err := FromEnv(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
		got := fmt.Sprintf("%s %d/%d local %d/%d %s", c.Launcher, c.Rank, c.WorldSize, c.LocalRank, c.LocalWorldSize, c.Master)
		switch {
		case err != nil:
			got = "error: " + err.Error()
		case !ok:
			got = "alone"
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v: got %q, want %q", tc.env, got, tc.want)
		}
	}
	for list, want := range map[string]string{"n1": "n1", "n1,n2": "n1", "node[03-05,9],g": "node03", "a,b[1-2]": "a", "x[7]": "x7"} {
		if got := FirstHost(list); got != want {
			t.Errorf("FirstHost(%q) = %q, want %q", list, got, want)
		}
	}
}

// BenchmarkAllReduce is all_reduce of f32 buffers of 1 to 64 MiB over 4
// ranks of this process (the same TCP ring as 4 processes; the report is
// the buffer's bytes per second, torch's algbw).
func BenchmarkAllReduce(b *testing.B) {
	gs := world(&testing.T{}, 4, time.Minute)
	for _, mib := range []int{1, 4, 16, 64} {
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			bufs := make([][]byte, 4)
			for r := range bufs {
				bufs[r] = make([]byte, mib<<20)
			}
			b.SetBytes(int64(mib << 20))
			for b.Loop() {
				noErrors(&testing.T{}, each(gs, func(r int, g *Group) error {
					return g.AllReduce(context.Background(), bufs[r], ir.F32, Sum)
				}))
			}
		})
	}
}

// TestStoreFault: the connection of a rank that joined is its life line:
// closing it before Leave sets FaultKey, naming the rank; after Leave it
// is no fault. A key keeps its first value.
func TestStoreFault(t *testing.T) {
	for _, leave := range []bool{false, true} {
		st, err := Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		a, err := Dial(ctx, st.Addr().String(), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Dial(ctx, st.Addr().String(), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Join(3); err != nil {
			t.Fatal(err)
		}
		if leave {
			a.Leave()
		}
		a.Close()
		vals, err := b.Wait(ctx, []string{FaultKey}, 300*time.Millisecond)
		var me *MissingError
		switch {
		case leave && !errors.As(err, &me):
			t.Errorf("after Leave: %q, %v", vals, err)
		case !leave && (err != nil || string(vals[0]) != "rank 3 closed its connection to the store (it exited, crashed or was killed)"):
			t.Errorf("killed: %q, %v", vals, err)
		}
		b.Set("k", []byte("first"))
		b.Set("k", []byte("second"))
		if vals, err := b.Wait(ctx, []string{"k"}, time.Second); err != nil || string(vals[0]) != "first" {
			t.Errorf("k = %q, %v", vals, err)
		}
		b.Close()
		st.Close()
	}
}

// TestPeerTimeout: a rank that stops answering is named after the
// timeout.
func TestPeerTimeout(t *testing.T) {
	gs := world(t, 2, 300*time.Millisecond)
	err := gs[0].AllReduce(context.Background(), bytesOf([]float32{1}), ir.F32, Sum)
	if err == nil || !strings.Contains(err.Error(), "all_reduce: rank 1 did not answer within 300ms (GSCRIPT_DIST_TIMEOUT sets the wait in seconds)") {
		t.Errorf("got %v", err)
	}
}
