package ir

import (
	"strings"
	"testing"
)

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

// TestMathColumns: the math builtins are value ops named as their ops
// (the names the language documents), and OpByBuiltin finds each.
func TestMathColumns(t *testing.T) {
	kernels := "sqrt rsqrt sin cos tan asin acos atan sinh cosh tanh exp exp2 log log2 log10 floor ceil round " +
		"trunc abs sign isnan isinf isfinite atan2 pow min max clamp fma"
	arrays := "sqrt rsqrt sin cos tan asin acos atan sinh cosh tanh exp exp2 log log2 log10 floor ceil round " +
		"trunc abs sign isnan isinf isfinite atan2 pow"
	var gotK, gotA []string
	for _, op := range MathOps() {
		info, _ := op.Info()
		if !info.IsValue() || info.Form != FormSame || info.Builtin != info.Name {
			t.Errorf("math builtin %q: %+v", info.Builtin, info)
		}
		if back, ok := OpByBuiltin(info.Builtin); !ok || back != op {
			t.Errorf("OpByBuiltin(%q) = %v, %v", info.Builtin, back, ok)
		}
		gotK = append(gotK, info.Builtin)
		if info.Elementwise {
			gotA = append(gotA, info.Builtin)
		}
	}
	for _, op := range Ops() {
		if info, _ := op.Info(); info.Elementwise && info.Builtin == "" {
			t.Errorf("%s is elementwise on arrays but no builtin", op)
		}
	}
	if g := strings.Join(gotK, " "); g != kernels {
		t.Errorf("kernel math builtins\n%s\nwant\n%s", g, kernels)
	}
	if g := strings.Join(gotA, " "); g != arrays {
		t.Errorf("array math builtins\n%s\nwant\n%s", g, arrays)
	}
	if _, ok := OpByBuiltin("add"); ok {
		t.Error("add is a math builtin")
	}
	if _, ok := OpByBuiltin(""); ok {
		t.Error(`"" is a math builtin`)
	}
}
