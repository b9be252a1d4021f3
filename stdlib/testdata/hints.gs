// stdlib script tests (stdlib/script_test.go): NumPy habits that are
// errors here say what to write instead (docs/numpy.md lists them).
let a = zeros((2, 3))                ### "gscript has no tuples; write a list, \[2, 3\] \(zeros\(\[2, 3\]\), not zeros\(\(2, 3\)\)\)"
---
let x = arange(4)
print(x.sum())                       ### "array has no method sum: sum is a function, write sum\(a, ...\) \(axis= as a keyword: sum\(a, axis=0\)\)"
---
let x = arange(4)
print((x * 2).mean())                ### "mean is a function, write mean\(a, ...\)"
---
let x = arange(4)
print(x.tolist())                    ### "array has no method tolist: write list\(a\)"
---
y = 1                                ### "undefined: y \(declare a new variable with let: let y = ...\)"
---
fn f() {
    total += 1                       ### "undefined: total \(declare a new variable with let: let total = ...\)"
}
---
print(arange(6).reshape([4, 2]))     ### "cannot reshape an array of size 6 into shape \[4, 2\] \(8 elements\): the extents must multiply to 6, or one of them be -1 \(inferred\)"
---
// what the hints point at works
let x = arange(6)
print(sum(x), mean(x, axis=0), x.reshape([-1, 2]).shape, list(x[0:2]), x ** 2.0)  //> 15 2.5 [3, 2] [0, 1] [0.0, 1.0, 4.0, 9.0, 16.0, 25.0]
