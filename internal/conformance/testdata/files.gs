// Text and images of arrays on every backend: the file builtins read an
// array on the current device (a CUDA array through the host-read path)
// and must write what they write for its copy on the cpu. tmpdir is a
// fresh directory for each chunk.
kernel wave(u: array[f32, 2]) {
    let i, j = tid()
    u[i, j] = sin(f32(i) * 0.3) * cos(f32(j) * 0.2)
}
array u: f32[16, 24]
launch wave[16, 24](u)
let c = u.to("cpu")
save_text(tmpdir + "/d.csv", u, fmt="%.6f")
save_text(tmpdir + "/c.csv", c, fmt="%.6f")
print(read_file(tmpdir + "/d.csv") == read_file(tmpdir + "/c.csv"))   //> true
save_image(tmpdir + "/d.png", u)
save_image(tmpdir + "/c.png", c)
print(read_file(tmpdir + "/d.png") == read_file(tmpdir + "/c.png"))   //> true
let back = load_text(tmpdir + "/d.csv")
print(back.device == u.device, back.shape, allclose(back.to("cpu"), c, atol=1e-6))  //> true [16, 24] true
---
// a view (rows 1 and 2) through save_text
array m: i32[3, 4] = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
save_text(tmpdir + "/r.txt", m[1:3])
print(read_file(tmpdir + "/r.txt"), end="")   //> 5 6 7 8
//> 9 10 11 12
