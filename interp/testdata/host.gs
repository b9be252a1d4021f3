#!/usr/bin/env gscript
// lexical: numbers, strings, statements separated by ; or newlines
print(42, 0x2A, 0b101, 1_000_000)   //> 42 42 5 1000000
print(1.5, .5, 1e-3, 2.)            //> 1.5 0.5 0.001 2.0
print("tab\tquote\" nl")            //> tab	quote" nl
let a = 1
let b = 2
print(a + b) //> 3
let c = 1 +
    2
print(c)                            //> 3
print(len([1,
    2,
    3]))                            //> 3
---
// float printing is Python's repr
print(1.0, 0.1, 1e-07, 1e+16, 123456789.0, 1e16, 1.5e300) //> 1.0 0.1 1e-07 1e+16 123456789.0 1e+16 1.5e+300
print(0.0001, 1e-05, 1e15, 1.0 / 0.0, -1.0 / 0.0)         //> 0.0001 1e-05 1000000000000000.0 inf -inf
let z = 0.0
print(z / z)                                              //> nan
print(-0.0)                                               //> -0.0
print(f32(0.1), f64(0.1), f32(1.0) / f32(3.0))            //> 0.1 0.1 0.33333334
print(type(f32(0.1)), type(1), type(1.5), type("s"))      //> f32 int float string
print(nil, true, false, type(nil), type(true))            //> nil true false nil bool
print([1, "a", [2.5, nil]], "top")                        //> [1, "a", [2.5, nil]] top
print(CUDA_MANAGED, int(CUDA_MANAGED), type(HOST))        //> CUDA_MANAGED 5 memory_kind
print(UNKNOWN, HOST, PINNED, CUDA_DEVICE, CUDA_MEMPOOL)   //> UNKNOWN HOST PINNED CUDA_DEVICE CUDA_MEMPOOL
print(int(UNKNOWN), int(PINNED), int(CUDA_MEMPOOL))       //> 0 2 4
print(f32, type(f32), type(print))                        //> f32 dtype fn
---
// int arithmetic truncates toward zero, like Go and C
print(7 / 2, -7 / 2, 7 % 3, -7 % 3, 7 % -3)  //> 3 -3 1 -1 1
print(1 << 10, 1024 >> 3, 6 & 3, 6 | 3, 6 ^ 3, ~5) //> 1024 128 2 7 5 -6
print(2 + 3 * 4, (2 + 3) * 4, 10 - 2 - 3)   //> 14 20 5
print(1 + 2.5, 3 / 2.0, 2 * 1.5)           //> 3.5 1.5 3.0
print(-(3), +4, !true)                      //> -3 4 false
---
let big = 9223372036854775807
print(big)                          //> 9223372036854775807
let x = big + 1                     ### "integer overflow"
---
print(1 / 0)                        ### "integer division by zero"
---
print(5 % 0)                        ### "integer division by zero"
---
let m = -9223372036854775807 - 1
print(m * -1)                       ### "integer overflow"
---
print(1 << 63)                      ### "integer overflow"
---
// comparisons
print(1 < 2, 2 <= 2, 3 > 4, 1 == 1.0, 1 != 2, "a" < "b") //> true true false true true true
print([1, 2] == [1, 2], "x" == "x", nil == nil)           //> true true true
---
print(1 == "a")                     ### "cannot compare int and string"
---
print("a" + 1)                      ### "operator \+ not defined on string and int"
---
if 1 {}                             ### "condition must be a bool, not int"
---
// NEP 50: typed scalars keep their dtype, host numbers adapt
let s = f32(1.5)
print(type(s + 1), type(s * 2.0), type(s + f64(1)))  //> f32 f32 f64
print(type(i32(3) + 1), type(i32(3) + 1.5), i32(7) / 2) //> i32 f64 3
print(type(u8(1) + i32(1)), type(i32(1) + u32(1)), type(i64(1) + u64(1))) //> i32 i64 f64
print(type(u8(2) + f32(1)), type(i32(2) + f32(1)))   //> f32 f64
print(u8(200) + u8(55))                               //> 255
---
print(u8(200) + u8(56))            ### "overflow"
---
print(i32(1) + 3000000000)         ### "out of range for i32"
---
// strings and lists
let l = [1, 2] + [3]
print(l, len(l), l[0], l[2], len("hello"), "ab" + "cd") //> [1, 2, 3] 3 1 3 5 abcd
l[1] = 20
print(l, l[1:], l[:1], "hello"[1:3])                    //> [1, 20, 3] [20, 3] [1] el
---
let l = [1]
print(l[1])                        ### "index 1 out of range for list of length 1"
---
// conversions
print(int(2.9), int(-2.9), int("42"), int(true), float(3), float("2.5")) //> 2 -2 42 1 3.0 2.5
print(str(1.5) + "!", str([1]), i32(2.9), u8(255), f64(1))             //> 1.5! [1] 2 255 1.0
---
print(u8(256))                     ### "overflows u8"
---
print(int("x"))                    ### "cannot parse"
---
// a list inside itself prints as [...]; deep nesting is cut at 64 levels
let l = [1, 2]
l[0] = l
print(l, str([l]))                     //> [[...], 2] [[[...], 2]]
let d = 0
for i in range(70) {
    d = [d]
}
print(len(str(d)))                     //> 133
---
let l = [1]
l[0] = l
print(l == l)                          ### "cannot compare lists nested more than 64 deep"
