// CUDA devices: these chunks run only where a CUDA device is present.
//!cuda
array a: f32[4] = [1, 2, 3, 4] on "cuda:0"
print(a.device, a.memory_kind, a)      //> cuda:0 CUDA_MEMPOOL [1.0, 2.0, 3.0, 4.0]
kernel twice(x: array[f32]) {
    let i = tid()
    x[i] = 2.0 * x[i]
}
launch twice[4](a) on "cuda:0"
print(a, sum(a), a[3], type(a[3]))     //> [2.0, 4.0, 6.0, 8.0] 20.0 8.0 f32
a[0] = 10
print(a[0], a.to("cpu").device, can_access("cpu", a), can_access("cuda:0", a))  //> 10.0 cpu false true
let c = a.to("cpu")
print(c, c.memory_kind)                //> [10.0, 4.0, 6.0, 8.0] HOST
---
//!cuda
// the default device is cuda:0 when one is present (unless --device says otherwise)
device "cuda" {
    print(zeros(1).device)             //> cuda:0
}
device "cpu" {
    print(zeros(1).device)             //> cpu
}
print(device_info("cuda:0").paradigm != "", type(device_info("cuda:0").managed_memory)) //> true bool
print(devices()[0], devices()[1])      //> cpu cuda:0
---
//!cuda
// arrays must live where the kernel runs
kernel k(x: array[f32]) {
    x[tid()] = 1.0
}
array h: f32[4] on "cpu"
launch k[4](h) on "cuda:0"             ### "kernel k: argument x \(h\) is an array on cpu \(memory_kind=HOST\) that launch device cuda:0 cannot access"
---
//!cuda
kernel k(x: array[f32]) {
    x[tid()] = 1.0
}
array d: f32[4] on "cuda:0"
launch k[4](d) on "cpu"                ### "argument x \(d\) is an array on cuda:0 \(memory_kind=CUDA_MEMPOOL\) that launch device cpu cannot access"
---
//!cuda
kernel k(x: array[f32]) {
    x[tid()] = 1.0
}
array d: f32[4] on "cuda:0"
config.launch_access = "relaxed"
launch k[4](d) on "cpu"                ### "that launch device cpu cannot access"
---
//!cuda
// debug mode: bounds checks on the GPU, reported with kernel, array, index and shape
config.debug = true
kernel oob(x: array[f32]) {
    let i = tid()
    x[i + 1] = 1.0                     ### "kernel oob: index 4 out of bounds for axis 0 of array a with shape \[4\]"
}
array a: f32[4] on "cuda:0"
launch oob[4](a) on "cuda:0"
---
//!cuda
// after a debug-mode fault the device is still usable
config.debug = true
kernel oob(x: array[f32, 2]) {
    let i, j = tid()
    x[i, j + 2] = 1.0                  ### "index 3 out of bounds for axis 1 of array m with shape \[2, 3\]"
}
array m: f32[2, 3] on "cuda:0"
fn attempt() {
    launch oob[2, 3](m) on "cuda:0"
}
attempt()
---
//!cuda
config.debug = true
kernel div(x: array[i32], d: i32) {
    let i = tid()
    x[i] = x[i] / d                    ### "integer division by zero"
}
array a: i32[4] = 1 on "cuda:0"
launch div[4](a, 0) on "cuda:0"
---
//!cuda
// the same kernels give the same results on cpu and cuda:0
kernel mix(x: array[f32], y: array[f64], n: array[i32], u: array[u32]) {
    let i = tid()
    let v = f32(i) * 0.37 - 3.0
    x[i] = sin(v) * exp(v / 4.0) + sqrt(abs(v)) - floor(v) + round(v * 1.5)
    y[i] = f64(v) / 3.0 + pow(f64(i), 0.5) + atan2(f64(v), 1.5)
    n[i] = (i * 7919) % 13 - (i >> 2) + select(i % 3 == 0, -i, i)
    u[i] = u32(i) * 2654435761 ^ (u32(i) << 7)
}
let m = 1000
array x1: f32[m] on "cpu"
array y1: f64[m] on "cpu"
array n1: i32[m] on "cpu"
array u1: u32[m] on "cpu"
array x2: f32[m] on "cuda:0"
array y2: f64[m] on "cuda:0"
array n2: i32[m] on "cuda:0"
array u2: u32[m] on "cuda:0"
launch mix[m](x1, y1, n1, u1) on "cpu"
launch mix[m](x2, y2, n2, u2) on "cuda:0"
print(equal(n1, n2.to("cpu")), equal(u1, u2.to("cpu")))             //> true true
print(allclose(x1, x2.to("cpu"), rtol=1e-6), allclose(y1, y2.to("cpu"), rtol=1e-12))  //> true true
---
//!cuda
// save and load move device arrays through the host
array a: i64[3] = [1, 2, 3] on "cuda:0"
save("/tmp/gscript-cuda-test.npy", a)
let b = load("/tmp/gscript-cuda-test.npy", device="cuda:0")
print(b, b.device, b.dtype)            //> [1, 2, 3] cuda:0 i64
---
//!cuda
// every memory kind, made by its allocator (MEMORY.md section 2)
array dv: f32[4] on "cuda:0" using device
array mp: f32[4] on "cuda:0" using mempool
array mg: f32[4] on "cuda:0" using managed
array mpl: f32[4] on "cuda:0" using managed_pool
array pn: f32[4] on "cpu" using pinned
array hs: f32[4] on "cpu" using host
print(dv.memory_kind, mp.memory_kind, mg.memory_kind, mpl.memory_kind, pn.memory_kind, hs.memory_kind)  //> CUDA_DEVICE CUDA_MEMPOOL CUDA_MANAGED CUDA_MANAGED PINNED HOST
print(int(mg.memory_kind), mg.device, pn.device)   //> 5 cuda:0 cpu
allocator managed {
    let z = zeros(3, device="cuda:0")
    let c = zeros(3, device="cpu")
    print(z.memory_kind, c.memory_kind)            //> CUDA_MANAGED HOST
}
---
//!cuda
// can_access on a managed-only device (the H200): managed memory is
// accessible from the cpu, device and pool memory are not, pinned memory is
// accessible from the GPU
array dv: f32[4] on "cuda:0" using device
array mp: f32[4] on "cuda:0" using mempool
array mg: f32[4] on "cuda:0" using managed
array pn: f32[4] on "cpu" using pinned
array hs: f32[4] on "cpu" using host
print(can_access("cpu", dv), can_access("cpu", mp), can_access("cpu", mg), can_access("cpu", pn))  //> false false true true
print(can_access("cuda:0", dv), can_access("cuda:0", mg), can_access("cuda:0", pn), can_access("cuda:0", hs))  //> true true true false
print(device_info("cuda:0").paradigm)             //> managed-only
---
//!cuda
// managed arrays cross devices with no copies: a GPU kernel writes, the cpu
// reads in place and launches on them, pinned host memory feeds a GPU kernel
kernel fill(x: array[f32], v: f32) {
    x[tid()] = v
}
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array mg: f32[1000] on "cuda:0" using managed
launch fill[1000](mg, 2.0) on "cuda:0"
launch addone[1000](mg) on "cpu"
print(sum(mg), mg[999])                           //> 3000.0 3.0
array pn: f32[8] on "cpu" using pinned
launch fill[8](pn, 7.0) on "cuda:0"
print(pn)                                          //> [7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0]
launch addone[8](pn) on "cpu"
print(pn[0])                                       //> 8.0
---
//!cuda
// strict: every array must live on the launch device, even when accessible
kernel addone(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array mg: f32[4] on "cuda:0" using managed
config.launch_access = "strict"
launch addone[4](mg) on "cuda:0"
launch addone[4](mg) on "cpu"                      ### "launch_access = \"strict\" requires every array on the launch device"
---
//!cuda
// IPC: ordered rejections, and a handle for device-allocator memory
array mg: f32[4] on "cuda:0" using managed
ipc_handle(mg[1:3])                                ### "IPC is not supported for managed memory"
---
//!cuda
array mp: f32[4] on "cuda:0" using mempool
ipc_handle(mp)                                     ### "using device"
---
//!cuda
array dv: f32[4] on "cuda:0" using device
ipc_handle(dv[0:2])                                ### "view"
---
//!cuda
array dv: f32[4] on "cuda:0" using device
print(len(ipc_handle(dv)))                         //> 128
---
//!cuda
// the oversubscription guard refuses managed requests beyond free memory
// before asking CUDA (no memory is touched)
array huge: u8[1 << 40] on "cuda:0" using managed  ### "free"
---
//!cuda
// no leaked device memory: freeing returns it
let before = mem_info("cuda:0").used_by_arrays
array big: f32[1 << 20] on "cuda:0" using device
print(mem_info("cuda:0").used_by_arrays - before)  //> 4194304
free(big)
print(mem_info("cuda:0").used_by_arrays - before)  //> 0
