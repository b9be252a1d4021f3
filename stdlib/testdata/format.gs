// stdlib script tests (stdlib/script_test.go): format, round and print's
// keyword arguments.
print(format("%d|%5d|%-5d|%05d|%x|%X|%o|%b", 42, 42, 42, 42, 255, 255, 8, 5))  //> 42|   42|42   |00042|ff|FF|10|101
print(format("%f|%.3f|%8.2f|%e|%.2e|%g|%G", 3.14159, 3.14159, 3.14159, 12345.678, 0.5, 0.1, 1e-10))  //> 3.141590|3.142|    3.14|1.234568e+04|5.00e-01|0.1|1E-10
print(format("%s|%v|%q|%6s|%-6v|", "hi", [1, 2.5, "a"], "q\"", "r", true))  //> hi|[1, 2.5, "a"]|"q\""|     r|true  |
print(format("%d%% done", 50), format("no verbs"))   //> 50% done no verbs
// ints are numbers for float verbs; typed scalars keep their dtype
print(format("%f", 3), format("%d", i32(-7)), format("%x", u64(9223372036854775807) * u64(2)))  //> 3.000000 -7 fffffffffffffffe
print(format("%g %v", f32(0.1), f32(0.1)), format("%.2f", f32(0.1)))  //> 0.1 0.1 0.10
print(format("%s", zeros(3, dtype=i32)))              //> [0, 0, 0]
---
format("%d", 1.5)              ### "format: %d \(verb 1\): wants an int, got float 1.5 \(use a float verb such as %f, or int\(x\)\)"
---
format("%f", "a")              ### "format: %f \(verb 1\): wants a number, got string \"a\""
---
format("%d %d", 1)             ### "format: no value for %d \(verb 2; 1 values given\)"
---
format("%d", 1, 2)             ### "format: 2 values given but the format has 1 verb"
---
format("%y", 1)                ### "format: unknown verb %y"
---
format("50%")                  ### "format: \"%\" ends without a verb"
---
format("%99999999d", 1)        ### "format: width or precision larger than 65536"
---
format(3)                      ### "format: the format must be a string, not int"
---
// round(x) is the kernel's round (halves away from zero); round(x, n) is
// Python's (ties to even, of the exact binary value)
print(round(2.5), round(-2.5), round(2.4))           //> 3.0 -3.0 2.0
print(round(2.675, 2), round(0.125, 2), round(0.375, 2), round(3.14159, 3))  //> 2.67 0.12 0.38 3.142
print(round(1250.0, -2), round(1350.0, -2), round(1250, -2), round(7, 2), round(-15, -1))  //> 1200.0 1400.0 1200 7 -20
print(round(f32(0.1), 3), round(1.5, 400), round(123.0, -400))  //> 0.1 1.5 0.0
---
round(1.5, 1.0)                ### "round: ndigits must be an int, not float"
---
round(9000000000000000000, -19)  ### "overflows int"
---
// print: sep=, end=, file="stdout" (file="stderr" goes to the interpreter's Stderr)
print(1, 2, 3, sep=", ", end="!\n")    //> 1, 2, 3!
print("a", end="")
print("b", sep="-")                    //> ab
print("hidden", file="stderr")
print("x", "y", sep="")                //> xy
---
print(1, sep=2)                ### "print: sep= must be a string, not int"
---
print(1, flush=true)           ### "print has no keyword argument flush"
---
// print(file=PATH) appends to the file, through the file access
let p = tmpdir + "/log.txt"
print("one", file=p)
print("two", 2, file=p, sep=":")
print(read_file(p), end="")           //> one
//> two:2
---
// host math of arrays is elementwise (array expressions, stdlib/fuse)
print(abs(zeros(3) - 1))       //> [1.0, 1.0, 1.0]
---
round(ones(2), 1)              ### "round of arrays takes 1 operands, got 2"
---
// an array whose one-line form passes 100 columns prints a row per line,
// right-aligned, as NumPy's; a shorter one keeps its one line
print(arange(20).reshape([2, 10]) * 100000)
//> [[      0,  100000,  200000,  300000,  400000,  500000,  600000,  700000,  800000,  900000],
//>  [1000000, 1100000, 1200000, 1300000, 1400000, 1500000, 1600000, 1700000, 1800000, 1900000]]
print(arange(6).reshape([2, 3]), arange(30)[0:3])  //> [[0, 1, 2], [3, 4, 5]] [0, 1, 2]
print(arange(40, dtype=f32) * 0.5)
//> [ 0.0,  0.5,  1.0,  1.5,  2.0,  2.5,  3.0,  3.5,  4.0,  4.5,  5.0,  5.5,  6.0,  6.5,  7.0,  7.5,
//>   8.0,  8.5,  9.0,  9.5, 10.0, 10.5, 11.0, 11.5, 12.0, 12.5, 13.0, 13.5, 14.0, 14.5, 15.0, 15.5,
//>  16.0, 16.5, 17.0, 17.5, 18.0, 18.5, 19.0, 19.5]
print(arange(16).reshape([2, 2, 4]) * 1000000)
//> [[[       0,  1000000,  2000000,  3000000],
//>   [ 4000000,  5000000,  6000000,  7000000]],
//>
//>  [[ 8000000,  9000000, 10000000, 11000000],
//>   [12000000, 13000000, 14000000, 15000000]]]
print(arange(3000).reshape([30, 100]) - 1000)
//> [[-1000,  -999,  -998, ...,  -903,  -902,  -901],
//>  [ -900,  -899,  -898, ...,  -803,  -802,  -801],
//>  [ -800,  -799,  -798, ...,  -703,  -702,  -701],
//>  ...,
//>  [ 1700,  1701,  1702, ...,  1797,  1798,  1799],
//>  [ 1800,  1801,  1802, ...,  1897,  1898,  1899],
//>  [ 1900,  1901,  1902, ...,  1997,  1998,  1999]]
print(array([true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true]))
//> [ true, false,  true, false,  true, false,  true, false,  true, false,  true, false,  true, false,
//>   true, false,  true]
print(str(arange(20).reshape([2, 10]) * 100000) == format("%v", arange(20).reshape([2, 10]) * 100000))  //> true
