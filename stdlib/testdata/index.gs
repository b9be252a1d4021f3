// stdlib script tests (stdlib/script_test.go): index arrays and boolean
// masks (issue 26), each a generated kernel on the array's device.
// internal/conformance runs this file on the cpu and every CUDA device,
// against the same expected output.
array a: f32[6] = [0, 10, 20, 30, 40, 50]
let idx = array([3, 0, -1, 3])
print(a[idx], a[[1, 2]], a[idx].dtype, a[idx].shape)  //> [30.0, 0.0, 50.0, 30.0] [10.0, 20.0] f32 [4]
let y = take(a, idx) * 2.0 + a[0:4]
print(y, a[array([[0, 1], [2, -2]])])  //> [60.0, 10.0, 120.0, 90.0] [[0.0, 10.0], [20.0, 40.0]]
let z = a[[1, 2]]
a[1] = 100
print(z, a[[]], a[[]].shape)         //> [10.0, 20.0] [] [0]
---
// a gather along axis 0 of a matrix takes rows; take gathers along any axis
array m: i32[3, 4] = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
print(m[array([2, 0])], m[[-1]].shape)  //> [[8, 9, 10, 11], [0, 1, 2, 3]] [1, 4]
print(take(m, [3, 0], axis=1), take(m, [1], axis=-2))  //> [[3, 0], [7, 4], [11, 8]] [[4, 5, 6, 7]]
print(take(m, [5, 11, -1]), take(m.T, [1, 2]))  //> [5, 11, 11] [4, 8]
print(take(m, array([[0], [2]]), axis=1).shape, take(m, [0, 0], axis=0) + m[0])  //> [3, 2, 1] [[0, 2, 4, 6], [0, 2, 4, 6]]
---
// a gather leaf in a reduction and in a broadcast expression
array a: f64[4] = [1, 2, 3, 4]
array col: f64[2, 1] = [[10], [20]]
let i = array([3, 3, 0], dtype=i32)
print(sum(take(a, i)), max(take(a, i) * 2.0), take(a, i) + col)  //> 9.0 8.0 [[14.0, 14.0, 11.0], [24.0, 24.0, 21.0]]
print(sum(take(m2(), [1], axis=0), axis=0), sum(take(m2(), [1, 3])))  //> [3.0, 4.0] 6.0
fn m2() {
    return array([[1.0, 2.0], [3.0, 4.0]])
}
---
// masks: a bool array of a's shape selects elements in C order; of its
// leading axes, rows
array m: i32[3, 4] = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
print(m[m % 3 == 0], m[m > 100], m[m > 100].shape)  //> [0, 3, 6, 9] [] [0]
print(m[array([true, false, true])], m[m[:, 0] > 2].shape)  //> [[0, 1, 2, 3], [8, 9, 10, 11]] [2, 4]
print(m[[true, false, true]][1], m.T[m.T > 9])  //> [8, 9, 10, 11] [10, 11]
let big = arange(100000, dtype=f32)
print(big[big > 99996.5], sum(big[big < 10.0]), len(big[big >= 0.0]))  //> [99997.0, 99998.0, 99999.0] 45.0 100000
---
// stores: a[idx] = v (the last of repeated indices wins, as NumPy's
// assignment), a[mask] = v (a value, or one per selected element)
array a: f32[6] = [0, 1, 2, 3, 4, 5]
a[[0, 5]] = -1
a[array([1, 2, 1])] = array([7.0, 8.0, 9.0])
print(a)                             //> [-1.0, 9.0, 8.0, 3.0, 4.0, -1.0]
a[a < 0.0] = 100
a[a > 8.5] = array([0.5, 0.25, 0.125])
print(a)                             //> [0.5, 0.25, 8.0, 3.0, 4.0, 0.125]
a[[0, 1]] += 1
a[a < 3.5] = a[2:6]
print(a)                             //> [8.0, 3.0, 8.0, 4.0, 4.0, 0.125]
array r: i64[8] = 0
r[array([7, 0, 7, 7, 0])] = array([1, 2, 3, 4, 5])
print(r)                             //> [5, 0, 0, 0, 0, 0, 0, 4]
---
// the last write wins on every device, however many threads race
let n = 100000
let r = zeros(4, dtype=i32)
r[arange(n, dtype=i32) % 4] = arange(n, dtype=i32)
print(r)                             //> [99996, 99997, 99998, 99999]
---
// add_at accumulates every occurrence (atomics on the device)
let h = zeros(5, dtype=i32)
add_at(h, array([0, 1, 1, 4, 4, 4]), 1)
add_at(h, [-1], 10)
print(h)                             //> [1, 2, 0, 0, 13]
let q = zeros([3, 2], dtype=f64)
add_at(q, [0, 0, 2], array([1.0, 2.0]))
print(q)                             //> [[2.0, 4.0], [0.0, 0.0], [1.0, 2.0]]
let c = zeros(3, dtype=i64)
add_at(c, arange(30000, dtype=i32) % 3, 2)
print(c)                             //> [20000, 20000, 20000]
---
// nonzero, where(cond) and argwhere: i64 indices in C order
array m: i32[2, 3] = [[0, 5, 0], [7, 0, 9]]
print(nonzero(m), where(m > 6), nonzero(m)[0].dtype)  //> [[0, 1, 1], [1, 0, 2]] [[1, 1], [0, 2]] i64
print(argwhere(m), argwhere(m).shape, argwhere(m > 100).shape)  //> [[0, 1], [1, 0], [1, 2]] [3, 2] [0, 2]
print(nonzero(array([0.0, -0.5, 0.0, 2.0])), where(array([true, false, true])))  //> [[1, 3]] [[0, 2]]
---
array a: f32[5] = 1.0
print(a[array([1, 5])])              ### "index 5 is out of bounds for axis 0 with size 5"
---
array a: f32[5] = 1.0
print(a[[-6]])                       ### "index -6 is out of bounds for axis 0 with size 5"
---
array m: f32[2, 3] = 1.0
print(take(m, [3], axis=1))          ### "index 3 is out of bounds for axis 1 with size 3"
---
array a: f32[5] = 1.0
a[[0, 9]] = 2                        ### "index 9 is out of bounds for axis 0 with size 5"
---
array a: f32[5] = 1.0
a[[0, 9]] = 2                        ### "out of bounds"
print(a)
---
array a: i32[5] = 1
add_at(a, [1, -7], 1)                ### "add_at: index -7 is out of bounds for axis 0 with size 5"
---
array e: f32[0]
print(e[[0]])                        ### "index 0 is out of bounds for axis 0 with size 0"
---
array a: f32[5] = 1.0
print(a[array([1.0, 2.0])])          ### "index arrays must have an integer dtype \(or bool, a mask\), not f32"
---
array a: f32[5] = 1.0
print(a[array([true, false])])       ### "boolean index of shape \[2\] does not match the indexed array of shape \[5\]"
---
array a: f32[5] = 1.0
a[a > 0.0] = array([1.0, 2.0])       ### "cannot assign an array of shape \[2\] to a boolean selection of shape \[5\]"
---
array m: f32[2, 3] = 1.0
print(m[[0, 1], 2])                  ### "not yet supported: an index array together with other indices"
---
array a: f32[5] = 1.0
a[[0, 1]] = array([1.0, 2.0, 3.0])   ### "cannot assign a value of shape \[3\] to an indexed selection of shape \[2\]"
---
array a: u8[5] = 1
add_at(a, [0], 1)                    ### "add_at: not supported on an array of u8"
---
array a: i32[5] = 1
add_at(a, [0], 0.5)                  ### "add_at: cannot use float 0.5 as i32"
---
array a: i32[5] = 1
add_at(a, [0], array([0.5]))         ### "add_at: cannot add f32 values to a i32 array"
---
array a: f32[5] = 1.0
print(take(a, a > 0.0))              ### "take: the indices must be ints, not bool"
---
array a: f32[5] = 1.0
print(a[["x"]])                      ### "index list"
---
// views: reversed and strided sources and indices, stores through a view
let a = arange(10, dtype=f32)
let idx = array([0, 1, 2, 3, 4, 5])
print(a[::-1][idx[::2]], take(a.reshape([2, 5]).T, [4, 0], axis=0))  //> [9.0, 7.0, 5.0] [[4.0, 9.0], [0.0, 5.0]]
let v = a[::2]
v[[0, 1, -1]] = -5
add_at(a[1::2], [0, 0], 1.0)
print(a)                             //> [-5.0, 3.0, -5.0, 3.0, 4.0, 5.0, 6.0, 7.0, -5.0, 9.0]
let m = arange(12).reshape([3, 4])
let w = m[:, 1:3]
print(w[array([2, 0])], w[w > 5], nonzero(w > 5))  //> [[9, 10], [1, 2]] [6, 9, 10] [[1, 2, 2], [1, 0, 1]]
---
// a list on the right of an indexed store is made an array, as NumPy's
let a = arange(5)
a[a > 2] = [7, 8]
a[[0, 1]] = [5, 6]
print(a)                             //> [5, 6, 2, 7, 8]
---
// a[idx] fuses into the expression around it, and is a value where it is
// bound, stored or passed (a later a[idx] = v does not change it); the
// same in a fn body (the register machine); rows of a matrix by index
fn f(a, idx) {
    let z = a[idx]
    a[idx] = 9.0
    let l = [a[idx]]
    return [z, a[idx] * 2.0 + 1.0, l]
}
let a = arange(5) * 1.0
let idx = array([4, 0, 2])
let z = a[idx]
print(f(a, idx), z)                  //> [[4.0, 0.0, 2.0], [19.0, 19.0, 19.0], [[9.0, 9.0, 9.0]]] [4.0, 0.0, 2.0]
let m = zeros([3, 2])
m[array([2, 0])] = 1.0
m[[1]] += 0.5
print(m)                             //> [[1.0, 1.0], [0.5, 0.5], [1.0, 1.0]]
