// Host vectors, matrices and quaternions (stdlib/script_test.go): construction and printing
let v = vec3(1, 2, 3)
print(v, type(v), vec3, type(vec3))  //> vec3(1.0, 2.0, 3.0) vec3 vec3 dtype
print(vec3(2.5), vec2(), vec4d(1, 2, 3, 4), vec2i(7, -8), vec3i(1.9, -1.9, 2))  //> vec3(2.5, 2.5, 2.5) vec2(0.0, 0.0) vec4d(1.0, 2.0, 3.0, 4.0) vec2i(7, -8) vec3i(1, -1, 2)
print(vec3d(vec3(0.1, 0.5, 1)), vec3i(vec3(1.5, -2.5, 3)), vec3(f64(0.5), i32(2), 3.0))  //> vec3d(0.10000000149011612, 0.5, 1.0) vec3i(1, -2, 3) vec3(0.5, 2.0, 3.0)
print(mat22(vec2(1, 2), vec2(3, 4)), mat22(1, 2, 3, 4), mat22(5), mat33())  //> mat22([1.0, 2.0], [3.0, 4.0]) mat22([1.0, 2.0], [3.0, 4.0]) mat22([5.0, 5.0], [5.0, 5.0]) mat33([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
print(mat22d(mat22(1, 2, 3, 4)), identity33(), mat44d(identity44()))  //> mat22d([1.0, 2.0], [3.0, 4.0]) mat33([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]) mat44d([1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0])
print(quat(), quat(1, 2, 3, 4), quatd(vec3d(1, 2, 3), 4), quat_identity())  //> quat(0.0, 0.0, 0.0, 0.0) quat(1.0, 2.0, 3.0, 4.0) quatd(1.0, 2.0, 3.0, 4.0) quat(0.0, 0.0, 0.0, 1.0)
print(str(vec2(1, 2)), [vec2(1, 2), vec2i(3, 4)])  //> vec2(1.0, 2.0) [vec2(1.0, 2.0), vec2i(3, 4)]
---
// components: v.x, v[i], m[i, j], m[i] (a row), q.w
let v = vec4(1, 2, 3, 4)
let m = mat33(1, 2, 3, 4, 5, 6, 7, 8, 9)
let q = quat(0.5, 0.25, 0, 1)
print(v.x, v.y, v.z, v.w, v[0], v[3])   //> 1.0 2.0 3.0 4.0 1.0 4.0
print(m[1, 2], m[2], m[0][1], q.w, q[1]) //> 6.0 vec3(7.0, 8.0, 9.0) 2.0 1.0 0.25
print(type(v.x), type(vec3d(1).x), type(vec2i(1, 2)[1]))  //> f32 f64 i32
---
// component stores on variables store a changed copy: other variables keep theirs
let v = vec3(1, 2, 3)
let w = v
w.x = 10
w[2] += 0.5
let m = identity22()
m[0, 1] = 7
m[1] = vec2(8, 9)
print(v, w, m)  //> vec3(1.0, 2.0, 3.0) vec3(10.0, 2.0, 3.5) mat22([1.0, 7.0], [8.0, 9.0])
---
// operators
let a = vec3(1, 2, 3)
let b = vec3(4, 5, 6)
print(a + b, a - b, a * b, b / a)   //> vec3(5.0, 7.0, 9.0) vec3(-3.0, -3.0, -3.0) vec3(4.0, 10.0, 18.0) vec3(4.0, 2.5, 2.0)
print(a * 2, 2 * a, a / 2, 6 / a)    //> vec3(2.0, 4.0, 6.0) vec3(2.0, 4.0, 6.0) vec3(0.5, 1.0, 1.5) vec3(6.0, 3.0, 2.0)
print(a * f32(0.5), -a, a == vec3(1, 2, 3), a != b, a == b)  //> vec3(0.5, 1.0, 1.5) vec3(-1.0, -2.0, -3.0) true true false
let m = mat22(1, 2, 3, 4)
print(m * vec2(5, 6), vec2(5, 6) * m, m * m, m * 2, m + m)  //> vec2(17.0, 39.0) vec2(23.0, 34.0) mat22([7.0, 10.0], [15.0, 22.0]) mat22([2.0, 4.0], [6.0, 8.0]) mat22([2.0, 4.0], [6.0, 8.0])
print(quat(1, 0, 0, 0) * quat(0, 1, 0, 0), -quat(1, 2, 3, 4))  //> quat(0.0, 0.0, 1.0, 0.0) quat(-1.0, -2.0, -3.0, -4.0)
print(vec2i(7, -7) / vec2i(2, 2), vec3i(1, 2, 3) * 3, [vec2(1, 2)] == [vec2(1, 2)])  //> vec2i(3, -3) vec3i(3, 6, 9) true
let s = vec2(1, 2)
s += vec2(1, 1)
s *= 2
print(s)  //> vec2(4.0, 6.0)
---
// functions
let a = vec3(1, 2, 3)
print(dot(a, a), dot(vec2i(3, 4), vec2i(3, 4)), length(vec2(3, 4)), length_sq(a))  //> 14.0 25 5.0 14.0
print(cross(vec3(1, 0, 0), vec3(0, 1, 0)), normalize(vec2d(3, 4)), normalize(vec3(0)))  //> vec3(0.0, 0.0, 1.0) vec2d(0.6, 0.8) vec3(0.0, 0.0, 0.0)
print(outer(vec2(1, 2), vec2(3, 4)), diag(vec2(1, 2)), trace(mat22(1, 2, 3, 4)))  //> mat22([3.0, 4.0], [6.0, 8.0]) mat22([1.0, 0.0], [0.0, 2.0]) 5.0
print(transpose(mat22(1, 2, 3, 4)), determinant(mat33(2, 0, 0, 0, 3, 0, 0, 0, 4)))  //> mat22([1.0, 3.0], [2.0, 4.0]) 24.0
print(inverse(mat22d(4, 7, 2, 6)), inverse(mat22(1, 2, 2, 4)))  //> mat22d([0.6000000000000001, -0.7000000000000001], [-0.2, 0.4]) mat22([0.0, 0.0], [0.0, 0.0])
print(min(a, vec3(2)), max(a, vec3(2)), abs(vec2i(-3, 3)), lerp(vec2(0, 10), vec2(10, 20), 0.25))  //> vec3(1.0, 2.0, 2.0) vec3(2.0, 2.0, 3.0) vec2i(3, 3) vec2(2.5, 12.5)
print(cw_mul(a, a), cw_div(a, vec3(2)), min(3, 1, 2), abs(-2.5), lerp(1.0, 3.0, 0.5))  //> vec3(1.0, 4.0, 9.0) vec3(0.5, 1.0, 1.5) 1 2.5 2.0
---
// quaternions: 90 degrees about z takes x to y
let q = quatd(quat_from_axis_angle(vec3d(0, 0, 1), 1.5707963267948966))
print(q)                                    //> quatd(0.0, 0.0, 0.7071067811865475, 0.7071067811865476)
print(quat_rotate(q, vec3d(1, 0, 0)))       //> vec3d(2.220446049250313e-16, 1.0, 0.0)
print(quat_rotate_inv(q, vec3d(1, 0, 0)))   //> vec3d(2.220446049250313e-16, -1.0, 0.0)
print(quat_inverse(q), quat_to_matrix(quat_identity()))  //> quatd(-0.0, -0.0, -0.7071067811865475, 0.7071067811865476) mat33([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0])
print(quat_from_matrix(mat33(-1, 0, 0, 0, -1, 0, 0, 0, 1)), normalize(quat()))  //> quat(0.0, 0.0, 1.0, 0.0) quat(0.0, 0.0, 0.0, 1.0)
---
let x = vec3(1, 2, 3) + vec3d(1, 2, 3)   ### "mismatched types vec3 and vec3d in \+; convert with vec3d\(...\)"
---
let x = mat33() * vec4()                 ### "mat33 \* vec4: sizes differ"
---
let x = vec3(1, 2, 3) + 1                ### "operator \+ not defined on vec3 and f32"
---
let x = vec3(1, 2, 3) * f64(2)           ### "mismatched types vec3 and f64 in \*; convert with f32\(...\)"
---
let x = vec2i(1, 2) * 1.5                ### "cannot use float 1.5 as i32 \(not an integer\)"
---
let x = vec2i(1, 2) / vec2i(1, 0)        ### "integer division by zero"
---
let x = vec3(1, 2)                       ### "vec3\(f32, f32\): needs 3 scalars, one scalar or none"
---
let x = vec3("1", 2, 3)                  ### "vec3: argument 1 is string \"1\", not a number or vector"
---
let x = vec3(1, 2, 3).w                  ### "vec3 has no attribute w \(components: x, y, z\)"
---
let x = mat22().x                        ### "mat22 has no attribute x: index it"
---
let x = vec3(1, 2, 3)[3]                 ### "index 3 out of range for axis 0 of vec3 \(size 3\)"
---
let x = mat22()[0, 0, 0]                 ### "mat22 takes at most 2 indices, got 3"
---
let x = normalize(vec3i(1, 2, 3))        ### "normalize\(v\): argument 1 is vec3i, needs a float vector or quaternion"
---
let x = length(vec2i(1, 2))              ### "length\(v\): argument 1 is vec2i, needs a float vector"
---
let x = dot(vec3(1, 2, 3), vec2(1, 2))   ### "dot\(a, b\): argument 2 is vec2, needs vec3 as argument 1 is vec3"
---
let x = cross(vec3(), "a")               ### "cross: argument 2: cannot use string \"a\" as a number or vector"
---
let x = vec3(1, 2, 3) < vec3(1, 2, 3)    ### "operator < not defined on vec3 and vec3"
---
let m = identity22()
m[0] = vec3(1, 2, 3)                     ### "cannot assign vec3 to a row of type vec2"
---
let v = vec2i(1, 2)
v.x = 1.5                                ### "cannot use float 1.5 as i32 \(not an integer\)"
---
let l = [vec2(1, 2)]
l[0].x = 3                               ### "cannot assign to a component of a vec2 that is not in a variable"
