package interp

import (
	"fmt"
	"slices"
)

// IndexOps evaluates index arrays and boolean masks (issue 26): a[idx]
// with idx an int array or a list (a gather along axis 0), a[mask] with
// mask a bool array (the selected elements in C order), and the stores
// a[idx] = v and a[mask] = v. The standard library registers it
// (stdlib/index.go); its kernels are generated IR, as the reductions'.
type IndexOps interface {
	// Index is x[idx]: an array, or an array expression that fuses into
	// the expression consuming it.
	Index(th *Thread, x *Array, idx Value) (Value, error)
	// SetIndex is x[idx] = v, v a number, an array or an expression.
	SetIndex(th *Thread, x *Array, idx, v Value) error
}

var indexOps IndexOps

// RegisterIndexOps installs the engine of index arrays and masks.
func RegisterIndexOps(ops IndexOps) { indexOps = ops }

// isIndexArray reports whether an index is an array or a list, which
// select elements (IndexOps) instead of naming one.
func isIndexArray(v Value) bool {
	switch v.(type) {
	case *Array, *List, Deferred:
		return true
	}
	return false
}

// hasIndexArray reports whether idx holds an index array or list.
func hasIndexArray(idx []Value) bool { return slices.ContainsFunc(idx, isIndexArray) }

// indexArrayOf finds an index array or list among idx: ok when there is
// one, with an error when it is not the only index (NumPy's combined
// advanced indexing is not supported yet) or no engine is registered.
func indexArrayOf(idx []Value) (Value, bool, error) {
	switch {
	case !hasIndexArray(idx):
		return nil, false, nil
	case len(idx) != 1:
		return nil, true, fmt.Errorf("not yet supported: an index array together with other indices (take(a, idx, axis=k) gathers along one axis)")
	case indexOps == nil:
		return nil, true, fmt.Errorf("index arrays are not available (no standard library)")
	}
	return idx[0], true, nil
}
