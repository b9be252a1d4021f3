// scan.gs: inclusive scan of 2^26 i32: each block scans 4096 elements in
// 16 rounds of block_scan with a carry, one block scans the 16384 block
// totals, and a last pass adds them. GB/s count one read and one write.
// Compare with ../shared/bench/workloads.py arraylib (cupy_cumsum_i32).
kernel scan_blocks(x: array[i32], out: array[i32], totals: array[i32]) block(256) {
    shared last: i32[1]
    let t = thread_id()
    let base = block_id() * 4096
    let carry: i32 = 0
    for r in range(16) {
        let i = base + r * 256 + t
        let s = block_scan(x[i]) + carry
        out[i] = s
        if t == 255 {
            last[0] = s
        }
        sync()
        carry = last[0]
        sync()
    }
    if t == 0 {
        totals[block_id()] = carry
    }
}
kernel scan_totals(totals: array[i32]) block(1024) {
    let t = thread_id()
    let n = len(totals)
    let carry: i32 = 0
    for base in range(0, n, 1024) {
        let j = base + t
        let v: i32 = 0
        if j < n {
            v = totals[j]
        }
        let e = block_scan_exclusive(v)
        let chunk = block_sum(v)
        if j < n {
            totals[j] = carry + e
        }
        carry += chunk
    }
}
kernel add_offsets(out: array[i32], totals: array[i32]) block(256) {
    let off = totals[block_id() / 16]
    out[tid()] += off
}
kernel init(x: array[i32]) {
    x[tid()] = 1
}
let n = 1 << 26
let blocks = n / 4096
array x: i32[n]
array out: i32[n]
array totals: i32[blocks]
launch init[n](x)
fn scan() {
    launch scan_blocks[grid(blocks)](x, out, totals)
    launch scan_totals[grid(1)](totals)
    launch add_offsets[grid(n / 256)](out, totals)
}
scan()
synchronize()
assert out[n - 1] == n && out[12345] == 12346, "scan result"
let reps = 20
let t0 = time()
for r in range(reps) {
    scan()
}
synchronize()
print("gscript scan 2^26 i32:", round(8.0 * float(n) / ((time() - t0) / float(reps)) / 1e9), "GB/s")
