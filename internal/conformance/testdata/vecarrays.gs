// Arrays of vector and matrix elements on every backend: made on the
// current device, element stores and reads through the host paths, fills
// and copies by kernels on the device (one per lane), .npy through the
// host. tmpdir is a fresh directory for each chunk.
let a = zeros(6, dtype=vec3)
print(a.device == zeros(1).device, a.dtype, a.shape)  //> true vec3 [6]
a[0] = 1
a.view(f32)[1, 2] = 4.5
a[5] = a[1]
print(a[0], a[1], a[5])                //> vec3(1.0, 1.0, 1.0) vec3(0.0, 0.0, 4.5) vec3(0.0, 0.0, 4.5)
a[2:4] = a[1]
a[3:5] = a[0:2]
print(a)                               //> [vec3(1.0, 1.0, 1.0), vec3(0.0, 0.0, 4.5), vec3(0.0, 0.0, 4.5), vec3(1.0, 1.0, 1.0),
//>  vec3(0.0, 0.0, 4.5), vec3(0.0, 0.0, 4.5)]
let c = a.to("cpu")
print(c.dtype, c[::-1][0], equal(c.view(f32), a.view(f32).to("cpu")))  //> vec3 vec3(0.0, 0.0, 4.5) true
---
// fills: a vector into every element, a scalar into every lane
let m = full([2, 3], 2, dtype=mat22)
m[1, 2] = 0
let v = zeros(3, dtype=vec2d)
v.view(f64)[0, 1] = -1.0
fill(v[1:], v[0])
print(m[1], v)                         //> [mat22([2.0, 2.0], [2.0, 2.0]), mat22([2.0, 2.0], [2.0, 2.0]), mat22([0.0, 0.0], [0.0, 0.0])] [vec2d(0.0, -1.0), vec2d(0.0, -1.0), vec2d(0.0, -1.0)]
print(sum(m.view(f32)), full(4, v[0])[3])  //> 40.0 vec2d(0.0, -1.0)
---
// a kernel over the lanes, then .npy both ways
kernel ramp(p: array[f32, 2]) {
    let i, j = tid()
    p[i, j] = f32(10 * i + j)
}
array p: vec4[5]
launch ramp[5, 4](p.view(f32))
save(tmpdir + "/p.npy", p[1::2])
let raw = load(tmpdir + "/p.npy")
print(raw.dtype, raw.shape, raw[1])    //> f32 [2, 4] [30.0, 31.0, 32.0, 33.0]
let back = load(tmpdir + "/p.npy", dtype=vec4)
print(back.device == p.device, back)   //> true [vec4(10.0, 11.0, 12.0, 13.0), vec4(30.0, 31.0, 32.0, 33.0)]
let q = back.view(f32).reshape(4, 2).view(vec2)
print(q.shape, q[3])                   //> [4] vec2(32.0, 33.0)
