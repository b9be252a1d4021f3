// block_reduce.gs: a block kernel reduction of 2^28 f32 (grid-stride loads
// with four accumulators, block_sum, one partial per block, then one block
// adds the partials), against the library's sum(). Compare with
// ../shared/bench/workloads.py reduce (cupy_reduce_sum) in the same visit.
kernel partial_sums(x: array[f32], out: array[f64]) block(256) {
    let t = thread_id()
    let stride = grid_dim() * 256
    let n = len(x)
    let i = block_id() * 256 + t
    let s0: f64 = 0.0
    let s1: f64 = 0.0
    let s2: f64 = 0.0
    let s3: f64 = 0.0
    while i + 3 * stride < n {
        s0 += f64(x[i])
        s1 += f64(x[i + stride])
        s2 += f64(x[i + 2 * stride])
        s3 += f64(x[i + 3 * stride])
        i += 4 * stride
    }
    while i < n {
        s0 += f64(x[i])
        i += stride
    }
    let s = block_sum((s0 + s1) + (s2 + s3))
    if t == 0 {
        out[block_id()] = s
    }
}
kernel total(p: array[f64], out: array[f64]) block(256) {
    let t = thread_id()
    let s: f64 = 0.0
    for j in range(t, len(p), 256) {
        s += p[j]
    }
    s = block_sum(s)
    if t == 0 {
        out[0] = s
    }
}
kernel init(x: array[f32]) {
    let i = tid()
    x[i] = f32(i % 1024) / 2048.0
}
let n = 1 << 28
let blocks = 132 * 8
array x: f32[n]
array part: f64[blocks]
array out: f64[1]
launch init[n](x)
fn kernel_sum() {
    launch partial_sums[grid(blocks)](x, part)
    launch total[grid(1)](part, out)
    return out[0]
}
fn rate(f, reps) {
    f()
    synchronize()
    let t0 = time()
    for r in range(reps) {
        f()
    }
    synchronize()
    return round(4.0 * float(n) / ((time() - t0) / float(reps)) / 1e9)
}
let want = float(n) * 1023.0 / 2048.0
assert kernel_sum() == want, "block kernel sum"
print("gscript block_reduce kernel 2^28 f32:", rate(kernel_sum, 20), "GB/s")
fn lib_sum() {
    return sum(x)
}
print("gscript sum() 2^28 f32:", rate(lib_sum, 20), "GB/s")
