// nbody.gs: one n-body step over 65536 bodies with vec3 positions,
// velocities and accelerations, strict and fast math (TYPES.md sections
// 1 and 5): the same interaction loop (a func returning a vec3) in a
// strict kernel (correctly rounded 1/sqrt, no contraction, bit-identical
// to the cpu) and in one declared fast (rsqrtf, FMA contraction); and,
// for comparison, the same loop spelled out per component over three
// f32 arrays, strict and fast, and a fast block kernel that stages tiles
// of bodies in shared memory, and a fast loop over (x, y, z, mass) packed
// in vec4s (16-byte loads). GFLOP/s count 20 flops per interaction. Compare with
// ../shared/bench/workloads.py nbody (a CuPy RawKernel of the same
// algorithm over three f32 arrays, rsqrtf and default contraction).
//
//   gscript run bench/nbody.gs [N]

// the acceleration of body i: a func is compiled into each kernel that
// calls it, with that kernel's math (strict in accel, fast in accel_fast)
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
kernel accel_fast(p: array[vec3], m: array[f32], a: array[vec3], eps2: f32) fast {
    let i = tid()
    a[i] = accel_at(i, p, m, eps2)
}
// the same interactions in tiles of 256 bodies staged in shared memory
// (a block kernel: the classic CUDA n-body), fast
kernel accel_tiled(p: array[vec3], m: array[f32], a: array[vec3], eps2: f32) block(256) fast {
    shared tp: vec3[256]
    shared tm: f32[256]
    let t = thread_id()
    let i = block_id() * 256 + t
    let n = len(p)
    let pi = p[min(i, n - 1)]
    let f = vec3(0.0)
    for tile in range(cdiv(n, 256)) {
        let j = tile * 256 + t
        tp[t] = p[min(j, n - 1)]
        tm[t] = select(j < n, m[min(j, n - 1)], 0.0)
        sync()
        for k in range(256) {
            let d = tp[k] - pi
            let inv = rsqrt(length_sq(d) + eps2)
            f += d * (tm[k] * inv * inv * inv)
        }
        sync()
    }
    if i < n {
        a[i] = f
    }
}
// the same, strict
kernel accel_tiled_strict(p: array[vec3], m: array[f32], a: array[vec3], eps2: f32) block(256) {
    shared tp: vec3[256]
    shared tm: f32[256]
    let t = thread_id()
    let i = block_id() * 256 + t
    let n = len(p)
    let pi = p[min(i, n - 1)]
    let f = vec3(0.0)
    for tile in range(cdiv(n, 256)) {
        let j = tile * 256 + t
        tp[t] = p[min(j, n - 1)]
        tm[t] = select(j < n, m[min(j, n - 1)], 0.0)
        sync()
        for k in range(256) {
            let d = tp[k] - pi
            let inv = rsqrt(length_sq(d) + eps2)
            f += d * (tm[k] * inv * inv * inv)
        }
        sync()
    }
    if i < n {
        a[i] = f
    }
}
// positions and masses packed in one vec4 per body (x, y, z, mass), as
// CUDA's nbody sample packs float4: one 16-byte load per interaction
kernel accel_v4(pm: array[vec4], a: array[vec3], eps2: f32) fast {
    let i = tid()
    let q = pm[i]
    let pi = vec3(q.x, q.y, q.z)
    let f = vec3(0.0)
    for j in range(len(pm)) {
        let b = pm[j]
        let d = vec3(b.x, b.y, b.z) - pi
        let inv = rsqrt(length_sq(d) + eps2)
        f += d * (b.w * inv * inv * inv)
    }
    a[i] = f
}
kernel update(p: array[vec3], v: array[vec3], a: array[vec3], dt: f32) {
    let i = tid()
    v[i] += a[i] * dt
    p[i] += v[i] * dt
}
// the loop per component, over three f32 arrays (workloads.py's layout)
func accel_soa_at(i: i32, px: array[f32], py: array[f32], pz: array[f32], m: array[f32],
    ax: array[f32], ay: array[f32], az: array[f32], eps2: f32) {
    let xi = px[i]
    let yi = py[i]
    let zi = pz[i]
    let fx: f32 = 0.0
    let fy: f32 = 0.0
    let fz: f32 = 0.0
    for j in range(len(px)) {
        let dx = px[j] - xi
        let dy = py[j] - yi
        let dz = pz[j] - zi
        let inv = rsqrt(dx * dx + dy * dy + dz * dz + eps2)
        let s = m[j] * inv * inv * inv
        fx += dx * s
        fy += dy * s
        fz += dz * s
    }
    ax[i] = fx
    ay[i] = fy
    az[i] = fz
}
kernel accel_soa(px: array[f32], py: array[f32], pz: array[f32], m: array[f32],
    ax: array[f32], ay: array[f32], az: array[f32], eps2: f32) {
    accel_soa_at(tid(), px, py, pz, m, ax, ay, az, eps2)
}
kernel accel_soa_fast(px: array[f32], py: array[f32], pz: array[f32], m: array[f32],
    ax: array[f32], ay: array[f32], az: array[f32], eps2: f32) fast {
    accel_soa_at(tid(), px, py, pz, m, ax, ay, az, eps2)
}
let n = 65536
if len(argv) > 1 {
    n = int(argv[1])
}
let eps2 = 1e-4
let dt = 1e-5
let px = rand(n, seed=1)
let py = rand(n, seed=2)
let pz = rand(n, seed=3)
let m = 0.5 + rand(n, seed=4)
let p = zeros(n, dtype=vec3)
p.view(f32)[:, 0] = px
p.view(f32)[:, 1] = py
p.view(f32)[:, 2] = pz
let pm = zeros(n, dtype=vec4)
pm.view(f32)[:, 0] = px
pm.view(f32)[:, 1] = py
pm.view(f32)[:, 2] = pz
pm.view(f32)[:, 3] = m
let v = zeros(n, dtype=vec3)
let a = zeros(n, dtype=vec3)
let fa = zeros(n, dtype=vec3)
let ax = zeros(n)
let ay = zeros(n)
let az = zeros(n)

