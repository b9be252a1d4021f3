// stdlib script tests (stdlib/script_test.go): joining, splitting and
// rearranging (concatenate stack split flip roll tile repeat diff outer).
// Expected outputs are NumPy 1.24's; internal/conformance runs a copy of
// this file on the cpu and every CUDA device.
let a = array([[1, 2], [3, 4]], dtype=i32)
let b = array([[5, 6]], dtype=i32)
print(concatenate([a, b]), concatenate([a, b.T], axis=1), concatenate([a, b], axis=nil))  //> [[1, 2], [3, 4], [5, 6]] [[1, 2, 5], [3, 4, 6]] [1, 2, 3, 4, 5, 6]
print(concatenate([a, b], axis=-2).shape, concatenate([a, b]).dtype, concatenate([a, array([[0.5, 1]])]).dtype)  //> [3, 2] i32 f64
print(concatenate([a, zeros([0, 2], dtype=i32)]), concatenate([a]).is_view)  //> [[1, 2], [3, 4]] false
---
let a = array([[1, 2], [3, 4]], dtype=i32)
print(stack([a, a], axis=-1), stack([a[0], a[1]]), stack([a[0], a[1]], axis=1))  //> [[[1, 1], [2, 2]], [[3, 3], [4, 4]]] [[1, 2], [3, 4]] [[1, 3], [2, 4]]
print(stack([a, a, a]).shape, stack([a, a], axis=2).shape)  //> [3, 2, 2] [2, 2, 2]
---
// split gives views: equal sections, or the parts between indices
// (clamped as slices are)
let p = split(arange(6), 3)
print(p, p[0].is_view, split(arange(6), [1, -2, 10]))  //> [[0, 1], [2, 3], [4, 5]] true [[0], [1, 2, 3], [4, 5], []]
let m = arange(12, dtype=i32).reshape([3, 4])
print(split(m, 2, axis=1), split(m, [1], axis=-2)[1])  //> [[[0, 1], [4, 5], [8, 9]], [[2, 3], [6, 7], [10, 11]]] [[4, 5, 6, 7], [8, 9, 10, 11]]
let q = split(m, 2, axis=1)
q[0][0, 0] = 99
print(m[0])  //> [99, 1, 2, 3]
---
// flip is a view with negative strides
let a = array([[1, 2], [3, 4]], dtype=i32)
print(flip(a), flip(a, axis=0), flip(a, axis=-1), flip(a).is_view, flip(a.T), flip(a, axis=[0, 1]))  //> [[4, 3], [2, 1]] [[3, 4], [1, 2]] [[2, 1], [4, 3]] true [[4, 2], [3, 1]] [[4, 3], [2, 1]]
let v = flip(arange(5))
print(v, sum(v), v[0], flip(v), flip(zeros(0)))  //> [4, 3, 2, 1, 0] 10 4 [0, 1, 2, 3, 4] []
---
let a = array([[1, 2], [3, 4]], dtype=i32)
print(roll(arange(5), 2), roll(arange(5), -7), roll(a, 1), roll(a, -1, axis=1), roll(a, [1, 1], axis=[0, 1]))  //> [3, 4, 0, 1, 2] [2, 3, 4, 0, 1] [[4, 1], [2, 3]] [[2, 1], [4, 3]] [[4, 3], [2, 1]]
print(roll(a, 1).is_view, roll(a, 1).shape, roll(a, 0, axis=0), roll(a.T, 1), roll(zeros(0), 3))  //> false [2, 2] [[1, 2], [3, 4]] [[4, 1], [3, 2]] []
---
let a = array([[1, 2], [3, 4]], dtype=i32)
print(tile(array([1, 2]), 2), tile(array([1, 2]), [2, 2]), tile(a, 2), tile(a, [2, 1]).is_view)  //> [1, 2, 1, 2] [[1, 2, 1, 2], [1, 2, 1, 2]] [[1, 2, 1, 2], [3, 4, 3, 4]] false
print(tile(a, [2, 1, 1]).shape, tile(a, 0).shape, tile(a.T, [1, 2]))  //> [2, 2, 2] [2, 0] [[1, 3, 1, 3], [2, 4, 2, 4]]
---
let a = array([[1, 2], [3, 4]], dtype=i32)
print(repeat(a, 2), repeat(a, 2, axis=0), repeat(a, 3, axis=-1))  //> [1, 1, 2, 2, 3, 3, 4, 4] [[1, 2], [1, 2], [3, 4], [3, 4]] [[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 4]]
print(repeat(a.T, 2), repeat(a, 0, axis=1).shape, repeat(a, 1).dtype)  //> [1, 1, 3, 3, 2, 2, 4, 4] [2, 0] i32
print(repeat(a, [1, 2], axis=0), repeat(a, [3, 0], axis=-1), repeat(arange(3), [0, 1, 2]), repeat(a.T, [2, 1], axis=1))  //> [[1, 2], [3, 4], [3, 4]] [[1, 1, 1], [3, 3, 3]] [1, 2, 2] [[1, 1, 3], [2, 2, 4]]
print(repeat(a, [0, 0], axis=0).shape, repeat(array([1.5, 2.5]), [2, 1]), repeat(arange(4), [1, 1, 1, 1]).is_view)  //> [0, 2] [1.5, 1.5, 2.5] false
---
// diff: a[1:] - a[:-1] n times; bools by !=
let a = array([[1, 2], [3, 4]], dtype=i32)
print(diff(array([1, 4, 9, 16])), diff(array([1, 4, 9, 16]), n=2), diff(a, axis=0), diff(array([true, false, false])))  //> [3, 5, 7] [2, 2] [[2, 2]] [true, false]
print(diff(arange(3), n=5), diff(array([1.5, 1.0]), n=0), diff(a).dtype, diff(array([3, 1], dtype=u8)))  //> [] [1.5, 1.0] i32 [254]
---
print(outer(array([1, 2, 3]), array([1.0, 10.0])), outer(array([[1, 2], [3, 4]]), array([1, 2])).shape)  //> [[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]] [4, 2]
print(outer(array([true, false]), array([true, true])), outer(arange(2, dtype=i32), arange(2, dtype=i32)).dtype)  //> [[true, true], [false, false]] i32
---
print(concatenate([arange(2), zeros([2, 2])]))   ### "concatenate: all the input arrays must have the same number of dimensions, but the array at index 0 has 1 dimension\(s\) and the array at index 1 has 2 dimension\(s\)"
---
print(concatenate([zeros([2, 2]), zeros([2, 3])]))   ### "concatenate: all the input array dimensions except for the concatenation axis must match exactly, but along dimension 1, the array at index 0 has size 2 and the array at index 1 has size 3"
---
print(concatenate([]))   ### "concatenate: need at least one array"
---
print(concatenate(zeros(3)))   ### "concatenate: argument 1 must be a list of arrays, not array"
---
print(concatenate([zeros(2)], axis=1))   ### "concatenate: axis 1 is out of range for a 1-D array"
---
print(stack([zeros(2), zeros(3)]))   ### "stack: all input arrays must have the same shape \(\[2\] and \[3\]\)"
---
print(split(arange(5), 2))   ### "split: array split does not result in an equal division: 5 into 2"
---
print(flip(zeros([2, 2]), axis=2))   ### "flip: axis 2 is out of range for a 2-D array"
---
print(roll(zeros(3), [1, 2], axis=[0]))   ### "roll: shift and axis must have one length, not 2 and 1"
---
print(tile(zeros(3), -1))   ### "tile: negative repetition -1"
---
print(repeat(zeros(3), -1))   ### "repeat: negative dimensions are not allowed \(repeats -1\)"
---
print(repeat(arange(3), [1, 2]))   ### "repeat: operands could not be broadcast together: 2 repeats for an axis of 3"
---
print(diff(zeros(3), n=-1))   ### "diff: order must be non-negative but got -1"
