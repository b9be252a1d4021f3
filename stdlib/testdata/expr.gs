// stdlib script tests (stdlib/script_test.go): elementwise array
// expressions (ARRAYS.md section 2), each statement one fused kernel on
// the arrays' device. internal/conformance runs this file on the cpu and
// every CUDA device, against the same expected output.
array a: f32[4] = [1, 2, 3, 4]
print(a + a, a * 2 + 1)              //> [2.0, 4.0, 6.0, 8.0] [3.0, 5.0, 7.0, 9.0]
print(a - 1, a / 2, -a)              //> [0.0, 1.0, 2.0, 3.0] [0.5, 1.0, 1.5, 2.0] [-1.0, -2.0, -3.0, -4.0]
let z = a * a + a
print(z, z.dtype, z.shape)           //> [2.0, 6.0, 12.0, 20.0] f32 [4]
print(10 - a, 1 / a[0:2])            //> [9.0, 8.0, 7.0, 6.0] [1.0, 0.5]
---
// ints: / and % truncate toward zero (as in kernels), overflow wraps
array i: i32[4] = [-7, 7, 5, 2147483647]
print(i / 2, i % 3)                  //> [-3, 3, 2, 1073741823] [-1, 1, 2, 1]
print(i + 1)                         //> [-6, 8, 6, -2147483648]
print(~i, -i)                        //> [6, -8, -6, -2147483648] [7, -7, -5, -2147483647]
print(i & 6, i | 1, i ^ i)           //> [0, 6, 4, 6] [-7, 7, 5, 2147483647] [0, 0, 0, 0]
array u: u8[3] = [250, 3, 0]
print(u + 10, u - 4)                 //> [4, 13, 10] [246, 255, 252]
---
// comparisons give bool arrays; & | ^ ! on bools
array a: f32[4] = [1, 2, 3, 4]
let m = a > 1.5
print(m, m.dtype)                    //> [false, true, true, true] bool
print(a == 2, a != 2, a <= 2, a >= 3)  //> [false, true, false, false] [true, false, true, true] [true, true, false, false] [false, false, true, true]
print((a > 1) & (a < 4), (a < 2) | (a > 3), m ^ true, !m)  //> [false, true, true, false] [true, false, false, true] [true, false, false, false] [true, false, false, false]
---
// NumPy broadcasting: trailing axes align, axes of 1 stretch
array m: f32[2, 3] = [[1, 2, 3], [4, 5, 6]]
array row: f32[3] = [10, 20, 30]
array col: f32[2, 1] = [[100], [200]]
print(m + row)                       //> [[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]
print(m * col)                       //> [[100.0, 200.0, 300.0], [800.0, 1000.0, 1200.0]]
print(row + col, (row + col).shape)  //> [[110.0, 120.0, 130.0], [210.0, 220.0, 230.0]] [2, 3]
array one: f32[1] = [0.5]
print(row * one)                     //> [5.0, 10.0, 15.0]
---
array a: f32[3] = 1.0
array b: f32[4] = 1.0
print(a + b)                         ### "operands could not be broadcast together: \[3\] and \[4\]"
---
array m: f32[2, 3] = 1.0
array c: f32[2] = 1.0
let r = m * c                        ### "operands could not be broadcast together: \[2, 3\] and \[2\]"
---
// dtype promotion: NEP 50 for host numbers, NumPy's table for two arrays
array f: f32[2] = [1, 2]
array d: f64[2] = [1, 2]
array i: i32[2] = [1, 2]
array l: i64[2] = [1, 2]
array b: u8[2] = [1, 2]
array w: u32[2] = [1, 2]
array q: u64[2] = [1, 2]
array t: bool[2] = [true, false]
print((f + 1).dtype, (f * 2.5).dtype, (i + 1).dtype, (i * 2.5).dtype, (b + 1).dtype)  //> f32 f32 i32 f64 u8
print((f + d).dtype, (f + i).dtype, (f + b).dtype, (i + l).dtype, (i + b).dtype)      //> f64 f64 f32 i64 i32
print((i + w).dtype, (l + q).dtype, (w + q).dtype, (b + w).dtype, (t & i).dtype)      //> i64 f64 u64 u32 i32
print((f + f32(1)).dtype, (f + f64(1)).dtype, (i + i64(1)).dtype, (t == t).dtype)     //> f32 f64 i64 bool
print(i * 2.5, f + 1e300)            //> [2.5, 5.0] [inf, inf]
---
array b: u8[2] = [1, 2]
print(b + 300)                       ### "300 does not fit the array's dtype u8"
---
array t: bool[2] = [true, false]
print(t + t)                         ### "operator \+ not defined on bool arrays"
---
array f: f32[2] = [1, 2]
print(f % 2)                         ### "operator % not defined on float arrays"
---
array f: f32[2] = [1, 2]
print(f & 1)                         ### "operator & not defined on float arrays"
---
array f: f32[2] = [1, 2]
print(!f)                            ### "operator ! not defined on float arrays"
---
array f: f32[2] = [1, 2]
print(f < 2 && f > 0)                ### "condition must be a bool, not array"
---
array f: f32[2] = [1, 2]
print(f << 1)                        ### "operator << is not supported on arrays yet"
---
// math functions, minimum, maximum, clip, where, astype
array a: f32[4] = [1, 4, 9, 16]
print(sqrt(a), sqrt(a).dtype)        //> [1.0, 2.0, 3.0, 4.0] f32
print(abs(a - 5), floor(a / 5), ceil(a / 5), trunc(-a / 5))  //> [4.0, 1.0, 4.0, 11.0] [0.0, 0.0, 1.0, 3.0] [1.0, 1.0, 2.0, 4.0] [-0.0, -0.0, -1.0, -3.0]
print(exp(a - a), log(a / a), pow(a, 0.5))  //> [1.0, 1.0, 1.0, 1.0] [0.0, 0.0, 0.0, 0.0] [1.0, 2.0, 3.0, 4.0]
array i: i32[3] = [-2, 0, 9]
print(abs(i), sqrt(i + 2).dtype, round(a / 8))  //> [2, 0, 9] f64 [0.0, 1.0, 1.0, 2.0]
print(minimum(a, 5), maximum(a, 5), clip(a, 2, 10))  //> [1.0, 4.0, 5.0, 5.0] [5.0, 5.0, 9.0, 16.0] [2.0, 4.0, 9.0, 10.0]
print(where(a > 5, a, -a), where(a > 5, 1, 0).dtype)  //> [-1.0, -4.0, 9.0, 16.0] i64
print(i.astype(f32) / 4, (i * 2).astype(u8), a.astype(i32))  //> [-0.5, 0.0, 2.25] [252, 0, 18] [1, 4, 9, 16]
array n: f32[2] = [1, 2]
let nan = n / 0 * 0
print(minimum(n, nan), maximum(nan, n))  //> [nan, nan] [nan, nan]
---
array a: f32[2] = 1.0
print(where(a, a, a))                ### "where: the condition must be bool, not f32"
---
array a: f32[2] = 1.0
print(minimum(1, 2))                 ### "minimum: takes arrays"
---
// in place: y op= expr writes into y (one kernel), NumPy's same_kind cast
array y: f32[4] = [1, 2, 3, 4]
array x: f32[4] = 1.0
let keep = y
y += 2 * x
y -= x
y *= 2
y /= 4
print(y, keep)                       //> [1.0, 1.5, 2.0, 2.5] [1.0, 1.5, 2.0, 2.5]
array k: i32[3] = [1, 2, 3]
k += k * k
k %= 4
print(k)                             //> [2, 2, 0]
array g: f32[2, 2] = 1.0
array r: f32[2] = [1, 2]
g += r
print(g)                             //> [[2.0, 3.0], [2.0, 3.0]]
---
array k: i32[3] = [1, 2, 3]
k += 0.5                             ### "cannot store f64 values into a i32 array in place"
---
array g: f32[2] = 1.0
array big: f32[2, 2] = 1.0
g += big                             ### "cannot store an expression of shape \[2, 2\] into an array of shape \[2\]"
---
// aliasing: a right-hand side that overlaps the target through another
// view is read as if copied first (NumPy's result)
let k = arange(8)
let head = k[0:7]
head += k[1:8]
print(k)                             //> [1, 3, 5, 7, 9, 11, 13, 7]
let j = arange(8)
let tail = j[1:8]
tail += j[0:7]
print(j)                             //> [0, 1, 3, 5, 7, 9, 11, 13]
let s = arange(4)
s += s
print(s)                             //> [0, 2, 4, 6]
---
// an expression consumed by a reduction is materialised first
array a: f32[4] = [1, 2, 3, 4]
array b: f32[4] = [4, 3, 2, 1]
print(sum(a * b), max(abs(a - b)), min(a - b))  //> 20.0 3.0 -3.0
print(len(a + 1), (a + 1)[2], type(a + b))      //> 4 4.0 array
---
// the kernel cache: a loop of array statements builds one kernel
array y: f32[1000] = 0.0
array x: f32[1000] = 1.0
for it in range(100) {
    y += 0.5 * x
}
print(y[0], y[999])                  //> 50.0 50.0
---
//!cuda
// operands on different devices: an error naming both and the remedy
array c: f32[2] = 1.0 on "cpu"
array g: f32[2] = 1.0 on "cuda:0"
print(c + g)                         ### "operands are on different devices, cpu and cuda:0: copy one with .to\(\"cpu\"\)"
---
//!cuda
// inside capture the fused kernels record; replay runs them
array y: f32[4] = 1.0 on "cuda:0"
array x: f32[4] = 2.0 on "cuda:0"
capture g on "cuda:0" {
    y += 3 * x
}
print(y)                             //> [1.0, 1.0, 1.0, 1.0]
replay(g, 2)
print(y)                             //> [13.0, 13.0, 13.0, 13.0]
