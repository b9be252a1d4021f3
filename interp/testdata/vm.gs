// The register machine (vm.go): fn bodies. Each chunk's work is inside a
// fn, where locals are registers; the forms the machine leaves to the
// closures (opEval, opExec) are mixed in on purpose.
fn fib(n) {
    if n < 2 {
        return n
    }
    return fib(n - 1) + fib(n - 2)
}
fn loop(n) {
    let s = 0
    for i in range(n) {
        s += i
    }
    return s
}
print(fib(20), loop(100000))         //> 6765 4999950000
---
// floats, mixed ints and floats, comparisons as values, immediates
fn f(x) {
    let y = x + 0.5
    let z = y * 2 - 1
    let big = x < 1000 && x >= -128
    return [y, z, x - 3, x < 2, x == 127, big, 200 > x, x != x]
}
print(f(1))                          //> [1.5, 2.0, -2, true, false, true, true, false]
print(f(2.5))                        //> [3.0, 5.0, -0.5, false, false, true, true, false]
---
// while, break and continue, a for over a list and a string, unpacking
fn g(l) {
    let out = []
    let i = 0
    while true {
        i += 1
        if i > 6 {
            break
        }
        if i % 2 == 0 {
            continue
        }
        out.append(i)
    }
    for x in l {
        out.append(x * 10)
    }
    for c in "ab" {
        out.append(c)
    }
    for k, v in enumerate(["p", "q"]) {
        out.append(k)
        out.append(v)
    }
    for k, v in {"a": 1}.items() {
        out.append(k + str(v))
    }
    return out
}
print(g([1, 2]))                     //> [1, 3, 5, 10, 20, "a", "b", 0, "p", 1, "q", "a1"]
---
// break, continue and return from statements the closures run (try)
fn h() {
    let s = []
    for i in range(6) {
        try {
            if i == 1 {
                continue
            }
            if i == 4 {
                break
            }
            s.append(i)
        } catch e {}
    }
    let j = 0
    while j < 10 {
        j += 1
        try {
            if j == 3 {
                return [s, j]
            }
        } catch e {}
    }
    return nil
}
print(h())                           //> [[0, 2, 3], 3]
---
// a caught error inside the machine, and the machine runs on
fn risky(x) {
    return 10 / x
}
fn safe(x) {
    try {
        return risky(x)
    } catch e {
        return "caught: " + e.message
    }
}
print(safe(2), safe(0))              //> 5 caught: integer division by zero
---
// string building and compound operators on locals
fn build(n) {
    let s = ""
    let p = 1
    let f = 1.0
    for i in range(n) {
        s += "ab"
        p *= 2
        f /= 2
    }
    let l = [1]
    l += [2]
    return [len(s), p, f, l]
}
print(build(3))                      //> [6, 8, 0.125, [1, 2]]
---
// a global callee is read before its arguments: an argument that rebinds
// it does not change the fn called
fn one(x) {
    return "one"
}
fn two(x) {
    return "two"
}
let pick = one
fn rebind() {
    pick = two
    return 0
}
fn call() {
    return pick(rebind())
}
print(call(), pick(0))               //> one two
---
// builtins and types held in globals, closures and nested fns
let show = str
let i64t = i64
fn calls(x) {
    fn add(y) {
        return x + y
    }
    return [show(x), i64t(x), add(1), add(add(1))]
}
print(calls(5))                      //> ["5", 5, 6, 11]
---
// arguments that are array expressions reach a fn computed
fn total(a) {
    return sum(a)
}
fn twice(a) {
    return total(a * 2 + 1)
}
print(twice(arange(4)))              //> 16
---
fn f(x) {
    return x
}
fn g() {
    return f(1, 2)                   ### "fn f takes 1 arguments, got 2"
}
print(g())
---
fn f(x, y) {
    return x
}
fn g() {
    return f(1)                      ### "missing argument y"
}
print(g())
---
fn f(n) {
    return n + "s"                   ### "operator . not defined on int and string"
}
fn g() {
    return f(1)
}
print(g())
---
fn f(n) {
    let s = 9223372036854775807
    s += n                           ### "overflow"
    return s
}
print(f(1))
---
fn f(n) {
    if n {                           ### "condition must be a bool, not int"
        return 1
    }
    return 0
}
print(f(1))
---
fn f(x) {
    for i in range(x) {}             ### "range argument must be an int, not float"
}
f(1.5)
---
fn f(x) {
    for i in range(0, 5, x) {}       ### "range step must not be zero"
}
f(0)
---
fn f(l) {
    for x in l {                     ### "list changed size during iteration"
        l.append(x)
    }
}
f([1])
---
fn f(x) {
    for c in x {}                    ### "cannot iterate over int"
}
f(3)
---
// deep recursion runs in the machine's loop, on no Go stack
fn down(n) {
    if n == 0 {
        return 0
    }
    return 1 + down(n - 1)
}
print(down(9000))                    //> 9000
---
fn down(n) {
    return 1 + down(n + 1)           ### "call stack too deep"
}
down(0)
---
// x.append and x[k] as instructions: lists, dicts, negative and literal indices
fn f() {
    let l = []
    let d = {0: "zero", "k": 2}
    for i in range(3) {
        l.append(i * 2)
    }
    l.append(arange(2) + 1)
    return [l[0], l[-2], l[1 + 1], d[0], d["k"], len(l)]
}
print(f())                           //> [0, 4, 4, "zero", 2, 4]
---
fn f(s) {
    s.append(1)                      ### "string has no attribute append|has no"
}
f("abc")
---
fn f(l) {
    return l[3]                      ### "index 3 out of range"
}
f([1, 2])
---
fn f(d) {
    return d[7]                      ### "key 7 not in dict"
}
f({1: 2})
---
// fused pairs (vm_compile.go's fuse) off their int paths: a compare-and-
// return over floats, an add-immediate call of a float and at the int
// overflow, a compare-and-return of a string
fn down(x) {
    if x < 2 {
        return x
    }
    return down(x - 1)
}
fn same(x) {
    if x == 0 {
        return x
    }
    return 1
}
print(down(5), down(5.5), down(1), same(3), same(0), same(0.0))  //> 1 1.5 1 1 0 0.0
---
fn id(x) {
    return x
}
fn f(n) {
    return id(n + 1)                 ### "overflow"
}
print(f(9223372036854775807))
---
fn f(x) {
    if x < 2 {                       ### "cannot compare string and int"
        return x
    }
    return 0
}
print(f("a"))
