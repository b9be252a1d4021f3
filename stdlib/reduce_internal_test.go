package stdlib

import (
	"math"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
)

// TestExactSum adds ranges' results as the host does for sums of 2^31
// elements or more: one value per range, or limbs hi*2^32 + lo, and for
// dot an overflow flag third.
func TestExactSum(t *testing.T) {
	for _, tt := range []struct {
		chunks [][]uint64
		want   int64
		err    string
	}{
		{[][]uint64{{5}, {7}}, 12, ""},
		{[][]uint64{{uint64(math.MaxInt64)}, {1}}, 0, "sum overflows int"},
		{[][]uint64{{uint64(math.MaxInt64)}, {1}, {^uint64(0)}}, math.MaxInt64, ""}, // back in range
		{[][]uint64{{1<<31 - 1, 1<<32 - 1}, {1<<31 - 1, 1<<32 - 1}}, 0, "sum overflows int"},
		{[][]uint64{{^uint64(0), 3}}, -1<<32 + 3, ""},
		{[][]uint64{{0, 2, 0}, {0, 3, 1}}, 0, "sum overflows int"},
	} {
		v, err := exactSum("sum", tt.chunks)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: %v, %v; want error %q", tt.chunks, v, err, tt.err)
			}
			continue
		}
		if err != nil || v != interp.Int(tt.want) {
			t.Errorf("%v = %v, %v; want %d", tt.chunks, v, err, tt.want)
		}
	}
}
