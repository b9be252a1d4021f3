// stdlib script tests (stdlib/script_test.go) of the random numbers:
// Warp's generator (lang/rng), in kernels and filling arrays on their
// device. The conformance suite runs them on every backend: randf, randi
// and randu are exact everywhere; randn's log, sqrt and cos may differ in
// the last bit across backends, so its values are only compared loosely,
// as are those of the samplers that call sin, cos, acos or pow, and
// poisson's (exp, log and sqrt).
print(rand(4, seed=42))
//> [0.86597514, 0.013862193, 0.44214356, 0.10313505]
print(randint(-5, 5, 6, seed=0), randint(0, 10, [2, 3], seed=1).shape)
//> [0, 2, -4, 2, 3, -5] [2, 3]
print(rand(2).dtype, rand(2, dtype=f64).dtype, randn(2).dtype, randint(0, 2, 2).dtype, randint(0, 2, 2, dtype=u8).dtype)
//> f32 f64 f32 i32 u8
print(rand(3, seed=42, dtype=f64))
//> [0.8659751415252686, 0.013862192630767822, 0.4421435594558716]
print(array_equal(rand(5), rand(5, seed=0)), array_equal(rand(5, seed=1), rand(5, seed=2)), rand(0))
//> true false []
---
// the draws lie in their ranges, and a mean of many is near the middle
let x = rand([1000, 100], seed=7)
print(min(x) >= 0.0, max(x) < 1.0, abs(mean(x) - 0.5) < 0.01)
//> true true true
let r = randint(-3, 4, 100000, seed=7)
print(min(r), max(r), abs(mean(r)) < 0.05)
//> -3 3 true
let g = randn(100000, seed=7)
print(abs(mean(g)) < 0.02, abs(mean(g * g) - 1.0) < 0.02)
//> true true
---
// in a kernel, each draw advances the state in its variable; a thread's
// first randf from rand_init(seed, i) is rand()'s element i
kernel draw(f: array[f32], i: array[i32], u: array[u32], lohi: array[f32], seed: i32) {
    let k = tid()
    let rng = rand_init(seed, k)
    f[k] = randf(rng)
    i[k] = randi(rng, 10, 20)
    u[k] = randu(rng)
    lohi[k] = randf(rng, -1.0, 1.0)
}
array f: f32[4]
array i: i32[4]
array u: u32[4]
array lohi: f32[4]
launch draw[4](f, i, u, lohi, 42)
print(array_equal(f, rand(4, seed=42)), i, u)
//> true [16, 18, 16, 13] [3133687854, 3702303309, 1235698096, 3516599792]
print(lohi)
//> [0.9208517, 0.46676183, 0.27203095, -0.227054]
---
// the state is a u32: rand_init(seed) alone, a state in a loop, randi
// without bounds and randn inside kernels
kernel walk(out: array[f32], n: i32) {
    let rng = rand_init(u32(7))
    let s = 0.0
    for k in range(n) {
        s += randf(rng)
    }
    let g = randn(rng)
    let j = randi(rng)
    out[0] = s / f32(n)
    out[1] = select(abs(g) < 10.0, 1.0, 0.0)
    out[2] = select(j != 0, 1.0, 0.0)
}
array out: f32[3]
launch walk[1](out, 10000)
print(abs(out[0] - 0.5) < 0.01, out[1], out[2])
//> true 1.0 1.0
---
// rand.h's samplers give vectors from the state, which they advance;
// sample_triangle's sqrt, and the cube samplers, are exact on every
// backend (the others' sin, cos, acos and pow may not be: see below)
kernel exact(out: array[f32]) {
    let rng = rand_init(42, 7)
    let t0 = sample_triangle(rng)
    let t1 = sample_triangle(rng)
    let sq = sample_unit_square(rng)
    let c = sample_unit_cube(rng)
    let h = sample_unit_hypercube(rng)
    out[0] = t0.x
    out[1] = t0.y
    out[2] = t1.x
    out[3] = t1.y
    out[4] = sq.x
    out[5] = sq.y
    out[6] = c.x
    out[7] = c.y
    out[8] = c.z
    out[9] = h.x
    out[10] = h.y
    out[11] = h.z
    out[12] = h.w
}
array out: f32[13]
launch exact[1](out)
print(out[:4])
print(out[4:9])
print(out[9:])
//> [0.2969507, 0.23136918, 0.16078413, 0.39090344]
//> [-0.014404237, 0.05583006, -0.38539958, -0.25631207, 0.32611555]
//> [-0.37036157, 0.035314858, 0.30718887, 0.18258631]
---
// every sample lies where it should (bad counts the ones that do not,
// per sampler): on the circle or sphere to 1e-5, in the disk or ball,
// z >= 0 on the hemispheres; hemisphere z and disk r^2 average 1/2
kernel check(bad: array[i32], zsum: array[f32], r2sum: array[f32], m: i32) {
    let k = tid()
    let rng = rand_init(7, k)
    let z = 0.0
    let r2 = 0.0
    for i in range(m) {
        let t = sample_triangle(rng)
        if t.x < 0.0 || t.y < 0.0 || t.x + t.y > 1.0 {
            atomic_add(bad, 0, 1)
        }
        if abs(length(sample_unit_ring(rng)) - 1.0) > 1e-5 {
            atomic_add(bad, 1, 1)
        }
        let d = sample_unit_disk(rng)
        if length(d) > 1.0 + 1e-5 {
            atomic_add(bad, 2, 1)
        }
        r2 += length_sq(d)
        if abs(length(sample_unit_sphere_surface(rng)) - 1.0) > 1e-5 {
            atomic_add(bad, 3, 1)
        }
        if length(sample_unit_sphere(rng)) > 1.0 + 1e-5 {
            atomic_add(bad, 4, 1)
        }
        let h = sample_unit_hemisphere_surface(rng)
        if abs(length(h) - 1.0) > 1e-5 || h.z < 0.0 {
            atomic_add(bad, 5, 1)
        }
        z += h.z
        let hb = sample_unit_hemisphere(rng)
        if length(hb) > 1.0 + 1e-5 || hb.z < 0.0 {
            atomic_add(bad, 6, 1)
        }
        let c = sample_unit_hypercube(rng)
        if min(min(c.x, c.y), min(c.z, c.w)) < -0.5 || max(max(c.x, c.y), max(c.z, c.w)) >= 0.5 {
            atomic_add(bad, 7, 1)
        }
    }
    zsum[k] = z / f32(m)
    r2sum[k] = r2 / f32(m)
}
array bad: i32[8]
array zsum: f32[1000]
array r2sum: f32[1000]
launch check[1000](bad, zsum, r2sum, 100)
print(bad)
print(abs(mean(zsum) - 0.5) < 0.005, abs(mean(r2sum) - 0.5) < 0.005)
//> [0, 0, 0, 0, 0, 0, 0, 0]
//> true true
---
// poisson(rng, lam) counts average lam with variance lam, by the
// multiplication method below 10 and PTRS from 10 on; lam 0 gives 0
// without a draw (the state is unchanged)
kernel counts(out: array[f32], zero: array[u32], lam: f32, m: i32) {
    let k = tid()
    let rng = rand_init(3, k)
    let s0 = rng
    zero[k] = poisson(rng, 0.0) + select(rng == s0, u32(0), u32(1))
    let s = 0.0
    for i in range(m) {
        s += f32(poisson(rng, lam))
    }
    out[k] = s / f32(m)
}
array out: f32[1000]
array zero: u32[1000]
for lam in [0.5, 4.0, 9.5, 10.0, 80.0] {
    launch counts[1000](out, zero, lam, 100)
    let d = out - lam
    print(abs(mean(out) - lam) < 0.02 * lam, abs(mean(d * d) * 100.0 - lam) < 0.2 * lam, max(zero))
}
//> true true 0
//> true true 0
//> true true 0
//> true true 0
//> true true 0
---
let r = rand(2, seed=1.5)                  ### "rand: seed must be an int, not float"
---
// Warp's generator has a u32 seed: seeds outside it are refused, not
// aliased (seed=2^32 was seed=0's stream); the largest one is taken
let r = rand(2, seed=1 << 32)              ### "rand: seed=4294967296 is outside 0 to 4294967295 \(Warp's generator has a u32 seed\)"
---
let r = randn(2, seed=-1)                  ### "randn: seed=-1 is outside 0 to 4294967295"
---
let r = randint(0, 9, 2, seed=1 << 40)     ### "randint: seed=1099511627776 is outside 0 to 4294967295"
---
print(rand(1, seed=(1 << 32) - 1).shape)   //> [1]
---
let r = rand(2, dtype=i32)                 ### "rand: dtype must be a float type, not i32"
---
let r = randint(3, 3, 2)                   ### "randint: the range \[3, 3\) is empty"
---
let r = randint(0, 1 << 40, 2)             ### "randint: the bounds 0 and 1099511627776 must fit an i32"
---
let r = randint(0, 300, 2, dtype=u8)       ### "randint: element 299 does not fit u8"
---
let r = randint(0.5, 3, 2)                 ### "randint: the bounds must be ints, not float and int"
---
kernel k(a: array[f32]) {
    a[0] = randf(rand_init(1))             ### "the state argument of randf must be a local variable \(it is advanced in place\), not rand_init\(1\)"
}
---
kernel k(a: array[f32]) {
    a[0] = randf(a)                        ### "the state argument of randf must be a local variable \(it is advanced in place\), not a"
}
---
kernel k(a: array[f32]) {
    let x = 1.0
    a[0] = randf(x)                        ### "the state argument of randf must be a u32 from rand_init, not f32 x"
}
---
kernel k(a: array[f32]) {
    let rng = rand_init(1.5)               ### "rand_init needs int arguments"
}
---
kernel k(a: array[f32]) {
    let rng = rand_init(1)
    a[0] = randn(rng, 0.0, 1.0)            ### "randn expects 1 argument \(the state\), got 3"
}
---
kernel k(a: array[f32]) {
    let rng = rand_init(1)
    a[0] = randf(rng, 0.0)                 ### "randf expects 1 argument \(the state\) or 3 \(the state, lo, hi\), got 2"
}
---
kernel k(a: array[f32]) {
    let rng = rand_init(1)
    a[0] = f32(randi(rng, 0.5, 2))         ### "bound of randi"
}
