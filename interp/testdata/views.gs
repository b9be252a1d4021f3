// strided slices of one axis: views with NumPy's clamping
array a: i32[10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
print(a[2:8:2], a[::3], a[7:], a[:3], a[::])   //> [2, 4, 6] [0, 3, 6, 9] [7, 8, 9] [0, 1, 2] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
print(a[::-1])                                  //> [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
print(a[8:2:-2], a[:6:-1], a[3::-1])            //> [8, 6, 4] [9, 8, 7] [3, 2, 1, 0]
print(a[5:99], a[99:], a[7:3], a[99::-4])       //> [5, 6, 7, 8, 9] [] [] [9, 5, 1]
let r = a[::-1]
print(r.is_view, r.shape, r.memory_kind == a.memory_kind, r[0], r[9])  //> true [10] true 9 0
r[0] = 90
print(a[9], len(r), r[2:5])                     //> 90 10 [7, 6, 5]
print(r[::-1][0:3], a[1:9][::2][1:])            //> [0, 1, 2] [3, 5, 7]
---
// several axes: an index drops its axis, a slice keeps it
array m: i32[3, 4] = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]
print(m[:, 1], m[1, :], m[1:3, 1:4:2])          //> [1, 11, 21] [10, 11, 12, 13] [[11, 13], [21, 23]]
print(m[::-1, ::-1][0], m[:, 2].shape, m[0:1, :].shape)  //> [23, 22, 21, 20] [3] [1, 4]
print(m[1, 2], m[2][3], m[:, 3][1])             //> 12 23 13
print(m[::2, :].is_view, m[1].is_view)          //> true true
---
// transposes are views
array m: f32[2, 3] = [[1, 2, 3], [4, 5, 6]]
print(m.T, m.T.shape, m.T.is_view)              //> [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]] [3, 2] true
m.T[2, 0] = 30
print(m[0, 2], transpose(m)[1], transpose(m, [0, 1])[1])  //> 30.0 [2.0, 5.0] [4.0, 5.0, 6.0]
array c: i32[2, 3, 4]
print(transpose(c, [2, 0, 1]).shape, c.T.shape) //> [4, 2, 3] [4, 3, 2]
transpose(c, [0, 0, 1])                         ### "not a permutation"
---
// kernels, reductions, copy and fill take strided views, negative strides too
kernel double(x: array[f32]) {
    let i = tid()
    x[i] = 2.0 * x[i]
}
kernel take(x: array[f32], out: array[f32]) {
    let i = tid()
    out[i] = x[i]
}
array x: f32[6] = [0, 1, 2, 3, 4, 5]
launch double[3](x[::-2])
print(x)                                        //> [0.0, 2.0, 2.0, 6.0, 4.0, 10.0]
launch double[6](x[::-1])
print(x)                                        //> [0.0, 4.0, 4.0, 12.0, 8.0, 20.0]
array m: f32[3, 3] = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
array out: f32[3]
launch take[3](m[:, 1], out)
print(out)                                      //> [2.0, 5.0, 8.0]
print(sum(x[::-1]), max(m[:, 2]), min(m[::-1, 0]), sum(m.T[0]))  //> 48.0 9.0 1.0 12.0
print(sum(m[::-1, ::2], axis=0))                //> [12.0, 18.0]
fill(m[1, :], 0)
copy(out, m[::-1, 2])
print(m[1], out)                                //> [0.0, 0.0, 0.0] [9.0, 0.0, 3.0]
let t = m.T.to("cpu")
print(t.is_view, t)                             //> false [[1.0, 0.0, 7.0], [2.0, 0.0, 8.0], [3.0, 0.0, 9.0]]
---
// slice assignment: a scalar fills, an array is copied (broadcast by NumPy's rule)
array y: f32[12]
y[2:10] = 1.0
print(y)                                        //> [0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]
array x: i32[5] = [1, 2, 3, 4, 5]
y[1:6] = x[0:5]
y[::-4] = 7
print(y)                                        //> [0.0, 1.0, 2.0, 7.0, 4.0, 5.0, 1.0, 7.0, 1.0, 1.0, 0.0, 7.0]
array m: f32[3, 2]
array v: f32[3] = [1, 2, 3]
m[:, 0] = v
m[:, 1] = 9
print(m)                                        //> [[1.0, 9.0], [2.0, 9.0], [3.0, 9.0]]
array row: f32[2] = [5, 6]
m[1:, :] = row
m[0] = 0
print(m)                                        //> [[0.0, 0.0], [5.0, 6.0], [5.0, 6.0]]
---
// aliasing reads the right-hand side as if copied first (NumPy)
array x: i32[8] = [0, 1, 2, 3, 4, 5, 6, 7]
x[1:6] = x[0:5]
print(x)                                        //> [0, 0, 1, 2, 3, 4, 6, 7]
x[:] = x[::-1]
print(x)                                        //> [7, 6, 4, 3, 2, 1, 0, 0]
array m: i32[2, 2] = [[1, 2], [3, 4]]
m[:, :] = m.T
print(m)                                        //> [[1, 3], [2, 4]]
---
// lists and strings slice with Python's steps
let l = [0, 1, 2, 3, 4, 5]
print(l[1:5:2], l[::-1], l[4:1:-1], l[:99], l[10:])  //> [1, 3] [5, 4, 3, 2, 1, 0] [4, 3, 2] [0, 1, 2, 3, 4, 5] []
let s = "hello"
print(s[::-1], s[1:4], s[::2], s[3:1] == "")    //> olleh ell hlo true
---
array a: f32[4]
print(a[::0])                                   ### "slice step cannot be zero"
---
// negative indices and bounds count from the end, clamped as NumPy's
array a: i32[6] = [0, 1, 2, 3, 4, 5]
print(a[-1], a[-6], a[1:-1], a[-3:], a[:-1], a[-99:2], a[4:-99])  //> 5 0 [1, 2, 3, 4] [3, 4, 5] [0, 1, 2, 3, 4] [0, 1] []
print(a[-1::-1], a[:-8:-1], a[:-3:-1], a[-2:-5:-1], a[-9::-1])   //> [5, 4, 3, 2, 1, 0] [5, 4, 3, 2, 1, 0] [5, 4] [4, 3, 2] []
print(a[::-1][-1], a[1:-1][-2:], a[-4:][::-2])  //> 0 [3, 4] [5, 3]
---
// writes through negative indices and views
array a: i32[5] = [0, 1, 2, 3, 4]
a[-1] = 40
a[-5] += 10
a[1:-1] = 7
a[-2:] += 1
print(a)                                        //> [10, 7, 7, 8, 41]
a[:-6:-2] = a[:3]
print(a)                                        //> [7, 7, 7, 8, 10]
---
// a stencil of negative bounds fuses into one statement, in place
array u: f32[6] = [0, 1, 4, 9, 16, 25]
array lap: f32[6]
lap[1:-1] = u[:-2] - 2.0 * u[1:-1] + u[2:]
lap[-1:] += u[-1] + sum(u[-2:])
print(lap, u[-1] - u[-2])                       //> [0.0, 2.0, 2.0, 2.0, 2.0, 66.0] 9.0
---
// negative indices on several axes: m[-1, :], m[:, -2], m[-1]
array m: i32[3, 4] = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]
print(m[-1, :], m[:, -2], m[-1], m[-1, -1], m[-2][-3])  //> [20, 21, 22, 23] [2, 12, 22] [20, 21, 22, 23] 23 11
print(m[1:, -3:-1], m[-1:, ::-1])               //> [[11, 12], [21, 22]] [[23, 22, 21, 20]]
m[-1, -1] = 99
m[-2] = 5
m[:, -4] = -1
print(m)                                        //> [[-1, 1, 2, 3], [-1, 5, 5, 5], [-1, 21, 22, 99]]
---
array a: f32[4]
print(a[-5])                                    ### "index -5 out of bounds for axis 0 with size 4"
---
array a: f32[4]
a[-5] = 1                                       ### "index -5 out of bounds for axis 0 with size 4"
---
array m: f32[2, 3]
print(m[:, -4])                                 ### "index -4 out of bounds for axis 1 with size 3"
---
array m: f32[2, 3]
print(m[-3])                                    ### "index -3 out of bounds for axis 0 with size 2"
---
array m: f32[2, 3]
m[-3, :] = 1                                    ### "index -3 out of bounds for axis 0 with size 2"
---
// kernels keep their rule: a negative index is out of bounds (debug mode on CUDA)
//!cpu
kernel back(x: array[f32]) {
    x[tid() - 1] = 1.0                          ### "kernel back: index -1 out of bounds for axis 0 of array a with shape \[4\]"
}
array a: f32[4]
launch back[4](a)
---
//!cuda
config.debug = true
kernel back(x: array[f32]) {
    x[tid() - 1] = 1.0                          ### "kernel back: index -1 out of bounds for axis 0 of array a with shape \[4\]"
}
array a: f32[4] on "cuda:0"
launch back[4](a) on "cuda:0"
---
// lists and strings count from the end, as Python: indices and slice bounds
let l = [1, 2, 3]
print(l[:-1], l[-1], l[-3], l[-2:], l[::-1], l[-99:99])  //> [1, 2] 3 1 [2, 3] [3, 2, 1] [1, 2, 3]
l[-1] = 30
print(l)                                        //> [1, 2, 30]
print("hello"[-3:], "hello"[0], "hello"[-1], "hello"[::-1])  //> llo h o olleh
---
let l = [1, 2]
print(l[-3])                                    ### "index -3 out of range for list of length 2"
---
print("ab"[2])                                  ### "index 2 out of range for string of length 2"
---
let s = "ab"
s[0] = "x"                                      ### "strings are immutable"
---
array m: f32[2, 2]
print(m[:, :, 1])                               ### "too many indices for a 2-D array: 3"
---
array m: f32[2, 3]
print(m[:, 3])                                  ### "index 3 out of bounds for axis 1 with size 3"
---
array m: f32[2, 3]
array v: f32[2] = 1
m[:, 0:2] = v
print(m)                                        //> [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]]
m[0:2, :] = v                                   ### "cannot assign an array of shape \[2\] to a view of shape \[2, 3\]"
---
array y: f32[4]
y[0:2] = [1, 2]                                 ### "assign a scalar or an array to a view, not a list"
---
let l = [1, 2, 3]
l[0:2] = 1                                      ### "not yet supported: assigning to a slice of a list"
---
// @ is matmul at the precedence of *; views and expressions are its operands
array a: f32[2, 2] = [[1, 2], [3, 4]]
array v: f32[2] = 1
print(a @ a, a @ a.T, a[::-1] @ v)              //> [[7.0, 10.0], [15.0, 22.0]] [[5.0, 11.0], [11.0, 25.0]] [7.0, 3.0]
print(a @ v * 2.0, 2.0 * a @ v, a[:, 0] @ a)    //> [6.0, 14.0] [6.0, 14.0] [10.0, 14.0]
array b: f32[3, 4]
print(a @ b)                                    ### "matmul: \[2, 2\] @ \[3, 4\]: inner dimensions 2 and 3 differ"
---
// slice assignment of array expressions, in place, NumPy's result under aliasing
array k: f32[6] = [0, 1, 2, 3, 4, 5]
k += k[::-1]
print(k)                                        //> [5.0, 5.0, 5.0, 5.0, 5.0, 5.0]
array y: f32[8]
array x: f32[8] = [1, 2, 3, 4, 5, 6, 7, 8]
y[2:6] = x[0:4] * 2.0 + 1.0
y[::4] += 10.0
print(y)                                        //> [10.0, 0.0, 3.0, 5.0, 17.0, 9.0, 0.0, 0.0]
x[1:6] = x[0:5] + 0.0
print(x)                                        //> [1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 8.0]
array m: f32[2, 3]
m[:, 1] = x[2:4] * x[2:4]
m[0] = m[1] * 3.0
print(m)                                        //> [[0.0, 27.0, 0.0], [0.0, 9.0, 0.0]]
m[0:2, 0:2] = x[0:3] * 1.0                      ### "shape \[3\].*shape \[2, 2\]"
---
// `=` casts as NumPy's assignment (casting='unsafe'): an array, or an
// expression, of any dtype converts to the target's as a kernel
// conversion does; `op=` keeps NumPy's same_kind rule
array a: i32[4]
array b: f32[4] = [1.5, -2.5, 3.25, 4.0]
a[:] = b
print(a)                                        //> [1, -2, 3, 4]
a[:] = b * 2.0
print(a)                                        //> [3, -5, 6, 8]
a[1:3] = b[0:2] > 0.0
print(a)                                        //> [3, 1, 0, 8]
array m: u8[2, 2]
m[:, :] = b[2:4] + 1.0
print(m)                                        //> [[4, 5], [4, 5]]
a += b * 2.0                                    ### "cannot store f64 values into a i32 array in place"
---
array a: f32[3]
print(a[1:2:"x"])                               ### "slice step: want an int"
---
// a large reversed view prints summarised, read element by element
let a = arange(0, 3000, 1, dtype=i32)
print(a[::-1], a[::-1].to("cpu")[2999])         //> [2999, 2998, 2997, ..., 2, 1, 0] 0
print(a[2000::-7].shape, a[::-7][428])          //> [286] 3
---
//!cuda
// slice fills and copies record in a capture and replay
array y: f32[8] on "cuda:0"
array x: f32[8] = 1.0 on "cuda:0"
capture g on "cuda:0" {
    y[::2] = 5.0
    y[1::2] = x[0:4]
}
print(y)                                        //> [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
replay(g)
print(y)                                        //> [5.0, 1.0, 5.0, 1.0, 5.0, 1.0, 5.0, 1.0]
---
//!cuda
array y: f32[8] on "cuda:0"
capture g on "cuda:0" {
    y[1:] = y[:7]                               ### "not yet supported: inside capture, assigning a view to one it overlaps"
}
---
//!cuda
// views of device arrays work everywhere: kernels, reductions, printing, .to
kernel inc(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array m: f32[3, 4] = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]] on "cuda:0"
launch inc[3](m[::-1, 3])
print(m[:, 3], sum(m[::-1, ::-1]), max(m.T[1]))  //> [4.0, 8.0, 12.0] 69.0 9.0
print(m[1, ::-2].to("cpu"), m.T[::2, 1:].to("cpu"))  //> [8.0, 5.0] [[4.0, 8.0], [6.0, 10.0]]
array c: f64[4] on "cpu"
copy(c, m[1, ::-1])
print(c)                                        //> [8.0, 6.0, 5.0, 4.0]
m[0, :] = c                                     ### "cannot assign an array on cpu to a view on cuda:0: move it first with .to"
