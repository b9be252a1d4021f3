// stdlib script tests (stdlib/script_test.go): constructors and printing.
let z = zeros(3)
let o = ones([2, 2], dtype=i32)
let f = full(2, 7.5)
print(z, o, f)                   //> [0.0, 0.0, 0.0] [[1, 1], [1, 1]] [7.5, 7.5]
print(z.dtype, o.dtype, f.dtype) //> f32 i32 f32
print(empty(2).shape, empty([2, 3], dtype=i64).dtype, sum(zeros(0)))  //> [2] i64 0.0
print(ones(2, dtype=bool), zeros(2, dtype=u8), full([1, 2], -1, dtype=i64))  //> [true, true] [0, 0] [[-1, -1]]
---
// ranges: integer by default, float when a bound is
print(arange(5), arange(1, 4))   //> [0, 1, 2, 3, 4] [1, 2, 3]
print(arange(0, 1, 0.25))        //> [0.0, 0.25, 0.5, 0.75]
print(linspace(0, 1, 5))         //> [0.0, 0.25, 0.5, 0.75, 1.0]
---
// array() from nested lists
let a = array([[1, 2], [3, 4]], dtype=f64)
print(a, a.shape, a.dtype)       //> [[1.0, 2.0], [3.0, 4.0]] [2, 2] f64
---
// a list longer than one staging chunk (8 MiB) reaches a device array in
// several streamed copies
let a = array(range(2200000))
print(a.dtype, a[0], a[2199999], sum(a))  //> i32 0 2199999 2419998900000
---
let x = zeros(-1)                ### "zeros: shape: negative dimension -1"
---
// reshape infers one extent given as -1; transpose takes negative axes
let a = arange(12)
print(a.reshape(-1).shape, a.reshape([2, -1]).shape, reshape(a, [-1, 3, 2]).shape, a.reshape(3, -1)[-1])  //> [12] [2, 6] [2, 3, 2] [8, 9, 10, 11]
let m = a.reshape([3, 4])
print(m.T.reshape(-1), m[:, ::2].reshape([-1]), zeros([0, 5]).reshape([-1, 5]).shape)  //> [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11] [0, 2, 4, 6, 8, 10] [0, 5]
print(transpose(m, [-1, 0]), transpose(a.reshape([2, 3, 2]), [-1, -3, 1]).shape)  //> [[0, 4, 8], [1, 5, 9], [2, 6, 10], [3, 7, 11]] [2, 2, 3]
---
let x = arange(12).reshape([-1, -1])  ### "cannot reshape into shape \[-1, -1\]: only one extent can be -1 \(inferred\)"
---
let x = arange(7).reshape([2, -1])    ### "cannot reshape an array of size 7 into shape \[2, -1\]: 7 is not a multiple of 2"
---
let x = zeros([0, 3]).reshape([0, -1])  ### "cannot reshape an array of size 0 into shape \[0, -1\]: the other extents multiply to 0, so -1 has no one value"
---
let x = arange(6).reshape([3, -2])    ### "cannot reshape into shape \[3, -2\]: negative extent -2 \(-1 infers one extent\)"
---
let x = arange(6).reshape([2, 3])
print(transpose(x, [-1, -2]).shape)   //> [3, 2]
print(transpose(x, [1, -3]))          ### "transpose: axis -3 is out of range for a 2-D array"
---
let x = arange(6).reshape([2, 3])
print(transpose(x, [-1, 1]))          ### "\[1 1\] is not a permutation of the axes of a 2-D array"
---
let x = ones(2, dtype=f16)       ### "undefined: f16"
