// concat.gs: `s += "ab"` 10^5 times, string building in a loop (HOST.md
// section 4: >= 1.0x CPython; amortised linear). Twin: concat.py.
fn build(n) {
    let s = ""
    for i in range(n) {
        s += "ab"
    }
    return s
}
let t0 = time()
let s = build(100000)
let t = time() - t0
print("result", len(s), s[:6])
print("time", format("%.6f", t))
