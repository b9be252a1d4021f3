// stdlib script tests (stdlib/script_test.go): the scans cumsum and
// cumprod, which run as kernels on the array's device. internal/conformance
// runs a copy of this file on the cpu and every CUDA device, against the
// same expected output: the values are exact in any order of combining.
let m = array([[1, 2, 3], [4, 5, 6]], dtype=i32)
print(cumsum(m), cumsum(m, axis=0), cumsum(m, axis=1))  //> [1, 3, 6, 10, 15, 21] [[1, 2, 3], [5, 7, 9]] [[1, 3, 6], [4, 9, 15]]
print(cumprod(m), cumprod(m, axis=0), cumprod(m, axis=1))  //> [1, 2, 6, 24, 120, 720] [[1, 2, 3], [4, 10, 18]] [[1, 2, 6], [4, 20, 120]]
let s = cumsum(m, axis=1)
print(s.dtype, s.shape, s.device == m.device, s.is_view, cumsum(m).shape)  //> i64 [2, 3] true false [6]
---
// dtypes as NumPy: floats keep theirs, bools and signed ints give i64,
// unsigned ints u64
array f: f32[4] = [1.5, 2, -1, 0.25]
print(cumsum(f), cumprod(f), cumsum(f).dtype, cumprod(f).dtype)  //> [1.5, 3.5, 2.5, 2.75] [1.5, 3.0, -3.0, -0.75] f32 f32
array b: bool[4] = [true, false, true, true]
print(cumsum(b), cumprod(b), cumsum(b).dtype)  //> [1, 1, 2, 3] [1, 0, 0, 0] i64
array u: u8[3] = [200, 100, 255]
print(cumsum(u), cumsum(u).dtype, cumsum(array([1, 2], dtype=u32)).dtype, cumprod(u).dtype)  //> [200, 300, 555] u64 u64 u64
print(cumsum(array([0.5, 0.25], dtype=f64)).dtype, cumsum(array([1, 2], dtype=i64)).dtype)  //> f64 i64
---
// integer overflow wraps, as NumPy's arrays do
print(cumsum(array([9223372036854775807, 1])), cumprod(array([4294967296, 4294967296, 3])))  //> [9223372036854775807, -9223372036854775808] [4294967296, 0, 0]
---
// NaN and signed zeros as a sequential scan gives them
let nan = sqrt(-1.0)
print(cumsum(array([1, nan, 2])), cumprod(array([2, nan])), cumsum(array([-0.0, -0.0])))  //> [1.0, nan, nan] [2.0, nan] [-0.0, -0.0]
---
// views: a slice, an element of the first axis, three axes
let c = arange(24, dtype=i32).reshape([2, 3, 4])
let rows = c.reshape([6, 4])[1:5]
print(rows.is_view, cumsum(rows, axis=0)[3], cumsum(rows, axis=1)[0], cumsum(rows)[15])  //> true [40, 44, 48, 52] [4, 9, 15, 22] 184
print(cumsum(c[1], axis=1), cumprod(c[0][1:3], axis=0))  //> [[12, 25, 39, 54], [16, 33, 51, 70], [20, 41, 63, 86]] [[4, 5, 6, 7], [32, 45, 60, 77]]
print(cumsum(c, axis=1)[1], cumsum(c, axis=0)[1][2], cumsum(c, axis=2)[1][2])  //> [[12, 13, 14, 15], [28, 30, 32, 34], [48, 51, 54, 57]] [28, 30, 32, 34] [20, 41, 63, 86]
---
// long arrays: many tiles of a block each, and a scan of their totals
let x = cumsum(ones(1000003, dtype=i32))
print(x[0], x[4095], x[4096], x[1000002], x.dtype)  //> 1 4096 4097 1000003 i64
let y = cumsum(arange(300000, dtype=i64).reshape([3, 100000]), axis=1)
print(y[0][99999], y[2][99999], y[1][0])  //> 4999950000 24999950000 100000
let z = cumsum(ones([100000, 3], dtype=f32), axis=0)
print(z[99999], z.dtype, cumprod(full(5000, -1.0))[4999])  //> [100000.0, 100000.0, 100000.0] f32 1.0
---
// empty arrays give empty results; a 0-D array a 1-D one
print(cumsum(zeros(0)), cumsum(zeros([0, 3]), axis=1).shape, cumprod(zeros([2, 0]), axis=1).shape, cumsum(zeros([2, 0])).shape)  //> [] [0, 3] [2, 0] [0]
print(cumsum(zeros([2, 0], dtype=i32), axis=0).dtype)  //> i64
---
array m: f32[2, 3]
print(cumsum(m, axis=2))         ### "cumsum: axis 2 is out of range for a 2-D array"
---
// a negative axis counts from the last
let c = arange(12, dtype=i32).reshape([2, 3, 2])
print(cumsum(c, axis=-1)[1], cumprod(c + 1, axis=-3)[1][0], cumsum(c[0], axis=-2))  //> [[6, 13], [8, 17], [10, 21]] [7, 16] [[0, 1], [2, 4], [6, 9]]
---
array m: f32[2, 3]
print(cumprod(m, axis=-3))       ### "cumprod: axis -3 is out of range for a 2-D array"
---
array m: f32[2, 3]
print(cumsum(m, axis=[0]))       ### "cumsum: axis must be an int, not list"
---
print(cumsum([1, 2]))            ### "cumsum: argument 1 must be an array, not list"
---
array m: f32[2, 3]
print(cumsum(m, keepdims=true))  ### "cumsum"
---
//!cuda
// inside a capture block a scan is recorded and runs at replay
array m: i32[2, 3] = 1 on "cuda:0"
let s = nil
let t = nil
allocator mempool {
    capture g on "cuda:0" {
        s = cumsum(m, axis=1)
        t = cumsum(ones(100000, dtype=i32, device="cuda:0"))
    }
    replay(g)
}
print(s, s.memory_kind, t[99999])  //> [[1, 2, 3], [1, 2, 3]] CUDA_MEMPOOL 100000
