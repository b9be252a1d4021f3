// List storage strategies (interp/list.go): an int or float list keeps its
// elements unboxed and converts to generic storage when given another
// kind. None of it shows: every element keeps its exact type.
let l = [1, 2, 3]
l.append("x")
print(l, type(l[0]), type(l[3]))           //> [1, 2, 3, "x"] int string
let f = [1, 2]
f.append(2.5)
print(f, type(f[0]), type(f[2]))           //> [1, 2, 2.5] int float
let n = [1, 2]
n[0] = [3]
print(n, type(n[0]), type(n[1]))           //> [[3], 2] list int
let z = [1, 2]
z[-1] = nil
print(z, type(z[0]), type(z[1]))           //> [1, nil] int nil
let g = [1.5, 2.5]
g.append(3)
print(g, type(g[1]), type(g[2]))           //> [1.5, 2.5, 3] float int
g[0] = 4
print(g, type(g[0]), type(g[1]))           //> [4, 2.5, 3] int float
let m = [1, 2.0]
print(m, type(m[0]), type(m[1]), m[0] == m[1] - 1.0)  //> [1, 2.0] int float true
---
// an empty list takes the kind of its first element
let a = []
a.append(1)
let b = []
b.append(1.0)
let c = []
c.append("s")
let d = []
d.append(nil)
let e = []
e.append([])
print(a, b, c, d, e, type(a[0]), type(b[0]))  //> [1] [1.0] ["s"] [nil] [[]] int float
a.append(2.0)
b.append(2)
print(a, b, type(a[1]), type(b[1]))        //> [1, 2.0] [1.0, 2] float int
let s = ["a"]
s.pop()
s.append(1)
s.append(2)
print(s, s[0] + s[1])                      //> [1, 2] 3
---
// operations keep or join the kinds
let i = [3, 1, 2]
let x = [0.5, 1.5]
print(i[1:], i[::-1], i[-1], i[-3], x[-1:])  //> [1, 2] [2, 1, 3] 2 3 [1.5]
print(i + [4], i + x, x + x, i + ["s"], [] + i, i + [])  //> [3, 1, 2, 4] [3, 1, 2, 0.5, 1.5] [0.5, 1.5, 0.5, 1.5] [3, 1, 2, "s"] [3, 1, 2] [3, 1, 2]
print(i * 2, x * 2, i * 0, [] * 3, 2 * [1.0])  //> [3, 1, 2, 3, 1, 2] [0.5, 1.5, 0.5, 1.5] [] [] [1.0, 1.0]
print([1, 2] == [1, 2], [1, 2] == [1.0, 2.0], [1.5] == [1.5], [1] == [2], [1] == [1, 2])  //> true true true false false
print([1, 2] < [1, 3], [1.5] < [1], [2] > [1.5, 0])  //> true false true
print(2 in i, 2.0 in i, 5 in i, "a" in i, 1.5 in x, 1 in x, nil in x)  //> true true false false true false false
print(sorted(i), sorted(i, reverse=true), sorted(x, reverse=true), sorted([2, 1.5, 1]))  //> [1, 2, 3] [3, 2, 1] [1.5, 0.5] [1, 1.5, 2]
print(reversed(i), reversed(x), list(i), list(x), i)  //> [2, 1, 3] [1.5, 0.5] [3, 1, 2] [0.5, 1.5] [3, 1, 2]
print(sum(i), sum(x), sum([1, 2.5]), max(i), min(x), len(i), mean(i))  //> 6 2.0 3.5 3 0.5 3 2.0
print(i.count(1), i.count(1.0), i.index(2), x.index(1.5), x.count(0))  //> 1 1 2 1 0
---
// unpacking, iteration and builtins give each element its own type
let p, q = [1, 2.5]
print(p, q, type(p), type(q))              //> 1 2.5 int float
let t = 0
for v in [1, 2, 3] {
    t += v
}
let u = 0.0
for v in [0.5, 0.25] {
    u += v
}
print(t, type(t), u)                       //> 6 int 0.75
for k, v in enumerate([7, 8]) { //> 0 7 int
    print(k, v, type(v))
}
//> 1 8 int
for a, b in zip([1, 2], [0.5, 1.5]) { //> 1.5
    print(a + b)
}
//> 3.5
let d = dict()
d[1] = [2, 3]
print(d.items(), d[1][1], list(range(3)) + [3])  //> [[1, [2, 3]]] 3 [0, 1, 2, 3]
fn first(l) {
    return l[0]
}
print(first([4.5]), type(first([4])), str([1, 2.5, "a"]))  //> 4.5 int [1, 2.5, "a"]
print(array([1, 2, 3]), array([1.5, 2.5]), array([[1, 2], [3, 4]]).shape)  //> [1, 2, 3] [1.5, 2.5] [2, 2]
---
// methods on int and float lists
let l = [3, 1, 2]
l.sort()
l.insert(0, 9)
l.insert(-1, 7)
print(l)                                   //> [9, 1, 2, 7, 3]
print(l.pop(), l.pop(0), l)                //> 3 9 [1, 2, 7]
l.remove(2)
l.extend([4, 5])
l.extend(l)
print(l, len(l))                           //> [1, 7, 4, 5, 1, 7, 4, 5] 8
l.extend([0.5])
l.reverse()
print(l)                                   //> [0.5, 5, 4, 7, 1, 5, 4, 7, 1]
let f = [2.5, 0.5]
f.sort()
let c = f.copy()
f.clear()
f.append("s")
print(f, c, type(c[0]))                    //> ["s"] [0.5, 2.5] float
let k = [1, 2, 3]
k += [4]
k += [4.5]
print(k)                                   //> [1, 2, 3, 4, 4.5]
let o = [1, 2]
o[0] += 5
o[-1] *= 2.5
let m = [[1, 2], [3.5]]
m[0][1] = 9
m[1][0] += 1
print(o, type(o[0]), type(o[1]), m)        //> [6, 5.0] int float [[1, 9], [4.5]]
---
let l = [1, 2, 3]
for v in l { ### "list changed size during iteration"
    l.append(v)
}
---
let l = [1.5, 2.5]
for v in l { ### "list changed size during iteration"
    l.pop()
}
---
let l = [1, 2]
for v in l {
    l[1] = "s"
}
print(l)                                   //> [1, "s"]
---
let l = [1, 2]
print(l[2])                                ### "index 2 out of range for list of length 2"
---
let l = [1, 2]
l[-3] = 0                                  ### "index -3 out of range for list of length 2"
---
let p, q = [1, 2, 3]                       ### "cannot unpack 3 values into 2 names"
---
[1, 2].index(5)                            ### "list.index: 5 not in list"
---
sum([9223372036854775807, 1])              ### "overflow"
---
// max and min of an unboxed list keep < as it is on floats (a NaN is never
// better); printing writes each element as print does
let n = float("nan")
print(max([1.5, n, 3.0]), min([n, 1.0, 0.5]), max([n, 2.0]), min([2.0, n]), max([-0.0, 0.0]), min([0.0, -0.0]))  //> 3.0 nan nan 2.0 -0.0 0.0
print(max([3, 9, 2]), min([3, 9, -2]), max([2.5]), min([1, 2.5]))  //> 9 -2 2.5 1
print([1, 2, 300000], [0.1, 1e300, -0.0, n], str([2.0]))  //> [1, 2, 300000] [0.1, 1e+300, -0.0, nan] [2.0]
---
max([])                                    ### "max of an empty list"
