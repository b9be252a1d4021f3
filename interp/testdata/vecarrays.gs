// Array declarations of vector, matrix and quaternion elements, and
// passing them to kernels as their lanes (a.view(f32)) until kernels take
// array[vec3] themselves.
array p: vec3[4]
print(p.dtype, p.shape, p[3])          //> vec3 [4] vec3(0.0, 0.0, 0.0)
array q: mat22[2, 3] = 1
print(q.shape, q[1, 2])                //> [2, 3] mat22([1.0, 1.0], [1.0, 1.0])
array r: vec2i[2] = q.view(f32).astype(i32)[0, 0].view(vec2i)
print(r)                               //> [vec2i(1, 1), vec2i(1, 1)]
array s: vec2i[2] = r[1]
print(s[0])                            //> vec2i(1, 1)
---
// annotations name the element type
let x: array[vec3] = zeros(2, dtype=vec3)
let y: array[f32, 2] = x.view(f32)
print(x.dtype, y.dtype)                //> vec3 f32
let z: array[f32, 2] = x               ### "cannot use array\[vec3\] as array\[f32, 2\]"
---
//!cpu
array h: vec4[2] on "cpu" using host
print(h.memory_kind, h.device, h.dtype)  //> HOST cpu vec4
---
array p: vec5[4]                       ### "unknown dtype vec5"
---
array p: vec3[2, 2, 2, 2]              ### "an array of vec3 has at most 3 axes, got 4"
---
array p: vec3[2] = [1.0, 2.0, 3.0]     ### "initialiser of shape \[3\] does not match array shape \[2\]"
---
// a list initialiser: vectors, or the lanes as the innermost lists
array p: vec2[2] = [[1, 2], [3, 4]]
array q: vec2[3] = [p[1], 0, p[0]]
print(p, q[1:])                        //> [vec2(1.0, 2.0), vec2(3.0, 4.0)] [vec2(0.0, 0.0), vec2(1.0, 2.0)]
---
// a kernel writes the lanes of a vec3 array through its f32 view
kernel scale(v: array[f32, 2], k: f32) {
    let i = tid()
    v[i, 0] = f32(i) * k
    v[i, 1] = f32(i) * k + 1.0
    v[i, 2] = -k
}
array p: vec3[3]
launch scale[3](p.view(f32), 2.0)
print(p)                               //> [vec3(0.0, 1.0, -2.0), vec3(2.0, 3.0, -2.0), vec3(4.0, 5.0, -2.0)]
---
kernel scale(v: array[f32, 2]) {}
array p: vec3[3]
launch scale[3](p)                     ### "want array\[f32, 2\], got array\[vec3\] \(use \.view\(f32\)\)"
