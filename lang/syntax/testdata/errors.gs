// Syntax error tests (lang/syntax/script_test.go): each chunk is parsed
// alone; ### marks the lines of the errors it must report, and nothing else.
// The parser recovers at the next statement: one error per bad statement.
let = 1                  ### "unexpected \"=\", expected name"
x = 2
fn f() {
  y = )                  ### "unexpected \"\)\", expected expression"
  z = 1
}
g(1))                    ### "unexpected \"\)\" at end of statement"
let ok = 3
w = 08                   ### "invalid number 08: leading zeros are not allowed"
---
// lexical errors and grammar errors in one file, reported in order
x = 1 # 2                ### "unexpected character '#'"
y = 08                   ### "invalid number 08"
z = )                    ### "unexpected \"\)\", expected expression"
---
// else belongs on the line of the closing brace
if a {
}
else {                   ### "unexpected keyword else: put else on the line of the closing }"
}
---
// an unterminated string ends at the line's end; the next line still parses
x = "abc                 ### "string literal not terminated"
y = 1
f(k=1, 2)                ### "positional argument after keyword argument"
---
// errors inside declarations of every kind
fn f(a: f32) {}          ### "fn parameters have no types"
kernel k(a) {}           ### "missing type for kernel parameter a"
kernel j(a: f32) -> f32 {}  ### "a kernel has no result type"
let a: array[f32, 0] = 1 ### "invalid array rank 0"
launch k(x)              ### "unexpected \"\(\", expected \"\[\""
---
// assignments to what cannot be assigned
1 = 2                    ### "cannot assign to a literal"
f() = 2                  ### "cannot assign to a call"
(a) = b                  ### "cannot assign to a parenthesized expression"
---
// a well-formed chunk reports nothing
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
array x: f32[4] = 1.0
launch saxpy[4](x, x, 2.0)
print(x)                 //> output markers are not read here
---
// block kernels: the shape, shared and local arrays, grid launches
kernel k(x: array[f32]) block() {}                  ### "unexpected \"\)\", expected expression"
fn f() block(32) {}                                 ### "a fn has no block shape"
kernel j(x: array[f32]) block(8, 8) {
    shared t f32[8]                                 ### "unexpected name f32, expected \":\""
}
func g() {
    local a: f32[]                                  ### "unexpected \"\]\", expected expression"
}
launch k[grid(n 2)](x)                              ### "unexpected number 2, expected \",\" or \"\)\""
launch k[grid()](x)                                 ### "unexpected \"\)\", expected expression"
let local = 1                                       ### "unexpected keyword local, expected name"
---
// block and grid stay names outside a kernel header and a launch's brackets
let block = 4
let grid = [block, block]
kernel block2(block: i32) block(32) {}
launch block2[grid(1)](block)
launch block2[grid[0]](block)
---
// a const needs a name and a value
const = 1                ### "unexpected \"=\", expected name"
const N                  ### "unexpected newline, expected \"=\""
const M: i32 = 2
---
// struct fields need a separator and a type; the parser recovers after the struct
struct P {
    a: f32 b: f32        ### "unexpected name b, expected \",\" or newline"
}
struct Q { a }           ### "missing type for field a of struct Q"
let ok = 1
---
// host language v3: one error per bad statement, the rest still parses
let d = {1 2}            ### "unexpected number 2, expected \":\""
let e = {"a": }          ### "unexpected \"}\", expected expression"
a, b += 1                ### "\+= takes one target: several targets are assigned with ="
for a, in x { }          ### "unexpected keyword in, expected name"
if not done { }          ### "not is no operator here: write !x for logical not"
catch e { }              ### "unexpected keyword catch: catch follows the } of a try block"
let ok = {"x": [1, {}]}
try { f() } catch e { g(e) }
x = k not in ok && 2 ** -1 < 1
---
// try without catch, and catch on the next line
try { f() }              ### "unexpected newline: try needs a catch block after its }"
let a = 1
try {
} ### "unexpected newline before catch: put catch on the line of the closing }"
catch { }
let b = 2
