// matmul (ARRAYS.md section 4): every shape form and every error. The
// products are of small integers, exact in f32 in any order of summation,
// so internal/conformance runs this file on the cpu and every CUDA device
// against the same output.
let a = array([[1, 2], [3, 4], [5, 6]], dtype=f32)
let b = array([[1, 0, 2], [0, 1, 3]], dtype=f32)
let c = matmul(a, b)
print(c, c.shape, c.dtype)     //> [[1.0, 2.0, 8.0], [3.0, 4.0, 18.0], [5.0, 6.0, 28.0]] [3, 3] f32
print(matmul(b, a))            //> [[11.0, 14.0], [18.0, 22.0]]
---
// 2-D x 1-D, 1-D x 2-D, 1-D x 1-D (NumPy: the vector's axis is dropped)
let m = array([[1, 2, 3], [4, 5, 6]], dtype=f64)
let v = array([1, 0, -1], dtype=f64)
let w = array([2, 1], dtype=f64)
print(matmul(m, v), matmul(w, m))   //> [-2.0, -2.0] [6.0, 9.0, 12.0]
print(matmul(v, v), matmul(array([1, 2], dtype=i32), array([3, 4], dtype=i32)))  //> 2.0 11
---
// batched: equal batches, and a batch of one (or a matrix) broadcast
let x = array([[[1, 0], [0, 1]], [[2, 0], [0, 2]]], dtype=f32)
let y = array([[[1, 2], [3, 4]]], dtype=f32)
print(matmul(x, y))                  //> [[[1.0, 2.0], [3.0, 4.0]], [[2.0, 4.0], [6.0, 8.0]]]
print(matmul(x, y[0]).shape)         //> [2, 2, 2]
print(matmul(y, x)[1])               //> [[2.0, 4.0], [6.0, 8.0]]
print(matmul(x, array([1, 1], dtype=f32)))  //> [[1.0, 1.0], [2.0, 2.0]]
---
// out= writes in place
let a = array([[1, 2], [3, 4]], dtype=f32)
let o = zeros([2, 2])
let r = matmul(a, a, out=o)
print(o)                             //> [[7.0, 10.0], [15.0, 22.0]]
---
// integer dtypes run the generated kernel; they wrap as NumPy's do
let a = array([[1, 2], [3, 4]], dtype=i32)
print(matmul(a, a), matmul(a, a).dtype)   //> [[7, 10], [15, 22]] i32
let u = array([[16, 16]], dtype=u8)
print(matmul(u, array([[16], [16]], dtype=u8)))   //> [[0]]
let big = ones([3, 130, 129], dtype=i32)
let p = matmul(big, ones([129, 131], dtype=i32))
print(p.shape, min(p), max(p))       //> [3, 130, 131] 129 129
---
// float products larger than one tile
let f = ones([130, 257], dtype=f32)
let q = matmul(f, ones([257, 3], dtype=f32))
print(q.shape, min(q), max(q))       //> [130, 3] 257.0 257.0
---
// empty products
print(matmul(zeros([2, 0]), zeros([0, 3])))   //> [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
print(matmul(zeros([0, 2]), zeros([2, 3])).shape)   //> [0, 3]
---
matmul(zeros([3, 4]), zeros([5, 6]))            ### "matmul: \[3, 4\] @ \[5, 6\]: inner dimensions 4 and 5 differ"
---
matmul(zeros([3]), zeros([4]))                  ### "matmul: \[3\] @ \[4\]: inner dimensions 3 and 4 differ"
---
matmul(zeros([2, 3, 4]), zeros([3, 4, 5]))      ### "batch dimensions 2 and 3 differ \(they must be equal, or one of them 1\)"
---
matmul(zeros([1, 1, 1, 1]), zeros([1, 1]))      ### "is 4-D: matmul takes 1-D, 2-D and 3-D \(batched\) arrays"
---
matmul(zeros([2, 2]), zeros([2, 2], dtype=f64)) ### "matmul: dtypes f32 and f64 differ"
---
matmul(zeros([2, 2], dtype=bool), zeros([2, 2], dtype=bool))  ### "matmul: unsupported dtype bool"
---
matmul(zeros([2, 2]), 3)                        ### "matmul: argument 2 must be an array"
---
let a = zeros([2, 2])
matmul(a, a, out=zeros([2, 3]))                 ### "out= has shape \[2, 3\], the product has shape \[2, 2\]"
---
let a = zeros([2, 2])
matmul(a, a, out=zeros([2, 2], dtype=f64))      ### "out= has dtype f64, the product has dtype f32"
---
let a = zeros([2, 2])
matmul(a, a, out=a)                             ### "out= shares memory with an operand"
---
let a = zeros([2, 2])
matmul(a, a, c=a)                               ### "matmul has no keyword argument c"
---
print(config.allow_tf32)                        //> false
config.allow_tf32 = 1                           ### "config.allow_tf32 must be a bool"
---
//!cuda
// inside a capture block a matmul is recorded (cuBLAS queues it on the
// device's stream) and runs at replay, batched and with TF32 allowed
// (small integers are exact in TF32)
let a = array([[[1, 2], [3, 4]], [[0, 1], [1, 0]]], dtype=f32, device="cuda:0")
let b = array([[1, 0, 2], [0, 1, 3]], dtype=f32, device="cuda:0")
let o = zeros([2, 2, 3], device="cuda:0")
config.allow_tf32 = true
capture g on "cuda:0" {
    matmul(a, b, out=o)
}
config.allow_tf32 = false
print(o[0])                          //> [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
replay(g)
print(o)                             //> [[[1.0, 2.0, 8.0], [3.0, 4.0, 18.0]], [[0.0, 1.0, 3.0], [1.0, 0.0, 2.0]]]
