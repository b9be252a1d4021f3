// dict_int.gs: 10^6 dict inserts then 10^6 lookups with int keys (HOST.md
// section 4: >= 1.0x CPython). Twin: dict_int.py.
fn run(n) {
    let d = {}
    for i in range(n) {
        d[i] = i
    }
    let s = 0
    for i in range(n) {
        s += d[i]
    }
    return s
}
let t0 = time()
let r = run(1000000)
let t = time() - t0
print("result", r)
print("time", format("%.6f", t))
