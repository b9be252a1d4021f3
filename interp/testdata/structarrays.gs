// Arrays of structs on the host (interp/structarrays.go): made by the
// shape constructors and declarations, element reads and writes through
// the host paths, printing, views, and the refusals.
struct Particle { pos: vec3, vel: vec3, mass: f32 }
let ps = zeros(3, dtype=Particle)
print(ps.dtype, type(ps.dtype), ps.shape, len(ps), ps.size)  //> Particle dtype [3] 3 3
ps[1] = Particle(pos=vec3(1.0, 2.0, 3.0), mass=2.5)
print(ps[1], ps[1].pos.y, ps[1].mass)  //> Particle(pos=vec3(1.0, 2.0, 3.0), vel=vec3(0.0, 0.0, 0.0), mass=2.5) 2.0 2.5
print(ps[1:])                          //> [Particle(pos=vec3(1.0, 2.0, 3.0), vel=vec3(0.0, 0.0, 0.0), mass=2.5),
//>  Particle(pos=vec3(0.0, 0.0, 0.0), vel=vec3(0.0, 0.0, 0.0), mass=0.0)]
print(ps[::-2][0] == ps[2], ps[1] == Particle(pos=vec3(1.0, 2.0, 3.0), mass=2.5))  //> true true
let raw = ps.view(u8)
print(raw.dtype, raw.shape, raw[1, 24], raw[1, 27])  //> u8 [3, 28] 0 64
print(raw.view(Particle)[1].mass)      //> 2.5
---
// full fills by the value's bytes; array(list of values); declarations
struct P { flag: bool, n: i32 }
let f = full([2, 2], P(true, -3))
print(f[1, 0], f.shape)                //> P(flag=true, n=-3) [2, 2]
print(array([P(n=1), P(true, 2)]))     //> [P(flag=false, n=1), P(flag=true, n=2)]
array d: P[2] = P(n=9)
array e: P[2] on "cpu"
e[0] = d[1]
print(d, e, e.device)                  //> [P(flag=false, n=9), P(flag=false, n=9)] [P(flag=false, n=9), P(flag=false, n=0)] cpu
for p in e { //> 9
    print(p.n)
}
//> 0
---
struct P { a: f32 }
let x = ones(2, dtype=P)               ### "ones with dtype=P is not supported: a struct has no one \(use full\(shape, P\(...\)\)\)"
---
struct P { a: f32 }
let x = zeros(2, dtype=P)
x[0] = 1.0                             ### "cannot use float 1.0 as P \(an element of an array of P takes a P value: P\(...\)\)"
---
struct P { a: f32 }
struct Q { a: f32 }
let x = zeros(2, dtype=P)
x[0] = Q(1.0)                          ### "cannot use Q as P"
---
struct P { a: f32 }
print(sum(zeros(2, dtype=P)))          ### "sum of an array of P is not supported; use a.view\(u8\)"
---
struct P { a: f32 }
print(zeros(2, dtype=P) * 2)           ### "operator \* of an array of P is not supported; use a.view\(u8\)"
---
struct P { a: f32 }
let x = full(2, 1.0, dtype=P)          ### "full: cannot use float 1.0 as P"
---
array x: Q[2]                          ### "unknown dtype Q"
---
// a struct view's error quotes the struct's size in bytes (12 here, with
// padding), not its count of lanes
struct P { a: f32, b: i32, c: u8 }
let raw = zeros([2, 7], dtype=u8)
print(raw.view(P))                     ### "view\(P\) needs a last axis of 12 u8 \(contiguous, after at least one other axis\), got u8 \[2, 7\]"
---
struct P { a: f32, b: i32, c: u8 }
let raw = zeros([2, 24], dtype=u8)
print(raw[:, ::2].view(P))             ### "view\(P\) needs a last axis of 12 u8 \(contiguous, after at least one other axis\), got u8 \[2, 12\]"
