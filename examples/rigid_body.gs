// rigid_body.gs: spin rigid bodies with quaternions.
//
// Each of N bodies turns at its own constant angular velocity w (world
// frame). Its orientation q follows dq/dt = 0.5 * (w, 0) * q, integrated
// with small Euler steps and renormalised, as a rigid-body solver does.
// After the run, a point fixed in each body is compared with the exact
// rotation, quat_from_axis_angle(w / |w|, |w| t).

const N = 4096

kernel init(w: array[vec3], q: array[quat], seed: i32) {
    let i = tid()
    let rng = rand_init(seed, i)
    w[i] = vec3(randf(rng, -2.0, 2.0), randf(rng, -2.0, 2.0), randf(rng, -2.0, 2.0))
    q[i] = quat_identity()
}

kernel spin(w: array[vec3], q: array[quat], dt: f32, steps: i32) {
    let i = tid()
    let wi = w[i]
    let qi = q[i]
    for s in range(steps) {
        let dq = quat(wi.x, wi.y, wi.z, 0.0) * qi
        qi = normalize(qi + dq * (0.5 * dt))
    }
    q[i] = qi
}

// the distance between where the integration put the body point r and
// where the exact rotation puts it
kernel drift(w: array[vec3], q: array[quat], t: f32, err: array[f32]) {
    let i = tid()
    let r = vec3(1.0, 0.5, -0.25)
    let speed = length(w[i])
    let exact = quat_from_axis_angle(w[i] / speed, speed * t)
    err[i] = length(quat_rotate(q[i], r) - quat_rotate(exact, r))
}

array w: vec3[N]
array q: quat[N]
array err: f32[N]
let dt = 1e-4
let steps = 10000
launch init[N](w, q, 7)
launch spin[N](w, q, dt, steps)
launch drift[N](w, q, dt * steps, err)
print("body 0: w", w[0], "q", q[0])
print("largest drift after", steps, "steps:", format("%.2e", max(err)))
assert max(err) < 0.01, "the integration should stay within 0.01 of the exact rotation"
