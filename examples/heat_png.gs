// heat_png.gs: heat spreading from hot spots on a plate, as PNG frames.
//
//   gscript run examples/heat_png.gs [STEPS [PREFIX]]
//
// A 128x128 plate starts cold, with three discs held hot (100, 60 and 30
// degrees) and its border held at 0. Explicit Euler steps of the heat
// equation spread the heat; every STEPS/4 steps (STEPS defaults to 800)
// the plate is written as PREFIX_NNNN.png (PREFIX defaults to heat), with
// magma from 0 (black) to 100 (pale yellow), so that the frames compare.

// hold marks the discs: their temperature there, -1 elsewhere. Disc k has
// centre (ci[k], cj[k]), radius r[k] and temperature t[k].
kernel discs(hold: array[f32, 2], ci: array[f32], cj: array[f32], r: array[f32], t: array[f32]) {
    let i, j = tid()
    hold[i, j] = -1.0
    for k in range(len(ci)) {
        let di = f32(i) - ci[k]
        let dj = f32(j) - cj[k]
        if di * di + dj * dj <= r[k] * r[k] {
            hold[i, j] = t[k]
        }
    }
}

// One step: held cells keep their temperature, the border stays at 0,
// the rest moves toward the mean of its neighbours (stable for alpha <= 0.25).
kernel step(u: array[f32, 2], v: array[f32, 2], hold: array[f32, 2], alpha: f32) {
    let i, j = tid()
    let nx = u.shape[0]
    let ny = u.shape[1]
    if hold[i, j] >= 0.0 {
        v[i, j] = hold[i, j]
    } else if i == 0 || j == 0 || i == nx - 1 || j == ny - 1 {
        v[i, j] = 0.0
    } else {
        v[i, j] = u[i, j] + alpha * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j])
    }
}

let steps = 800
if len(argv) > 1 {
    steps = int(argv[1])
}
let prefix = "heat"
if len(argv) > 2 {
    prefix = argv[2]
}
let n = 128
array ci: f32[3] = [40, 85, 95]
array cj: f32[3] = [45, 35, 90]
array r: f32[3] = [7, 5, 10]
array t: f32[3] = [100, 60, 30]
array hold: f32[n, n]
launch discs[n, n](hold, ci, cj, r, t)
array a: f32[n, n]
array b: f32[n, n]
launch step[n, n](b, a, hold, 0.0)        // a: cold, with the discs at their temperatures

let cur = a
let nxt = b
let every = max(steps / 4, 1)
for s in range(steps + 1) {
    if s % every == 0 {
        let name = format("%s_%04d.png", prefix, s)
        save_image(name, cur, cmap="magma", vmin=0.0, vmax=100.0)
        print(format("step %4d: mean %6.3f, wrote %s", s, mean(cur), name))
    }
    launch step[n, n](cur, nxt, hold, 0.24)
    let tmp = cur                          // swap: the output becomes the input
    cur = nxt
    nxt = tmp
}