// Fast and strict accelerations of the same bodies agree to about 1e-3
// relative (rsqrtf's 2 ulp and contraction, summed over n bodies); the
// vec3 and per-component strict loops give the same bits.
launch accel[n](p, m, a, eps2)
launch accel_fast[n](p, m, fa, eps2)
launch accel_soa[n](px, py, pz, m, ax, ay, az, eps2)
let ta = zeros(n, dtype=vec3)
launch accel_tiled[grid(cdiv(n, 256))](p, m, ta, eps2)
let td = ta.view(f32) - a.view(f32)
assert sqrt(sum(td * td)) / sqrt(sum(a.view(f32) * a.view(f32))) < 1e-3, "the tiled kernel disagrees"
launch accel_v4[n](pm, ta, eps2)
td = ta.view(f32) - a.view(f32)
assert sqrt(sum(td * td)) / sqrt(sum(a.view(f32) * a.view(f32))) < 1e-3, "the vec4 kernel disagrees"
let sa = a.view(f32)
let d = fa.view(f32) - sa
let rel = sqrt(sum(d * d)) / sqrt(sum(sa * sa))
assert rel < 1e-3, format("fast and strict accelerations differ by %.2e relative", rel)
assert array_equal(sa[:, 0], ax) && array_equal(sa[:, 1], ay) && array_equal(sa[:, 2], az), "vec3 and per-component loops differ"

fn gflops(reps, kind) {
    let t0 = time()
    for r in range(reps) {
        if kind == "fast" {
            launch accel_fast[n](p, m, a, eps2)
        } else if kind == "strict" {
            launch accel[n](p, m, a, eps2)
        } else if kind == "v4" {
            launch accel_v4[n](pm, a, eps2)
        } else if kind == "tiled_strict" {
            launch accel_tiled_strict[grid(cdiv(n, 256))](p, m, a, eps2)
        } else if kind == "tiled" {
            launch accel_tiled[grid(cdiv(n, 256))](p, m, a, eps2)
        } else if kind == "soa" {
            launch accel_soa[n](px, py, pz, m, ax, ay, az, eps2)
        } else {
            launch accel_soa_fast[n](px, py, pz, m, ax, ay, az, eps2)
        }
        launch update[n](p, v, a, dt)
    }
    synchronize()
    return round(20.0 * float(n) * float(n) / ((time() - t0) / float(reps)) / 1e9, 1)
}
gflops(1, "strict")
gflops(1, "fast")
gflops(1, "soa")
gflops(1, "soa_fast")
gflops(1, "tiled")
gflops(1, "tiled_strict")
gflops(1, "v4")
let reps = 5
if p.device == "cpu" {
    reps = 1
}
print("gscript nbody vec3 strict", n, "bodies f32 on", p.device, ":", gflops(reps, "strict"), "GFLOP/s")
print("gscript nbody vec3 fast  ", n, "bodies f32 on", p.device, ":", gflops(reps, "fast"), "GFLOP/s")
print("gscript nbody f32 strict ", n, "bodies f32 on", p.device, ":", gflops(reps, "soa"), "GFLOP/s")
print("gscript nbody f32 fast   ", n, "bodies f32 on", p.device, ":", gflops(reps, "soa_fast"), "GFLOP/s")
print("gscript nbody vec4 fast  ", n, "bodies f32 on", p.device, ":", gflops(reps, "v4"), "GFLOP/s")
print("gscript nbody vec3 tiled ", n, "bodies f32 on", p.device, ":", gflops(reps, "tiled"), "GFLOP/s")
print("gscript nbody vec3 tiled strict", n, "bodies f32 on", p.device, ":", gflops(reps, "tiled_strict"), "GFLOP/s")
print(format("fast vs strict acceleration: %.1e relative", rel))
