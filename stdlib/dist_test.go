package stdlib_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/dist"
)

// TestDistOptions: three interpreters of one process placed in a run by
// interp.Options.Dist, as an embedding program places them, on cpu
// arrays; a second Exec reuses the group, and Close ends it.
func TestDistOptions(t *testing.T) {
	addr := testStore(t)
	outs := make([]strings.Builder, 3)
	ins := make([]*interp.Interp, 3)
	for r := range ins {
		ins[r] = distInterp(t, r, 3, addr, "cpu", &outs[r])
	}
	exec := func(src string) {
		t.Helper()
		errs := make([]error, 3)
		var wg sync.WaitGroup
		for r, in := range ins {
			wg.Go(func() { errs[r] = in.Exec(context.Background(), "d.gs", []byte(src)) })
		}
		wg.Wait()
		for r, err := range errs {
			if err != nil {
				t.Fatalf("rank %d: %v", r, err)
			}
		}
	}
	exec("let x = full(2, rank() + 1, dtype=i64)\nall_reduce(x, op=\"prod\")\nprint(rank(), world_size(), is_distributed(), x)\n")
	exec("let g = all_gather(array([rank()]))\nprint(g.reshape(-1))\n")
	for r := range outs {
		want := []string{"0 3 true [6, 6]\n[0, 1, 2]\n", "1 3 true [6, 6]\n[0, 1, 2]\n", "2 3 true [6, 6]\n[0, 1, 2]\n"}[r]
		if got := outs[r].String(); got != want {
			t.Errorf("rank %d printed %q, want %q", r, got, want)
		}
	}
	// Rank 2 closes: the others' next collective names it.
	ins[2].Close()
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for r := range 2 {
		wg.Go(func() { errs[r] = ins[r].Exec(context.Background(), "e.gs", []byte("barrier()\n")) })
	}
	wg.Wait()
	for r, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "rank 2") {
			t.Errorf("rank %d after rank 2 closed: %v", r, err)
		}
	}
}

func TestDistOptionsInvalid(t *testing.T) {
	_, err := interp.New(interp.Options{Dist: &dist.Config{Rank: 3, WorldSize: 2, LocalWorldSize: 2}})
	if err == nil || !strings.Contains(err.Error(), "rank 3 is outside a world of 2 ranks") {
		t.Errorf("got %v", err)
	}
}
