// nbody.gs: one n-body step over 65536 bodies (positions, velocities and
// masses as separate f32 arrays), strict and fast math (TYPES.md section
// 5): the same interaction loop in a strict kernel (correctly rounded
// 1/sqrt, no contraction, bit-identical to the cpu) and in one declared
// fast (rsqrtf, FMA contraction). GFLOP/s count 20 flops per interaction.
// Compare with ../shared/bench/workloads.py nbody (a CuPy RawKernel of the
// same algorithm, rsqrtf and default contraction).
//
//   gscript run bench/nbody.gs [N]
func accel_into(i: i32, px: array[f32], py: array[f32], pz: array[f32], m: array[f32],
                ax: array[f32], ay: array[f32], az: array[f32], eps2: f32) {
    // A func is compiled into each kernel that calls it, with that
    // kernel's math: strict in accel, fast in accel_fast.
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
        let d2 = dx * dx + dy * dy + dz * dz + eps2
        let inv = rsqrt(d2)
        let s = m[j] * inv * inv * inv
        fx += dx * s
        fy += dy * s
        fz += dz * s
    }
    ax[i] = fx
    ay[i] = fy
    az[i] = fz
}
kernel accel(px: array[f32], py: array[f32], pz: array[f32], m: array[f32],
             ax: array[f32], ay: array[f32], az: array[f32], eps2: f32) {
    accel_into(tid(), px, py, pz, m, ax, ay, az, eps2)
}
kernel accel_fast(px: array[f32], py: array[f32], pz: array[f32], m: array[f32],
                  ax: array[f32], ay: array[f32], az: array[f32], eps2: f32) fast {
    accel_into(tid(), px, py, pz, m, ax, ay, az, eps2)
}
kernel update(px: array[f32], py: array[f32], pz: array[f32], vx: array[f32], vy: array[f32], vz: array[f32],
              ax: array[f32], ay: array[f32], az: array[f32], dt: f32) {
    let i = tid()
    vx[i] += ax[i] * dt
    vy[i] += ay[i] * dt
    vz[i] += az[i] * dt
    px[i] += vx[i] * dt
    py[i] += vy[i] * dt
    pz[i] += vz[i] * dt
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
let vx = zeros(n)
let vy = zeros(n)
let vz = zeros(n)
let ax = zeros(n)
let ay = zeros(n)
let az = zeros(n)

// Fast and strict accelerations of the same bodies agree to about 1e-3
// relative (rsqrtf's 2 ulp and contraction, summed over n bodies).
let fx = zeros(n)
let fy = zeros(n)
let fz = zeros(n)
launch accel[n](px, py, pz, m, ax, ay, az, eps2)
launch accel_fast[n](px, py, pz, m, fx, fy, fz, eps2)
let diff = sqrt(sum((fx - ax) * (fx - ax) + (fy - ay) * (fy - ay) + (fz - az) * (fz - az)))
let rel = diff / sqrt(sum(ax * ax + ay * ay + az * az))
assert rel < 1e-3, format("fast and strict accelerations differ by %.2e relative", rel)

fn gflops(reps, fast) {
    let t0 = time()
    for r in range(reps) {
        if fast {
            launch accel_fast[n](px, py, pz, m, ax, ay, az, eps2)
        } else {
            launch accel[n](px, py, pz, m, ax, ay, az, eps2)
        }
        launch update[n](px, py, pz, vx, vy, vz, ax, ay, az, dt)
    }
    synchronize()
    return round(20.0 * float(n) * float(n) / ((time() - t0) / float(reps)) / 1e9, 1)
}
gflops(1, false)
gflops(1, true)
let reps = 5
if px.device == "cpu" {
    reps = 1
}
print("gscript nbody strict", n, "bodies f32 on", px.device, ":", gflops(reps, false), "GFLOP/s")
print("gscript nbody fast  ", n, "bodies f32 on", px.device, ":", gflops(reps, true), "GFLOP/s")
print(format("fast vs strict acceleration: %.1e relative", rel))
