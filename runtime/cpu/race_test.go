package cpu

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// TestSharedRaces: in debug mode a shared load or store of an element
// that another thread stored to since the last barrier fails, naming both
// positions; barriers (sync, block collectives, sync_warp within a warp),
// the same thread, atomics and earlier blocks order the accesses.
func TestSharedRaces(t *testing.T) {
	type body func(b *builder, th ir.Reg) (racer, writer *ir.Inst)
	// tile[th] = th; <between>; out = tile[src(th)]
	exchange := func(between func(b *builder), src func(b *builder, th ir.Reg) ir.Reg) body {
		return func(b *builder, th ir.Reg) (*ir.Inst, *ir.Inst) {
			w := b.storeIn(ir.SpaceShared, 0, th, th)
			between(b)
			ld := b.emit(&ir.Inst{Op: ir.OpLoad, Dst: b.f.NewReg(ir.I32), Space: ir.SpaceShared, Args: []ir.Reg{src(b, th)}})
			b.store(0, b.tid(0), ld.Dst)
			return ld, w
		}
	}
	none := func(*builder) {}
	barrier := func(op ir.Op) func(b *builder) { return func(b *builder) { b.sync(op) } }
	blockSum := func(b *builder) { b.op(ir.OpBlockSum, ir.I32, b.index(ir.OpLaneId, 0)) }
	plus := func(k int64) func(b *builder, th ir.Reg) ir.Reg {
		return func(b *builder, th ir.Reg) ir.Reg {
			return b.op(ir.OpRem, ir.I32, b.op(ir.OpAdd, ir.I32, th, i32c(b, k)), i32c(b, 64))
		}
	}
	self := func(b *builder, th ir.Reg) ir.Reg { return th }
	sameCell := func(b *builder, th ir.Reg) (*ir.Inst, *ir.Inst) {
		w := b.storeIn(ir.SpaceShared, 0, i32c(b, 5), th)
		return w, w
	}
	atomics := func(b *builder, th ir.Reg) (*ir.Inst, *ir.Inst) {
		b.emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Space: ir.SpaceShared, Param: 0, Args: []ir.Reg{i32c(b, 0), th}})
		return nil, nil
	}
	tests := []struct {
		name string
		body body
		want string // after the racing access's position; "" for none
	}{
		{"read a neighbour's store", exchange(none, plus(1)), "shared-memory race on tile[1]: thread (0) of block (0) reads it, and thread (1) wrote it at %s with no barrier between"},
		{"after sync", exchange(barrier(ir.OpSync), plus(1)), ""},
		{"after block_sum", exchange(blockSum, plus(1)), ""},
		{"own store", exchange(none, self), ""},
		{"sync_warp orders one warp", exchange(barrier(ir.OpSyncWarp), plus(1)), "shared-memory race on tile[32]: thread (31) of block (0) reads it, and thread (32) wrote it"},
		{"sync_warp across warps", exchange(barrier(ir.OpSyncWarp), plus(32)), "shared-memory race on tile[32]: thread (0) of block (0) reads it, and thread (32) wrote it"},
		{"stores to one element", sameCell, "shared-memory race on tile[5]: thread (1) of block (0) writes it, and thread (0) wrote it at %s"},
		{"atomics", atomics, ""},
	}
	for _, tt := range tests {
		for _, debug := range []bool{false, true} {
			b := kernel("k", arr("out", ir.I32, 1)).block(64)
			b.shared("tile", ir.I32, 64)
			racer, writer := tt.body(b, b.index(ir.OpThreadId, 0))
			p, err := Compile(b.k, backend.Options{Debug: debug})
			if err != nil {
				t.Fatal(err)
			}
			err = p.Launch([]int{3}, []Arg{slice(make([]int32, 3*64))}, Options{})
			switch {
			case tt.want == "" || !debug:
				if err != nil {
					t.Errorf("%s (debug %v): %v", tt.name, debug, err)
				}
			case err == nil || !strings.HasPrefix(err.Error(), racer.Pos.String()+": kernel k: "+strings.Replace(tt.want, "%s", writer.Pos.String(), 1)):
				t.Errorf("%s: err = %v\nwant %s: kernel k: %s (writer at %s)", tt.name, err, racer.Pos, tt.want, writer.Pos)
			}
		}
	}
}

// TestRaceAcrossBlocks: a block reads what an earlier block of the same
// worker stored (zeros, as shared arrays start zeroed), no race; threads
// of a 2-D block are named by their thread_id.
func TestRaceAcrossBlocks(t *testing.T) {
	b := kernel("k", arr("out", ir.I32, 2)).block(2, 32)
	b.shared("tile", ir.I32, 2, 32)
	ty, tx := b.index(ir.OpThreadId, 0), b.index(ir.OpThreadId, 1)
	b.store(0, ty, tx, b.loadIn(ir.SpaceShared, 0, ty, tx))
	b.sync(ir.OpSync)
	b.storeIn(ir.SpaceShared, 0, ty, tx, tx)
	p, err := Compile(b.k, backend.Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int32, 64)
	if err := p.Launch([]int{4, 2}, []Arg{slice(out, 2, 32)}, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	// tile[1 - ty, tx] after the stores: thread (0, 0) reads what (1, 0) stored.
	b.loadIn(ir.SpaceShared, 0, b.op(ir.OpSub, ir.I32, i32c(b, 1), ty), tx)
	at := b.f.Body[len(b.f.Body)-1].(*ir.Inst).Pos
	p, err = Compile(b.k, backend.Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Launch([]int{4, 2}, []Arg{slice(out, 2, 32)}, Options{Workers: 1})
	want := "shared-memory race on tile[1, 0]: thread (0, 0) of block (0, 0) reads it, and thread (1, 0) wrote it"
	if err == nil || !strings.HasPrefix(err.Error(), at.String()+": kernel k: "+want) {
		t.Errorf("err = %v\nwant %s: kernel k: %s", err, at, want)
	}
}
