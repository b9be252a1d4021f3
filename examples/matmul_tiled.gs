// matmul_tiled.gs: c = a @ b with 16x16 tiles in shared memory.
//
// Each block computes one 16x16 tile of c. Its 256 threads load a tile of a
// and a tile of b into shared memory together, wait for each other (sync),
// and each thread then reads 16 products from the fast tiles instead of
// from global memory. The products are accumulated with an explicit fma in
// the same order as the naive kernel below, so both give identical bits on
// every device.

kernel matmul(a: array[f32, 2], b: array[f32, 2], c: array[f32, 2]) block(16, 16) {
    shared ta: f32[16, 16]
    shared tb: f32[16, 16]
    let ty, tx = thread_id()
    let by, bx = block_id()
    let n = a.shape[0]
    let k = a.shape[1]
    let m = b.shape[1]
    let row = by * 16 + ty
    let col = bx * 16 + tx
    let acc: f32 = 0.0
    for t in range(cdiv(k, 16)) {            // uniform: k is a shape
        let ka = t * 16 + tx
        let kb = t * 16 + ty
        if row < n && ka < k {
            ta[ty, tx] = a[row, ka]
        } else {
            ta[ty, tx] = 0.0
        }
        if kb < k && col < m {
            tb[ty, tx] = b[kb, col]
        } else {
            tb[ty, tx] = 0.0
        }
        sync()                               // the tiles are complete
        for q in range(16) {
            if t * 16 + q < k {
                acc = fma(ta[ty, q], tb[q, tx], acc)
            }
        }
        sync()                               // everyone is done with them
    }
    if row < n && col < m {
        c[row, col] = acc
    }
}

// One thread per element of c, reading a row of a and a column of b.
kernel matmul_naive(a: array[f32, 2], b: array[f32, 2], c: array[f32, 2]) {
    let i, j = tid()
    let acc: f32 = 0.0
    for q in range(a.shape[1]) {
        acc = fma(a[i, q], b[q, j], acc)
    }
    c[i, j] = acc
}

kernel init(a: array[f32, 2], b: array[f32, 2]) {
    let i, j = tid()
    a[i, j] = f32((i + 2 * j) % 7) - 3.0     // small integers: every sum is exact
    b[j, i] = f32((3 * i + j) % 5) - 2.0
}

let n = 100                                  // not a multiple of 16: edge tiles
array a: f32[n, n]
array b: f32[n, n]
array c: f32[n, n]
array ref: f32[n, n]
launch init[n, n](a, b)
launch matmul[grid(cdiv(n, 16), cdiv(n, 16))](a, b, c)
launch matmul_naive[n, n](a, b, ref)
print("c[0, 0]:", c[0, 0])                   // c[0, 0]: 1.0
print("c[n-1, n-1]:", c[n - 1, n - 1])       // c[n-1, n-1]: 10.0
print("c[50, 37]:", c[50, 37])                 // c[50, 37]: 7.0
print("same as the naive kernel:", equal(c, ref))   // same as the naive kernel: true
