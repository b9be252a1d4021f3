// Prefetch, advice, automatic prefetch and explain_access (MEMORY.md
// sections 8 and 9). The CUDA chunks expect the H200's managed-only
// paradigm; the arrays of 2^20 f32 (4 MiB) are past the automatic
// prefetch's 2 MiB threshold.
//!nocuda
array x: f32[4]
explain_access("cuda:0", x)            ### "device cuda:0 is not available"
---
//!nocuda
array x: f32[4]
prefetch(x, "cuda:0")                  ### "device cuda:0 is not available"
---
//!cuda
// explicit prefetch and advice on managed arrays and their views
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
let n = 1 << 20
array m: f32[n] on "cuda:0" using managed
m[0] = 5.0
prefetch(m, "cuda:0")
launch addone[n](m) on "cuda:0"
prefetch(m[0:1024], "cpu")
print(m[0], m[n - 1])                  //> 6.0 1.0
advise(m, "read_mostly")
advise(m, "unset_read_mostly")
advise(m, "preferred_location", "cuda:0")
advise(m, "preferred_location", "cpu")
advise(m, "unset_preferred_location")
advise(m[0:16], "accessed_by", "cpu")
advise(m[0:16], "unset_accessed_by", "cpu")
advise(m, "accessed_by", "cuda:0")
launch addone[n](m) on "cuda:0"
print(m[0], m[1], m[n - 1])            //> 7.0 2.0 2.0
---
//!cuda
array d: f32[4] on "cuda:0" using device
prefetch(d, "cuda:0")                  ### "prefetch needs managed memory: the array is CUDA_DEVICE memory on cuda:0"
---
//!cuda
array p: f32[4] on "cuda:0" using mempool
advise(p, "read_mostly")               ### "advise needs managed memory: the array is CUDA_MEMPOOL memory on cuda:0"
---
//!cuda
array h: f32[4] on "cpu" using pinned
prefetch(h, "cuda:0")                  ### "the array is PINNED memory on cpu"
---
//!cuda
// refused inside a capture before any CUDA call (CUDA would fail with
// error 900 and invalidate the capture)
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array m: f32[16] on "cuda:0" using managed
capture g on "cuda:0" {
    launch addone[16](m)
    prefetch(m, "cuda:0")              ### "prefetch is not allowed while a capture block records \(CUDA fails it with error 900"
}
---
//!cuda
array m: f32[16] on "cuda:0" using managed
capture g on "cuda:0" {
    advise(m, "read_mostly")           ### "advise is not allowed while a capture block records"
}
---
//!cuda
// automatic prefetch: host writes, then launches with two managed
// arguments (one batched prefetch), then host reads; the same with it off
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
let n = 1 << 20
array x: f32[n] on "cuda:0" using managed
array y: f32[n] on "cuda:0" using managed
fill(x, 1.0)
for i in range(4) {
    y[i] = 2.0
}
launch saxpy[n](x, y, 3.0) on "cuda:0"
print(y[0], y[4], sum(y[0:8]))         //> 5.0 3.0 32.0
config.prefetch = "off"
y[0] = 0.0
launch saxpy[n](x, y, 3.0) on "cuda:0"
print(y[0], y[n - 1])                  //> 3.0 6.0
---
//!cuda
// a cpu launch after a GPU launch: the host side of the policy
kernel fill1(x: array[f32], v: f32) {
    x[tid()] = v
}
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
let n = 1 << 20
array m: f32[n] on "cuda:0" using managed
launch fill1[n](m, 2.0) on "cuda:0"
launch addone[n](m) on "cpu"
launch addone[n](m) on "cuda:0"
print(m[0], m[n - 1])                  //> 4.0 4.0
---
//!cuda
// a capture of managed arrays replays without faults or invalidation: the
// arrays are prefetched when the capture ends and again when the host
// touched them between replays
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
let n = 1 << 20
array m: f32[n] on "cuda:0" using managed
m[0] = 1.0
capture g on "cuda:0" {
    launch addone[n](m)
}
replay(g, 100)
print(m[0], m[n - 1])                  //> 101.0 100.0
m[5] = 0.0
replay(g, 100)
print(m[5], m[0], m[n - 1])            //> 100.0 201.0 200.0
---
//!cuda
// explain_access on a managed-only device
array m: f32[4] on "cuda:0" using managed
array p: f32[4] on "cuda:0" using mempool
array h: f32[4] on "cpu"
let e = explain_access("cpu", m)
print(e.accessible, e.kind, e.owner, e.target, e.facts, e.remedy == "")  //> true CUDA_MANAGED cuda:0 cpu ["concurrent_managed_access=1"] true
print(e.text)                          //> cpu can access m, a CUDA_MANAGED array on cuda:0. Rule: cpu target, CUDA_MANAGED owner: needs concurrent_managed_access or direct_managed_mem_access_from_host; here cuda:0 has concurrent_managed_access=1.
let f = explain_access("cpu", p)
print(f.accessible, f.facts, f.remedy) //> false [] use the managed allocator (array p: ... using managed)
let g = explain_access("cuda:0", h)
print(g.accessible, g.facts, g.remedy) //> false ["pageable_memory_access=0"] h.to("cuda:0")
print(g.text)                          //> cuda:0 cannot access h, a HOST array on cpu. Rule: CUDA target, HOST owner on the cpu: needs pageable_memory_access; here cuda:0 has pageable_memory_access=0. Remedy: h.to("cuda:0").
---
//!cuda
// a launch access error ends with explain_access's remedy
kernel k(x: array[f32]) {
    x[tid()] = 1.0
}
array d: f32[4] on "cuda:0" using mempool
launch k[4](d) on "cpu"                ### "; remedy: use the managed allocator \(array d: ... using managed\)"
---
//!cuda2
// managed memory used on two GPUs: each launch prefetches it to its device
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
let n = 1 << 20
array m: f32[n] on "cuda:0" using managed
launch addone[n](m) on "cuda:0"
launch addone[n](m) on "cuda:1"
launch addone[n](m) on "cuda:0"
prefetch(m, "cuda:1")
print(m[0], m[n - 1])                  //> 3.0 3.0
print(explain_access("cuda:1", m).facts)  //> ["managed_memory cuda:1=1", "managed_memory cuda:0=1"]
