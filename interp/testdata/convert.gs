// Host conversions between dtypes follow ir.Convert, the kernel rule:
// float->int truncates; NaN and out-of-range values give the minimum int.
let z = 0.0
let src = array([3e9, -3e9, -0.5, -1.5, 2147483648.0, z / z, 1.0 / z, 300.0], dtype=f64)
print(array(src, dtype=i32))  //> [-2147483648, -2147483648, 0, -1, -2147483648, -2147483648, -2147483648, 300]
print(array(src, dtype=u8))   //> [0, 0, 0, 255, 0, 0, 0, 44]
print(array(src, dtype=i64))  //> [3000000000, -3000000000, 0, -1, 2147483648, -9223372036854775808, -9223372036854775808, 300]
print(array(src, dtype=u32))  //> [3000000000, 1294967296, 0, 4294967295, 2147483648, 0, 0, 300]
print(array(src, dtype=u64))  //> [          3000000000, 18446744070709551616,                    0, 18446744073709551615,
//>            2147483648,  9223372036854775808,  9223372036854775808,                  300]
let dst = zeros(8, dtype=i32)
copy(dst, src)
print(dst)                    //> [-2147483648, -2147483648, 0, -1, -2147483648, -2147483648, -2147483648, 300]
---
// the same conversions in a kernel give the same bits
kernel conv(x: array[f64], a: array[i32], b: array[u8], c: array[u64]) {
    let i = tid()
    a[i] = i32(x[i])
    b[i] = u8(x[i])
    c[i] = u64(x[i])
}
let z = 0.0
let src = array([3e9, -3e9, -0.5, -1.5, 2147483648.0, z / z, 1.0 / z, 300.0], dtype=f64)
let a = zeros(8, dtype=i32)
let b = zeros(8, dtype=u8)
let c = zeros(8, dtype=u64)
launch conv[8](src, a, b, c)
print(a)  //> [-2147483648, -2147483648, 0, -1, -2147483648, -2147483648, -2147483648, 300]
print(b)  //> [0, 0, 0, 255, 0, 0, 0, 44]
print(c)  //> [          3000000000, 18446744070709551616,                    0, 18446744073709551615,
//>            2147483648,  9223372036854775808,  9223372036854775808,                  300]
---
// host scalar arithmetic: an untyped literal takes the typed operand's
// dtype first, then the operation rounds once in that dtype (as a kernel
// and NumPy do)
print(0.2 * f32(1.01373))            //> 0.20274602
print(f32(1.01373) * 0.2)            //> 0.20274602
print(0.1 + f32(0.2))                //> 0.3
print(type(0.1 + f32(0.2)))          //> f32
print(16777217 + f32(0.0))           //> 16777216.0
print(0.2 * f64(1.01373))            //> 0.202746
print(0.2 * 1.01373)                 //> 0.202746
kernel scale(x: array[f32], out: array[f32]) {
    let i = tid()
    out[i] = 0.2 * x[i]
}
let x = array([1.01373], dtype=f32)
let out = zeros(1, dtype=f32)
launch scale[1](x, out)
print(out[0] == 0.2 * x[0], out[0])  //> true 0.20274602
---
// host comparisons convert an untyped literal like kernel comparisons do
kernel cmp(x: array[f32], out: array[bool]) {
    out[0] = x[0] == 0.2
    out[1] = 0.2 < x[0]
    out[2] = x[0] <= 0.2
}
let x = array([0.2], dtype=f32)
let o = zeros(3, dtype=bool)
launch cmp[1](x, o)
print(o)                                              //> [true, false, true]
print([x[0] == 0.2, 0.2 < x[0], x[0] <= 0.2])        //> [true, false, true]
print(f32(0.1) + 0.2 == f32(0.3), f64(0.2) == 0.2)    //> true true
print(f32(16777217.0) == 16777217)                    //> true
print(0.1 + 0.2 == 0.3)                               //> false
---
// host scalar conversions stay checked: out of range is an error
print(i32(3e9))                      ### "overflows i32"
---
print(f32(1e40))                     ### "1e\+40 is out of range for f32"
---
array y: f32[2] = -1e39              ### "-1e\+39 is out of range for f32"
---
print(f32(1e308 * 10.0), f32(3.4028235e38))      //> inf 3.4028235e+38
