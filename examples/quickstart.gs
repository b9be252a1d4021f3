// quickstart.gs: a short tour of gscript.
//
// Host code (this file's top level) is dynamically typed and interpreted;
// kernels are statically typed and run one thread per element on the
// current device (cuda:0 when present, else cpu).

// --- Host values -----------------------------------------------------------
let n = 8
let greeting = "hello, gscript"
print(greeting, n)                       // hello, gscript 8

// --- Arrays: NAME: DTYPE[shape] [= init] -----------------------------------
array a: f32[n] = 1.5                    // filled with 1.5
array m: i32[2, 3] = [[1, 2, 3], [4, 5, 6]]
array z: f64[4]                          // zero-filled
print(a)                                 // [1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5]
print(m, m.shape, m.dtype)               // [[1, 2, 3], [4, 5, 6]] [2, 3] i32
print(z.size, z.ndim, z.nbytes)          // 4 1 32

// --- A kernel and a launch ---------------------------------------------------
// Literals take the type the context needs: 2.0 here is an f32.
kernel scale_add(x: array[f32], out: array[f32], s: f32, c: f32) {
    let i = tid()
    out[i] = s * x[i] + c
}

array b: f32[n]
launch scale_add[n](a, b, 2.0, 0.25)     // n threads
print(b[0], type(b[0]))                  // 3.25 f32
print("sum(b) =", sum(b))                // sum(b) = 26.0

// --- A 2-D launch: one thread per (i, j) -------------------------------------
kernel transpose(src: array[i32, 2], dst: array[i32, 2]) {
    let i, j = tid()
    dst[j, i] = src[i, j]
}

array mt: i32[3, 2]
launch transpose[2, 3](m, mt)
print(mt)                                // [[1, 4], [2, 5], [3, 6]]

// --- Device functions (func) are callable from kernels -----------------------
func cube(v: f32) -> f32 {
    return v * v * v
}

kernel cube_all(x: array[f32]) {
    let i = tid()
    if i % 2 == 0 {                      // only even indices
        x[i] = cube(x[i])
    }
}

launch cube_all[n](b)
print(b[0], b[1])                        // 34.328125 3.25

// --- Host functions (fn), lists and loops -------------------------------------
fn average(arr) {
    return sum(arr) / float(arr.size)
}

print("average(b) =", average(b))        // average(b) = 18.7890625

let squares = []
for k in range(5) {
    squares = squares + [k * k]
}
print(squares, len(squares))             // [0, 1, 4, 9, 16] 5

let total = 0
for v in m.reshape([6]) {                // iterate a 1-D view of m
    total += int(v)
}
print("sum of m =", total)               // sum of m = 21
