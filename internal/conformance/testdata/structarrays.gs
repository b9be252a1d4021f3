// Arrays of structs on every backend: kernels over array[S] parameters
// (lanes at their byte offsets), struct values by value, nested fields,
// bool and u8 fields, funcs returning structs; the host reads and writes
// elements, fills by bytes and saves and loads .npy records.
struct Particle { pos: vec3, vel: vec3, mass: f32 }
kernel init(ps: array[Particle]) {
    let i = tid()
    ps[i] = Particle(pos=vec3(f32(i)), vel=vec3(1.0, 2.0, 3.0), mass=1.0 + f32(i))
}
kernel step(ps: array[Particle], dt: f32) {
    let i = tid()
    let p = ps[i]
    p.pos += p.vel * dt
    ps[i] = p
}
let ps = zeros(4, dtype=Particle)
print(ps.device == zeros(1).device)    //> true
launch init[4](ps)
launch step[4](ps, 0.5)
print(ps[1])                           //> Particle(pos=vec3(1.5, 2.0, 2.5), vel=vec3(1.0, 2.0, 3.0), mass=2.0)
launch step[2](ps[2:], 2.0)
print(ps[2:])                          //> [Particle(pos=vec3(4.5, 7.0, 9.5), vel=vec3(1.0, 2.0, 3.0), mass=3.0),
//>  Particle(pos=vec3(5.5, 8.0, 10.5), vel=vec3(1.0, 2.0, 3.0), mass=4.0)]
save(tmpdir + "/ps.npy", ps[::2])
let back = load(tmpdir + "/ps.npy", dtype=Particle)
print(back.device == ps.device, back)  //> true [Particle(pos=vec3(0.5, 1.0, 1.5), vel=vec3(1.0, 2.0, 3.0), mass=1.0),
//>  Particle(pos=vec3(4.5, 7.0, 9.5), vel=vec3(1.0, 2.0, 3.0), mass=3.0)]
---
// nested structs, bool and u8 fields, padding, a func returning a struct,
// a struct passed by value
struct Inner { a: u8, b: f64 }
struct Rec { flag: bool, inner: Inner, n: i32, v: vec2 }
func make(i: i32) -> Rec {
    return Rec(flag=i % 2 == 0, inner=Inner(a=u8(250 + i), b=f64(i) * 0.5), n=i * 10, v=vec2(f32(i), -1.0))
}
kernel fill(rs: array[Rec, 2]) {
    let i, j = tid()
    rs[i, j] = make(3 * i + j)
}
kernel bump(rs: array[Rec, 2], by: Rec) {
    let i, j = tid()
    let r = rs[i, j]
    r.inner.b += by.inner.b
    r.inner.a += by.inner.a
    r.flag = r.flag != by.flag
    r.n = r.n - by.n
    rs[i, j] = r
}
let rs = empty([2, 3], dtype=Rec)
print(rs.view(u8).shape)               //> [2, 3, 40]
launch fill[2, 3](rs)
print(rs[1])                           //> [Rec(flag=false, inner=Inner(a=253, b=1.5), n=30, v=vec2(3.0, -1.0)),
//>  Rec(flag=true, inner=Inner(a=254, b=2.0), n=40, v=vec2(4.0, -1.0)),
//>  Rec(flag=false, inner=Inner(a=255, b=2.5), n=50, v=vec2(5.0, -1.0))]
launch bump[2, 3](rs, Rec(flag=true, inner=Inner(a=u8(10), b=0.25), n=7))
print(rs[0, 0], rs[1, 2].inner)        //> Rec(flag=false, inner=Inner(a=4, b=0.25), n=-7, v=vec2(0.0, -1.0)) Inner(a=9, b=2.75)
let f = full(3, Rec(flag=true, n=-1, v=vec2(0.5)))
rs[0, 1:] = f[0]
print(rs[0, 2], f[2] == f[0])          //> Rec(flag=true, inner=Inner(a=0, b=0.0), n=-1, v=vec2(0.5, 0.5)) true
---
// a file of records loads only with dtype= a struct of exactly its layout
struct P { a: u8, b: f64 }
struct Q { a: u8, b: f32 }
save(tmpdir + "/p.npy", zeros(2, dtype=P))
let x = load(tmpdir + "/p.npy", dtype=Q)  ### "Q.b is '<f4', the file's is '<f8'"
---
struct P { a: u8, b: f64 }
save(tmpdir + "/p.npy", zeros(2, dtype=P))
let x = load(tmpdir + "/p.npy")        ### "holds records \[\('a', '\|u1'\), \('', '\|V7'\), \('b', '<f8'\)\]; load it with dtype= a struct of those fields"
---
struct P { a: u8, b: f64 }
save(tmpdir + "/f.npy", zeros([2, 16], dtype=u8))
let x = load(tmpdir + "/f.npy", dtype=P)  ### "not records; dtype=P needs a structured dtype"
