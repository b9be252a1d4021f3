// stdlib script tests (stdlib/script_test.go): .npy save and load. The
// test predeclares tmpdir, a fresh directory for each chunk.
let a = array([[1, 2], [3, 4]], dtype=f64)
save(tmpdir + "/a.npy", a)
let b = load(tmpdir + "/a.npy")
print(b, b.dtype, b.shape, equal(a, b))  //> [[1.0, 2.0], [3.0, 4.0]] f64 [2, 2] true
array m: u8[3] = [0, 7, 255]
save(tmpdir + "/m.npy", m)
print(load(tmpdir + "/m.npy"))           //> [0, 7, 255]
---
// strided views are saved gathered, in C order
let m = array([[1, 2, 3], [4, 5, 6]], dtype=i32)
save(tmpdir + "/r.npy", m[::-1, ::2])
save(tmpdir + "/t.npy", m.T)
print(load(tmpdir + "/r.npy"), load(tmpdir + "/t.npy"))  //> [[4, 6], [1, 3]] [[1, 4], [2, 5], [3, 6]]
---
let x = load(tmpdir + "/nope.npy")       ### "load .*/nope.npy: no such file or directory"
