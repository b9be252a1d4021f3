// stdlib script tests (stdlib/script_test.go): sort and argsort, a radix
// sort of generated kernels on the array's device (stable, NaN last).
// Expected outputs are NumPy 1.24's (argsort with kind="stable");
// internal/conformance runs a copy of this file on the cpu and every CUDA
// device.
let x = array([3.0, -1.0, nan, 2.0, -0.0, 0.0, -5.5, inf, -inf, nan], dtype=f32)
print(sort(x), argsort(x))  //> [-inf, -5.5, -1.0, -0.0, 0.0, 2.0, 3.0, inf, nan, nan] [8, 6, 1, 4, 5, 3, 0, 7, 2, 9]
print(sort(x).dtype, argsort(x).dtype, sort(x).is_view, argsort(array([0.0, -0.0, 0.0], dtype=f64)))  //> f32 i64 false [0, 1, 2]
---
let i = array([5, -3, 7, 0, -3, 2], dtype=i32)
print(sort(i), argsort(i), sort(array([true, false, true])), argsort(array([true, false, true])))  //> [-3, -3, 0, 2, 5, 7] [1, 4, 3, 5, 0, 2] [false, true, true] [1, 0, 2]
print(sort(array([200, 3, 255], dtype=u8)), sort(array([4000000000, 3], dtype=u32)), sort(array([-9223372036854775807, 5, -1])))  //> [3, 200, 255] [3, 4000000000] [-9223372036854775807, -1, 5]
print(sort(array([3000000000, 1], dtype=u64) * u64(4000000000)), argsort(array([2, 1, 2, 1], dtype=u64)))  //> [4000000000, 12000000000000000000] [1, 3, 0, 2]
---
// along an axis (default the last, negative from the last), or of the
// flattened array with axis=nil
let m = array([[3, 1, 2], [9, 7, 8]], dtype=i64)
print(sort(m), sort(m, axis=0), argsort(m, axis=0), sort(m, axis=nil), sort(m.T), argsort(m, axis=-1))  //> [[1, 2, 3], [7, 8, 9]] [[3, 1, 2], [9, 7, 8]] [[0, 0, 0], [1, 1, 1]] [1, 2, 3, 7, 8, 9] [[3, 9], [1, 7], [2, 8]] [[1, 2, 0], [1, 2, 0]]
let c = array([[[4, 1], [2, 3]], [[0, 5], [1, 1]]], dtype=i32)
print(sort(c, axis=1), argsort(c, axis=0), sort(c, kind="stable")[1])  //> [[[2, 1], [4, 3]], [[0, 1], [1, 5]]] [[[1, 0], [1, 1]], [[0, 1], [0, 0]]] [[0, 5], [1, 1]]
---
// long rows: many tiles a row and many rows
let r = rand([3, 20000], seed=3)
let s = sort(r)
let a = argsort(r, axis=1)
print(all(s[:, 1:] >= s[:, :-1]), allclose(sum(s, axis=1), sum(r, axis=1)), all(sort(a) == arange(20000)))  //> true true true
print(a[1, 0] == argmin(r[1]), a[2, 19999] == argmax(r[2]), s[0, 0] == min(r[0]))  //> true true true
let t = sort(r, axis=0)
print(all(t[1] >= t[0]), all(t[2] >= t[1]), sort(zeros([2, 0])).shape, sort(zeros(0)), argsort(zeros([0, 3]), axis=0).shape)  //> true true [2, 0] [] [0, 3]
---
print(sort(zeros([2, 2]), axis=2))   ### "sort: axis 2 is out of range for a 2-D array"
---
print(argsort(zeros(3), kind="bogo"))   ### "argsort: kind must be one of"
---
print(sort([3, 1, 2]))   ### "sort: argument 1 must be an array, not list"
