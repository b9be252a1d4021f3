// is_view says whether the result shares its base's memory, however made
let m = arange(6, dtype=f32).reshape([2, 3])
print(m.is_view, m[0].is_view, m[:, 1:].is_view, m.T.is_view, transpose(m, [1, 0]).is_view)  //> true true true true true
let c = m.T.reshape([6])
print(c.is_view, c)                             //> false [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
c[0] = 9
print(m[0, 0], c.reshape([3, 2]).is_view)       //> 0.0 true
free(c)
let f = arange(4, dtype=f32)
print(f.is_view, f.view(i32).is_view, f.view(f32).is_view, f.reshape([2, 2]).is_view)  //> false true true true
print(f.astype(f64).is_view, f.to("cpu").is_view)  //> false false
---
// views of arrays of vectors and structs
let p = zeros(3, dtype=vec3)
let l = p.view(f32)
print(p.is_view, l.is_view, l.view(vec3).is_view, p[1:].is_view)  //> false true true true
l[1, 2] = 4.5
print(p[1])                                     //> vec3(0.0, 0.0, 4.5)
let g = zeros([2, 3], dtype=f32)
print(g.view(vec3).is_view, g.view(vec3).shape) //> true [2]
let q = p[::2].reshape([2])
print(q.is_view, q)                             //> false [vec3(0.0, 0.0, 0.0), vec3(0.0, 0.0, 0.0)]
struct P { a: f32, b: i32 }
let ps = zeros(2, dtype=P)
print(ps.is_view, ps.view(u8).is_view, ps.view(u8).view(P).is_view, ps[1:].is_view)  //> false true true true
