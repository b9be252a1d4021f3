// dict_str.gs: 10^6 dict inserts then 10^6 lookups with string keys (HOST.md
// section 4: >= 1.0x CPython). The keys are made before the clock starts, so
// that str() is not what is measured. Twin: dict_str.py.
fn run(keys) {
    let d = {}
    let i = 0
    for k in keys {
        d[k] = i
        i += 1
    }
    let s = 0
    for k in keys {
        s += d[k]
    }
    return s
}
let keys = []
for i in range(1000000) {
    keys.append("k" + str(i))
}
let t0 = time()
let r = run(keys)
let t = time() - t0
print("result", r)
print("time", format("%.6f", t))
