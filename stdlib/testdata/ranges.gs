// stdlib script tests (stdlib/script_test.go) of arange and linspace, which
// compute every element on the array's device; the conformance suite runs
// them on every backend, so the results must not depend on the device.
// Integer bounds: exact integers, as Python's range; the default dtype is i32,
// i64 when a bound needs it.
print(arange(5), arange(2, 7), arange(10, 0, -3))
//> [0, 1, 2, 3, 4] [2, 3, 4, 5, 6] [10, 7, 4, 1]
print(arange(0), arange(5, 5), arange(5, 0), arange(0, 5, -1))
//> [] [] [] []
print(arange(5).dtype, arange(0, 1 << 32, 1 << 31), arange(0, 1 << 32, 1 << 31).dtype)
//> i32 [0, 2147483648] i64
print(arange(-2147483648, -2147483645), arange(2147483645, 2147483648).dtype)
//> [-2147483648, -2147483647, -2147483646] i64
---
// integer elements are computed in integers: exact beyond 2^53, and at the
// ends of i64 even where i*step itself wraps
print(arange(9007199254740993, 9007199254741003, 3, dtype=i64))
//> [9007199254740993, 9007199254740996, 9007199254740999, 9007199254741002]
print(arange(9223372036854775807 - 2, 9223372036854775807))
//> [9223372036854775805, 9223372036854775806]
print(arange(-9223372036854775807 - 1, 9223372036854775807, 9223372036854775807))
//> [-9223372036854775808, -1, 9223372036854775806]
print(arange(3, dtype=u64), arange(10, 0, -4, dtype=u8), arange(-2, 2, dtype=i64))
//> [0, 1, 2] [10, 6, 2] [-2, -1, 0, 1]
---
// float and bool dtypes take the elements through f64
print(arange(4, dtype=f32), arange(3, 0, -1, dtype=f64))
//> [0.0, 1.0, 2.0, 3.0] [3.0, 2.0, 1.0]
print(arange(2, dtype=bool), arange(1, 3, dtype=bool), arange(-1, 1, dtype=bool), arange(0, dtype=bool))
//> [false, true] [true, true] [true, false] []
---
// float bounds: ceil((stop - start) / step) elements, element i is
// start + i*step in f64, then converted to the dtype (f32 by default)
print(arange(0, 1, 0.25), arange(1, 0, -0.25), arange(0.5, 3))
//> [0.0, 0.25, 0.5, 0.75] [1.0, 0.75, 0.5, 0.25] [0.5, 1.5, 2.5]
print(arange(0, 1, 0.1))
//> [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
print(arange(0, 1, 0.3, dtype=f64), arange(1, 2, 0.25, dtype=f64))
//> [0.0, 0.3, 0.6, 0.8999999999999999] [1.0, 1.25, 1.5, 1.75]
print(arange(0, 1, 0.1, dtype=f64))
//> [0.0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9]
print(arange(2.5, 0, -1).dtype, arange(i32(3), 0.5).dtype, arange(0.0, 0.5, 1))
//> f32 f64 [0.0]
---
// an integer dtype truncates the f64 elements toward zero
print(arange(0, 5, 0.5, dtype=i32))
//> [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
print(arange(-3, 3, 1.5, dtype=i64), arange(2.9, dtype=u8))
//> [-3, -1, 0, 1] [0, 1, 2]
print(arange(0, 3e9, 1e9, dtype=i32))
//> [0, 1000000000, 2000000000]
---
// an infinite step: one element (start) when the direction is right, none otherwise
let inf = 1e300 * 1e300
print(arange(0, 5, inf), arange(5, 0, inf), arange(0, -5, -inf), arange(1.5, 5, inf, dtype=i32))
//> [0.0] [] [0.0] [1]
---
let x = arange(0, 1, 0)                 ### "arange: step must not be zero"
---
let x = arange(0.0, 1, 0.0)             ### "arange: step must not be zero"
---
let x = arange(0, 0.0 / 0.0)            ### "arange: cannot compute the length of the range from 0 to NaN by 1"
---
let x = arange(0, 1e300 * 1e300)        ### "arange: cannot compute the length"
---
let x = arange(250, 260, dtype=u8)      ### "arange: element 259 does not fit u8"
---
let x = arange(-1, 2, dtype=u32)        ### "arange: element -1 does not fit u32"
---
let x = arange(0, 5e9, 1e9, dtype=i32)  ### "arange: element 4000000000.0 does not fit i32"
---
let x = arange(3, dtype=bool)           ### "arange: a bool range has at most 2 elements, not 3"
---
let x = arange(1 << 50)                 ### "arange: the range has 1125899906842624 elements, more than an array holds"
---
let x = arange(0, 1e20, 0.5)            ### "arange: the range has 2e\+20 elements, more than an array holds"
---
let x = arange("a")                     ### "arange: want a number, got string \"a\""
---
let x = arange(1, 2, 3, 4)              ### "arange"
---
// linspace: num elements from start to stop, in f64 as NumPy's, the last
// exactly stop (with endpoint); f32 by default
print(linspace(0, 1, 5), linspace(0, 1, 5, endpoint=false))
//> [0.0, 0.25, 0.5, 0.75, 1.0] [0.0, 0.2, 0.4, 0.6, 0.8]
print(linspace(1, 0, 3), linspace(2, 3, 1), linspace(2, 3, 1, endpoint=false), linspace(0, 1, 0))
//> [1.0, 0.5, 0.0] [2.0] [2.0] []
print(linspace(0, 10, 4, dtype=f64))
//> [0.0, 3.3333333333333335, 6.666666666666667, 10.0]
print(linspace(0.1, 0.7, 7, dtype=f64))
//> [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
print(linspace(0, 1, 10, endpoint=false, dtype=f64))
//> [0.0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9]
print(linspace(-5, 5, 3, dtype=f64), linspace(3, 3, 3, dtype=f64))
//> [-5.0, 0.0, 5.0] [3.0, 3.0, 3.0]
---
// a step that underflows to zero: (i / div) * (stop - start) + start, as NumPy
print(linspace(0, 5e-324, 4, dtype=f64))
//> [0.0, 0.0, 5e-324, 5e-324]
---
// integer dtypes take the floor; bool ones test for nonzero
print(linspace(-1, 1, 5, dtype=i32), linspace(0, -7, 3, dtype=i64), linspace(0, 255, 4, dtype=u8))
//> [-1, -1, 0, 0, 1] [0, -4, -7] [0, 85, 170, 255]
print(linspace(0, 1, 3, dtype=bool), linspace(0, 0, 2, dtype=bool))
//> [false, true, true] [false, false]
---
let x = linspace(0, 1, -1)              ### "linspace: the count must be a non-negative int"
---
let x = linspace(0, 1, 2.0)             ### "linspace: the count must be a non-negative int"
---
let x = linspace(0, 1, 3, endpoint=1)   ### "linspace: endpoint must be a bool, not int"
---
let x = linspace(0, 300, 3, dtype=u8)   ### "linspace: element 300.0 does not fit u8"
---
let x = linspace(-0.5, 1, 3, dtype=u8)  ### "linspace: element -1.0 does not fit u8"
---
// empty is not initialised (on a GPU it holds whatever the memory held):
// write it before reading it
let e = empty([2, 3], dtype=i64)
print(e.shape, e.dtype)
//> [2, 3] i64
fill(e, 7)
print(sum(e), empty(0))
//> 42 []
