// stdlib script tests: prefetch, advise and explain_access (MEMORY.md
// sections 8 and 9) where the cpu sees them; the GPU side is in
// interp/testdata/prefetch.gs.
array x: f32[4] = [1, 2, 3, 4]
let e = explain_access("cpu", x)
print(type(e), e.accessible, e.kind, e.owner, e.target)  //> record true HOST cpu cpu
print(e.rule, e.facts, e.remedy == "")                   //> target is the owner: always accessible [] true
print(e.text)                                            //> cpu can access x, a HOST array on cpu. Rule: target is the owner: always accessible; here the array lives on cpu.
---
// a view is its owner's memory; an array with no name of its own is `a`
array x: f32[8]
print(explain_access("cpu", x[2:4]).text)  //> cpu can access a, a HOST array on cpu. Rule: target is the owner: always accessible; here the array lives on cpu.
print(explain_access("cpu", x.reshape(2, 4)).kind)  //> HOST
---
array x: f32[4]
prefetch(x, "cpu")                     ### "prefetch needs managed memory: the array is HOST memory on cpu \(make it with `using managed`\)"
---
array x: f32[4]
prefetch(x[1:3], "cpu")                ### "prefetch needs managed memory"
---
array x: f32[4]
advise(x, "read_mostly")               ### "advise needs managed memory: the array is HOST memory on cpu"
---
array x: f32[4]
advise(x, "preferred_location", "cpu") ### "advise needs managed memory"
---
array x: f32[4]
advise(x, "write_mostly")              ### "invalid advice \"write_mostly\": want \"read_mostly\", \"preferred_location\" or \"accessed_by\""
---
array x: f32[4]
advise(x, 1)                           ### "advise: the advice is a string such as \"read_mostly\", not int"
---
array x: f32[4]
prefetch(x)                            ### "prefetch takes 2 positional arguments, got 1"
---
prefetch(1, "cpu")                     ### "prefetch: argument 1 must be an array, not int"
---
array x: f32[4]
explain_access("tpu", x)               ### "invalid device \"tpu\""
---
explain_access("cpu", [1, 2])          ### "explain_access: argument 2 must be an array, not list"
---
array x: f32[4]
free(x)
explain_access("cpu", x)               ### "array x has been freed"
---
array x: f32[4]
free(x)
prefetch(x, "cpu")                     ### "array x has been freed"
---
//!cuda
// a managed cuda:0 array joins a cpu expression, as can_access("cpu", m)
// allows (ARRAYS.md section 2): the kernel runs on the cpu
array h: f32[4] = [1, 2, 3, 4] on "cpu"
array m: f32[4] = [10, 20, 30, 40] on "cuda:0" using managed
print(can_access("cpu", m))            //> true
device "cpu" {
    let s = h + m
    print(s, s.device)                 //> [11.0, 22.0, 33.0, 44.0] cpu
}
let t = m * 2.0 + h
print(t.device, t, sum(h * m))         //> cpu [21.0, 42.0, 63.0, 84.0] 300.0
h[:] = m - 1.0
print(h)                               //> [9.0, 19.0, 29.0, 39.0]
---
//!cuda
// device memory that the cpu cannot read stays an error naming .to
array h: f32[4] on "cpu"
array d: f32[4] on "cuda:0" using device
print(h + d)                           ### "operands are on different devices, cpu and cuda:0"
