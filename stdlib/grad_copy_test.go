package stdlib_test

import "testing"

const copySetup = `
let x = array([[0.5, -1.25, 2.0], [3.5, 0.75, -2.5]], dtype=DT, requires_grad=true)
let z = array([[1.5, -0.5, 0.25]], dtype=DT, requires_grad=true)
let d = zeros([2, 3], dtype=DT)
`

func TestGradCopies(t *testing.T) {
	for _, c := range []struct {
		body   string
		inputs []string
	}{
		{"let y = array(x)", []string{"x"}},
		{"let y = array(x, dtype=f64)", []string{"x"}},
		{`let y = to(x, "cpu")`, []string{"x"}},
		{"let y = reshape(x.T, [3, 2])", []string{"x"}}, // a.T is not contiguous: the reshape copies
		{"let y = reshape(x, [3, 2])", []string{"x"}},   // a view
		{"let y = transpose(x, [1, 0])", []string{"x"}},
		{"let y = x.T", []string{"x"}},
		{"let y = flip(x, axis=1)", []string{"x"}},
		{"let y = split(x, 3, axis=1)[1]", []string{"x"}},
		{"copy(d, x)\nlet y = d", []string{"x"}},
		{"let y = concatenate([x, z])", []string{"x", "z"}},
		{"let y = concatenate([x, x.T.T], axis=-1)", []string{"x"}},
		{"let y = concatenate([z, x], axis=nil)", []string{"x", "z"}},
		{"let y = stack([x, x])", []string{"x"}},
		{"let y = stack([x, d, x], axis=-1)", []string{"x"}},
		{"let y = cumsum(x)", []string{"x"}},
		{"let y = cumsum(x, axis=0)", []string{"x"}},
		{"let y = cumsum(x.T, axis=-1)", []string{"x"}},
		{"let y = max(concatenate([x.T, z.T], axis=1), axis=0)", []string{"x", "z"}},
	} {
		t.Run(c.body, func(t *testing.T) {
			checkBoth(t, gradCase{setup: copySetup, body: c.body, inputs: c.inputs, out: "y"})
		})
	}
}
