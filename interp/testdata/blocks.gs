// Block kernels (COOPERATIVE.md): launched over grid(...), with shared and
// local arrays, barriers, warp and block collectives. Every chunk prints
// the same on cpu and CUDA devices.
// thread and block indices of a 1-D block: thread_id fastest
kernel ids(out: array[i32]) block(4) {
    out[tid()] = block_id() * 100 + thread_id() * 10 + block_dim() + grid_dim()
}
array o: i32[8]
launch ids[grid(2)](o)
print(o)                               //> [6, 16, 26, 36, 106, 116, 126, 136]
---
// a 2-D block: the last axis is x, the fastest
kernel ids2(out: array[i32, 2]) block(2, 4) {
    let ty, tx = thread_id()
    let by, bx = block_id()
    let i, j = tid()
    out[i, j] = (by * 10 + bx) * 100 + ty * 10 + tx
}
array m: i32[4, 8]
launch ids2[grid(2, 2)](m)
print(m[0], m[3])                      //> [0, 1, 2, 3, 100, 101, 102, 103] [1010, 1011, 1012, 1013, 1110, 1111, 1112, 1113]
---
// a block sum: a grid-stride loop, block_sum, one partial sum per block
kernel partial(x: array[f32], sums: array[f32]) block(256) {
    let stride = grid_dim() * block_dim()
    let acc = 0.0
    for i in range(tid(), len(x), stride) {
        acc += x[i]
    }
    let s = block_sum(acc)
    if thread_id() == 0 {
        sums[block_id()] = s
    }
}
kernel mod7(x: array[f32]) {
    let i = tid()
    x[i] = f32(i % 7)
}
let n = 100000
let blocks = min(cdiv(n, 256), 64)
array x: f32[n]
launch mod7[n](x)
array sums: f32[blocks]
launch partial[grid(blocks)](x, sums)
print(blocks, sum(sums), sum(x))       //> 64 299995.0 299995.0
---
// a tile transpose through shared memory, padded against bank conflicts
kernel transpose(a: array[f32, 2], b: array[f32, 2]) block(8, 8) {
    shared tile: f32[8, 9]
    let ty, tx = thread_id()
    let by, bx = block_id()
    let r = by * 8 + ty
    let c = bx * 8 + tx
    if r < a.shape[0] && c < a.shape[1] {
        tile[ty, tx] = a[r, c]
    }
    sync()
    let r2 = bx * 8 + ty
    let c2 = by * 8 + tx
    if r2 < b.shape[0] && c2 < b.shape[1] {
        b[r2, c2] = tile[tx, ty]
    }
}
let rows = 13
let cols = 20
let a = arange(rows * cols, dtype=f32).reshape([rows, cols])
array b: f32[cols, rows]
launch transpose[grid(cdiv(rows, 8), cdiv(cols, 8))](a, b)
print(b[0, 0], b[0, 12], b[19, 0], b[19, 12], b[5, 7]) //> 0.0 240.0 19.0 259.0 145.0
---
// warp shuffles: a lane reads a neighbour's value; outside 0..31 it keeps its own
kernel shuffles(x: array[i32], out: array[i32, 2]) block(64) {
    let i = tid()
    let v = x[i]
    out[0, i] = shfl(v, 0)
    out[1, i] = shfl_down(v, 1)
    out[2, i] = shfl_up(v, 2)
    out[3, i] = shfl_xor(v, 1)
    out[4, i] = warp_sum(v)
    out[5, i] = i32(ballot(v % 3 == 0) & u32(15))
}
array x: i32[64] = arange(64, dtype=i32)
array out: i32[6, 64]
launch shuffles[grid(1)](x, out)
print(out[0, 33], out[1, 5], out[1, 31], out[2, 1], out[2, 34], out[3, 6], out[3, 7]) //> 32 6 31 1 32 7 6
print(out[4, 0], out[4, 63], out[5, 0])  //> 496 1520 9
---
// an inclusive and an exclusive scan of each block, and the block totals
kernel scans(x: array[i32], inc: array[i32], exc: array[i32], totals: array[i32]) block(128) {
    let i = tid()
    let v = select(i < len(x), x[min(i, len(x) - 1)], 0)
    let s = block_scan(v)
    let e = block_scan_exclusive(v)
    if i < len(x) {
        inc[i] = s
        exc[i] = e
    }
    let t = block_sum(v)
    if thread_id() == 0 {
        totals[block_id()] = t
    }
}
array x: i32[300] = 1
array inc: i32[300]
array exc: i32[300]
array totals: i32[3]
launch scans[grid(cdiv(300, 128))](x, inc, exc, totals)
print(inc[0], inc[127], inc[128], inc[299], exc[0], exc[5], exc[130]) //> 1 128 1 44 0 5 2
print(totals)                          //> [128, 128, 44]
---
// votes and counts over the block
kernel votes(x: array[i32], out: array[i32]) block(64) {
    let p = x[tid()] > 40
    let c = block_count(p)
    let any = block_any(p)
    let all = block_all(x[tid()] >= 0)
    let w = warp_any(p)
    let extremes = block_max(x[tid()]) + block_min(x[tid()])
    if thread_id() == 0 {
        out[0] = c
        out[1] = select(any, 1, 0)
        out[2] = select(all, 1, 0)
        out[3] = select(w, 1, 0)
        out[4] = extremes
    }
}
array x: i32[64] = arange(64, dtype=i32)
array out: i32[5]
launch votes[grid(1)](x, out)
print(out)                             //> [23, 1, 1, 0, 63]
---
// local arrays are per thread and start at zero; a shared histogram with atomics
func bump(v: i32) -> i32 {
    local c: i32[2]
    c[0] += v
    c[1] += 1
    return c[0] * 10 + c[1]
}
kernel hist(x: array[i32], h: array[i32], loc: array[i32]) block(32) {
    shared bins: i32[4]
    local mine: i32[3]
    if thread_id() < 4 {
        bins[thread_id()] = 0
    }
    sync()
    atomic_add(bins, x[tid()] % 4, 1)
    mine[2] += x[tid()]
    sync()
    if thread_id() < 4 {
        atomic_add(h, thread_id(), bins[thread_id()])
    }
    loc[tid()] = mine[2] + mine[0] + bump(x[tid()])
}
array x: i32[64] = arange(64, dtype=i32)
array h: i32[4]
array loc: i32[64]
launch hist[grid(2)](x, h, loc)
print(h, loc[3], loc[40])              //> [16, 16, 16, 16] 34 441
---
// capture records a grid launch like any other
//!cuda
kernel fill1(x: array[f32]) block(32) {
    x[tid()] = f32(block_id())
}
array x: f32[64] on "cuda:0"
capture g on "cuda:0" {
    launch fill1[grid(2)](x)
}
replay(g)
print(x[0], x[63])                     //> 0.0 1.0
---
// host cdiv: the ceiling of the exact quotient
print(cdiv(7, 2), cdiv(8, 2), cdiv(-7, 2), cdiv(7, -2), cdiv(-7, -2), cdiv(0, 5)) //> 4 4 -3 -3 4 0
print(cdiv(1, 0))                      ### "cdiv: division by zero"
---
print(cdiv(1.5, 2))                    ### "cdiv: want an int, got float 1.5"
---
// a block kernel is launched over a grid; a flat one over threads
kernel blk(x: array[f32]) block(256) {
    x[tid()] = 1.0
}
array x: f32[512]
launch blk[512](x)                     ### "kernel blk is a block kernel with block\(256\): launch it over a grid of blocks, as in launch blk\[grid\(cdiv\(n, 256\)\)\]\(...\)"
---
kernel blk2(x: array[f32, 2]) block(16, 16) {
    let i, j = tid()
    x[i, j] = 1.0
}
array x: f32[32, 32]
launch blk2[32, 32](x)                 ### "launch it over a grid of blocks, as in launch blk2\[grid\(cdiv\(ny, 16\), cdiv\(nx, 16\)\)\]\(...\)"
---
kernel flat(x: array[f32]) {
    x[tid()] = 1.0
}
array x: f32[4]
launch flat[grid(4)](x)                ### "kernel flat is not a block kernel: grid\(...\) counts the blocks of a kernel declared with block\(...\); launch flat\[n\]\(...\) runs n threads"
---
kernel blk(x: array[f32]) block(32) {
    x[tid()] = 1.0
}
array x: f32[64]
launch blk[grid(2, 1)](x)              ### "kernel blk has a 1-D block \(block\(32\)\) and is launched over a 2-D grid"
---
kernel blk(x: array[f32, 2]) block(2, 32) {}
array x: f32[4, 4]
launch blk[grid(70000, 1)](x)          ### "grid axis 0 has 70000 blocks, want 0..65535"
---
// a grid of zero blocks runs nothing
kernel blk(x: array[f32]) block(32) {
    x[tid()] = 1.0
}
array x: f32[4]
launch blk[grid(0)](x)
print(x)                               //> [0.0, 0.0, 0.0, 0.0]
