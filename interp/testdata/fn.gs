// fns are first class, recursive, and closures capture by reference
fn fib(n) {
    if n < 2 {
        return n
    }
    return fib(n - 1) + fib(n - 2)
}
print(fib(20))                       //> 6765
fn counter() {
    let c = 0
    fn inc() {
        c += 1
        return c
    }
    return inc
}
let f = counter()
f()
f()
print(f(), type(f))                  //> 3 fn
fn apply(g, v) {
    return g(v)
}
print(apply(fib, 10))                //> 55
---
// fns are hoisted: callable before their declaration
print(later(2))                      //> 4
fn later(x) {
    return x * 2
}
---
// keyword arguments to fns
fn area(w, h) {
    return w * h
}
print(area(2, 3), area(h=4, w=5), area(1, h=7)) //> 6 20 7
---
fn area(w, h) {
    return w * h
}
area(1, 2, 3)                        ### "fn area takes 2 arguments, got 3"
---
fn area(w, h) {
    return w * h
}
area(1)                              ### "missing argument h"
---
// a fn without return gives nil
fn nothing() {
    let a = 1
}
print(nothing())                     //> nil
---
// run-time errors carry the fn call chain
fn inner(x) {
    return x / 0                     ### "integer division by zero"
}
fn outer(x) {
    return inner(x)
}
outer(1)
---
fn forever(n) {
    return forever(n + 1) ### "call stack too deep"
}
forever(0)
---
print(1)(2)                          ### "nil is not callable"
//> 1
