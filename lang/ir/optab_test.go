package ir

import "testing"

func TestOpTable(t *testing.T) {
	seen := map[string]bool{}
	for _, op := range Ops() {
		info, ok := op.Info()
		if !ok || info.Name == "" {
			t.Fatalf("op %d has no row in the op table", op)
		}
		if seen[info.Name] {
			t.Errorf("op name %q is used twice", info.Name)
		}
		seen[info.Name] = true
		if back, ok := OpByName(info.Name); !ok || back != op {
			t.Errorf("OpByName(%q) = %v, %v", info.Name, back, ok)
		}
		if info.Types == 0 && info.Result != ResultNone {
			t.Errorf("%s applies to no type", op)
		}
		if info.Atomic != (info.Result == ResultOldElem) {
			t.Errorf("%s: atomic %v with result rule %d", op, info.Atomic, info.Result)
		}
		if (info.Warp || info.Barrier || info.Axis == AxisBlock) && !info.Block {
			t.Errorf("%s: a warp, barrier or block-axis op that is not a block op", op)
		}
	}
	if OpStoreField != NumOps-1 {
		t.Errorf("the last Op constant is %d, the table has %d rows", OpStoreField, NumOps)
	}
	if _, ok := NumOps.Info(); ok {
		t.Errorf("op %d, past the table, has a row", NumOps)
	}
}

func TestTypeSet(t *testing.T) {
	if got := Nums.Types(); len(got) != 7 || got[0] != U8 || got[6] != F64 {
		t.Errorf("Nums.Types() = %v", got)
	}
	if Scalars.Has(Invalid) || !Atomics.Has(F32) || Atomics.Has(U8) || Ints.Has(F32) {
		t.Error("wrong membership")
	}
}
