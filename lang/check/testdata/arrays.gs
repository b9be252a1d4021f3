// Checker tests (lang/check/script_test.go): array parameters: indexing, shape, stores.
// index count
kernel k(x: array[f32, 2]) {
    let i = tid()
    x[i] = 1 ### "array x has 2 dimensions, indexed with 1"
}
---
// index float
kernel k(x: array[f32], f: f32) {
    x[0] = x[f] ### "index f \(variable of type f32\) must be an integer"
}
---
// index negative
kernel k(x: array[f32]) {
    x[-1] = 0 ### "index -1 \(untyped int constant\) must not be negative"
}
---
// index any int type
kernel k(x: array[f32, 3], a: u64, b: u8, c: i64) {
    x[a, b, c] = x[0, 1, c]
}
---
// assign array
kernel k(x: array[f32], y: array[f32]) {
    x = y ### "cannot assign to array x"
}
---
// array in local
kernel k(x: array[f32]) {
    let y = x ### "cannot store array x in a local variable"
}
---
// array arithmetic
kernel k(x: array[f32]) {
    let y = x + 1 ### "operator \+ not defined on x \(array\[f32\]\)"
}
---
// index scalar
kernel k(a: f32) {
    let y = a[0] ### "cannot index a \(variable of type f32\)"
}
---
// len and shape
kernel k(x: array[f32, 2], y: array[i32]) {
    y[0] = len(x) + x.shape[1] + len(y)
}
---
// shape out of range
kernel k(x: array[f32, 2]) {
    let n = x.shape[2] ### "axis 2 out of range: x has 2 dimensions"
}
---
// shape not constant
kernel k(x: array[f32, 2], a: i32) {
    let n = x.shape[a] ### "x.shape must be indexed by a constant integer"
}
---
// shape unindexed
kernel k(x: array[f32, 2]) {
    let n = x.shape ### "x.shape must be indexed by a constant axis"
}
---
// other attribute
kernel k(x: array[f32]) {
    let n = x.size ### "x.size undefined"
}
---
// compound store
kernel k(x: array[i32]) {
    x[0] += 2
    x[1] %= 3
    x[2] -= 1
    x[3] *= 2
    x[4] /= 2
}
---
// store type
kernel k(x: array[f32], a: f64) {
    x[0] = a ### "cannot use a \(variable of type f64\) as f32 value in assignment"
}
---
// array rank type
kernel k(x: array[array[f32]]) {}  ### "array element type must be one of"
