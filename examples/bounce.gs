// bounce.gs: fit a ball's initial velocity so that it bounces off the
// floor and a wall and lands on a target, by gradient descent through the
// simulation (Warp's example_bounce).
//
// Each step is a launch that reads the state of one step and writes the
// next into a new array (a tape records each array written once), with a
// penalty contact against the floor y = 0 and the wall x = 1. The loss is
// the squared distance of the last position to the target; backward runs
// the steps' generated adjoint kernels in reverse, and the initial
// velocity moves against its gradient. Strict arithmetic, so the cpu and
// cuda:0 compute the same losses.

const STEPS = 200
const DT = 0.005
const KE = 1.0e4    // contact stiffness
const KD = 10.0     // contact damping
const ITERS = 40

kernel step(x: array[vec3], v: array[vec3], xn: array[vec3], vn: array[vec3]) {
    let i = tid()
    let p = x[i]
    let u = v[i]
    let f = vec3(0.0, -9.8, 0.0)
    if p.y < 0.0 {
        f += vec3(0.0, -KE * p.y - KD * u.y, 0.0)
    }
    if p.x > 1.0 {
        f += vec3(-KE * (p.x - 1.0) - KD * u.x, 0.0, 0.0)
    }
    let un = u + f * DT
    vn[i] = un
    xn[i] = p + un * DT
}

kernel distance(x: array[vec3], target: vec3, loss: array[f32]) {
    let d = x[0] - target
    loss[0] = dot(d, d)
}

// the trajectory: one array per step for positions and velocities
let xs = []
let vs = []
for s in range(STEPS + 1) {
    xs.append(zeros(1, dtype=vec3))
    vs.append(zeros(1, dtype=vec3))
}
let v0 = requires_grad(vs[0])
xs[0][0] = vec3(-0.5, 1.0, 0.0)
v0[0] = vec3(3.0, -1.0, 0.0)
let target = vec3(0.2, 0.5, 0.0)
let lr = 0.05
let first = 0.0
let loss = zeros(1)
for it in range(ITERS) {
    loss = zeros(1)
    tape t {
        for s in range(STEPS) {
            launch step[1](xs[s], vs[s], xs[s + 1], vs[s + 1])
        }
        launch distance[1](xs[STEPS], target, loss)
    }
    backward(t, loss)
    let g = v0.grad[0]
    v0[0] = v0[0] - g * lr
    zero_grad(t)
    if it == 0 {
        first = float(loss[0])
    }
    if it % 10 == 0 || it == ITERS - 1 {
        print("iteration", it, "loss", format("%.6f", loss[0]), "velocity", v0[0])
    }
}
assert float(loss[0]) < first / 10.0, "the loss should fall"
