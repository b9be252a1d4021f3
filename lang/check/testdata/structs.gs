// Checker tests (lang/check/script_test.go): struct declarations (TYPES.md
// section 2), their field types and their names as kernel parameter types.
// fields of scalar, vector, matrix, quaternion and struct types, in any order
kernel k(p: Particle, ps: array[Particle], b: Body) {}
struct Body { p: Particle, rot: quat, inertia: mat33 }
struct Particle {
    pos: vec3,
    vel: vec3, mass: f32,
    id: i64,
}
---
// a struct and an array of structs as func parameters
struct P { a: f32, b: u8 }
func f(p: P, ps: array[P, 2]) {}
kernel k(ps: array[P, 3]) {}
---
struct P { a: f32, a: f32 }                    ### "duplicate field a in struct P \(first at .*:1:12\)"
---
struct P { a: f33 }                            ### "unknown type f33 for field a of struct P"
---
struct P { a: array[f32] }                     ### "field a of struct P cannot be an array \(an array of structs is array\[P\]\)"
---
const N = 1
struct P { a: N }                              ### "unknown type N for field a of struct P"
---
struct E {}                                    ### "struct E has no fields"
---
struct A { a: A }                              ### "recursive struct type: A -> A"
---
struct A { b: B, x: f32 }                      ### "recursive struct type: A -> B -> C -> A"
struct B { c: C }
struct C { a: A }
// a struct using a broken one is not reported again
struct D { a: A }
kernel k(d: D) {}
---
struct vec3 { a: f32 }                         ### "struct vec3: vec3 is a predeclared type"
---
struct P { a: f32 }
struct P { b: f32 }                            ### "P redeclared in this block"
---
struct P { a: f32 }
let P = 1                                      ### "P redeclared: it is the struct declared at .*:1:8"
---
struct P { a: f32 }
P = 2                                          ### "cannot assign to struct type P"
---
if true {
    struct P { a: f32 }                        ### "struct P must be declared at top level"
}
---
fn f() {
    struct P { a: f32 }                        ### "struct P must be declared at top level"
}
---
kernel k() {
    struct P { a: f32 }                        ### "struct declaration \(structs are declared at top level\) not allowed in a kernel"
}
---
kernel k(p: Q) {}                              ### "unknown type Q \(want one of .*, or a struct\)"
---
// a host variable is not a type
let Q = 1
kernel k(p: Q) {}                              ### "unknown type Q"
---
// struct values in kernels: parameters, fields, arrays of structs, constructors
struct P { a: f32, b: vec3, n: i32 }
kernel k(p: P, ps: array[P], o: array[f32]) {
    o[0] = p.a + p.b.y
    let r = ps[0]
    r.b += vec3(1.0)
    r.n = 3
    ps[1] = r
    ps[2].b.z = 5.0
    ps[3].a *= 2.0
    let q = P(a=1.0, b=vec3(0.0))
    ps[4] = q
}
---
// a field that does not exist
struct P { a: f32 }
kernel k(ps: array[P]) {
    let r = ps[0]
    r.c = 1.0 ### "r \(P\) has no field c"
}
---
// reading a field that does not exist
struct P { a: f32 }
kernel k(ps: array[P], o: array[f32]) {
    o[0] = ps[0].z ### "ps\[0\] \(value of type P\) has no field z"
}
---
// struct values have no arithmetic
struct P { a: f32 }
kernel k(ps: array[P]) {
    ps[0] = ps[0] + ps[1] ### "operator \+"
}
---
// constructor: unknown field, wrong type
struct P { a: f32, b: vec3 }
kernel k(ps: array[P]) {
    ps[0] = P(c=1.0)                           ### "P has no field c"
    ps[1] = P(b=1.0)                           ### "cannot use 1.0 \(untyped float constant\) as vec3 value in field b of P"
}
---
// funcs return structs
struct P { a: f32, b: vec3 }
func make(a: f32) -> P {
    return P(a=a, b=vec3(a))
}
kernel k(ps: array[P]) {
    ps[tid()] = make(2.0)
}
---
// shared and local arrays of structs
struct P { a: f32, b: vec3 }
kernel k(ps: array[P]) block(32) {
    shared t: P[32]
    local l: P[2]
    let i = thread_id()
    t[i] = ps[i]
    sync()
    l[0] = t[31 - i]
    ps[i] = l[0]
}
---
// a struct value is not indexed
struct P { a: f32 }
kernel k(a: array[P]) {
    let p = a[0]
    p[0] = 1.0                                 ### "cannot index a value of type P \(read its fields by name\)"
    let z = a[0][0]                            ### "cannot index a value of type P"
}
---
// structs do not compare in kernels
struct P { a: f32 }
kernel k(ps: array[P]) {
    let x = ps[0] == ps[1] ### "operator == not defined on ps\[0\] \(value of type P\)"
}
