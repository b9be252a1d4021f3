// stdlib script tests (stdlib/script_test.go): ** and power on arrays of
// every numeric dtype, as NumPy 1.24 (ints stay ints and wrap; a negative
// int exponent is an error); a fractional power is rounded before it prints
// (CUDA's f64 pow(9, 0.5) is 2.9999999999999996, Go's 3); internal/conformance runs a copy of this
// file on the cpu and every CUDA device.
let a = array([2, -3, 0, 5], dtype=i32)
print(a ** 2, a ** 0, a ** 3, (a ** 2).dtype, a ** array([1, 2, 3, 0], dtype=i32))  //> [4, 9, 0, 25] [1, 1, 1, 1] [8, -27, 0, 125] i32 [2, 9, 0, 1]
print(array([2, 3], dtype=u8) ** 8, array([3], dtype=i64) ** 40, array([2], dtype=u64) ** 63, array([1.5, 2.0]) ** 2)  //> [0, 161] [-6289078614652622815] [9223372036854775808] [2.25, 4.0]
print(round(array([4, -3, 0, 9], dtype=i32) ** 0.5 * 1e6) / 1e6, (a ** 0.5).dtype, array([true, false]) ** 2, power(a, 2), power(2.0, array([1.0, 3.0])), power(2, 10))  //> [2.0, nan, 0.0, 3.0] f64 [1, 0] [4, 9, 0, 25] [2.0, 8.0] 1024
print(sum(a ** 2), max(power(a, 3)), array([2.0], dtype=f32) ** array([0.5], dtype=f32))  //> 38 125 [1.4142135]
---
// an int array exponent cannot stop a kernel: a negative element gives
// the integer part of x ** e (NumPy raises instead)
print(array([1, -1, -1, 2, -2]) ** array([-1, -3, -2, -1, -2]), 2 ** array([3, -1]))  //> [1, -1, 1, 0, 0] [8, 0]
---
print(array([2, 3]) ** -1)   ### "Integers to negative integer powers are not allowed"
---
print(array([true]) ** array([false]))   ### "operator \*\* not defined on bool arrays"
