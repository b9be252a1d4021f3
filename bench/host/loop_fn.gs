// loop_fn.gs: the 10^7 `s += i` loop inside a fn, on locals (HOST.md
// section 4: >= 3.0x CPython). Twin: loop_fn.py.
fn loop(n) {
    let s = 0
    for i in range(n) {
        s += i
    }
    return s
}
let t0 = time()
let r = loop(10000000)
let t = time() - t0
print("result", r)
print("time", format("%.6f", t))
