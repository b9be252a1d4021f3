func dot3(a: array[f32], b: array[f32], i: i32) -> f32 {
    return a[i] * b[i] + lerp(a[i], b[i], 0.5)
}
func lerp(a: f32, b: f32, t: f32) -> f32 {
    return a + (b - a) * t
}
func bump(h: array[i32, 2], i: i32) {
    atomic_add(h, i, 0, 1)
}
kernel k(x: array[f32], y: array[f32], out: array[f32], h: array[i32, 2]) {
    let i = tid()
    out[i] = dot3(y, x, i) + lerp(1, 2, 0.5)
    bump(h, i)
    print("out", out[i])
}
