// declarations: fill, list, copy, zero-filled
array a: f32[4] = 1.5
array b: i32[2, 3] = [[1, 2, 3], [4, 5, 6]]
array c: f64[4] = a
array z: u8[3]
print(a, b, c, z)         //> [1.5, 1.5, 1.5, 1.5] [[1, 2, 3], [4, 5, 6]] [1.5, 1.5, 1.5, 1.5] [0, 0, 0]
print(a.shape, b.shape, b.dtype, b.ndim, b.size, b.nbytes)  //> [4] [2, 3] i32 2 6 24
print(a.is_view, type(a), type(a.dtype))                  //> false array dtype
array flags: bool[2] = [true, false]
print(flags, flags[0], type(flags[1]))                    //> [true, false] true bool
---
//!cpu
array a: f32[4]
print(a.device, a.memory_kind)         //> cpu HOST
---
// indexing, element stores, rows, slices and views
array m: i32[2, 3] = [[1, 2, 3], [4, 5, 6]]
print(m[1, 2], type(m[1, 2]), m[0])    //> 6 i32 [1, 2, 3]
m[0, 1] = 20
m[1, 0] += 5
print(m)                               //> [[1, 20, 3], [9, 5, 6]]
array v: f32[5] = [0, 1, 2, 3, 4]
let s = v[1:3]
print(s, s.is_view, s.shape, v[:2], v[3:])  //> [1.0, 2.0] true [2] [0.0, 1.0] [3.0, 4.0]
s[0] = 10
print(v)                               //> [0.0, 10.0, 2.0, 3.0, 4.0]
let r = m.reshape([3, 2])
print(r, r.is_view)                    //> [[1, 20], [3, 9], [5, 6]] true
print(reshape(m, 6))                   //> [1, 20, 3, 9, 5, 6]
---
array v: f32[3]
print(v[3])                            ### "index 3 out of bounds for axis 0 with size 3"
---
array v: f32[3]
v[-1] = 1
v[-3] = 2
print(v, v[-1], v[-2])                 //> [2.0, 0.0, 1.0] 1.0 0.0
v[-4] = 1                              ### "index -4 out of bounds for axis 0 with size 3"
---
array v: i32[3]
v[0] = 1.5                             ### "not an integer"
---
array v: u8[3]
v[0] = 256                             ### "overflows u8"
---
array m: f32[2, 2] = [[1, 2], [3]]     ### "not rectangular"
---
array m: f32[2, 2] = [1, 2, 3, 4]      ### "shape \[4\] does not match array shape \[2, 2\]"
---
array q: f32[-1]                       ### "negative dimension"
---
array q: f16[2]                        ### "f16"
---
// constructors
print(zeros(3), ones(2, dtype=i32), full([2, 2], 7, dtype=i64))  //> [0.0, 0.0, 0.0] [1, 1] [[7, 7], [7, 7]]
print(arange(5), arange(1, 2, 0.25), arange(0, 10, 3, dtype=f64)) //> [0, 1, 2, 3, 4] [1.0, 1.25, 1.5, 1.75] [0.0, 3.0, 6.0, 9.0]
print(linspace(0, 1, 5), array([1, 2]), array([1.5, 2]), array([true]))  //> [0.0, 0.25, 0.5, 0.75, 1.0] [1, 2] [1.5, 2.0] [true]
print(array([[1, 2], [3, 4]], dtype=u8).dtype, empty(2).dtype, zeros([2, 3]).shape) //> u8 f32 [2, 3]
print(zeros(2, device="cpu", allocator="host").memory_kind)      //> HOST
print(zeros(0), zeros([2, 0]))                                   //> [] [[], []]
---
// one shape rule whatever the order of the axes: each extent is bounded too
zeros([0, 9223372036854775807])        ### "shape \[0 9223372036854775807\] is too large"
---
zeros([9223372036854775807, 0])        ### "shape \[9223372036854775807 0\] is too large"
---
zeros(2, dtype="f32")                  ### "dtype must be a dtype"
---
zeros(2, colour=1)                     ### "zeros has no keyword argument colour"
---
zeros(2, allocator="bogus")            ### "unknown allocator \"bogus\""
---
zeros(2, device="tpu")                 ### "invalid device \"tpu\""
---
// reductions and comparisons
let x = array([1.0, 2.0, 3.5])
print(sum(x), mean(x), min(x), max(x), type(sum(x)), type(min(x)))  //> 6.5 2.1666666666666665 1.0 3.5 float f32
print(sum(arange(101)), dot(x, x), dot(arange(3), arange(3)))     //> 5050 17.25 5
print(allclose(x, array([1.0, 2.0, 3.5000001])), allclose(x, array([1, 2, 4.0]))) //> true false
print(allclose(x, array([1, 2, 4.0]), atol=0.6), equal(x, x), equal(x, zeros(3)))  //> true true false
print(min(3, 1, 2), max([4, 9, 2]), sum(array([true, true, false])))  //> 1 9 2
---
min(zeros(0))                          ### "min of an empty array"
---
// copy, fill, to
array a: f32[3] = [1, 2, 3]
array b: i32[3]
copy(b, a)
fill(a, 9)
let c = a.to("cpu")
c[0] = 0
print(a, b, c, to(b, "cpu"))           //> [9.0, 9.0, 9.0] [1, 2, 3] [0.0, 9.0, 9.0] [1, 2, 3]
---
copy(zeros(3), zeros(4))               ### "shapes \[3\] and \[4\] differ"
---
// free: later use is an error
array a: f32[3]
free(a)
print(a)                               ### "freed"
---
array a: f32[3]
let v = a[0:2]
free(a)
print(v[0])                            ### "freed"
---
array a: f32[3]
free(a)
free(a)                                ### "freed"
---
// printing of large arrays is summarised
print(arange(2000))                    //> [0, 1, 2, ..., 1997, 1998, 1999]
print(zeros([2, 600], dtype=i32))      //> [[0, 0, 0, ..., 0, 0, 0], [0, 0, 0, ..., 0, 0, 0]]
print(len(str(arange(1000))) > 4000)   //> true
