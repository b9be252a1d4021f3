// a freed array in an expression or a reduction: the error says so,
// naming the variable, at the operator or the call
let a = ones(4)
let b = ones(4)
free(a)
print(a + b)                                    ### "array a has been freed"
---
let a = ones(4)
free(a)
print(2 * a)                                    ### "array a has been freed"
---
let a = ones(4)
free(a)
print(-a)                                       ### "array a has been freed"
---
let a = ones(4)
let b = ones(4)
free(a)
b += a                                          ### "array a has been freed"
---
let a = ones(4)
free(a)
print(sum(a))                                   ### "array a has been freed"
---
let a = ones(4)
free(a)
print(sum(a * 2), max(sqrt(a)))                 ### "array a has been freed"
---
let a = ones([2, 2])
free(a)
print(sum(a, axis=0))                           ### "array a has been freed"
---
// an operand that is no variable: the message has no name to give
let a = ones(4)
free(a)
print(a[1:] + 1)                                ### "array has been freed"
