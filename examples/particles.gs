// particles.gs: particles as structs, bouncing on the floor of a box.
//
// Each particle is a Particle record (position, velocity, mass and a
// bounce count), in one array of structs laid out as NumPy's aligned
// structured dtype. Particles start on a shell of radius 1 around (0, 2,
// 0), launched outwards in a random direction (a normalized
// sample_unit_cube: exact arithmetic, so every device draws the same),
// fall under gravity and bounce off the floor, losing a fifth of their
// speed each time. The final state is saved as a .npy of records and read
// back.

struct Particle {
    pos: vec3,
    vel: vec3,
    mass: f32,
    bounces: i32,
}

const N = 4096

kernel spawn(ps: array[Particle], seed: i32) {
    let i = tid()
    let rng = rand_init(seed, i)
    let dir = normalize(sample_unit_cube(rng))
    ps[i] = Particle(pos=vec3(0.0, 2.0, 0.0) + dir, vel=dir * 3.0, mass=randf(rng, 0.5, 1.5))
}

kernel step(ps: array[Particle], dt: f32) {
    let i = tid()
    let p = ps[i]
    p.vel.y -= 9.81 * dt
    p.pos += p.vel * dt
    if p.pos.y < 0.0 {
        p.pos.y = -p.pos.y
        p.vel.y = -0.8 * p.vel.y
        p.bounces += 1
    }
    ps[i] = p
}

// the particles' heights and bounces, summed on the host
kernel tally(ps: array[Particle], heights: array[f32], bounces: array[i32]) {
    let i = tid()
    heights[i] = ps[i].pos.y
    bounces[i] = ps[i].bounces
}

array ps: Particle[N]
launch spawn[N](ps, 3)
for s in range(2000) {
    launch step[N](ps, 0.001)
}
array heights: f32[N]
array bounces: i32[N]
launch tally[N](ps, heights, bounces)
print("particle 0:", ps[0])
print("bounces:", sum(bounces), "in all; the most:", max(bounces))
print("every particle above the floor:", min(heights) >= f32(0.0))

save("particles.npy", ps)
let back = load("particles.npy", dtype=Particle)
print("read back equal:", back[N - 1] == ps[N - 1], back[0].bounces == ps[0].bounces)
