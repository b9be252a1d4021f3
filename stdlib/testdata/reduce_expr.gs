// stdlib script tests (stdlib/script_test.go): reductions of array
// expressions fuse into the reduction (ARRAYS.md section 3): pass 1 reads
// the expression's leaves and computes its elements, no temporary. Each
// result equals the reduction of the materialised expression.
// internal/conformance runs this file on the cpu and every CUDA device.
let a = arange(1000).astype(f32) * 0.001
let b = linspace(-1, 1, 1000).astype(f32)
let ab = a * b
// dot multiplies in f64, sum(a * b) sums the f32 products: each equals
// its materialised form bit for bit
print(sum(a * b) == sum(ab), dot(a * 2, b) == dot(array(a * 2), b))  //> true true
print(dot(a * 2, b) == dot(a + a, b), abs(dot(a, b) - sum(a * b)) < 1e-6)  //> true true
print(format("%.6f", sum(a * b)))    //> 166.833341
print(format("%.4g", prod(a[1:4] * 1000)), norm(a * 0) == 0.0, prod(a[1:4] * 1000) == prod(array(a[1:4] * 1000)))  //> 6 true true
---
// max(abs(x - y)), min and argmin/argmax of an expression
array x: f32[5] = [1, 2, 3, 4, 5]
array y: f32[5] = [1.5, 2, 2, 4, 7]
let d = abs(x - y)
print(max(abs(x - y)), max(d), min(x - y), argmax(abs(x - y)), argmin(x - y))  //> 2.0 2.0 -2.0 4 4
print(sum(x - y), mean(x * 2), sum(d) == sum(abs(x - y)))  //> -1.5 6.0 true
---
// broadcast expressions: mean of a matrix minus a row, a column
array m: f32[2, 3] = [[1, 2, 3], [4, 5, 6]]
array row: f32[3] = [1, 1, 1]
array col: f32[2, 1] = [[0], [10]]
print(mean(m - row), mean(m - row) == mean(array(m - row)))  //> 2.5 true
print(sum(m * col), sum(m.T * 2), sum(row + col))  //> 150.0 42.0 36.0
print(sum(m[:, 1] + m[:, 2]), max(m[::-1, ::2] - 1))  //> 16.0 5.0
---
// comparisons: count_nonzero, any, all; ints sum exactly
array v: i32[6] = [-2, 0, 3, 0, 5, -1]
print(count_nonzero(v > 0), count_nonzero(v), any(v > 4), all(v > -3), all(v != 0))  //> 2 4 true true false
// the i32 products wrap, as materialised ones do (NumPy's too)
print(sum(v * 2), sum(v > 0), sum(v * 2147483647), sum(array(v * 2147483647)))  //> 10 2 2147483643 2147483643
print(sum(v.astype(i64) * 2147483647))  //> 10737418235
print(any(v > 10), count_nonzero(v * 0))  //> false 0
---
// allclose, equal and array_equal of expressions
let p = linspace(0, 1, 100).astype(f32)
print(allclose(p * 2, p + p), allclose(p * 2, p, atol=0.5), allclose(p, p + 1e-3))  //> true false false
print(allclose(p + 1e-3, p, atol=1e-2), equal(p * 2, p + p), array_equal(p, p * 1.0))  //> true true true
print(equal(p * 2, p[0:10]), equal(p, p + 1))  //> false false
---
// axis reductions of an expression fuse too: a new array, as NumPy's
array m: f32[2, 3] = [[1, 2, 3], [4, 5, 6]]
array row: f32[3] = [1, 0, 1]
print(sum(m * 2, axis=0), max(m - 1, axis=1, keepdims=true))  //> [10.0, 14.0, 18.0] [[2.0], [5.0]]
print(sum(m * 2, axis=[0, 1]), sum(m + 0, keepdims=true))  //> 42.0 [[21.0]]
print(mean(m * row, axis=0), count_nonzero(m > 2, axis=1), any(m > 5, axis=0), argmax(m - row, axis=1))  //> [2.5, 0.0, 4.5] [1, 3] [false, false, true] [1, 1]
print(sum(m.T + row[0:2], axis=1), min(m.T * 2, axis=0).dtype)  //> [6.0, 8.0, 10.0] f32
print(norm(m - m, axis=0), prod(m * 1, axis=1))  //> [0.0, 0.0, 0.0] [6.0, 120.0]
---
// the fused results have the materialised expression's bits, whatever the
// leaves' layouts (they are visited in the expression's C order)
let g = (arange(60000) % 977).astype(f32) * 0.37 + 0.001
let h = g.reshape([200, 300])
let t = h.T
print(sum(t * 1.5) == sum(array(t * 1.5)), mean(h.T - g[0:200]) == mean(array(h.T - g[0:200])))  //> true true
print(norm(t[::2, ::-1] + 1) == norm(array(t[::2, ::-1] + 1)), dot(g * g, g) == dot(array(g * g), g))  //> true true
print(array_equal(sum(t * 1.5, axis=1), sum(array(t * 1.5), axis=1)), array_equal(mean(h - g[0:300], axis=0), mean(array(h - g[0:300]), axis=0)))  //> true true
---
// min and max of several values still take host values
print(min(1, 2), max(3.0, 1))        //> 1 3.0
---
array a: f32[3] = 1.0
array b: f32[4] = 1.0
print(dot(a * 2, b))                 ### "dot needs two 1-D arrays of one length, got shapes \[3\] and \[4\]"
---
array a: f32[3] = 1.0
array b: f32[4] = 1.0
print(allclose(a * 2, b))            ### "allclose: shapes \[3\] and \[4\] differ"
---
array a: f32[3] = 1.0
print(sum(a * 2, axis=1))            ### "sum: axis 1 is out of range for a 1-D array"
