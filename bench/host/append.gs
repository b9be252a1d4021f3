// append.gs: 10^6 `l.append(i)` then a sum loop over the list (HOST.md
// section 4: >= 1.5x CPython). Twin: append.py.
fn build(n) {
    let l = []
    for i in range(n) {
        l.append(i)
    }
    let s = 0
    for v in l {
        s += v
    }
    return s
}
let t0 = time()
let r = build(1000000)
let t = time() - t0
print("result", r)
print("time", format("%.6f", t))
