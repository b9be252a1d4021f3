#!/usr/bin/env gscript
// A sample touching every statement and expression form; parse tests check
// the position of every node in it.
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}

kernel grid(m: array[f32, 2], n: i32) {
    let i, j = tid()
    if i < n && j < n {
        m[i, j] = f32(i * n + j)
    } else if i == 0 {
        m[0, j] += 1.0
    } else {
        return
    }
    for k in range(4) {
        while k > 0 {
            break
        }
        continue
    }
}

kernel tile(m: array[f32, 2]) block(16, 4 * 4) {
    shared t: f32[16, 17]
    local acc: f64[2]
    let ty, tx = thread_id()
    t[ty, tx] = m[ty, tx]
    sync()
}

func sq(v: f32) -> f32 {
    return v * v
}

struct Particle {
    pos: vec3, vel: vec3,
    mass: f32,
}

fn area(w, h) {
    return w * h
}

let n = 1 << 20
let b: f64 = 2.5e-3
array x: f32[n] = 1.0
array y: f32[n] = [1, 2, 3] on "cpu" using managed
launch saxpy[n](x, y, 3.0)
launch tile[grid(cdiv(n, 16), 1)](x)
print(sum(y), (n - 1) % 3, -n, !true, ~0x0F, nil)
config.debug = true
device = "cuda:0"
let zs = zeros(3, device="cpu", allocator="managed")

allocator managed {
    array z: f32[n] on "cuda:0"
    print(z.memory_kind, z.shape[0], z[1:3], z[:2], z[1:], z[:])
}

device "cpu" {
    assert can_access("cpu", x), "no access"
}

capture g on "cuda:0" {
    launch saxpy[n](x, y, 3.0) on "cuda:0"
}
replay(g)
{
    let inner = [[1, 2], [3, 4]]
    inner[0] = [5,
        6]
}

// host language v3 (HOST.md section 3)
let d = {"a": 1, 2: [3, {}],
    "n": {1: 2},
}
d["b"] = 2 ** 3 ** 2
let p, q = 1, 2
p, q = q, p
for k, v in d.items() {
    if k in d && v not in [1, 2] {
        d[k] **= 2
    }
}
fn divmod(a, b) {
    return a / b, a % b
}
try {
    error("boom")
} catch e {
    print(e.message)
}
try {
    f()
} catch {}
