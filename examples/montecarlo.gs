// montecarlo.gs: estimate pi by throwing random points at the unit square.
//
// Each thread draws `samples` points (x, y) in [0, 1)^2 from an integer
// hash of a counter, counts those inside the quarter circle, and adds its
// count to a single global counter with one atomic_add.

func hash(x: u32) -> u32 {
    let h = x
    h = h ^ (h >> 16)
    h = h * 0x7feb352d
    h = h ^ (h >> 15)
    h = h * 0x846ca68b
    h = h ^ (h >> 16)
    return h
}

// The top 24 bits of a hash as a float in [0, 1): exact in f32.
func uniform(x: u32) -> f32 {
    return f32(hash(x) >> 8) / 16777216.0
}

kernel throw(hits: array[i32], samples: i32, seed: u32) {
    let t = u32(tid())
    let count = 0
    for k in range(samples) {
        let base = (t * u32(samples) + u32(k)) * 2 + seed
        let x = uniform(base)
        let y = uniform(base + 1)
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
print("inside:", inside)                   // inside: 3294867
print("pi ~", pi_est)                      // pi ~ 3.1422300338745117
print("error:", err)                      // error: 0.0006373802847186028
assert err < 0.01, "the estimate should be within 0.01 of pi"
