// scan.gs: inclusive prefix sum of 2^20 ints with block scans.
//
// Three launches: each block of 256 threads scans its 256 elements
// (block_scan) and writes its total; one block scans the totals, 256 at a
// time, carrying the running sum; each block then adds the total of the
// blocks before it.

kernel scan_blocks(x: array[i32], out: array[i32], totals: array[i32]) block(256) {
    let i = tid()
    let v = x[i]
    let s = block_scan(v)
    out[i] = s
    if thread_id() == 255 {
        totals[block_id()] = s
    }
}

// Exclusive scan of the totals in place, by one block.
kernel scan_totals(totals: array[i32]) block(256) {
    let t = thread_id()
    let n = len(totals)
    let carry: i32 = 0
    for base in range(0, n, 256) {           // uniform: n and the step are
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
    out[tid()] += totals[block_id()]
}

kernel init(x: array[i32]) {
    let i = tid()
    x[i] = i % 3 - 1                         // -1, 0, 1, -1, 0, 1, ...
}

kernel check(x: array[i32], out: array[i32], bad: array[i32]) {
    // inclusive prefix of -1, 0, 1, ...: 0 when i % 3 == 2, else -1
    let i = tid()
    let want: i32 = -1
    if i % 3 == 2 {
        want = 0
    }
    if out[i] != want {
        atomic_add(bad, 0, 1)
    }
}

let n = 1 << 20
let blocks = n / 256
array x: i32[n]
array out: i32[n]
array totals: i32[blocks]
array bad: i32[1]
launch init[n](x)
launch scan_blocks[grid(blocks)](x, out, totals)
launch scan_totals[grid(1)](totals)
launch add_offsets[grid(blocks)](out, totals)
launch check[n](x, out, bad)
print("out[0..6]:", out[0], out[1], out[2], out[3], out[4], out[5])   // out[0..6]: -1 -1 0 -1 -1 0
print("last:", out[n - 1])                  // last: -1
print("wrong elements:", bad[0])            // wrong elements: 0
