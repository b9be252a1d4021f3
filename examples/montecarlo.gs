// montecarlo.gs: estimate pi by throwing random points at the unit square.
//
// Each thread draws `samples` points (x, y) in [0, 1)^2 from its own
// random stream (Warp's generator: rand_init(seed, thread), then randf),
// counts those inside the quarter circle, and adds its count to a single
// global counter with one atomic_add. randf is exact integer and f32
// arithmetic, so every device draws the same points.

kernel throw(hits: array[i32], samples: i32, seed: i32) {
    let t = tid()
    let rng = rand_init(seed, t)
    let count = 0
    for k in range(samples) {
        let x = randf(rng)
        let y = randf(rng)
        if x * x + y * y < 1.0 {
            count += 1
        }
    }
    atomic_add(hits, 0, count)
}

let threads = 1 << 14
let samples = 256
let total = threads * samples
array hits: i32[1]
launch throw[threads](hits, samples, 7)

let inside = int(hits[0])
let pi_est = 4.0 * float(inside) / float(total)
let err = pi_est - 3.141592653589793
if err < 0.0 {
    err = -err
}
print("samples:", total)                   // samples: 4194304
print("inside:", inside)                   // inside: 3294197
print("pi ~", pi_est)                      // pi ~ 3.1415910720825195
print("error:", err)                      // error: 1.581507273584748e-06
assert err < 0.01, "the estimate should be within 0.01 of pi"
