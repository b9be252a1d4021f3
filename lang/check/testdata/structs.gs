// Checker tests (lang/check/script_test.go): struct declarations (TYPES.md
// section 2), their field types and their names as kernel parameter types.
// fields of scalar, vector, matrix, quaternion and struct types, in any order
kernel k(p: Particle, ps: array[Particle], b: Body) { }
struct Body { p: Particle, rot: quat, inertia: mat33 }
struct Particle {
    pos: vec3
    vel: vec3, mass: f32,
    id: i64
}
---
// a struct and an array of structs as func parameters
struct P { a: f32, b: u8 }
func f(p: P, ps: array[P, 2]) { }
kernel k(ps: array[P, 3]) { }
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
struct E { }                                   ### "struct E has no fields"
---
struct A { a: A }                              ### "recursive struct type: A -> A"
---
struct A { b: B, x: f32 }                      ### "recursive struct type: A -> B -> C -> A"
struct B { c: C }
struct C { a: A }
// a struct using a broken one is not reported again
struct D { a: A }
kernel k(d: D) { }
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
kernel k(p: Q) { }                             ### "unknown type Q \(want one of .*, or a struct\)"
---
// a host variable is not a type
let Q = 1
kernel k(p: Q) { }                             ### "unknown type Q"
---
// until kernel bodies lower struct values, using one is refused
struct P { a: f32, b: vec3 }
kernel k(p: P, ps: array[P], o: array[f32]) {
    o[0] = p.a                                 ### "p: using a value or array of struct type P in a kernel is not supported yet"
    let r = ps[0]                              ### "ps: using a value or array of struct type P in a kernel is not supported yet"
}
