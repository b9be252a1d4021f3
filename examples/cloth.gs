// cloth.gs: a hanging spring-mass cloth.
//
// A W x H grid of particles, each joined to its four neighbours by
// springs (rest length = the grid spacing), hangs from its top row under
// gravity with a little damping. Each step a kernel sums every
// particle's spring forces (a func returning a vec3), then a second
// kernel moves the free particles with semi-implicit Euler. Strict
// arithmetic, so every device computes the same cloth.

const W = 32
const H = 32
const SPACING = 0.05
const MASS = 0.01

kernel init(p: array[vec3], v: array[vec3]) {
    let i = tid()
    p[i] = vec3(f32(i % W) * SPACING, 0.0, f32(i / W) * SPACING)   // flat, in the x-z plane
    v[i] = vec3(0.0)
}

// the force on a particle at a from a spring to b
func spring(a: vec3, b: vec3, k: f32) -> vec3 {
    let d = b - a
    let l = length(d)
    return d * (k * (l - SPACING) / l)
}

kernel forces(p: array[vec3], v: array[vec3], f: array[vec3], k: f32, damping: f32) {
    let i = tid()
    let x = i % W
    let y = i / W
    let pi = p[i]
    let total = vec3(0.0, -9.81 * MASS, 0.0) - v[i] * damping
    if x > 0 {
        total += spring(pi, p[i - 1], k)
    }
    if x < W - 1 {
        total += spring(pi, p[i + 1], k)
    }
    if y > 0 {
        total += spring(pi, p[i - W], k)
    }
    if y < H - 1 {
        total += spring(pi, p[i + W], k)
    }
    f[i] = total
}

kernel integrate(p: array[vec3], v: array[vec3], f: array[vec3], dt: f32) {
    let i = tid()
    if i < W {
        return // the top row is pinned
    }
    v[i] += f[i] * (dt / MASS)
    p[i] += v[i] * dt
}

array p: vec3[W * H]
array v: vec3[W * H]
array f: vec3[W * H]
launch init[W * H](p, v)
let steps = 4000
for s in range(steps) {
    launch forces[W * H](p, v, f, 400.0, 0.005)
    launch integrate[W * H](p, v, f, 0.0005)
}
let corner = p[W * H - 1]
print("after", steps, "steps of 0.5 ms: bottom corner at", corner)
print("lowest point:", format("%.4f", min(p.view(f32)[:, 1])), "(the cloth is", format("%.2f", SPACING * (H - 1)), "long)")
assert corner.y < 0.0, "the cloth should hang down"
