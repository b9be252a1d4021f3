// block_reduce_vec4.gs: block_reduce.gs's reduction of 2^28 f32 read as
// vec4 elements (x viewed as array[vec4]): each thread loads whole vec4s
// in a grid-stride loop, one 16-byte load each on CUDA when the view is
// 16-byte aligned (the vector build), adds their lanes into four f64
// accumulators, block_sum, one partial per block, then one block adds the
// partials. The same kernel over a view 4 bytes off alignment runs the
// scalar build (four 4-byte loads per vec4): the pair shows what the
// vector loads give. Compare with ../shared/bench/workloads.py reduce
// (cupy_reduce_sum) in the same visit, and with block_reduce.gs.
kernel partial_sums4(v: array[vec4], out: array[f64]) block(256) {
    let t = thread_id()
    let stride = grid_dim() * 256
    let n = len(v)
    let i = block_id() * 256 + t
    let s0: f64 = 0.0
    let s1: f64 = 0.0
    let s2: f64 = 0.0
    let s3: f64 = 0.0
    while i < n {
        let a = v[i]
        s0 += f64(a.x)
        s1 += f64(a.y)
        s2 += f64(a.z)
        s3 += f64(a.w)
        i += stride
    }
    let s = block_sum((s0 + s1) + (s2 + s3))
    if t == 0 {
        out[block_id()] = s
    }
}
// partial_sums4 with two vec4 loads (32 bytes) in flight per thread.
kernel partial_sums4x2(v: array[vec4], out: array[f64]) block(256) {
    let t = thread_id()
    let stride = grid_dim() * 256
    let n = len(v)
    let i = block_id() * 256 + t
    let s0: f64 = 0.0
    let s1: f64 = 0.0
    let s2: f64 = 0.0
    let s3: f64 = 0.0
    let s4: f64 = 0.0
    let s5: f64 = 0.0
    let s6: f64 = 0.0
    let s7: f64 = 0.0
    while i + stride < n {
        let a = v[i]
        let b = v[i + stride]
        s0 += f64(a.x)
        s1 += f64(a.y)
        s2 += f64(a.z)
        s3 += f64(a.w)
        s4 += f64(b.x)
        s5 += f64(b.y)
        s6 += f64(b.z)
        s7 += f64(b.w)
        i += 2 * stride
    }
    if i < n {
        let a = v[i]
        s0 += f64(a.x)
        s1 += f64(a.y)
        s2 += f64(a.z)
        s3 += f64(a.w)
    }
    let s = block_sum(((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)))
    if t == 0 {
        out[block_id()] = s
    }
}
// partial_sums4 with four vec4 loads (64 bytes) in flight per thread.
kernel partial_sums4x4(v: array[vec4], out: array[f64]) block(256) {
    let t = thread_id()
    let stride = grid_dim() * 256
    let n = len(v)
    let i = block_id() * 256 + t
    let s0: f64 = 0.0
    let s1: f64 = 0.0
    let s2: f64 = 0.0
    let s3: f64 = 0.0
    while i + 3 * stride < n {
        let a = v[i]
        let b = v[i + stride]
        let c = v[i + 2 * stride]
        let d = v[i + 3 * stride]
        s0 += (f64(a.x) + f64(a.y)) + (f64(a.z) + f64(a.w))
        s1 += (f64(b.x) + f64(b.y)) + (f64(b.z) + f64(b.w))
        s2 += (f64(c.x) + f64(c.y)) + (f64(c.z) + f64(c.w))
        s3 += (f64(d.x) + f64(d.y)) + (f64(d.z) + f64(d.w))
        i += 4 * stride
    }
    while i < n {
        let a = v[i]
        s0 += (f64(a.x) + f64(a.y)) + (f64(a.z) + f64(a.w))
        i += stride
    }
    let s = block_sum((s0 + s1) + (s2 + s3))
    if t == 0 {
        out[block_id()] = s
    }
}
// block_reduce.gs's scalar kernel, for the same visit.
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
let n = 1 << 28                              // gscript run bench/block_reduce_vec4.gs [N], N a multiple of 4
if len(argv) > 1 {
    n = int(argv[1])
}
assert n % 4 == 0 && n >= 8, "N must be a multiple of 4, at least 8"
let blocks = 132 * 8
array x: f32[n]
array part: f64[blocks]
array out: f64[1]
launch init[n](x)
let v = x.reshape(n / 4, 4).view(vec4)      // 16-byte aligned: the vector build
let off = x[1:n - 3].reshape(n / 4 - 1, 4).view(vec4) // 4 bytes off: the scalar build
fn vec4_sum() {
    launch partial_sums4[grid(blocks)](v, part)
    launch total[grid(1)](part, out)
    return out[0]
}
fn vec4x2_sum() {
    launch partial_sums4x2[grid(blocks)](v, part)
    launch total[grid(1)](part, out)
    return out[0]
}
fn vec4x4_sum() {
    launch partial_sums4x4[grid(blocks)](v, part)
    launch total[grid(1)](part, out)
    return out[0]
}
fn vec4_off_sum() {
    launch partial_sums4[grid(blocks)](off, part)
    launch total[grid(1)](part, out)
    return out[0]
}
fn scalar_sum() {
    launch partial_sums[grid(blocks)](x, part)
    launch total[grid(1)](part, out)
    return out[0]
}
fn rate(f, reps, elems) {
    f()
    synchronize()
    let t0 = time()
    for r in range(reps) {
        f()
    }
    synchronize()
    return round(4.0 * float(elems) / ((time() - t0) / float(reps)) / 1e9, 2)
}
fn expected(lo, hi) {                         // the sum of (i % 1024) / 2048 for i in lo..hi-1
    let s = 0.0
    for i in range(lo, min(hi, lo + 1024)) {
        s += float(i % 1024) / 2048.0 * float((hi - 1 - i) / 1024 + 1)
    }
    return s
}
let want = expected(0, n)
assert vec4_sum() == want && vec4x2_sum() == want && vec4x4_sum() == want && scalar_sum() == want, "vec4 block kernel sums"
assert vec4_off_sum() == expected(1, n - 3), "vec4 block kernel sum over the misaligned view"
let reps = 20
if x.device == "cpu" {
    reps = 3
}
print("gscript block_reduce vec4 kernel", n, "f32 on", x.device, ":", rate(vec4_sum, reps, n), "GB/s")
print("gscript block_reduce vec4 kernel, 2 vec4 in flight", n, "f32 on", x.device, ":", rate(vec4x2_sum, reps, n), "GB/s")
print("gscript block_reduce vec4 kernel, 4 vec4 in flight", n, "f32 on", x.device, ":", rate(vec4x4_sum, reps, n), "GB/s")
print("gscript block_reduce vec4 kernel, misaligned view (scalar loads)", n - 4, "f32 on", x.device, ":", rate(vec4_off_sum, reps, n - 4), "GB/s")
print("gscript block_reduce scalar kernel", n, "f32 on", x.device, ":", rate(scalar_sum, reps, n), "GB/s")
fn lib_sum() {
    return sum(x)
}
print("gscript sum()", n, "f32 on", x.device, ":", rate(lib_sum, reps, n), "GB/s")
