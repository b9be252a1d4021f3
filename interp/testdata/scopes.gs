// device and allocator scopes are dynamic and restored on exit
//!cpu
fn where() {
    return zeros(1).device
}
device "cpu" {
    print(where())                     //> cpu
}
allocator host {
    print(zeros(1).memory_kind)        //> HOST
}
allocator "host" on "cpu" {
    array h: f32[2]
    print(h.memory_kind)               //> HOST
}
array u: f32[2] on "cpu" using host
print(u.device, u.memory_kind)         //> cpu HOST
---
allocator bogus {}                     ### "unknown allocator \"bogus\""
---
//!nocuda
device "cuda:0" {}                     ### "cuda:0 is not available"
---
//!cpu
array m: f32[2] using managed          ### "allocator managed does not apply to device cpu"
---
// CUDA allocators in scope do not apply to cpu arrays
//!cpu
allocator managed {
    print(zeros(1).memory_kind)        //> HOST
}
---
// scopes are restored after an error inside them
fn fail() {
    device "cpu" {
        allocator host {
            assert false, "boom"       ### "boom"
        }
    }
}
fail()
---
capture g on "cpu" {}                  ### "cannot capture on cpu"
---
// config
print(config.launch_access, config.debug)  //> checked false
config.launch_access = "strict"
config.debug = true
print(config)                          //> {launch_access: "strict", debug: true, allow_oversubscription: false, prefetch: "auto", allow_tf32: false, fast_math: false}
---
// config.prefetch: automatic prefetch of managed memory (MEMORY.md section 8)
print(config.prefetch)                 //> auto
config.prefetch = "off"
print(config.prefetch)                 //> off
config.prefetch = "auto"
print(config.prefetch)                 //> auto
---
config.prefetch = "on"                 ### "config.prefetch must be \"auto\" or \"off\", not string \"on\""
---
config.prefetch = false                ### "config.prefetch must be \"auto\" or \"off\", not"
---
config.launch_access = "loose"         ### "must be \"relaxed\", \"checked\" or \"strict\""
---
config.debug = 1                       ### "must be a bool"
---
config.colour = 1                      ### "config has no setting colour"
---
// introspection on the cpu
//!nocuda
print(devices(), type(device_info("cpu")), device_info("cpu").managed_memory) //> ["cpu"] record false
array a: f32[4]
print(can_access("cpu", a), mem_info("cpu").used_by_arrays >= 16)  //> true true
print(mem_info("cpu").cached, free_cached("cpu"))  //> 0 0
synchronize()
print(type(time()))                    //> float
---
ipc_handle(zeros(1, device="cpu"))     ### "not a CUDA device"
