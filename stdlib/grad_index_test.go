package stdlib_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
)

const indexSetup = `
let x = array([[0.5, -1.25, 2.0], [3.5, 0.75, -2.5], [1.0, 2.0, -0.5]], dtype=DT, requires_grad=true)
let v = array([[1.5, -0.5, 0.25], [2.0, -3.0, 0.5]], dtype=DT, requires_grad=true)
let row = array([[1.5, -0.5, 0.25]], dtype=DT, requires_grad=true)
let one = array([2.5], dtype=DT, requires_grad=true)
let vals = array([1.0, -2.0, 0.5, 4.0], dtype=DT, requires_grad=true)
let m = array([[true, false, true], [false, false, true], [true, false, false]])
let rows = array([true, false, true])
let idx = array([3, 0])
let rep = array([1, 3, 1, 1])
`

func TestGradIndex(t *testing.T) {
	for _, c := range []struct {
		body   string
		inputs []string
	}{
		{"let y = x[m]", []string{"x"}},
		{"let y = x[rows]", []string{"x"}},
		{"let y = max(x[rows], axis=0)", []string{"x"}},
		{"let d = zeros([4, 3], dtype=DT)\nd[idx] = v\nlet y = d", []string{"v"}},
		{"let d = zeros([4, 3], dtype=DT)\nd[idx] = row\nlet y = d", []string{"row"}}, // broadcast: summed
		{"let d = zeros([4, 3], dtype=DT)\nadd_at(d, rep, concatenate([v, v]))\nlet y = d", []string{"v"}},
		{"let d = zeros([4, 3], dtype=DT)\nadd_at(d, idx, row)\nlet y = d", []string{"row"}},
		{"let d = zeros([3, 3], dtype=DT)\nd[m] = vals\nlet y = d", []string{"vals"}},
		{"let d = zeros([3, 3], dtype=DT)\nd[m] = one\nlet y = d", []string{"one"}},
		{"let d = zeros([3, 3], dtype=DT)\nd[rows] = v\nlet y = d", []string{"v"}},
	} {
		t.Run(c.body, func(t *testing.T) {
			checkBoth(t, gradCase{setup: indexSetup, body: c.body, inputs: c.inputs, out: "y"})
		})
	}
}

// TestGradWriteLeafRefused: an assignment, add_at, copy or matmul out=
// into an array that requires a gradient is refused on a tape (its
// earlier values' gradient would be lost), as a write over an array the
// tape recorded is.
func TestGradWriteLeafRefused(t *testing.T) {
	for _, body := range []string{
		"x[idx] = v", "add_at(x, idx, row)", "let y = sum(v)\nv[idx] = row", "copy(x, x)",
		"let o = zeros([3, 3], dtype=f64, requires_grad=true)\nmatmul(x, x, out=o)",
		"let d = zeros([3, 3])\ncopy(d, x)\ncopy(d, x)",
	} {
		in := newGradInterp(t)
		execGS(t, in, strings.ReplaceAll(indexSetup, "DT", "f64")+"\nlet idx = array([2, 0])")
		err := in.Record(interp.NewTape("t"), func() error { return in.Exec(context.Background(), "b.gs", []byte(body)) })
		if err == nil || !strings.Contains(err.Error(), "requires a gradient") && !strings.Contains(err.Error(), "writes over") {
			t.Errorf("%s on a tape: got %v", body, err)
		}
	}
}
