package check

import (
	"go/constant"
	"strings"
	"testing"
)

// powConst folds exactly: ints to non-negative ints stay ints, anything
// else is a float; too large is an error, never a long computation.
func TestPowConst(t *testing.T) {
	i, f := constant.MakeInt64, constant.MakeFloat64
	tests := []struct {
		a, b constant.Value
		want string // the value's exact string, or the start of the error
	}{
		{i(2), i(10), "1024"},
		{i(-3), i(3), "-27"},
		{i(7), i(0), "1"},
		{i(0), i(0), "1"},
		{i(0), i(5), "0"},
		{i(1), i(1 << 40), "1"},
		{i(-1), i(1<<40 + 1), "-1"},
		{i(-1), i(1 << 40), "1"},
		{i(2), i(62), "4611686018427387904"},
		{i(2), i(-1), "1/2"},
		{f(4), f(0.5), "2"},
		{i(2), i(200), "constant 2 ** 200 overflows"},
		{i(10), i(100000), "constant 10 ** 100000 overflows"},
		{f(10), f(400), "constant 10 ** 400 is not a finite float"},
		{i(0), i(-1), "constant 0 ** -1 is not a finite float"},
	}
	for _, tt := range tests {
		v, msg := powConst(tt.a, tt.b)
		got := msg
		if msg == "" {
			got = v.ExactString()
		}
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s ** %s = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}
