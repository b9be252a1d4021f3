kernel reduce(x: array[f32], out: array[f32]) block(256) {
    shared part: f32[8]
    let i = tid()
    let v = select(i < len(x), x[min(i, len(x) - 1)], 0.0)
    let w = warp_sum(v)
    if lane_id() == 0 {
        part[warp_id()] = w
    }
    sync()
    let s = block_sum(v)
    if thread_id() == 0 {
        atomic_add(out, 0, part[0] + s)
    }
}
kernel tile(a: array[f32, 2], b: array[f32, 2]) block(16, 16) {
    shared t: f32[16, 17]
    local acc: i32[2]
    let by, bx = block_id()
    let ty, tx = thread_id()
    let gy, gx = grid_dim()
    t[ty, tx] = a[by * 16 + ty, bx * 16 + tx]
    sync()
    acc[1] += len(t) + t.shape[1]
    b[bx * 16 + ty, by * 16 + tx] = t[tx, ty] + f32(acc[1] + gy * gx)
}
kernel vote(x: array[i32]) block(64) {
    let v = x[tid()]
    let up = shfl_up(v, 1) + shfl(v, 0) + shfl_xor(v, 1) + shfl_down(v, 2)
    let bits = ballot(v > 0)
    sync_warp()
    x[tid()] = block_scan(up) + block_count(warp_any(bits != u32(0))) + cdiv(v, 4)
}
func dot2(a: f32, b: f32) -> f32 {
    local v: f32[2]
    v[0] = a
    v[1] = b
    return v[0] * v[1] + f32(len(v))
}
kernel locals(x: array[f32]) {
    local t: f64[2, 2]
    t[1, 1] = f64(x[tid()])
    x[tid()] = dot2(f32(t[1, 1]), 2.0)
}
