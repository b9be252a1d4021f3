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
let x = load(tmpdir + "/nope.npy")       ### "load .*/nope.npy: no such file or directory"
