// Two CUDA devices (MEMORY.md section 4, rule 4; GPU.md's measurements):
// plain device memory needs peer access, pool memory needs pool access,
// managed and pinned memory need no setup.
//!cuda2
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array mg: f32[4] = 1.0 on "cuda:0" using managed
array pn: f32[4] = 1.0 on "cpu" using pinned
print(can_access("cuda:1", mg), can_access("cuda:1", pn))   //> true true
launch addone[4](mg) on "cuda:1"
launch addone[4](pn) on "cuda:1"
print(mg, pn)                          //> [2.0, 2.0, 2.0, 2.0] [2.0, 2.0, 2.0, 2.0]
---
//!cuda2
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array dv: f32[4] = 1.0 on "cuda:0" using device
print(can_access("cuda:1", dv))        //> false
launch addone[4](dv) on "cuda:1"       ### "argument x \(dv\) is an array on cuda:0 \(memory_kind=CUDA_DEVICE\) that launch device cuda:1 cannot access: peer access"
---
//!cuda2
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array dv: f32[4] = 1.0 on "cuda:0" using device
enable_peer_access("cuda:0", "cuda:1")
print(can_access("cuda:1", dv))        //> true
launch addone[4](dv) on "cuda:1"
print(dv)                              //> [2.0, 2.0, 2.0, 2.0]
---
//!cuda2
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array mp: f32[4] = 1.0 on "cuda:0" using mempool
enable_peer_access("cuda:0", "cuda:1")
print(can_access("cuda:1", mp))        //> false
launch addone[4](mp) on "cuda:1"       ### "memory_kind=CUDA_MEMPOOL.*the memory pool of cuda:0 does not grant access to cuda:1"
---
//!cuda2
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array mp: f32[4] = 1.0 on "cuda:0" using mempool
enable_mempool_access("cuda:0", "cuda:1")
print(can_access("cuda:1", mp))        //> true
launch addone[4](mp) on "cuda:1"
print(mp)                              //> [2.0, 2.0, 2.0, 2.0]
---
//!cuda2
// the same kernel on both devices, results copied across
kernel sq(x: array[i64]) {
    let i = tid()
    x[i] = i64(i) * i64(i)
}
array a: i64[5] on "cuda:0"
array b: i64[5] on "cuda:1"
launch sq[5](a) on "cuda:0"
launch sq[5](b) on "cuda:1"
print(equal(a.to("cpu"), b.to("cpu")), b.to("cuda:0").device)  //> true cuda:0
---
//!cuda2
// a launch on one device waits for queued work of another on the same array
kernel fill(x: array[f32], v: f32) {
    x[tid()] = v
}
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array mg: f32[1 << 20] on "cuda:0" using managed
launch fill[1 << 20](mg, 5.0) on "cuda:0"
launch addone[1 << 20](mg) on "cuda:1"
launch addone[1 << 20](mg) on "cuda:0"
print(sum(mg) / float(1 << 20))        //> 7.0
---
//!cuda2
// a managed array made before the capture works in a graph on another GPU
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array mg: f32[4] on "cuda:0" using managed
capture g on "cuda:1" {
    launch addone[4](mg)
}
replay(g, 3)
print(mg, g)                           //> [3.0, 3.0, 3.0, 3.0] <graph g on cuda:1: 1 nodes>
