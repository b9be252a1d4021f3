// if / else if / else
fn sign(x) {
    if x > 0 {
        return 1
    } else if x < 0 {
        return -1
    } else {
        return 0
    }
}
print(sign(5), sign(-2), sign(0))    //> 1 -1 0
---
// for over range, lists and arrays; break and continue
let s = 0
for i in range(10) {
    if i == 7 {
        break
    }
    if i % 2 == 0 {
        continue
    }
    s += i
}
print(s)                             //> 9
for i in range(2, 5) { //> 2
    print(i)
}
//> 3
//> 4
for i in range(5, 0, -2) { //> 5
    print(i)
}
//> 3
//> 1
for v in ["a", "b"] { //> a
    print(v)
}
//> b
print(range(3), range(1, 7, 3))      //> [0, 1, 2] [1, 4]
---
// range never overflows: the step past the last value is not taken
for i in range(9223372036854775800, 9223372036854775807, 5) { //> 9223372036854775800
    print(i)
}
//> 9223372036854775805
for i in range(-9223372036854775801, -9223372036854775807 - 1, -5) { //> -9223372036854775801
    print(i)
}
//> -9223372036854775806
print(range(9223372036854775800, 9223372036854775807, 5)) //> [9223372036854775800, 9223372036854775805]
---
range(-9223372036854775807 - 1, 9223372036854775807) ### "range of more than 16777216 elements as a list"
---
for i in range(1, 2, 0) {}           ### "range step must not be zero"
---
let n = 0
while n < 5 {
    n += 2
}
print(n)                             //> 6
---
// blocks scope their lets; shadowing is allowed
let x = 1
{
    let x = 2
    print(x)                         //> 2
}
print(x)                             //> 1
let x = "again"
print(x)                             //> again
---
// assert
assert 1 + 1 == 2, "math works"
assert false, "custom message"       ### "assertion failed: custom message"
---
assert 2 < 1                         ### "assertion failed"
---
print(undefined_name)                ### "undefined: undefined_name"
---
// all compile errors are reported before anything runs
print("never printed")
print(nope1)                         ### "undefined: nope1"
print(nope2)                         ### "undefined: nope2"
---
break                                ### "break"
---
return 1                             ### "return"
