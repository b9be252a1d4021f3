// elements.gs: host reads and writes of single elements of struct, vec3 and
// mat44 arrays on the default device, microseconds each (200 of each after
// one warm-up). On a GPU each is one copy of the element (mem.Array.
// LoadElems / StoreElems).
struct Particle {
    pos: vec3,
    vel: vec3,
    mass: f32,
    bounces: i32,
}
let ps = zeros(1000, dtype=Particle)
let vs = zeros(1000, dtype=vec3)
let ms = zeros(1000, dtype=mat44)
fn op(k) {
    if k == 0 {
        let p = ps[7]
    } else if k == 1 {
        ps[7] = Particle(mass=2.0)
    } else if k == 2 {
        let v = vs[7]
    } else if k == 3 {
        vs[7] = vec3(1.0, 2.0, 3.0)
    } else {
        let m = ms[7]
    }
}
let labels = ["struct element read", "struct element write", "vec3 element read", "vec3 element write", "mat44 element read"]
for k in range(5) {
    op(k)
    let t0 = time()
    for i in range(200) {
        op(k)
    }
    print(labels[k], round((time() - t0) / 200.0 * 1e6, 1), "us")
}
print(ps[7].mass, vs[7], ms[7][0, 0])
