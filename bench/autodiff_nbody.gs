// autodiff_nbody.gs: forward and backward of one n-body step (strict
// math) recorded on a tape: the accelerations of N bodies (the
// interaction loop of bench/nbody.gs), a velocity and position update,
// and the loss sum(p1 * p1) over the new positions; backward runs the
// generated adjoints (the interaction loop's reverse recomputes the
// forward and adds each pair's gradient into p and m with atomics). The
// median of 5 after a round that builds the kernels, in ms; torch has no
// peer of this in ../shared/bench/workloads.py, so the figure to read is
// the backward's cost over the forward's.
//
//   gscript run bench/autodiff_nbody.gs [N]
func accel_at(i: i32, p: array[vec3], m: array[f32], eps2: f32) -> vec3 {
    let pi = p[i]
    let f = vec3(0.0)
    for j in range(len(p)) {
        let d = p[j] - pi
        let inv = rsqrt(length_sq(d) + eps2)
        f += d * (m[j] * inv * inv * inv)
    }
    return f
}
kernel accel(p: array[vec3], m: array[f32], a: array[vec3], eps2: f32) {
    let i = tid()
    a[i] = accel_at(i, p, m, eps2)
}
kernel advance(p: array[vec3], v: array[vec3], a: array[vec3], p1: array[vec3], dt: f32) {
    let i = tid()
    p1[i] = p[i] + (v[i] + a[i] * dt) * dt
}
kernel init(p: array[vec3], v: array[vec3], m: array[f32]) {
    let i = tid()
    let r = rand_init(1, i)
    p[i] = vec3(randf(r, -1.0, 1.0), randf(r, -1.0, 1.0), randf(r, -1.0, 1.0))
    v[i] = vec3(randf(r, -0.1, 0.1), randf(r, -0.1, 0.1), randf(r, -0.1, 0.1))
    m[i] = randf(r, 0.5, 1.5) / f32(len(m))
}
fn median(ts) {
    let s = sorted(ts)
    return s[len(s) / 2]
}
let n = 16384
if len(argv) > 1 {
    n = int(argv[1])
}
array p: vec3[n] requires_grad
array v: vec3[n] requires_grad
array m: f32[n] requires_grad
launch init[n](p, v, m)
fn forward() {
    let a = empty(n, dtype=vec3)
    let p1 = empty(n, dtype=vec3)
    launch accel[n](p, m, a, 1e-3)
    launch advance[n](p, v, a, p1, 0.01)
    return sum(p1.view(f32) * p1.view(f32))
}
fn step() {
    let loss = nil
    tape t {
        loss = forward()
    }
    backward(t, loss)
}
step()
synchronize()
let tf = []
let tb = []
for r in range(5) {
    let t0 = time()
    forward()
    synchronize()
    let t1 = time()
    step()
    synchronize()
    tf.append(t1 - t0)
    tb.append(time() - t1)
}
print("autodiff_nbody", device_info().device, n, "bodies: forward", round(median(tf) * 1e5) / 100.0, "ms; forward and backward", round(median(tb) * 1e5) / 100.0, "ms (", round(median(tb) / median(tf) * 100.0) / 100.0, "x the forward)")
