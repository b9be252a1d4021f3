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
// partial_sums with eight loads in flight per thread.
kernel partial_sums8(x: array[f32], out: array[f64]) block(256) {
    let t = thread_id()
    let stride = grid_dim() * 256
    let n = len(x)
    let i = block_id() * 256 + t
    let s0: f64 = 0.0
    let s1: f64 = 0.0
    let s2: f64 = 0.0
    let s3: f64 = 0.0
    let s4: f64 = 0.0
    let s5: f64 = 0.0
    let s6: f64 = 0.0
    let s7: f64 = 0.0
    while i + 7 * stride < n {
        s0 += f64(x[i])
        s1 += f64(x[i + stride])
        s2 += f64(x[i + 2 * stride])
        s3 += f64(x[i + 3 * stride])
        s4 += f64(x[i + 4 * stride])
        s5 += f64(x[i + 5 * stride])
        s6 += f64(x[i + 6 * stride])
        s7 += f64(x[i + 7 * stride])
        i += 8 * stride
    }
    while i < n {
        s0 += f64(x[i])
        i += stride
    }
    let s = block_sum(((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)))
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
// The same two-level sum without blocks: each thread adds a run of 256
// elements, the host-side second pass is a second flat launch.
kernel flat_partial(x: array[f32], out: array[f64]) {
    let b = tid()
    let n = len(x)
    let s: f64 = 0.0
    for k in range(b * 256, min(b * 256 + 256, n)) {
        s += f64(x[k])
    }
    out[b] = s
}
kernel flat_total(p: array[f64], out: array[f64]) {
    let s: f64 = 0.0
    for k in range(len(p)) {
        s += p[k]
    }
    out[0] = s
}
kernel init(x: array[f32]) {
    let i = tid()
    x[i] = f32(i % 1024) / 2048.0
}
let n = 1 << 28                              // gscript run bench/block_reduce.gs [N]
if len(argv) > 1 {
    n = int(argv[1])
}
let blocks = 132 * 8
array x: f32[n]
array part: f64[blocks]
array out: f64[1]
array flat: f64[cdiv(n, 256)]
launch init[n](x)
fn kernel_sum() {
    launch partial_sums[grid(blocks)](x, part)
    launch total[grid(1)](part, out)
    return out[0]
}
array part2: f64[2 * blocks]
fn kernel_sum2() {
    launch partial_sums[grid(2 * blocks)](x, part2)
    launch total[grid(1)](part2, out)
    return out[0]
}
fn kernel_sum8() {
    launch partial_sums8[grid(blocks)](x, part)
    launch total[grid(1)](part, out)
    return out[0]
}
fn flat_sum() {
    launch flat_partial[len(flat)](x, flat)
    launch flat_total[1](flat, out)
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
    return round(4.0 * float(n) / ((time() - t0) / float(reps)) / 1e9, 2)
}
let want = float(n) * 1023.0 / 4096.0       // the mean of (i % 1024) / 2048
assert kernel_sum() == want && kernel_sum2() == want && kernel_sum8() == want, "block kernel sums"
let reps = 20
if x.device == "cpu" {
    reps = 3
}
print("gscript block_reduce kernel", n, "f32 on", x.device, ":", rate(kernel_sum, reps), "GB/s")
print("gscript block_reduce kernel, twice the blocks", n, "f32 on", x.device, ":", rate(kernel_sum2, reps), "GB/s")
print("gscript block_reduce kernel, 8 loads in flight", n, "f32 on", x.device, ":", rate(kernel_sum8, reps), "GB/s")
print("gscript two-level flat kernel", n, "f32 on", x.device, ":", rate(flat_sum, reps), "GB/s")
fn lib_sum() {
    return sum(x)
}
print("gscript sum()", n, "f32 on", x.device, ":", rate(lib_sum, reps), "GB/s")
