// stdlib script tests (stdlib/script_test.go): reductions and comparisons.
let a = array([[1, 2], [3, 4]], dtype=f64)
print(sum(a), mean(a), min(a), max(a))             //> 10.0 2.5 1.0 4.0
array v: f32[4] = [1, -2, 3, 0.5]
print(sum(v), min(v), max(v), mean(v), dot(v, v))  //> 2.5 -2.0 3.0 0.625 14.25
---
print(dot(zeros(2), zeros(3)))   ### "dot needs two 1-D arrays of one length, got shapes \[2\] and \[3\]"
---
print(min(zeros(0)))             ### "min of an empty array"
---
// copy and fill write in place; equal is exact, allclose within tolerance
array v: f32[4] = [1, -2, 3, 0.5]
array w: f32[4]
copy(w, v)
print(w, equal(w, v), allclose(w, v))  //> [1.0, -2.0, 3.0, 0.5] true true
fill(w, 2)
print(w, equal(w, v))                  //> [2.0, 2.0, 2.0, 2.0] false
array u: f32[4] = [1.0000001, -2, 3, 0.5]
print(allclose(u, v), equal(u, v))     //> true false
---
array a: f32[3]
array b: f32[4]
copy(a, b)                       ### "copy: shapes \[3\] and \[4\] differ"
