// loop_top.gs: a 10^7 `s += i` loop at top level, where s and i are globals
// (HOST.md section 4: >= 3.0x CPython). Twin: loop_top.py.
let t0 = time()
let s = 0
for i in range(10000000) {
    s += i
}
let t = time() - t0
print("result", s)
print("time", format("%.6f", t))
