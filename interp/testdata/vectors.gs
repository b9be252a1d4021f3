// Vector, matrix and quaternion values in kernels (TYPES.md section 1):
// every operation is lane-wise scalar IR, so cpu and CUDA agree bit for bit.
// vector arithmetic and builtins
kernel vecs(out: array[f32]) {
    let a = vec3(1.0, 2.0, 3.0)
    let b = vec3(4.0, 5.0, 6.0)
    let c = cross(a, b)
    out[0] = c.x
    out[1] = c.y
    out[2] = c.z
    out[3] = dot(a, b)
    out[4] = length_sq(a)
    out[5] = (a * b).z
    out[6] = (b / a).y
    out[7] = (2.0 * a - b / 2.0).x
    out[8] = normalize(vec3(3.0, 0.0, 4.0)).z
    out[9] = length(normalize(vec3()))
    out[10] = lerp(a, b, 0.25).x
    out[11] = max(a, vec3(2.0)).x + min(a, vec3(2.0)).z + abs(-a).y
}
array o: f32[12]
launch vecs[1](o)
print(o)  //> [-3.0, 6.0, -3.0, 32.0, 14.0, 18.0, 2.5, 0.0, 0.8, 0.0, 1.75, 6.0]
---
// matrices: products, transpose, determinant, inverse
kernel mats(out: array[f32]) {
    let m = mat22(1.0, 2.0, 3.0, 4.0)
    let v = vec2(1.0, 1.0)
    let mv = m * v
    let vm = v * m
    let mm = m * transpose(m)
    let inv = inverse(m)
    let id = m * inv
    out[0] = mv.x
    out[1] = mv.y
    out[2] = vm.x
    out[3] = vm.y
    out[4] = mm[0, 1]
    out[5] = determinant(m)
    out[6] = trace(m)
    out[7] = id[0, 0] + id[1, 1]
    out[8] = diag(vec3(1.0, 2.0, 3.0))[2, 2] + identity33()[1, 1]
    out[9] = outer(v, vec2(3.0, 4.0))[1, 0]
    out[10] = m[1].y
    out[11] = determinant(mat33(vec3(2.0, 0.0, 0.0), vec3(0.0, 3.0, 0.0), vec3(0.0, 0.0, 4.0)))
}
array o: f32[12]
launch mats[1](o)
print(o)  //> [3.0, 7.0, 4.0, 6.0, 11.0, -2.0, 5.0, 2.0, 4.0, 3.0, 4.0, 24.0]
---
// quaternions rotate vectors
kernel quats(out: array[f32]) {
    let q = quat_from_axis_angle(vec3(0.0, 0.0, 1.0), 3.14159265 / 2.0)
    let r = quat_rotate(q, vec3(1.0, 0.0, 0.0))
    let back = quat_rotate_inv(q, r)
    let qq = q * q
    let m = quat_to_matrix(q)
    out[0] = abs(round(r.x * 1000.0) / 1000.0)
    out[1] = round(r.y * 1000.0) / 1000.0
    out[2] = round(back.x * 1000.0) / 1000.0
    out[3] = round(quat_rotate(qq, vec3(1.0, 0.0, 0.0)).x * 1000.0) / 1000.0
    out[4] = round((m * vec3(0.0, 1.0, 0.0)).x * 1000.0) / 1000.0
    out[5] = select(length(q * quat_inverse(q) - quat_identity()) < 1e-6, 1.0, 0.0)
}
array o: f32[6]
launch quats[1](o)
print(o)  //> [0.0, 1.0, 1.0, -1.0, -1.0, 1.0]
---
// vector variables: component stores and compound assignment
kernel comps(out: array[f32]) {
    let v = vec3(1.0, 2.0, 3.0)
    v.x = 10.0
    v[1] += 5.0
    v *= 2.0
    let m = identity33()
    m[0, 2] = 7.0
    m[1] = vec3(4.0, 5.0, 6.0)
    out[0] = v.x
    out[1] = v.y
    out[2] = v.z
    out[3] = (m * vec3(1.0)).x
    out[4] = (m * vec3(1.0)).y
    out[5] = select(v == vec3(20.0, 14.0, 6.0), 1.0, 0.0)
}
array o: f32[6]
launch comps[1](o)
print(o)  //> [20.0, 14.0, 6.0, 8.0, 15.0, 1.0]
---
// device funcs take vectors by value; integer vectors
func spring(a: vec3, b: vec3, k: f32) -> f32 {
    let d = b - a
    return k * length(d)
}
kernel springs(out: array[f32], k: f32) {
    let i = tid()
    out[i] = spring(vec3(f32(i)), vec3(f32(i) + 1.0, f32(i), f32(i)), k)
    let w = vec2i(i, 2 * i) * 3 + vec2i(1)
    out[i] += f32(w.y - w.x)
}
array o: f32[4]
launch springs[4](o, 2.0)
print(o)  //> [2.0, 5.0, 8.0, 11.0]
---
// print vectors from a kernel (CUDA's printf formats floats its own way:
// docs/decisions.md)
//!cpu
kernel show() {
    print("v", vec3(1.0, 2.5, -3.0), "m", mat22(1.0, 2.0, 3.0, 4.0), vec2i(7, -1))
}
launch show[1]()  //> v vec3(1.0, 2.5, -3.0) m mat22([1.0, 2.0], [3.0, 4.0]) vec2i(7, -1)
---
// funcs return vectors: a spring force, with an early return
func spring(a: vec3, b: vec3, rest: f32, k: f32) -> vec3 {
    let d = b - a
    let l = length(d)
    if l == 0.0 {
        return vec3(0.0)
    }
    return d * (k * (l - rest) / l)
}
kernel forces(out: array[f32]) {
    let i = tid()
    let f = spring(vec3(0.0), vec3(f32(i), 0.0, 0.0), 1.0, 3.0)
    out[i] = f.x
}
array o: f32[4]
launch forces[4](o)
print(o)  //> [0.0, 0.0, 3.0, 6.0]
---
// run-time lane indices: loops over components, as Warp writes them
kernel lanes(out: array[f32], idx: array[i32]) {
    let v = vec3(1.0, 2.0, 3.0)
    let m = mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)
    let s: f32 = 0.0
    for i in range(3) {
        s += v[i] * m[i, 2 - i]
        v[i] += 10.0
    }
    out[0] = s
    out[1] = v.x + v.y + v.z
    out[2] = m[idx[0]].z
    m[idx[1], 0] = 100.0
    out[3] = m[2, 0]
    let q = quat(0.0, 0.0, 0.0, 1.0)
    q[idx[2]] = 5.0
    out[4] = q.w
}
array o: f32[5]
launch lanes[1](o, array([1, 2, 3], dtype=i32))
print(o)  //> [34.0, 36.0, 6.0, 100.0, 5.0]
---
// a run-time lane index out of range fails the launch, as an array index
// does (on CUDA with config.debug, as arrays)
//!cpu
kernel bad(out: array[f32], i: i32) {
    let v = vec3(1.0)
    out[0] = v[i]                    ### "index 3 out of bounds for axis 0 of array vec3 lanes with shape \[3\]"
}
array o: f32[1]
launch bad[1](o, 3)
