// Host structs (TYPES.md section 2): construction, printing, field reads,
// equality and their errors (interp/structs.go).
// keyword arguments convert to the fields' types; omitted fields are zero
print(Particle(mass=2, id=7))       //> Particle(pos=vec3(0.0, 0.0, 0.0), vel=vec3(0.0, 0.0, 0.0), mass=2.0, id=7)
struct Particle { pos: vec3, vel: vec3, mass: f32, id: i64 }
print(type(Particle), Particle)     //> dtype Particle
let p = Particle(mass=0.5)
print(type(p), p.mass, type(p.mass), p.id, type(p.id))  //> Particle 0.5 f32 0 i64
print(p.pos, type(p.pos))           //> vec3(0.0, 0.0, 0.0) vec3
---
// positional arguments in field order, then keywords; nested structs
struct Inner { a: u8, ok: bool }
struct Outer { x: f64, inner: Inner, q: quat }
let o = Outer(1.5, inner=Inner(255, true))
print(o)                            //> Outer(x=1.5, inner=Inner(a=255, ok=true), q=quat(0.0, 0.0, 0.0, 0.0))
print(o.inner, type(o.inner), o.inner.a, type(o.inner.a), o.inner.ok, type(o.inner.ok))  //> Inner(a=255, ok=true) Inner 255 u8 true bool
print([Inner(1, false), Inner(2)])  //> [Inner(a=1, ok=false), Inner(a=2, ok=false)]
---
// == compares field by field with each lane's scalar ==
struct P { a: f32, b: i32 }
print(P(1.0, 2) == P(1, 2), P(1.0, 2) != P(1.0, 3), P(0.0) == P(-0.0))  //> true true true
let n = P(nan)
print(n == n, n != n)               //> false true
let q = P(2.5, -1)
let r = q
print(q == r)                       //> true
---
// a struct's name is a global: a fn may construct one
fn make(m) {
    return S(m * 2)
}
struct S { m: i32 }
print(make(21).m)                   //> 42
---
struct P { a: f32 }
let p = P(b=1.0)                    ### "P has no field b \(fields: a\)"
---
struct P { a: f32 }
let p = P(1.0, 2.0)                 ### "P has 1 fields, got 2 positional arguments"
---
struct P { a: f32, b: f32 }
let p = P(1.0, a=2.0)               ### "P: field a given twice"
---
struct P { a: u8 }
let p = P(a=300)                    ### "P field a \(u8\): int 300 overflows u8"
---
struct P { a: i32 }
let p = P(1.5)                      ### "P field a \(i32\): cannot use float 1.5 as i32 \(not an integer\)"
---
struct P { pos: vec3 }
let p = P(pos=1.0)                  ### "P field pos is vec3: cannot use float 1.0 \(a number does not fill a vec3: write vec3\(...\)\)"
---
struct A { x: f32 }
struct B { a: A }
let b = B(a=B())                    ### "B field a is A: cannot use B"
---
struct P { a: f32 }
let p = P()
print(p.b)                          ### "P has no field b \(fields: a\)"
---
struct P { a: f32 }
let p = P()
p.a = 2.0                           ### "cannot assign to field a: P values are immutable \(build a new one with P\(...\)\)"
---
struct P { a: f32 }
struct Q { a: f32 }
print(P() == Q())                   ### "cannot compare P and Q"
---
struct P { a: f32 }
print(P() == 1)                     ### "cannot compare P and int"
---
// signed fields print with their sign
struct S { a: i64, b: i32, c: u64 }
print(S(-1, -2, 3))                 //> S(a=-1, b=-2, c=3)
