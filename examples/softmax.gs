// softmax.gs: softmax of every row of a matrix, one block per row.
//
// The 256 threads of a block stride over their row together: a block-wide
// max (block_max), then a block-wide sum of exp(x - max) (block_sum), then
// each thread writes its elements divided by the sum. A one-thread-per-row
// kernel does the same arithmetic serially; the results agree to rounding.

kernel softmax(x: array[f32, 2], y: array[f32, 2]) block(256) {
    let row = block_id()
    let t = thread_id()
    let m = x.shape[1]
    let big: f32 = -3.0e38
    for j in range(t, m, 256) {
        big = max(big, x[row, j])
    }
    big = block_max(big)                     // every thread gets the row's max
    let s: f32 = 0.0
    for j in range(t, m, 256) {
        s += exp(x[row, j] - big)
    }
    s = block_sum(s)
    for j in range(t, m, 256) {
        y[row, j] = exp(x[row, j] - big) / s
    }
}

kernel softmax_rows(x: array[f32, 2], y: array[f32, 2]) {
    let row = tid()
    let m = x.shape[1]
    let big: f32 = -3.0e38
    for j in range(m) {
        big = max(big, x[row, j])
    }
    let s: f32 = 0.0
    for j in range(m) {
        s += exp(x[row, j] - big)
    }
    for j in range(m) {
        y[row, j] = exp(x[row, j] - big) / s
    }
}

kernel init(x: array[f32, 2]) {
    let i, j = tid()
    x[i, j] = f32((i * 31 + j * 17) % 101) * 0.05 - 2.0
}

let rows = 64
let cols = 1000
array x: f32[rows, cols]
array y: f32[rows, cols]
array ref: f32[rows, cols]
launch init[rows, cols](x)
launch softmax[grid(rows)](x, y)
launch softmax_rows[rows](x, ref)
print("rows sum to one:", abs(sum(y) - float(rows)) < 1e-3)        // rows sum to one: true
print("agrees with one thread per row:", allclose(y, ref, rtol=1e-5, atol=1e-7))   // agrees with one thread per row: true
print("largest probability below 0.01:", max(y) < 0.01)           // largest probability below 0.01: true
