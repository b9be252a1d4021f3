// stdlib script tests (stdlib/script_test.go): unique, searchsorted,
// bincount and histogram, kernels on the array's device. Expected outputs
// are NumPy 1.24's; internal/conformance runs a copy of this file on the
// cpu and every CUDA device.
let x = array([3, 1, 2, 3, 1, 1, 7], dtype=i32)
print(unique(x), unique(x, return_counts=true), unique(array([nan, 1.0, nan, -0.0, 0.0])), unique(zeros(0)))  //> [1, 2, 3, 7] [[1, 2, 3, 7], [3, 1, 2, 1]] [-0.0, 1.0, nan] []
let u, c = unique(array([true, false, true]), return_counts=true)
print(u, c, unique(arange(6).reshape([2, 3]) % 2), unique(x).dtype, c.dtype)  //> [false, true] [1, 2] [0, 1] i32 i64
---
// unique of many values: several sort tiles and scan tiles
let r = randint(0, 1000, 50000, seed=9)
let v, n = unique(r, return_counts=true)
print(len(v), sum(n), all(v == arange(1000)), min(n) > 0)  //> 1000 50000 true true
---
let a = array([1.0, 2.0, 2.0, 3.0, nan])
print(searchsorted(a, 2.0), searchsorted(a, 2.0, side="right"), searchsorted(a, array([0.0, 2.5, 9.0, nan])), searchsorted(a, array([[2.0], [nan]]), side="right"))  //> 1 3 [0, 3, 4, 4] [[3], [5]]
print(searchsorted(array([1, 3, 5]), 4), searchsorted(array([1, 3, 5]), 3.5), searchsorted(array([1, 3, 5], dtype=u8), array([0, 6], dtype=u8)))  //> 2 2 [0, 3]
print(searchsorted(arange(100000), array([-1, 0, 77777, 100000])), searchsorted(zeros(0), array([1.0])))  //> [0, 0, 77777, 100000] [0]
---
print(bincount(array([0, 1, 1, 3])), bincount(array([0, 1, 1, 3]), minlength=6), bincount(array([0, 1, 1]), weights=array([0.5, 1.0, 2.0])), bincount(zeros(0, dtype=i32)))  //> [1, 2, 0, 1] [1, 2, 0, 1, 0, 0] [0.5, 3.0] []
print(bincount(array([2, 2], dtype=u8)).dtype, bincount(array([true, true, false])), sum(bincount(randint(0, 100, 30000, seed=2))))  //> i64 [1, 2] 30000
---
// histogram: equal bins over the extremes or range=, or given edges;
// the last bin is closed, values outside and NaN are not counted
print(histogram(array([1.0, 2.0, 2.0, 3.0, 4.0])))  //> [[1, 0, 0, 2, 0, 0, 1, 0, 0, 1], [1.0, 1.3, 1.6, 1.9, 2.2, 2.5, 2.8, 3.1, 3.4, 3.6999999999999997, 4.0]]
print(histogram(array([1, 2, 1]), bins=[0, 1, 2, 3]), histogram(arange(10), bins=3, range=[0, 9]))  //> [[0, 2, 1], [0.0, 1.0, 2.0, 3.0]] [[3, 3, 4], [0.0, 3.0, 6.0, 9.0]]
print(histogram(array([0.5, 1.5, nan, 7.0]), bins=2, range=[0, 2]), histogram(array([5.0, 5.0]), bins=2), histogram(zeros(0), bins=2))  //> [[1, 1], [0.0, 1.0, 2.0]] [[0, 2], [4.5, 5.0, 5.5]] [[0, 0], [0.0, 0.5, 1.0]]
---
print(bincount(array([1, -1])))   ### "bincount: the array must have no negative elements"
---
print(bincount(array([1.5])))   ### "bincount: x must be a 1-D array of non-negative ints"
---
print(bincount(array([1, 2]), weights=array([1.0])))   ### "bincount: the weights and list don't have the same length"
---
print(searchsorted(zeros([2, 2]), 1.0))   ### "searchsorted: a must be 1-D, not 2-D"
---
print(searchsorted(zeros(2), 1.0, side="middle"))   ### "searchsorted: side must be \"left\" or \"right\""
---
print(histogram(array([1.0, nan])))   ### "histogram: autodetected range of \[nan, nan\] is not finite"
---
print(histogram(zeros(3), bins=[1, 0]))   ### "histogram: bins must increase monotonically"
---
print(histogram(zeros(3), range=[2, 1]))   ### "histogram: max must be larger than min in range parameter"
