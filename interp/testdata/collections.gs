// dicts through dict() until {...} parses: insertion order, equal numbers are one key
let d = dict()
d["a"] = 1
d[2] = "b"
d[2.0] = "two"
d[nil] = true
print(d, len(d), type(d))                  //> {"a": 1, 2: "two", nil: true} 3 dict
print(d["a"], d.get("zz"), d.get("zz", 0)) //> 1 nil 0
print(d.keys(), d.values())                //> ["a", 2, nil] [1, "two", true]
print(d.items())                           //> [["a", 1], [2, "two"], [nil, true]]
print(d.pop("a"), d.pop("a", -1), d)       //> 1 -1 {2: "two", nil: true}
let e = d.copy()
e.update(dict([["x", [1, 2]]]))
print(e, d == e, d == d.copy())            //> {2: "two", nil: true, "x": [1, 2]} false true
e.clear()
print(e, len(e))                           //> {} 0
---
let d = dict([["k", 1]])
print(d["missing"])                        ### "key \"missing\" not in dict"
---
let d = dict()
d[[1]] = 2                                 ### "unhashable type list"
---
let d = dict()
d.pop(3)                                   ### "dict.pop: key 3 not in dict"
---
// for over a dict visits its keys
let d = dict([["a", 1], ["b", 2]])
for k in d { //> a 1
    print(k, d[k])
}
//> b 2
---
// list methods
let l = [3, 1, 2]
l.append(4)
l.extend([5, 6])
l.insert(0, 0)
l.insert(-1, 9)
print(l)                                   //> [0, 3, 1, 2, 4, 5, 9, 6]
print(l.pop(), l.pop(0), l.pop(-2), l)     //> 6 0 5 [3, 1, 2, 4, 9]
l.remove(9)
print(l.index(2), l.count(1), l)           //> 2 1 [3, 1, 2, 4]
l.sort()
print(l)                                   //> [1, 2, 3, 4]
l.sort(reverse=true)
print(l)                                   //> [4, 3, 2, 1]
l.reverse()
let c = l.copy()
l.clear()
print(l, c)                                //> [] [1, 2, 3, 4]
let words = ["bb", "a", "ccc", "dd"]
fn size(s) {
    return len(s)
}
words.sort(key=size)
print(words)                               //> ["a", "bb", "dd", "ccc"]
let push = c.append
push(5)
print(c, push)                             //> [1, 2, 3, 4, 5] <builtin list.append>
print([1, 2] * 2, 3 * "ab", [0] * -1, [1, [2]] == [1, [2]])  //> [1, 2, 1, 2] ababab [] true
---
let l = []
l.pop()                                    ### "pop from an empty list"
---
[1].remove(2)                              ### "list.remove: 2 not in list"
---
[1].apend(2)                               ### "list has no method apend \(did you mean append\?\)"
---
[2, "a"].sort()                            ### "list.sort: cannot compare string and int"
---
// strings
let s = "  a,b,,c  "
print(s.strip().split(","))                //> ["a", "b", "", "c"]
print("a b\t c\n".split(), "-".join(["x", "y", "z"]))  //> ["a", "b", "c"] x-y-z
print("xxhixx".strip("x"), "xxhi".lstrip("x"), "hixx".rstrip("x"), "  hi ".lstrip() + "|")  //> hi hi hi hi |
print("aXbXc".replace("X", "--"), "hello".find("l"), "hello".find("z"), "banana".count("an"))  //> a--b--c 2 -1 2
print("hello".startswith("he"), "hello".endswith("lo"), "Hi".upper(), "Hi".lower())  //> true true HI hi
print(type("ab"[0]), "ab" * 2)             //> string abab
let t = ""
for ch in "abc" {
    t = t + ch + "."
}
print(t)                                   //> a.b.c.
---
",".join([1, 2])                           ### "string.join: element 0 is int 1, not a string"
---
"a".split("")                              ### "string.split: empty separator"
---
// builtins on collections
print(sorted([3, 1, 2]), sorted("cab"), sorted([1, 3, 2], reverse=true))  //> [1, 2, 3] ["a", "b", "c"] [3, 2, 1]
print(reversed([1, 2, 3]), enumerate(["a", "b"]), enumerate(["a"], 1))     //> [3, 2, 1] [[0, "a"], [1, "b"]] [[1, "a"]]
print(zip([1, 2, 3], ["a", "b"]), list("ab"), list(dict([[1, 2]])), list())  //> [[1, "a"], [2, "b"]] ["a", "b"] [1] []
print(min([3, 1, 2]), max([3, 1, 2]), sum([1, 2, 3]))                      //> 1 3 6
print(int("42"), float("2.5"))                                            //> 42 2.5
---
int("x")                                   ### "int: cannot parse \"x\" as an int"
---
error("boom")                              ### "boom"
---
dict([[1, 2], [3]])                        ### "dict: element 1 is a list of 1 elements, not a \[key, value\] pair"
---
zip([1], 2)                                ### "zip: argument 2: cannot iterate over int"
---
sorted([1], reverse=1)                     ### "sorted: reverse must be a bool, not int 1"
---
enumerate("ab", start="x")                 ### "enumerate: start: want an int"
---
// lists order lexicographically (Python's), so pairs sort by their first element
print([1, 2] < [1, 3], [1, 2] < [1], [] < [0], [[1, "b"]] > [[1, "a"]])  //> true false true true
print(sorted(dict([["b", 2], ["a", 1], ["c", 0]]).items()))             //> [["a", 1], ["b", 2], ["c", 0]]
---
print([1] < ["a"])                         ### "cannot compare int and string"
