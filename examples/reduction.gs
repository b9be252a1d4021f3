// reduction.gs: a two-level sum.
//
// The kernel gives each thread one block of `block` elements to add up
// (in f64, so the partial sums are exact here); the host adds the partial
// sums and compares the result with the stdlib's sum().

kernel fill_ramp(x: array[f32]) {
    let i = tid()
    x[i] = f32(i % 1000)                   // 0, 1, ..., 999, 0, 1, ...
}

kernel partial_sums(x: array[f32], out: array[f64], block: i32) {
    let b = tid()
    let start = b * block
    let stop = min(start + block, len(x))
    let s: f64 = 0.0
    for k in range(start, stop) {
        s += f64(x[k])
    }
    out[b] = s
}

let n = 1 << 20
let block = 4096
let nblocks = (n + block - 1) / block       // integer division

array x: f32[n]
array partial: f64[nblocks]
launch fill_ramp[n](x)
launch partial_sums[nblocks](x, partial, block)

let total = 0.0
for p in partial {
    total += float(p)
}

print("blocks:", nblocks)                  // blocks: 256
print("first partial:", partial[0])       // first partial: 2002560.0
print("last partial:", partial[nblocks - 1])  // last partial: 2048640.0
print("block-wise sum:", total)            // block-wise sum: 523641600.0
print("sum(x):        ", sum(x))           // sum(x):         523641600.0
print("equal:", total == sum(x))           // equal: true
assert total == sum(x), "block-wise and direct sums differ"
