// Checker tests (lang/check/script_test.go): vector, matrix and quaternion values (TYPES.md section 1).
// construct, components, operators
kernel k(out: array[f32]) {
    let a = vec3(1.0, 2.0, 3.0)
    let b = vec3(0.5)
    let z = vec3()
    let c = a + b * 2.0 - z / 4.0
    out[0] = c.x + c.y * c.z + dot(a, b) + length(cross(a, b))
}
---
// parameters by value and arrays of vectors
kernel k(p: array[vec3], v: array[vec3], m: mat33, q: quat, dt: f32) {
    let i = tid()
    p[i] += v[i] * dt
    v[i] = quat_rotate(q, m * v[i])
    p[i].y = 0.0
    p[i][2] *= 2.0
}
---
// vectors of ints
kernel k(out: array[vec2i]) {
    out[0] = vec2i(1, 2) + vec2i(3) * 2
}
---
// wrong component
kernel k(out: array[f32]) {
    let v = vec3(1.0)
    out[0] = v.w ### "v \(variable of type vec3\) has no component w \(it has x, y, z\)"
}
---
// component store on a non-variable
kernel k(out: array[f32]) {
    vec3(1.0).x = 2.0 ### "cannot assign to vec3\(1.0\).x"
}
---
// mixing vec3 and vec3d
kernel k(out: array[vec3], d: vec3d) {
    out[0] = out[0] + d ### "mismatched types vec3 and vec3d"
}
---
// conversion between element types
kernel k(out: array[vec3], d: vec3d) {
    out[0] = out[0] + vec3(d)
}
---
// assigning a vec3d to a vec3 element
kernel k(out: array[vec3], d: vec3d) {
    out[0] = d ### "cannot use d \(variable of type vec3d\) as vec3 value in assignment \(convert with vec3\(...\)\)"
}
---
// matrix times a vector of another size
kernel k(m: mat33, v: vec4) {
    let w = m * v ### "mat33 \* vec4"
}
---
// vector used as a scalar
kernel k(out: array[f32]) {
    out[0] = vec3(1.0) ### "cannot use vec3\(1.0\) \(value of type vec3\) as f32 value in assignment"
}
---
// run-time vector and matrix indices (through a scratch array)
kernel k(out: array[f32], i: i32, j: u32) {
    let v = vec3(1.0)
    let m = identity33()
    v[i] += m[i, j]
    m[j] = v
    out[0] = v[i] + m[1, j]
}
---
// a vector index must be an integer
kernel k(out: array[f32], f: f32) {
    let v = vec3(1.0)
    out[0] = v[f] ### "index f \(variable of type f32\) of vec3 must be an integer"
}
---
// one run-time index per assignment
kernel k(i: i32) {
    let m = identity33()
    m[i][0] = 1.0 ### "cannot index m\[i\] again after a run-time index"
}
---
// vector index out of range
kernel k(out: array[f32]) {
    let v = vec3(1.0)
    out[0] = v[3] ### "index 3 out of range for vec3 \(0 to 2\)"
}
---
// matrix element and row
kernel k(out: array[vec3], m: mat33) {
    out[0] = m[1]
    out[1] = vec3(m[0, 2])
    let n = m
    n[2, 2] = 1.0
    n[0] = vec3(0.0)
}
---
// array of vectors: rank limit
kernel k(a: array[vec3, 4]) {}  ### "array rank 4 out of range 1..3 \(an array of vec3 has 1 more axes"
---
// unknown vector type
kernel k(a: vec5) {}  ### "unknown type vec5"
---
// let with a vector type
kernel k(out: array[vec3]) {
    let v: vec3 = vec3(1.0)
    let w: vec3d = v ### "cannot use v \(variable of type vec3\) as vec3d value in variable declaration"
}
---
// select of vectors
kernel k(out: array[vec3], c: bool) {
    out[0] = select(c, vec3(1.0), vec3(2.0))
}
---
// funcs take vectors
func f(a: vec3, b: array[vec3]) -> f32 {
    return dot(a, b[0])
}
kernel k(out: array[f32], v: array[vec3]) {
    out[0] = f(vec3(1.0), v)
}
---
// func argument of the wrong vector type
func f(a: vec3) -> f32 {
    return a.x
}
kernel k(out: array[f32]) {
    out[0] = f(vec3d(1.0)) ### "cannot use vec3d\(1.0\) \(value of type vec3d\) as vec3 value in argument to f"
}
---
// per-lane atomics
kernel k(acc: array[vec3]) {
    atomic_add(acc, 0, vec3(1.0))
    let old = atomic_max(acc, 1, vec3(2.0))
}
---
// shared and local arrays of vectors
kernel k(out: array[vec3]) block(32) {
    shared t: vec3[32]
    local l: vec4[2]
    let i = thread_id()
    t[i] = vec3(1.0)
    sync()
    l[0] = vec4(t[31 - i].x)
    out[i] = t[i] + vec3(l[0].x)
}
---
// print vectors
kernel k() {
    print("m", identity33(), vec2i(1, 2))
}
---
// funcs return vectors and matrices
func half(v: vec3) -> vec3 {
    return v * 0.5
}
func rot(a: f32) -> mat22 {
    return mat22(cos(a), -sin(a), sin(a), cos(a))
}
kernel k(out: array[vec3]) {
    out[0] = half(out[1])
    let r = rot(0.5) * vec2(1.0)
    out[2] = vec3(r.x, r.y, 0.0)
    half(out[0])
}
---
// returning the wrong vector type
func f(v: vec3) -> vec3d {
    return v ### "cannot use v \(variable of type vec3\) as vec3d value in return statement"
}
---
// indexing a lane is an error, not a crash
kernel k(a: array[vec3]) {
    let v = a[0]
    v[0][0] = 1.0 ### "cannot index a value of type f32"
}
