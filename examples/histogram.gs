// histogram.gs: a 16-bin histogram of a pseudo-random sequence.
//
// Each thread hashes its index into a u32 (kernel integer arithmetic
// wraps, which is what a hash wants), picks a bin and bumps it with
// atomic_add, so many threads can hit the same bin safely.

// A 32-bit integer mixer (the "lowbias32" hash): deterministic on every device.
func hash(x: u32) -> u32 {
    let h = x
    h = h ^ (h >> 16)
    h = h * 0x7feb352d
    h = h ^ (h >> 15)
    h = h * 0x846ca68b
    h = h ^ (h >> 16)
    return h
}

kernel fill_hist(bins: array[i32], seed: u32) {
    let i = tid()
    let h = hash(u32(i) + seed)
    let b = i32(h % u32(len(bins)))
    atomic_add(bins, b, 1)
}

let n = 1 << 20
let nbins = 16
array bins: i32[nbins]
launch fill_hist[n](bins, 2024)

// Expected: [65895, 65753, 65778, 65555, 65536, 65852, 64959, 65945,
//            65493, 65187, 65246, 65662, 65220, 65008, 65887, 65600]
print("bins:", bins)

let total = 0
let lo = n
let hi = 0
for c in bins {
    let k = int(c)
    total += k
    if k < lo {
        lo = k
    }
    if k > hi {
        hi = k
    }
}
print("sum:", total)                       // sum: 1048576
print("sum():", sum(bins))                 // sum(): 1048576
print("expected per bin:", n / nbins)      // expected per bin: 65536
print("smallest:", lo, "largest:", hi)     // smallest: 64959 largest: 65945
assert total == n, "every sample lands in exactly one bin"
