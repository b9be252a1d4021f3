// Checker tests (lang/check/script_test.go): rand.h's samplers, which draw
// from a state variable as randf does and give a vector.
// every sampler, its lanes used as a vector of its type
kernel k(a: array[f32]) {
    let rng = rand_init(1, tid())
    let t: vec2 = sample_triangle(rng)
    let r: vec2 = sample_unit_ring(rng) + sample_unit_disk(rng) + sample_unit_square(rng)
    let s: vec3 = sample_unit_sphere_surface(rng) + sample_unit_sphere(rng) + sample_unit_cube(rng)
    let h: vec3 = sample_unit_hemisphere_surface(rng) - sample_unit_hemisphere(rng)
    let q: vec4 = sample_unit_hypercube(rng)
    a[tid()] = t.x + r.y + length(s) + h.z + q.w
}
---
// in a func, from a state parameter copied into a local
func disk_x(seed: u32) -> f32 {
    let rng = seed
    return sample_unit_disk(rng).x
}
kernel k(a: array[f32]) {
    a[0] = disk_x(rand_init(3))
}
---
kernel k(a: array[f32]) {
    let v = sample_unit_disk(rand_init(1)) ### "the state argument of sample_unit_disk must be a local variable \(it is advanced in place\), not rand_init\(1\)"
}
---
kernel k(a: array[u32]) {
    let v = sample_unit_sphere(a) ### "the state argument of sample_unit_sphere must be a local variable \(it is advanced in place\), not a"
}
---
kernel k(a: array[f32]) {
    let x = 1.0
    let v = sample_triangle(x) ### "the state argument of sample_triangle must be a u32 from rand_init, not f32 x"
}
---
kernel k(a: array[f32]) {
    let rng = rand_init(1)
    let v = sample_unit_cube(rng, 1.0) ### "sample_unit_cube expects 1 argument \(the state\), got 2"
}
---
kernel k(a: array[f32]) {
    let v = sample_unit_ring() ### "sample_unit_ring expects 1 argument \(the state\), got 0"
}
---
kernel k(a: array[f32]) {
    let rng = rand_init(1)
    let v: vec3 = sample_unit_disk(rng) ### "cannot use sample_unit_disk\(rng\) .*as vec3"
}
---
// poisson: a u32 count; lam converts to f32
kernel k(a: array[u32], lam: f32) {
    let rng = rand_init(1, tid())
    a[tid()] = poisson(rng, lam) + poisson(rng, 4) + poisson(rng, 2.5)
}
---
kernel k(a: array[u32]) {
    let v = poisson(rand_init(1), 2.0) ### "the state argument of poisson must be a local variable \(it is advanced in place\), not rand_init\(1\)"
}
---
kernel k(a: array[u32]) {
    let rng = rand_init(1)
    let v = poisson(rng) ### "poisson expects 2 arguments \(the state, lam\), got 1"
}
---
kernel k(a: array[u32], d: f64) {
    let rng = rand_init(1)
    let v = poisson(rng, d) ### "lam of poisson"
}
---
// poisson's loops in a block kernel do not count as divergence around
// a later sync
kernel k(a: array[u32]) block(32) {
    let rng = rand_init(1, thread_id())
    let v = poisson(rng, 12.0)
    sync()
    a[thread_id()] = v
}
