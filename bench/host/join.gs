// join.gs: `"".join` of 10^6 strings (HOST.md section 4: >= 1.0x CPython).
// The parts are made before the clock starts. Twin: join.py.
let parts = []
for i in range(1000000) {
    parts.append(str(i % 10))
}
let t0 = time()
let s = "".join(parts)
let t = time() - t0
print("result", len(s), s[:12])
print("time", format("%.6f", t))
