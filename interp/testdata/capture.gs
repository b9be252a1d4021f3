// Graph capture (LANGUAGE.md section 7, MEMORY.md section 6). These chunks
// need a CUDA device; capture on the cpu is an error everywhere.
capture g on "cpu" {}                  ### "cannot capture on cpu"
---
//!cuda
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array x: f32[1000] on "cuda:0"
capture g on "cuda:0" {
    print("host code runs once, at capture time")
    launch addone[1000](x)
    launch addone[1000](x)
}
print(x[0], type(g), g)                //> host code runs once, at capture time
//> 0.0 graph <graph g on cuda:0: 2 nodes>
replay(g)
print(x[0], x[999])                    //> 2.0 2.0
replay(g, 10)
print(sum(x))                          //> 22000.0
---
//!cuda
// without `on`, the capture uses the current device
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array x: f32[8] on "cuda:0"
let h = nil
device "cuda:0" {
    capture g {
        launch addone[8](x)
    }
    h = g
}
replay(h, 3)
print(x)                               //> [3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]
---
//!cuda
// copies and fills in the block are graph nodes too
array a: f32[4] on "cuda:0"
array b: f32[4] on "cuda:0"
capture g on "cuda:0" {
    fill(a, 7.0)
    copy(b, a)
}
print(b)                               //> [0.0, 0.0, 0.0, 0.0]
replay(g)
print(b)                               //> [7.0, 7.0, 7.0, 7.0]
---
//!cuda
// a fill of managed memory runs on its GPU, so it is a graph node as well
array m: f32[4] on "cuda:0" using managed
capture g on "cuda:0" {
    fill(m, 3.0)
}
print(m)                               //> [0.0, 0.0, 0.0, 0.0]
replay(g)
print(m)                               //> [3.0, 3.0, 3.0, 3.0]
---
//!cuda
// constructors fill on the device, so a capture records them too
let r = nil
let o = nil
capture g on "cuda:0" {
    r = arange(4, device="cuda:0", dtype=f32)
    o = ones(2, device="cuda:0", dtype=i64)
}
replay(g)
print(r, o)                            //> [0.0, 1.0, 2.0, 3.0] [1, 1]
---
//!cuda
// mempool allocations become graph allocation nodes: valid once the graph
// runs, and the graph replays many times without leaking
kernel iota(x: array[f32]) {
    let i = tid()
    x[i] = f32(i)
}
kernel total(x: array[f32], out: array[f32]) {
    atomic_add(out, 0, x[tid()])
}
array out: f32[1] on "cuda:0"
let t = nil                            // blocks scope their declarations: keep the array in t
capture g on "cuda:0" {
    t = zeros(100, device="cuda:0", allocator="mempool")
    launch iota[100](t)
    launch total[100](t, out)
}
replay(g, 50)
print(out[0], t.memory_kind)           //> 247500.0 CUDA_MEMPOOL
---
//!cuda
// managed_pool: managed memory that can be allocated inside a capture
kernel iota(x: array[f32]) {
    let i = tid()
    x[i] = f32(i)
}
let m = nil
capture g on "cuda:0" {
    m = zeros(4, device="cuda:0", allocator="managed_pool")
    launch iota[4](m)
}
replay(g)
print(m.memory_kind, m)                //> CUDA_MANAGED [0.0, 1.0, 2.0, 3.0]
print(can_access("cpu", m))            //> false
---
//!cuda
capture g on "cuda:0" {
    array d: f32[4] on "cuda:0" using device   ### "cannot allocate with the device allocator during capture: allocate before the capture or use the mempool allocator"
}
---
//!cuda
capture g on "cuda:0" {
    array m: f32[4] on "cuda:0" using managed  ### "cannot allocate with the managed allocator during capture"
}
---
//!cuda
capture g on "cuda:0" {
    let h = zeros(4, device="cpu")             ### "host allocations are not recorded in a graph"
}
---
//!cuda
capture g on "cuda:0" {
    array p: f32[4] on "cpu" using pinned      ### "cannot allocate with the pinned allocator during capture"
}
---
//!cuda
// arrays made before the capture, of every kind, work in the graph
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array dv: f32[2] on "cuda:0" using device
array mp: f32[2] on "cuda:0" using mempool
array mg: f32[2] on "cuda:0" using managed
array pn: f32[2] on "cpu" using pinned
capture g on "cuda:0" {
    launch addone[2](dv)
    launch addone[2](mp)
    launch addone[2](mg)
    launch addone[2](pn)
}
replay(g, 2)
print(dv, mp, mg, pn)                  //> [2.0, 2.0] [2.0, 2.0] [2.0, 2.0] [2.0, 2.0]
---
//!cuda
// device data cannot be read while capturing
array x: f32[4] on "cuda:0"
capture g on "cuda:0" {
    print(x)                           ### "inside a capture block"
}
---
//!cuda
// frees requested during the capture run after it ends
array x: f32[4] on "cuda:0" using device
let before = mem_info("cuda:0").used_by_arrays
capture g on "cuda:0" {
    free(x)
}
print(before - mem_info("cuda:0").used_by_arrays)  //> 16
print(x)                               ### "freed"
---
//!cuda
// launch access checks run at capture time
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array h: f32[4] on "cpu"
capture g on "cuda:0" {
    launch addone[4](h)                ### "that launch device cuda:0 cannot access"
}
