// Checker tests (lang/check/script_test.go): block kernels: the block
// shape, index builtins, shared and local arrays, warp and block ops, cdiv.
// a 1-D block kernel: index builtins are i32, one name each
kernel k(x: array[i32]) block(256) {
    let t: i32 = thread_id()
    let b = block_id()
    let d = block_dim()
    let g = grid_dim()
    x[tid()] = t + b * d + g + lane_id() + warp_id() + warp_size()
}
---
// 2-D and 3-D blocks unpack one name per axis, x last
kernel k(x: array[i32, 2]) block(16, 16) {
    let ty, tx = thread_id()
    let by, bx: i32 = block_id()
    let dy, dx = block_dim()
    let gy, gx = grid_dim()
    let i, j = tid()
    x[i, j] = ty * dx + tx + by + bx + dy + gy + gx
}
kernel k3(x: array[i32, 3]) block(4, 4, 64) {
    let z, y, w = thread_id()
    let i, j, l = tid()
    x[i, j, l] = z + y + w
}
---
// the shape is constant arithmetic of integer literals
kernel k() block(4 * 8, 1 << 3, 2 + 2) {}
---
// the block's rank decides how many names the index builtins unpack into
kernel k(x: array[i32]) block(16, 16) {
    let t = thread_id()                ### "thread_id\(\) returns 2 values in a kernel with block\(16, 16\): unpack them, as in let y, x = thread_id\(\)"
    x[tid()] = 1                       ### "tid\(\) returns 2 values in a kernel with block\(16, 16\): unpack them, as in let y, x = tid\(\)"
    let a, b, c = block_id()           ### "block_id\(\) returns 2 values in a kernel with block\(16, 16\), not 3"
    let c, d: f32 = thread_id()        ### "thread_id\(\) values are i32, not f32"
}
kernel j(x: array[i32]) block(32) {
    let a, b = grid_dim()              ### "grid_dim\(\) returns 1 value in a kernel with block\(32\), not 2"
    let e = block_dim(1)               ### "block_dim\(\) takes no arguments"
}
---
// block shapes: integer constants, within CUDA's limits
kernel a(n: i32) block(n) {}                   ### "block extent n \(variable of type i32\) must be an integer constant"
kernel b() block(1.5) {}                       ### "block extent 1.5 \(untyped float constant\) must be an integer constant"
kernel c() block(0) {}                         ### "block extent 0 must be at least 1"
kernel d() block(2048) {}                      ### "block extent 2048 along x \(axis 0\) is too large: at most 1024"
kernel e() block(128, 4, 2) {}                 ### "block extent 128 along z \(axis 0\) is too large: at most 64"
kernel f() block(64, 32) {}                    ### "block\(64, 32\) has 2048 threads, at most 1024"
kernel g() block(2, 2, 2, 2) {}                ### "block\(...\) has 4 extents, at most 3"
kernel h() block(-1) {}                        ### "block extent -1 must be at least 1"
kernel i() block(1 << 40) {}                   ### "block extent 1099511627776 along x"
---
// a bad shape is reported once: the body's block builtins say nothing more
kernel k(x: array[f32]) block(0) {             ### "block extent 0 must be at least 1"
    shared t: f32[4]
    t[thread_id()] = x[tid()]
    sync()
}
---
// block builtins outside block kernels
kernel k(x: array[i32]) {
    let t = thread_id()                ### "thread_id\(\) is only available in a block kernel \(declare one with block\(...\)\)"
    sync()                             ### "sync\(\) is only available in a block kernel"
    x[0] = block_sum(1)                ### "block_sum\(\) is only available in a block kernel"
    let l = lane_id()                  ### "lane_id\(\) is only available in a block kernel"
}
---
// block builtins in funcs: the IR has them in the block kernel's body only
func f(v: f32) -> f32 {
    sync()                             ### "sync\(\) cannot be used in func f: block operations exist only in the body of a block kernel, not in the funcs it calls"
    return shfl(v, 0)                  ### "shfl\(\) cannot be used in func f"
}
func g() -> i32 {
    let a, b = thread_id()             ### "thread_id\(\) cannot be used in func g"
    return a + warp_size()
}
---
// warp ops and block collectives need whole warps
kernel k(x: array[f32]) block(48) {
    let v = x[tid()]
    let s = warp_sum(v)                ### "warp_sum\(\) needs whole warps: block\(48\) has 48 threads, not a multiple of 32"
    let b = block_sum(v)               ### "block_sum\(\) needs whole warps"
    sync_warp()                        ### "sync_warp\(\) needs whole warps"
    let l = lane_id()
    sync()
}
---
// warp ops in a 2-D block of whole warps
kernel k(x: array[f32, 2]) block(4, 8) {
    let i, j = tid()
    x[i, j] = warp_sum(x[i, j])
}
---
// shuffles: any scalar, an i32 lane; the result has the value's type
kernel k(x: array[f64], b: array[bool]) block(64) {
    let i = tid()
    let v = x[i]
    let s: f64 = shfl(v, 0) + shfl_down(v, 1) + shfl_up(v, 2) + shfl_xor(v, 16)
    b[i] = shfl(b[i], lane_id() + 1)
    let n: i32 = shfl(3, 1)
    let f: f32 = shfl(1.5, 1)
}
---
// shuffle argument errors
kernel k(x: array[f32], d: i64) block(32) {
    let a = shfl(x, 0)                 ### "cannot use x \(array\[f32\]\) as argument to shfl"
    let b = shfl_down(x[0], d)         ### "cannot use d \(variable of type i64\) as i32 value in argument to shfl_down"
    let c = shfl_up(x[0], 1.5)         ### "cannot use 1.5 \(untyped float constant\) as i32 value in argument to shfl_up"
    let e = shfl_xor(x[0])             ### "shfl_xor expects 2 arguments, got 1"
}
---
// votes, ballot and reductions
kernel k(x: array[i32], f: array[f32]) block(128) {
    let i = tid()
    let p = x[i] > 0
    let m: u32 = ballot(p)
    let all: bool = warp_all(p)
    let any: bool = block_any(p) || block_all(p)
    let w = warp_any(p)
    let c: i32 = block_count(p)
    x[i] = warp_sum(x[i]) + warp_min(x[i]) + warp_max(x[i]) + c
    f[i] = block_sum(f[i]) + block_min(f[i]) + block_max(f[i]) + block_scan(f[i]) + block_scan_exclusive(f[i])
    let u: u32 = block_sum(m)
    let z: i32 = block_sum(1)
    let w: f32 = block_max(2.5)
}
---
// a collective on the right of && or || runs only where the left does not decide
kernel k(x: array[i32]) block(32) {
    let p = x[tid()] > 0
    let a = p || block_any(p)          ### "block_any\(\) under a condition that differs between threads of a block: p \(from x\[tid\(\)\] at 3:13\)"
    let b = block_all(p) && block_any(p)
}
---
// operand types of votes and reductions
kernel k(x: array[f32]) block(32) {
    let a = ballot(x[0])               ### "ballot needs a bool argument, got f32"
    let b = block_sum(x[0] > 0)        ### "block_sum needs a numeric argument, got bool"
    let c = warp_any(1)                ### "warp_any needs a bool argument, got i32"
    let d = block_count(x)             ### "cannot use x \(array\[f32\]\) as argument to block_count"
    let e = block_scan()               ### "block_scan expects 1 argument, got 0"
    let s = sync()                     ### "sync\(\) \(no value\) used as value"
}
---
// sync and sync_warp are statements; so may a collective be
kernel k(x: array[f32]) block(64) {
    sync()
    sync_warp()
    block_sum(x[tid()])
    sync(1)                            ### "sync\(\) takes no arguments"
}
---
// block builtin names can be shadowed, like every builtin
kernel k(x: array[i32]) block(32) {
    let sync = 3
    let lane_id = thread_id()
    x[tid()] = sync + lane_id
}
---
// shared arrays: static shape, indexed like arrays, .shape and len are constants
kernel k(x: array[f32, 2]) block(16, 16) {
    shared tile: f32[16, 17]
    shared flags: bool[16]
    let ty, tx = thread_id()
    let i, j = tid()
    tile[ty, tx] = x[i, j]
    flags[tx] = tile[ty, tx] > 0
    sync()
    x[i, j] = tile[tx, ty] + f32(tile.shape[1] + len(tile))
    let n: i32 = tile.shape[0]
}
---
// atomics on shared and local arrays
kernel k(x: array[i32]) block(64) {
    shared hist: i32[16]
    local seen: u32[4]
    let i = tid()
    atomic_add(hist, x[i] % 16, 1)
    let old = atomic_max(seen, 0, u32(i))
    sync()
    x[i] = hist[thread_id() % 16] + i32(old) + atomic_cas(hist, 0, 0, 1)
}
---
// local arrays in kernels of either kind and in funcs
func sum4(v: f32) -> f32 {
    local acc: f32[4]
    for k in range(len(acc)) {
        acc[k] = v * f32(k)
    }
    return acc[0] + acc[1] + acc[2] + acc[3]
}
kernel flat(x: array[f32]) {
    local tmp: f32[2, 2]
    tmp[1, 1] = x[tid()]
    x[tid()] = sum4(tmp[1, 1]) + f32(tmp.shape[0])
}
kernel blk(x: array[f32]) block(32) {
    local tmp: f64[3]
    tmp[0] += 1.0
    x[tid()] = f32(tmp[0]) + sum4(1.0)
}
---
// shared arrays only in block kernels, at the top level
kernel flat(x: array[f32]) {
    shared t: f32[4]                   ### "shared arrays exist only in block kernels \(declare one with block\(...\)\)"
}
func f() {
    shared t: f32[4]                   ### "shared arrays cannot be declared in func f: declare them in the block kernel's body"
}
kernel k(x: array[f32]) block(32) {
    if x[0] > 0 {
        shared t: f32[4]               ### "shared array t must be declared at the top level of the kernel body: it is one array for the whole block"
    }
}
shared h: f32[4]                       ### "shared arrays are declared in the body of a block kernel, not in host code"
---
// local arrays at the top level of a body: they are zeroed once, when it starts
kernel k(x: array[f32]) {
    for i in range(4) {
        local acc: f32[4]              ### "local array acc must be declared at the top level of the kernel body: local arrays are zeroed once, when the kernel starts"
    }
    {
        local b: f32[1]                ### "local array b must be declared at the top level of the kernel body"
    }
}
func f(a: f32) {
    if a > 0 {
        local c: i32[2]                ### "local array c must be declared at the top level of the func body"
    }
}
local h: f32[4]                        ### "local arrays are declared in the body of a kernel or func, not in host code"
---
// shared and local extents and element types
kernel k(n: i32) block(32) {
    shared a: f16[4]                   ### "unknown type f16 for shared array a"
    shared b: f32[n]                   ### "shared array extent n \(variable of type i32\) must be an integer constant"
    shared c: f32[0]                   ### "shared array extent 0 must be at least 1"
    local d: f32[2.5]                  ### "local array extent 2.5 \(untyped float constant\) must be an integer constant"
    local e: f32[1, 1, 1, 1, 1]        ### "local array e has 5 dimensions, at most 4"
    local f: i32[-2]                   ### "local array extent -2 must be at least 1"
}
---
// a block's shared arrays fit 232448 bytes, aligned to 16 bytes each
kernel ok() block(32) {
    shared a: u8[1]
    shared b: f32[58108]
}
kernel big() block(32) {
    shared a: f32[40000]
    shared b: f64[10000]               ### "shared arrays need 240000 bytes per block, at most 232448"
    shared c: u8[1 << 40]              ### "shared arrays need 1099511787776 bytes per block, at most 232448"
}
kernel tight() block(32) {
    shared a: u8[1]
    shared b: f32[58109]               ### "shared arrays need 232452 bytes per block, at most 232448"
}
---
// local arrays fit 512 KiB per thread
kernel k() {
    local a: f64[65536]
    local b: u8[1]                     ### "local arrays need 524289 bytes per thread, at most 524288"
}
---
// indexing shared and local arrays is typed like indexing arrays
kernel k(x: array[f32]) block(32) {
    shared t: f32[32]
    local l: i32[2, 2]
    t[0, 1] = 1                        ### "array t has 1 dimensions, indexed with 2"
    l[0] = 1                           ### "array l has 2 dimensions, indexed with 1"
    t[1.5] = 0                         ### "index 1.5 \(untyped float constant\) must be an integer"
    l[0, 0] = 1.5                      ### "cannot use 1.5 \(untyped float constant\) as i32 value in assignment"
    let v = t.shape[1]                 ### "axis 1 out of range: t has 1 dimensions"
    let w = t                          ### "cannot store array t in a local variable"
    t = x                              ### "cannot assign to array t"
}
---
// shared and local arrays are not passed to funcs
func first(a: array[f32]) -> f32 {
    return a[0]
}
kernel k(x: array[f32]) block(32) {
    shared t: f32[32]
    local l: f32[4]
    let a = first(t)                   ### "cannot pass shared array t to func first: funcs take array parameters only"
    let b = first(l)                   ### "cannot pass local array l to func first: funcs take array parameters only"
    let c = first(x)
}
---
// cdiv: the ceiling of the exact quotient, in kernels of every kind and funcs
func tiles(n: i32) -> i32 {
    return cdiv(n, 16)
}
kernel k(x: array[i64], n: u32) {
    let a: i32 = cdiv(7, 2)
    let b = cdiv(len(x), 4)
    let c: i64 = cdiv(x[tid()], -3)
    let d: u32 = cdiv(n, 3)
    x[tid()] = i64(a + b + tiles(b)) + c + i64(d) + i64(cdiv(-7, 2))
}
---
// cdiv of constants folds: cdiv(-7, 2) is -3, cdiv(7, 2) is 4
kernel k(x: array[u8]) {
    x[0] = cdiv(-7, 2) + 3 + cdiv(7, 2) + cdiv(8, 4) + 1
    x[1] = cdiv(-7, 2)                 ### "constant -3 overflows u8"
}
---
// cdiv errors
kernel k(x: array[f32], i: i32, l: i64) {
    let a = cdiv(1.5, 2)               ### "cdiv needs integer arguments, got f32"
    let b = cdiv(i, 0)                 ### "division by zero"
    let c = cdiv(i, l)                 ### "mismatched types i32 and i64 in cdiv"
    let d = cdiv(i)                    ### "cdiv expects 2 arguments, got 1"
}
---
// warp_size() is the constant 32 everywhere in device code
func lanes() -> i32 {
    return warp_size()
}
kernel k(x: array[i32]) {
    x[0] = warp_size() + lanes()
    let y: u8 = warp_size()            ### "cannot use warp_size\(\) \(constant 32 of type i32\) as u8 value in variable declaration"
}
