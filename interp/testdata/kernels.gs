// saxpy: the first script of LANGUAGE.md, on the cpu
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
let n = 1 << 20
array x: f32[n] = 1.0
array y: f32[n] = 2.0
launch saxpy[n](x, y, 3.0)
print(sum(y))                          //> 5242880.0
print(y[0], y[n - 1], type(y[0]))      //> 5.0 5.0 f32
---
// 2-D launches: tid() unpacks (i, j), j fastest
kernel index2(out: array[i32, 2]) {
    let i, j = tid()
    out[i, j] = i * 10 + j
}
array m: i32[2, 3]
launch index2[2, 3](m)
print(m)                               //> [[0, 1, 2], [10, 11, 12]]
kernel index4(out: array[i64, 4]) {
    let i, j, k, l = tid()
    out[i, j, k, l] = i64(i * 1000 + j * 100 + k * 10 + l)
}
array q: i64[2, 2, 2, 3]
launch index4[2, 2, 2, 3](q)
print(q[1, 1, 1, 2], q[0, 1, 0, 1], sum(q))  //> 1112 101 13344
---
// control flow, loops, funcs, select, math
func collatz(v: i32) -> i32 {
    let steps = 0
    let x = v
    while x != 1 {
        x = select(x % 2 == 0, x / 2, 3 * x + 1)
        steps += 1
    }
    return steps
}
kernel steps(out: array[i32]) {
    let i = tid()
    out[i] = collatz(i + 1)
}
array s: i32[10]
launch steps[10](s)
print(s)                               //> [0, 1, 7, 2, 5, 8, 16, 3, 19, 6]
kernel loops(out: array[i32]) {
    let i = tid()
    let acc = 0
    for k in range(10) {
        if k == i {
            continue
        }
        if k > 6 {
            break
        }
        acc += k
    }
    for k in range(10, 0, -3) {
        acc += 100
    }
    out[i] = acc
}
array o: i32[8]
launch loops[8](o)
print(o)                               //> [421, 420, 419, 418, 417, 416, 415, 421]
---
// range counters never wrap: a step that would overflow ends the loop
kernel edges(out: array[i32], s: i32) {
    let n = 0
    for k in range(2147483640, 2147483647, 5) {
        n += 1
    }
    out[0] = n
    n = 0
    for k in range(-2147483641, -2147483648, -5) {
        n += 1
    }
    out[1] = n
    n = 0
    for k in range(2147483640, 2147483647, s) {
        n += 1
    }
    out[2] = n
    n = 0
    for k in range(-2147483641, -2147483648, -s) {
        n += 1
    }
    out[3] = n
    let m: i64 = 0
    for k in range(i64(9223372036854775800), i64(9223372036854775807), i64(5)) {
        m += 1
    }
    out[4] = i32(m)
    n = 0
    for k in range(u8(250), u8(255), u8(3)) {
        n += 1
    }
    out[5] = n
}
array e: i32[6]
launch edges[1](e, 5)
print(e)                               //> [2, 2, 2, 2, 2, 2]
---
kernel maths(x: array[f64], out: array[f64]) {
    let i = tid()
    let v = x[i]
    out[0] = sqrt(v)
    out[1] = pow(v, 2.0)
    out[2] = floor(-v)
    out[3] = round(v - 1.5)
    out[4] = clamp(v, 0.0, 3.0)
    out[5] = fma(v, 2.0, 1.0)
    out[6] = abs(-v)
    out[7] = sign(-v)
    out[8] = min(v, 1.0)
    out[9] = atan2(v, v) * 4.0
}
array x: f64[1] = 4.0
array out: f64[10]
launch maths[1](x, out)
print(out)                             //> [2.0, 16.0, -4.0, 3.0, 3.0, 9.0, 4.0, -1.0, 1.0, 3.141592653589793]
---
// integer arithmetic in kernels wraps; conversions are explicit
kernel wrap(out: array[i32], big: u32) {
    let i = tid()
    out[0] = 2147483647 + i32(i + 1)
    out[1] = -7 / 2
    out[2] = -7 % 3
    out[3] = i32(big * 2)
    let f = 2.9
    out[4] = i32(f)
    let nf = -2.9
    out[5] = i32(nf)
}
array w: i32[6]
launch wrap[1](w, 3000000000)
print(w)                               //> [-2147483648, -3, -1, 1705032704, 2, -2]
---
// atomics: a histogram, exact under parallel execution
kernel hist(bins: array[i32], n: i32) {
    let i = tid()
    atomic_add(bins, i % n, 1)
}
array bins: i32[7]
launch hist[100000](bins, 7)
print(bins, sum(bins))                 //> [14286, 14286, 14286, 14286, 14286, 14285, 14285] 100000
kernel fsum(x: array[f64], total: array[f64]) {
    let i = tid()
    atomic_add(total, 0, x[i])
    atomic_max(total, 1, x[i])
    atomic_min(total, 2, x[i])
}
array t: f64[3] = [0.0, -1.0, 1e9]
launch fsum[1000](arange(1000, dtype=f64), t)
print(t)                               //> [499500.0, 999.0, 0.0]
kernel cas(a: array[i32], old: array[i32]) {
    old[0] = atomic_cas(a, 0, 5, 9)
    old[1] = atomic_cas(a, 0, 5, 11)
}
array ca: i32[1] = 5
array co: i32[2]
launch cas[1](ca, co)
print(ca, co)                          //> [9] [5, 9]
---
// len, shape and views as kernel arguments
kernel shapes(a: array[f32, 2], out: array[i32]) {
    out[0] = len(a)
    out[1] = a.shape[1]
}
array a: f32[3, 5]
array r: i32[2]
launch shapes[1](a, r)
print(r)                               //> [3, 5]
kernel double(x: array[f32]) {
    let i = tid()
    x[i] = x[i] * 2.0
}
array v: f32[6] = [0, 1, 2, 3, 4, 5]
launch double[3](v[2:5])
print(v)                               //> [0.0, 1.0, 4.0, 6.0, 8.0, 5.0]
---
// device print: one line per thread (CUDA's printf goes to the process's
// stdout and formats floats with %.9g: see docs/decisions.md)
//!cpu
kernel hello(x: array[i32]) {
    let i = tid()
    print("thread", i, "has", x[i], 0.1)
}
launch hello[2](array([7, 8]))         //> thread 0 has 7 0.1
//> thread 1 has 8 0.1
---
// a zero-thread launch does nothing
kernel nop(x: array[f32]) {
    x[tid()] = 1.0
}
array e: f32[0]
launch nop[0](e)
print(e)                               //> []
---
// a launch statement in a loop repeats the last launch only while the
// kernel, dimensions and arguments stay the same
kernel addk(x: array[i32], k: i32) {
    x[tid()] = x[tid()] + k
}
array a: i32[4]
array b: i32[4]
for i in range(3) {
    launch addk[4](a, i)
}
for i in range(2) {
    launch addk[4](a, 5)
}
for i in range(2) {
    launch addk[4](b, 5)
    launch addk[4](a, 5)
}
for n in [4, 2, 2] {
    launch addk[n](a, 100)
}
let v = a[1:3]
for i in range(2) {
    launch addk[2](v, 1000)
}
print(a, b)                            //> [323, 2323, 2123, 123] [10, 10, 10, 10]
---
//!cpu
// fast math on the cpu contracts f64 c + a*b into one FMA: a fast kernel,
// or any script kernel while config.fast_math is set (compiled apart from
// its strict build, which comes back when the setting is turned off)
kernel mad(x: array[f64], y: array[f64]) {
    let e: f64 = 1.0 / 1073741824.0
    y[tid()] = x[0] + (1.0 + e) * (1.0 - e)
}
kernel mad_fast(x: array[f64], y: array[f64]) fast {
    let e: f64 = 1.0 / 1073741824.0
    y[tid()] = x[0] + (1.0 + e) * (1.0 - e)
}
array x: f64[1] = -1
array y: f64[4]
launch mad[1](x, y)
launch mad_fast[1](x, y[1:])
config.fast_math = true
launch mad[1](x, y[2:])
config.fast_math = false
launch mad[1](x, y[3:])
print(y)   //> [0.0, -8.673617379884035e-19, -8.673617379884035e-19, 0.0]
