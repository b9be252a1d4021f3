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
let x = ones(2, dtype=f16)       ### "undefined: f16"
