// fib.gs: recursive fib(30), calls and int arithmetic (HOST.md section 4:
// >= 2.0x CPython). Twin: fib.py.
fn fib(n) {
    if n < 2 {
        return n
    }
    return fib(n - 1) + fib(n - 2)
}
let t0 = time()
let r = fib(30)
let t = time() - t0
print("result", r)
print("time", format("%.6f", t))
