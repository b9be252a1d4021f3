// nbody.gs: gravitational n-body with vec3 positions and velocities.
//
// Every body feels every other (O(n^2) per step, softened by eps2), then
// moves with a semi-implicit Euler step, Warp-style: the force loop is
// the same dozen lines as a Warp kernel. The kernels are strict (no fast
// math), so every device computes the same bits; the totals are sums
// over the bodies.

const N = 1024

kernel init(p: array[vec3], v: array[vec3], m: array[f32], seed: i32) {
    let i = tid()
    let rng = rand_init(seed, i)
    p[i] = vec3(randf(rng, -1.0, 1.0), randf(rng, -1.0, 1.0), randf(rng, -1.0, 1.0))
    v[i] = vec3(0.0)
    m[i] = randf(rng, 0.5, 1.5) / f32(len(m))  // total mass about 1
}

kernel accel(p: array[vec3], m: array[f32], a: array[vec3], eps2: f32) {
    let i = tid()
    let pi = p[i]
    let f = vec3(0.0)
    for j in range(len(p)) {
        let d = p[j] - pi
        let inv = rsqrt(length_sq(d) + eps2)
        f += d * (m[j] * inv * inv * inv)
    }
    a[i] = f
}

kernel step(p: array[vec3], v: array[vec3], a: array[vec3], dt: f32) {
    let i = tid()
    v[i] += a[i] * dt
    p[i] += v[i] * dt
}

// momentum and kinetic energy per body, summed on the host
kernel totals(v: array[vec3], m: array[f32], mom: array[vec3], ke: array[f32]) {
    let i = tid()
    mom[i] = v[i] * m[i]
    ke[i] = 0.5 * m[i] * length_sq(v[i])
}

array p: vec3[N]
array v: vec3[N]
array a: vec3[N]
array mom: vec3[N]
array m: f32[N]
array ke: f32[N]
launch init[N](p, v, m, 42)
for s in range(20) {
    launch accel[N](p, m, a, 1e-3)
    launch step[N](p, v, a, 1e-2)
}
launch totals[N](v, m, mom, ke)
let pm = sum(mom.view(f32), axis=0)
print("body 0 at", p[0])
print("kinetic energy:", format("%.4g", sum(ke)))
print("momentum conserved:", float(abs(pm[0]) + abs(pm[1]) + abs(pm[2])) < 1e-3)
