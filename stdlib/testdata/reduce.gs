// stdlib script tests (stdlib/script_test.go): reductions and comparisons,
// which run as kernels on the array's device. internal/conformance runs a
// copy of this file on the cpu and every CUDA device, against the same
// expected output: the values are exact in any summation order.
let a = array([[1, 2], [3, 4]], dtype=f64)
print(sum(a), mean(a), min(a), max(a))             //> 10.0 2.5 1.0 4.0
array v: f32[4] = [1, -2, 3, 0.5]
print(sum(v), min(v), max(v), mean(v), dot(v, v))  //> 2.5 -2.0 3.0 0.625 14.25
---
array v: f32[4] = [1, -2, 3, 0.5]
print(prod(v), norm(array([3, 4], dtype=f32)), type(min(v)), type(sum(v)))  //> -3.0 5.0 f32 float
print(argmin(v), argmax(v), count_nonzero(v), any(v), all(v))              //> 1 2 4 true true
---
// ints: sums and products are exact host ints, min and max keep the dtype
array i: i32[5] = [1, -2, 3, 4, 5]
print(sum(i), prod(i), min(i), max(i), type(sum(i)), type(min(i)))  //> 11 -120 -2 5 int i32
print(mean(i), argmax(i), argmin(i), count_nonzero(i))              //> 2.2 4 1 5
array b8: u8[3] = [200, 100, 255]
print(sum(b8), max(b8), type(max(b8)), prod(array([65536, 65536])))  //> 555 255 u8 4294967296
array big: i64[3] = [9223372036854775807, -9223372036854775807, 5]
print(sum(big), prod(array([3037000499, 3037000499], dtype=i64)))     //> 5 9223372030926249001
print(prod(array([4294967296, 4294967296, 0], dtype=i64)))            //> 0
---
array big: i64[2] = [9223372036854775807, 1]
print(sum(big))                                    ### "sum overflows int"
---
print(prod(array([3037000500, 3037000500], dtype=i64)))  ### "prod overflows int"
---
print(prod(array([4294967296, -4294967296], dtype=i64)))  ### "prod overflows int"
---
// u64 values of 2^63 and more do not fit a host int
kernel setmax(u: array[u64]) {
    u[tid()] = ~u64(0)
}
array u: u64[2]
launch setmax[2](u)
print(max(u), min(u), argmax(u), count_nonzero(u), sum(u.reshape([1, 2]), axis=1))  //> 18446744073709551615 18446744073709551615 0 2 [18446744073709551614]
print(sum(u))                                      ### "sum overflows int"
---
// bools: sums count, min and max are bools
array f: bool[4] = [true, false, true, true]
print(sum(f), prod(f), any(f), all(f), count_nonzero(f))     //> 3 0 true false 3
print(min(f), max(f), argmin(f), argmax(f), mean(f))         //> false true 1 0 0.75
---
// NaN propagates as in NumPy; argmin and argmax give the first NaN
array v: f32[5] = [1, sqrt(-1.0), 3, sqrt(-1.0), -5]
print(min(v), max(v), sum(v), mean(v), argmin(v), argmax(v))  //> nan nan nan nan 1 1
print(any(v), all(v), count_nonzero(v), norm(v))             //> true true 5 nan
print(isclose(v, v), allclose(v, v), allclose(v, v, equal_nan=true), equal(v, v))  //> [true, false, true, false, true] false true false
array w: f64[3] = [2, 1, 2]
print(argmax(w), argmin(w), argmax(array([1, 1], dtype=i32)))  //> 0 1 0
---
// infinities
let inf = 1.0 / 0.0
array v: f64[3] = [inf, -inf, 1]
print(max(v), min(v), argmax(v), argmin(v), sum(v))        //> inf -inf 0 1 nan
print(isclose(v, v), allclose(v, v))                       //> [true, true, true] true
// elements equal to the identity still have an index
print(argmax(array([-inf, -inf])), argmin(array([inf, inf])), argmax(zeros(3, dtype=u8)), max(array([-inf])))  //> 0 0 0 -inf
print(argmax(zeros([2, 3], dtype=bool), axis=1), argmin(full([2, 2], inf), axis=0))  //> [0, 0] [0, 0]
---
// along axes: a new array on the same device; floats keep their dtype
array m: f32[2, 3] = [[1, 2, 3], [4, 5, 6]]
print(sum(m, axis=0), sum(m, axis=1), sum(m, axis=[0, 1], keepdims=true))  //> [5.0, 7.0, 9.0] [6.0, 15.0] [[21.0]]
print(sum(m, axis=[1, 0]), mean(m, axis=1), max(m, axis=0), argmax(m, axis=1), argmin(m, axis=0))  //> 21.0 [2.0, 5.0] [4.0, 5.0, 6.0] [2, 2] [0, 0, 0]
let s = sum(m, axis=1, keepdims=true)
print(s, s.dtype, s.device == m.device, norm(m, axis=0).dtype)  //> [[6.0], [15.0]] f32 true f32
print(prod(m, axis=0), min(m, axis=1), count_nonzero(m, axis=0), any(m, axis=1))  //> [4.0, 10.0, 18.0] [1.0, 4.0] [2, 2, 2] [true, true]
---
// ints along axes: sums and products as NumPy (i64, u64 for unsigned; they wrap), means in f64
array k: i32[2, 3] = [[1, 2, 3], [4, 5, 6]]
let s = sum(k, axis=0)
print(s, s.dtype, prod(k, axis=1), min(k, axis=1), max(k, axis=1).dtype)  //> [5, 7, 9] i64 [6, 120] [1, 4] i32
print(mean(k, axis=0), mean(k, axis=0).dtype, count_nonzero(k, axis=1))  //> [2.5, 3.5, 4.5] f64 [3, 3]
print(sum(array([[1, 2]], dtype=u32), axis=1).dtype, sum(k, axis=[]))     //> u64 [[1, 2, 3], [4, 5, 6]]
array t: bool[2, 2] = [[true, false], [true, true]]
print(any(t, axis=1), all(t, axis=1), all(t, axis=0), sum(t, axis=0), sum(t, axis=0).dtype)  //> [true, true] [false, true] [true, false] [2, 1] i64
print(argmax(t, axis=1), min(t, axis=1), max(t, axis=0))  //> [0, 0] [false, true] [true, true]
---
// three axes, lists of axes, keepdims, views
let c = arange(24, dtype=f64).reshape([2, 3, 4])
print(sum(c, axis=[0, 2]), sum(c, axis=[2, 0], keepdims=true))  //> [60.0, 92.0, 124.0] [[[60.0], [92.0], [124.0]]]
print(sum(c, axis=1))                              //> [[12.0, 15.0, 18.0, 21.0], [48.0, 51.0, 54.0, 57.0]]
print(max(c, axis=[1, 2]), argmax(c, axis=2), sum(c), argmax(c))  //> [11.0, 23.0] [[3, 3, 3], [3, 3, 3]] 276.0 23
let rows = c.reshape([6, 4])[1:5]
print(rows.is_view, sum(rows), sum(rows, axis=0), sum(rows, axis=1))  //> true 184.0 [40.0, 44.0, 48.0, 52.0] [22.0, 38.0, 54.0, 70.0]
print(sum(c[1]), argmax(c[1]), min(c[1], axis=0))  //> 210.0 11 [12.0, 13.0, 14.0, 15.0]
---
// a long array: two passes over many blocks
let n = 1000003
let x = arange(n, dtype=i64)
print(sum(x), max(x), argmax(x), argmin(x), count_nonzero(x))  //> 500002500003 1000002 1000002 0 1000002
let y = ones(n)
print(sum(y), mean(y), dot(y, y), all(y), sum(y.reshape([1000003, 1]), axis=0))  //> 1000003.0 1.0 1000003.0 true [1000003.0]
let z = zeros([1000, 1000], dtype=i32)
print(sum(ones([1000, 1000], dtype=i32), axis=1)[999], sum(z, axis=0)[0], prod(ones([3, 1000]), axis=1))  //> 1000 0 [1.0, 1.0, 1.0]
---
// empty arrays: the identity, as in NumPy
print(sum(zeros(0)), prod(zeros(0, dtype=i32)), any(zeros(0)), all(zeros(0)), count_nonzero(zeros(0)), norm(zeros(0)))  //> 0.0 1 false true 0 0.0
print(sum(zeros([0, 3]), axis=0), sum(zeros([3, 0]), axis=1), max(zeros([0, 3]), axis=1), dot(zeros(0), zeros(0)))  //> [0.0, 0.0, 0.0] [0.0, 0.0, 0.0] [] 0.0
let e = zeros([2, 0], dtype=i32)
print(prod(e, axis=1), mean(e, axis=1), any(e, axis=1), all(e, axis=1), count_nonzero(e, axis=1), norm(e, axis=1))  //> [1, 1] [nan, nan] [false, false] [true, true] [0, 0] [0.0, 0.0]
---
print(min(zeros(0)))             ### "min of an empty array"
---
print(argmax(zeros(0)))          ### "argmax of an empty array"
---
print(mean(zeros(0)))            ### "mean of an empty array"
---
print(max(zeros([3, 0]), axis=1))  ### "max along an axis of length 0"
---
// negative axes count from the last (NumPy's axis=-1), in lists too
let c = arange(24, dtype=f64).reshape([2, 3, 4])
print(sum(c, axis=-1), sum(c, axis=[-1, 0]), sum(c, axis=-3, keepdims=true).shape)  //> [[6.0, 22.0, 38.0], [54.0, 70.0, 86.0]] [60.0, 92.0, 124.0] [1, 3, 4]
print(argmax(c, axis=-2), min(c[0], axis=-1), mean(c, axis=[-2, -1]), any(c, axis=-1).shape)  //> [[2, 2, 2, 2], [2, 2, 2, 2]] [0.0, 4.0, 8.0] [5.5, 17.5] [2, 3]
print(sum(c * 2, axis=-1)[1], norm(c[0], axis=-2), count_nonzero(c[0], axis=[-1]))  //> [108.0, 140.0, 172.0] [8.94427190999916, 10.344080432788601, 11.832159566199232, 13.379088160259652] [3, 4, 4]
---
// axis errors name the axis as written
array m: f32[2, 3]
print(sum(m, axis=2))            ### "sum: axis 2 is out of range for a 2-D array"
---
array m: f32[2, 3]
print(sum(m, axis=-3))           ### "sum: axis -3 is out of range for a 2-D array"
---
array m: f32[2, 3]
print(max(m * 2, axis=[0, -3]))  ### "max: axis -3 is out of range for a 2-D array"
---
array m: f32[2, 3]
print(sum(m, axis=[1, -1]))      ### "sum: axis 1 is repeated"
---
array m: f32[2, 3]
print(sum(m, axis=[0, 0]))       ### "axis 0 is repeated"
---
array m: f32[2, 3]
print(argmax(m, axis=[0]))       ### "argmax: axis must be an int, not list"
---
array m: f32[2, 3]
print(sum(m, keepdims=1))        ### "sum: keepdims must be a bool, not int"
---
print(min(1, 2, axis=0))         ### "min: axis= and keepdims= need one array"
---
// host lists and values keep their host meaning
print(sum([1, 2, 3]), sum([1, 2.5]), prod([2, 3]), mean([1, 2]), min(3, 1, 2), max([1, 5, 2]))  //> 6 3.5 6 1.5 1 5
print(any([false, true]), all([]), sum([]), min("b", "a"))  //> true true 0 a
---
print(sum([9223372036854775807, 1]))  ### "sum: "
---
print(sum(["a"]))                ### "sum: list elements must be numbers, not string"
---
// dot: floats in f64, ints exact
array x: i32[3] = [1, 2, 3]
array y: i64[3] = [4, 5, 6]
array h: f32[3] = [0.5, 0.5, 0.5]
print(dot(x, y), dot(x, h), dot(array([9223372036854775807, 1]), array([1, -1])))  //> 32 3.0 9223372036854775806
---
print(dot(array([4294967296], dtype=i64), array([4294967296], dtype=i64)))  ### "dot overflows int"
---
print(dot(zeros(2), zeros(3)))   ### "dot needs two 1-D arrays of one length, got shapes \[2\] and \[3\]"
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
// isclose is elementwise; equal and array_equal compare shapes and values
array p: f64[3] = [1, 2, 3]
array q: f64[3] = [1, 2.000001, 3.1]
print(isclose(p, q), allclose(p, q), allclose(p, q, atol=0.2), isclose(p, q, rtol=0.1))  //> [true, true, false] false true [true, true, true]
print(equal(p, p), array_equal(p, q), equal(p, zeros(2)), equal(array([1, 2]), array([1, 2], dtype=f32)))  //> true false false true
let e = isclose(zeros([2, 2]), ones([2, 2]), atol=1)
print(e, e.dtype)                      //> [[true, true], [true, true]] bool
---
print(allclose(zeros(3), zeros(4)))    ### "allclose: shapes \[3\] and \[4\] differ"
---
array a: f32[3]
array b: f32[4]
copy(a, b)                       ### "copy: shapes \[3\] and \[4\] differ"
---
//!cuda
// a reduction's result cannot be read inside a capture block; along an
// axis it is recorded and runs at replay
array m: f32[2, 2] = 1 on "cuda:0"
capture g on "cuda:0" {
    print(sum(m))                ### "sum: the result of a reduction cannot be read inside a capture block on cuda:0"
}
---
//!cuda
array m: f32[2, 2] = 1 on "cuda:0"
let s = nil
allocator mempool {
    capture g on "cuda:0" {
        s = sum(m, axis=0)
    }
    replay(g)
}
print(s, s.memory_kind)          //> [2.0, 2.0] CUDA_MEMPOOL
---
//!cuda
array m: f32[2] = 1 on "cuda:0"
array c: f32[2] = 1 on "cpu"
print(dot(m, c))                 ### "dot: arrays on cuda:0 and cpu: move one with .to\(device\)"
