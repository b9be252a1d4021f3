// heat.gs: 2-D heat diffusion with a 5-point stencil.
//
//   gscript run examples/heat.gs [OUT.png]
//
// A hot 8x8 square sits in the middle of a cold 64x64 plate whose border is
// held at 0. Each step reads `cur` and writes `nxt`, then the two arrays
// swap roles, so no step reads what it is writing. The plate at the end is
// written as a colour-mapped image, OUT.png (default heat.png).

kernel init(u: array[f32, 2], lo: i32, hi: i32, temp: f32) {
    let i, j = tid()
    if i >= lo && i < hi && j >= lo && j < hi {
        u[i, j] = temp
    } else {
        u[i, j] = 0.0
    }
}

// One explicit Euler step of du/dt = alpha * laplacian(u); stable for
// alpha <= 0.25.
kernel step(u: array[f32, 2], v: array[f32, 2], alpha: f32) {
    let i, j = tid()
    let nx = u.shape[0]
    let ny = u.shape[1]
    if i == 0 || j == 0 || i == nx - 1 || j == ny - 1 {
        v[i, j] = u[i, j]                // fixed (cold) boundary
        return
    }
    let lap = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]
    v[i, j] = u[i, j] + alpha * lap
}

let n = 64
let steps = 200
array a: f32[n, n]
array b: f32[n, n]
launch init[n, n](a, n / 2 - 4, n / 2 + 4, 100.0)
print("initial heat:", sum(a))            // initial heat: 6400.0

let cur = a
let nxt = b
for s in range(steps) {
    launch step[n, n](cur, nxt, 0.2)
    let tmp = cur                         // swap: the output becomes the input
    cur = nxt
    nxt = tmp
}

// On cpu: checksum ~6383.7753, center 11.879137, off-center 7.804703,
// near the corner 5.3546577e-05 (a few lost units of heat left through
// the border).
print("steps:", steps)
print("checksum:", sum(cur))
print("center:", cur[n / 2, n / 2])
print("off-center:", cur[n / 2, n / 2 + 8])
print("near corner:", cur[1, 1])
print("max:", max(cur), "min:", min(cur))
assert sum(cur) < 6400.0, "heat must not be created"
assert cur[n / 2, n / 2] > cur[n / 2, n / 2 + 8], "heat flows from hot to cold"

// The final plate as an image: cold in dark blue, the hottest in yellow
// (viridis from 0 to the maximum).
let out = "heat.png"
if len(argv) > 1 {
    out = argv[1]
}
save_image(out, cur, cmap="viridis", vmin=0.0, vmax=max(cur))
print(format("wrote %s (%dx%d, %.3f at the centre)", out, n, n, cur[n / 2, n / 2]))
