// unpacking: a tuple is evaluated whole before any target is written
let a, b = 1, 2
a, b = b, a
print(a, b)                          //> 2 1
let l = [10, 20, 30]
l[0], l[2] = l[2], l[0]
print(l)                             //> [30, 20, 10]
fn divmod(x, y) {
    return x / y, x % y
}
let q, r = divmod(17, 5)
print(q, r)                          //> 3 2
let p, s = [1, "x"]
print(p, s)                          //> 1 x
---
let a, b = [1, 2, 3]                 ### "cannot unpack 3 values into 2 names"
---
let a, b = 5                         ### "cannot unpack int into 2 names"
---
// for with several names unpacks each element
let total = 0
for i, v in [[0, 5], [1, 7]] {
    total += i * 100 + v
}
print(total)                         //> 112
for x, y in [[1, 2], [3]] {          ### "cannot unpack 1 value into 2 names"
    print(x + y)                     //> 3
}
---
// try/catch catches errors raised in the body, in fns it calls and in builtins
fn risky(n) {
    if n > 2 {
        error("too big: " + str(n))
    }
    return n
}
let got = []
for n in range(5) {
    try {
        got = got + [risky(n)]
    } catch e {
        got = got + [e.message]
    }
}
print(got)                           //> [0, 1, 2, "too big: 3", "too big: 4"]
try {
    let z = 1 / 0
} catch e {
    print(type(e), e.message)        //> error integer division by zero
    print(e.position)                //> engine.gs:18:15
    print(str(e))                    //> engine.gs:18:15: integer division by zero
}
try { //> no error
    print("no error")
} catch {
    print("not run")
}
try { //> caught
    int("x")
} catch {
    print("caught")
}
---
// a try inside a fn restores the call stack; the fn goes on
fn deep(n) {
    if n == 0 {
        error("bottom")
    }
    return deep(n - 1)
}
fn safe() {
    try {
        deep(5)
    } catch e {
        return "caught " + e.message
    }
    return "no"
}
print(safe(), safe())                //> caught bottom caught bottom
---
// the limits an embedder sets are not catchable: recursion past MaxDepth
fn forever(n) {
    return forever(n + 1) ### "call stack too deep"
}
try {
    forever(0)
} catch e {
    print("caught")
}
---
// an error in a catch block propagates
try {
    error("one")
} catch e {
    error("two: " + e.message) ### "two: one"
}
---
// s += t builds in a buffer; older strings and copies stay as they were
let s = ""
for i in range(100) {
    s += "ab"
}
let t = s
s += "x"
t += "y"
print(len(s), len(t), s[-3:], t[-3:])     //> 201 201 abx aby
let u = s + "z"
s += "w"
print(u[-3:], s[-3:], u[:4], len(u))      //> bxz bxw abab 202
let parts = [s, t]
s += "!"
print(parts[0][-2:], s[-2:], s == parts[0] + "!", type(s)) //> xw w! true string
fn grow(n) {
    let r = "<"
    for i in range(n) {
        r += str(i % 10)
    }
    return r
}
let g = grow(80)
print(len(g), g[:5], g.upper()[:3], g.startswith("<01"))  //> 81 <0123 <01 true
let d = {}
d[g] = 1
g += "."
print(len(d), d[g[:-1]], g in d)          //> 1 1 false
---
// an int with a float is a float, in the engine's fast paths as in binary
let s = 0.0
for i in range(5) {
    s += i * 0.5
}
let z = 0
print(s, 3 / 2.0, 7 - 0.5, 1 + 2.0, type(1 + 2.0), 1 / 0.0, z / 0.0, 9007199254740993 * 1.0) //> 5.0 1.5 6.5 3.0 float inf nan 9007199254740992.0
let t = 1
t *= 2.5
print(t, type(t))                         //> 2.5 float
