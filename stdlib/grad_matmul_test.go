package stdlib_test

import "testing"

const abSetup = `
let a = array([[0.5, -1.25, 2.0], [3.5, 0.75, -2.5]], dtype=DT, requires_grad=true)
let b = array([[1.5, -0.5], [0.25, 2.0], [-1.0, 0.125]], dtype=DT, requires_grad=true)
let v = array([0.75, -2.0], dtype=DT, requires_grad=true)
let w = array([1.0, 0.5, -1.5], dtype=DT, requires_grad=true)
let a3 = array([[[0.5, -1.0], [2.0, 1.5]], [[-0.25, 3.0], [1.0, -2.0]], [[0.5, 0.5], [-1.5, 2.5]]], dtype=DT, requires_grad=true)
let m2 = array([[1.0, -0.5, 0.25], [2.0, 0.75, -1.0]], dtype=DT, requires_grad=true)
`

func TestGradMatmul(t *testing.T) {
	for _, c := range []struct {
		body   string
		inputs []string
	}{
		{"let y = a @ b", []string{"a", "b"}},
		{"let y = matmul(b, a)", []string{"a", "b"}},
		{"let y = v @ a", []string{"v", "a"}},
		{"let y = a @ w", []string{"a", "w"}},
		{"let y = a.T @ a", []string{"a"}},
		{"let y = a3 @ m2", []string{"a3", "m2"}},
		{"let y = m2.T @ a3", []string{"a3", "m2"}},
		{"let y = sum(a @ b, axis=0)", []string{"a", "b"}},
		{"let y = dot(w, w)", []string{"w"}},
		{"let y = dot(w, a[1])", []string{"w", "a"}}, // a[1] is a view of a: its gradient is a.grad's row
		{"let y = dot(w, b[:, 0])", []string{"w", "b"}},
		{"let h = a @ b\nlet y = h @ m2", []string{"a", "b", "m2"}}, // h's gradient is written by the GEMM
	} {
		t.Run(c.body, func(t *testing.T) {
			checkBoth(t, gradCase{setup: abSetup, body: c.body, inputs: c.inputs, out: "y"})
		})
	}
}
