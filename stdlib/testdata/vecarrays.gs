// Arrays of vector, matrix and quaternion elements on the host (TYPES.md
// section 1): construction, printing, element access, views both ways,
// .npy. Vector values come from elements here (the vec3(...) constructor
// is another file's). tmpdir is a fresh directory for each chunk.
let a = zeros(3, dtype=vec3)
print(a)                //> [vec3(0.0, 0.0, 0.0), vec3(0.0, 0.0, 0.0), vec3(0.0, 0.0, 0.0)]
print(a.shape, a.dtype, a.ndim, a.size, len(a), a.nbytes)  //> [3] vec3 1 3 3 36
print(type(a[0]), a[0])  //> vec3 vec3(0.0, 0.0, 0.0)
// large arrays print summarised by elements, as NumPy's
print(ones(2000, dtype=vec2))  //> [vec2(1.0, 1.0), vec2(1.0, 1.0), vec2(1.0, 1.0), ..., vec2(1.0, 1.0), vec2(1.0, 1.0),
//>  vec2(1.0, 1.0)]
---
// ones sets every lane; empty has the type; dtype= takes any compound type
print(ones(2, dtype=vec2d))          //> [vec2d(1.0, 1.0), vec2d(1.0, 1.0)]
print(ones([1, 2], dtype=vec3i))     //> [[vec3i(1, 1, 1), vec3i(1, 1, 1)]]
let e = empty([4, 2], dtype=mat33)
print(e.shape, e.dtype, e.view(f32).shape)  //> [4, 2] mat33 [4, 2, 3, 3]
print(zeros(1, dtype=mat22))         //> [mat22([0.0, 0.0], [0.0, 0.0])]
print(zeros(1, dtype=quat))          //> [quat(0.0, 0.0, 0.0, 0.0)]
---
// element stores: a vector of the element's type, or a scalar in every lane
let a = zeros(3, dtype=vec3)
a[0] = 2
a.view(f32)[1, 2] = 5.0
a[2] = a[1]
print(a)                             //> [vec3(2.0, 2.0, 2.0), vec3(0.0, 0.0, 5.0), vec3(0.0, 0.0, 5.0)]
let m = zeros([2, 2], dtype=vec2)
m[1, 0] = 1.5
print(m[1], m[1, 0])                 //> [vec2(1.5, 1.5), vec2(0.0, 0.0)] vec2(1.5, 1.5)
for v in a[1:] {
    print(v)
}
//> vec3(0.0, 0.0, 5.0)
//> vec3(0.0, 0.0, 5.0)
---
// full takes its type from a vector fill value
let a = zeros(2, dtype=vec3)
a.view(f32)[0] = 1.0
a[0] = a[0]
let b = full([2, 2], a[0])
print(b.dtype, b[1, 1])              //> vec3 vec3(1.0, 1.0, 1.0)
print(full(2, 3, dtype=vec2i))       //> [vec2i(3, 3), vec2i(3, 3)]
---
// slicing views along the element axes, sharing memory
let a = zeros(5, dtype=vec2)
let f = a.view(f32)
for i in range(5) {
    f[i, 0] = f32(i)
    f[i, 1] = f32(10 * i)
}
let s = a[1:4]
print(s.dtype, s.shape, s.is_view)   //> vec2 [3] true
print(a[::-2])                       //> [vec2(4.0, 40.0), vec2(2.0, 20.0), vec2(0.0, 0.0)]
s[0] = 7
print(a[1])                          //> vec2(7.0, 7.0)
a[3:5] = a[0]
print(a[3:])                         //> [vec2(0.0, 0.0), vec2(0.0, 0.0)]
a[0:2] = a[2:4]
print(a[0:2])                        //> [vec2(2.0, 20.0), vec2(0.0, 0.0)]
---
// view both ways: no copy
let p = zeros([4, 3])
let v = p.view(vec3)
print(v.dtype, v.shape)              //> vec3 [4]
v[2] = 9
print(p[2])                          //> [9.0, 9.0, 9.0]
print(v.view(f32).shape, v.view(vec3).dtype)  //> [4, 3] vec3
let q = zeros([2, 4, 4])
print(q.view(mat44).shape, q.view(vec4).shape, q.view(quat).shape)  //> [2] [2, 4] [2, 4]
print(q.view(mat44).view(vec4).shape)  //> [2, 4]
print(zeros([3, 4])[:, 1:3].view(vec2).shape)  //> [3]
---
let p = zeros([10, 4])
let v = p.view(vec3)                 ### "view\(vec3\) needs a last axis of 3 f32 .*got f32 \[10, 4\]"
---
let p = zeros([10, 3], dtype=f64)
let v = p.view(vec3)                 ### "view\(vec3\) needs a last axis of 3 f32 .*got f64 \[10, 3\]"
---
let p = zeros([3, 6])
let v = p[:, ::2].view(vec3)         ### "view\(vec3\) needs a last axis of 3 f32 \(contiguous"
---
let v = zeros([4, 3]).view(mat33)    ### "view\(mat33\) needs last axes of 3, 3 f32"
---
let v = zeros(3).view(vec3)          ### "view\(vec3\) needs .*after at least one other axis"
---
// bit views between scalar dtypes of one size, and of vector lanes
let f = zeros(2)
f[0] = 1.0
f.view(i32)[1] = -1
print(f.view(u32), f.view(f32).dtype)  //> [1065353216, 4294967295] f32
let v = ones(2, dtype=vec2)
print(v.view(u32)[1], v.view(u32).shape)  //> [1065353216, 1065353216] [2, 2]
---
let v = zeros(3).view(f64)           ### "cannot view f32 elements as f64: a bit view needs two non-bool dtypes of one size"
---
let v = zeros(3, dtype=u8).view(bool)  ### "cannot view u8 elements as bool"
---
// .npy: lanes are the trailing axes
let a = zeros(3, dtype=vec3)
a.view(f32)[1] = 2.0
save(tmpdir + "/v.npy", a)
let raw = load(tmpdir + "/v.npy")
print(raw.dtype, raw.shape, raw[1])  //> f32 [3, 3] [2.0, 2.0, 2.0]
let b = load(tmpdir + "/v.npy", dtype=vec3)
print(b.dtype, b.shape, b[1])        //> vec3 [3] vec3(2.0, 2.0, 2.0)
let m = ones([2, 5], dtype=mat22d)
save(tmpdir + "/m.npy", m[:, 1:3])
let r = load(tmpdir + "/m.npy")
print(r.dtype, r.shape)              //> f64 [2, 2, 2, 2]
print(load(tmpdir + "/m.npy", dtype=mat22d)[1, 1])  //> mat22d([1.0, 1.0], [1.0, 1.0])
print(load(tmpdir + "/m.npy", dtype=vec2d).shape)   //> [2, 2, 2]
print(load(tmpdir + "/v.npy", dtype=f32).shape)     //> [3, 3]
---
save(tmpdir + "/w.npy", zeros([10, 4]))
let b = load(tmpdir + "/w.npy", dtype=vec3)  ### "\.npy holds float32 \(10, 4\); dtype=vec3 needs float32 data with a last axis of 3"
---
save(tmpdir + "/w.npy", zeros([10, 3], dtype=f64))
let b = load(tmpdir + "/w.npy", dtype=vec3)  ### "\.npy holds float64 \(10, 3\); dtype=vec3 needs float32 data"
---
save(tmpdir + "/w.npy", zeros(3))
let b = load(tmpdir + "/w.npy", dtype=vec3)  ### "\.npy holds float32 \(3,\); dtype=vec3 needs"
---
save(tmpdir + "/w.npy", zeros(3))
let b = load(tmpdir + "/w.npy", dtype=i32)   ### "\.npy holds float32 \(3,\); dtype=i32 needs int32 data"
---
// array(list): of vectors, or of numbers with the lanes innermost
let a = ones(2, dtype=vec3)
a.view(f32)[1] = 2.0
let b = array([a[1], a[0], a[1]])
print(b.dtype, b.shape, b[0])        //> vec3 [3] vec3(2.0, 2.0, 2.0)
print(array([[a[0]], [a[1]]]).shape)  //> [2, 1]
print(array([[1, 2, 3], [4, 5, 6]], dtype=vec3))  //> [vec3(1.0, 2.0, 3.0), vec3(4.0, 5.0, 6.0)]
print(array([[[1, 2], [3, 4]]], dtype=mat22d))   //> [mat22d([1.0, 2.0], [3.0, 4.0])]
---
let a = array([[1, 2], [3, 4]], dtype=vec3)   ### "array: initialiser of shape \[2, 2\] does not match array shape \[2\]"
---
let a = array([[1, 2], [3, 4]], dtype=mat22)  ### "an array of mat22 needs at least one axis"
---
let a = ones(2, dtype=vec3)
let b = array([a[0], zeros(1, dtype=vec3d)[0]])  ### "array: element 1: cannot use vec3d as vec3"
---
// copies keep the element type
let a = ones(2, dtype=vec4)
let b = array(a)
let c = a.to("cpu")
let d = zeros(2, dtype=vec4)
copy(d, a)
print(b.dtype, c.dtype, d[1])        //> vec4 vec4 vec4(1.0, 1.0, 1.0, 1.0)
fill(d, 3)
print(d[0])                          //> vec4(3.0, 3.0, 3.0, 3.0)
---
// errors: every builtin that works on scalar elements refuses
let a = zeros(4, dtype=vec3)
let s = sum(a)                       ### "sum of an array of vec3 is not supported; use a.view\(f32\)"
---
let a = zeros(4, dtype=vec3)
let s = a + a                        ### "operator \+ of an array of vec3 is not supported; use a.view\(f32\)"
---
let a = zeros(4, dtype=vec3)
let s = sqrt(a)                      ### "an array expression of an array of vec3 is not supported"
---
// reshape, .T and transpose work on the element axes
let a = array([[1, 2], [3, 4], [5, 6]], dtype=vec2)
let m = a.reshape(1, 3)
print(m.shape, m.dtype, m)           //> [1, 3] vec2 [[vec2(1.0, 2.0), vec2(3.0, 4.0), vec2(5.0, 6.0)]]
print(m.T.shape, m.T[2, 0], transpose(m, [1, 0])[1])  //> [3, 1] vec2(5.0, 6.0) [vec2(3.0, 4.0)]
print(a[::-1].reshape(3, 1)[0], m.T.view(f32).shape)  //> [vec2(5.0, 6.0)] [3, 1, 2]
---
let a = zeros(3, dtype=vec2)
let s = a.reshape(2, 2)              ### "cannot reshape an array of 3 vec2 elements into shape \[2, 2\]"
---
let a = zeros([2, 3], dtype=vec2)
let s = transpose(a, [0, 0])         ### "\[0 0\] is not a permutation of the axes of a 2-D array"
---
let a = zeros(4, dtype=vec3)
let s = a.astype(f64)                ### "astype of an array of vec3 is not supported"
---
let a = zeros(4, dtype=vec3)
let s = matmul(a, a)                 ### "matmul of an array of vec3 is not supported"
---
let a = zeros(4, dtype=vec3)
let s = a[0, 1]                      ### "too many indices for a 1-D array: 2"
---
let a = zeros(4, dtype=vec3)
a[0] = [1.0, 2.0, 3.0]               ### "cannot use list as vec3"
---
let a = zeros(4, dtype=vec3)
zeros(4, dtype=vec3d)[0] = a[0]      ### "cannot use vec3 as vec3d"
---
let a = zeros(4, dtype=vec3)
a[1:3] = a.view(f32)[1:3]            ### "cannot assign an array of f32 to a view of an array of vec3"
---
let a = zeros(4, dtype=vec3)
copy(a, zeros([4, 3]))               ### "copy: an array of f32 into an array of vec3"
---
let a = arange(3, dtype=vec3)        ### "arange with dtype=vec3 is not supported"
---
let a = zeros([2, 2, 2, 2], dtype=vec3)  ### "an array of vec3 has at most 3 axes, got 4"
---
let a = zeros([2, 2, 2], dtype=mat22)    ### "an array of mat22 has at most 2 axes, got 3"
