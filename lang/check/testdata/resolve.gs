// Checker tests (lang/check/script_test.go): name resolution errors in host code.
// an undefined name
print(nope) ### "undefined: nope"
---
// a let cannot read the name it declares
let a = a ### "undefined: a"
---
// a block's names end with it
{
    let b = 1
}
print(b) ### "undefined: b"
---
// a loop variable ends with its loop
for i in range(3) {}
print(i) ### "undefined: i"
---
// break outside a loop
break ### "break is not in a loop"
---
// continue in a fn inside a loop
while true {
    fn f() {
        continue ### "continue is not in a loop"
    }
}
---
// return outside a fn
return 1 ### "return outside a fn"
---
// launch of an undefined kernel
launch nok[1]() ### "undefined: nok"
---
// unknown dtype
array x: f33[3] ### "unknown dtype f33"
---
// predeclared names are read-only
print = 1 ### "cannot assign to predeclared print"
---
// assignment to an undefined name
undefined_x = 1 ### "undefined: undefined_x"
---
// a fn redeclared in one block
fn f() {}
fn f() {}  ### "f redeclared in this block"
---
// a graph is named after its capture block
capture g {
    replay(g) ### "undefined: g"
}
---
// a tape is named after its block, and bound after it
tape t {
    print(t) ### "undefined: t"
    let inside = 1
}
print(t, inside) ### "undefined: inside"
---
// names in a tape block resolve
let x = 1
tape t {
    print(nope3, x) ### "undefined: nope3"
}
---
// a tape block in a loop and a fn: break and return inside it
fn f() {
    for i in range(2) {
        tape t {
            if i == 1 {
                break
            }
        }
    }
    tape u {
        return 1
    }
}
---
// tape stays a name elsewhere
let tape = 1
tape = tape + 1
tape t {
    print(tape)
}
print(t)
---
// a kernel inside a fn
fn f() {
    kernel k() {} ### "kernel k must be declared at top level"
}
---
// every undefined name is reported
print(a, b) ### "undefined: a" ### "undefined: b"
---
// use before the let
f() ### "undefined: f"
let f = 1
---
// names in device blocks and asserts
device "cpu" {
    assert nope1, "m" ### "undefined: nope1"
}
---
// names in else if
if true {} else if nope2 {} else {}    ### "undefined: nope2"
---
// names in slices, unary operators and parentheses
let l = [1, 2]
print(l[0:nope3], -l[0], (nope4)) ### "undefined: nope3" ### "undefined: nope4"
---
// names in allocator expressions
allocator "a" + nope5 on "cpu" {}  ### "undefined: nope5"
