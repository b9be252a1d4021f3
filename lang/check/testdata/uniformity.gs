// Checker tests (lang/check/script_test.go): block uniformity. sync() and
// the block collectives may only stand under conditions that are the same
// in every thread of a block; errors are at the condition, name the
// barrier and the value that differs, and where that value comes from.
// uniform: constants, scalar parameters, block_id, shapes, loops over them
kernel k(a: array[f32], n: i32, flag: bool) block(256) {
    for i in range(len(a)) {
        sync()
    }
    if block_id() == 0 {
        sync()
    }
    if n > 3 && flag {
        let s = block_sum(a[tid()])
    }
    for j in range(block_dim(), n * grid_dim(), block_dim()) {
        sync()
    }
    let m = a.shape[0] / 2
    while m > 0 {
        sync()
        m = m / 2
    }
    if true {
        sync()
    }
}
---
// under a condition on thread_id()
kernel k() block(32) {
    if thread_id() < 16 { ### "sync\(\) at 4:9 under a condition that differs between threads of a block: thread_id\(\) at 3:8"
        sync()
    }
}
---
// the example of COOPERATIVE.md: the value is named, with its origin
kernel k(x: array[f32]) block(64) {
    let j = 2
    let i = thread_id()
    if i > j {                         ### "sync\(\) at 6:9 under a condition that differs between threads of a block: i \(from thread_id\(\) at 4:13\)"
        sync()
    }
}
---
// a loaded value differs between threads, and so does what is computed from it
kernel k(a: array[f32]) block(256) {
    let v = a[tid()]
    let w = v * 2.0
    if w > 0 { ### "sync\(\) at 6:9 under a condition that differs between threads of a block: w \(from a\[tid\(\)\] at 3:13\)"
        sync()
    }
}
---
// a load from a uniform index still differs: another thread may write it
kernel k(a: array[i32]) block(32) {
    if a[0] > 0 { ### "sync\(\) at 4:9 under a condition that differs between threads of a block: a\[0\] at 3:8"
        sync()
    }
}
---
// a while loop whose condition reads shared memory
kernel k(a: array[i32]) block(32) {
    shared s: i32[1]
    s[0] = a[block_id()]
    sync()
    while s[0] > 0 {                   ### "sync\(\) at 7:9 under a condition that differs between threads of a block: s\[0\] at 6:11"
        sync()
        s[0] -= 1
    }
}
---
// ... the same loop is fine when a block collective makes the condition uniform
kernel k(a: array[i32]) block(32) {
    shared s: i32[1]
    s[0] = a[block_id()]
    sync()
    let more = block_any(s[0] > 0)
    while more {
        sync()
        if thread_id() == 0 {
            s[0] -= 1
        }
        sync()
        more = block_any(s[0] > 0)
    }
}
---
// a variable assigned a divergent value anywhere is divergent everywhere
kernel k(a: array[f32]) block(32) {
    let n = 4
    for i in range(n) {                ### "sync\(\) at 5:9 under a condition that differs between threads of a block: n \(from thread_id\(\) at 6:13\)"
        sync()
        n = thread_id()
    }
}
---
// a variable assigned under a divergent condition is divergent
kernel k(a: array[f32]) block(32) {
    let z = 0
    if thread_id() > 3 {
        z = 1
    }
    if z == 1 {                        ### "block_sum\(\) at 8:17 under a condition that differs between threads of a block: z \(assigned under a condition on thread_id\(\) at 4:8\)"
        let s = block_sum(1.0)
    }
}
---
// a range loop with a divergent bound
kernel k(a: array[f32]) block(32) {
    let i = tid()
    for j in range(i) {                ### "sync\(\) at 5:9 under a condition that differs between threads of a block: i \(from tid\(\) at 3:13\)"
        sync()
    }
}
---
// lane_id, warp_id, shuffles, warp reductions and scans differ between threads
kernel k(a: array[f32]) block(64) {
    if lane_id() == 0 { ### "sync\(\) at 4:9 under a condition that differs between threads of a block: lane_id\(\) at 3:8"
        sync()
    }
    if warp_id() == 0 { ### "sync\(\) at 7:9 under a condition that differs between threads of a block: warp_id\(\) at 6:8"
        sync()
    }
    let s = warp_sum(1.0)
    if s > 0.0 { ### "s \(from warp_sum\(1.0\) at 9:13\)"
        sync()
    }
    let p = block_scan(1)
    if p > 3 { ### "p \(from block_scan\(1\) at 13:13\)"
        sync()
    }
    if shfl(1, 0) > 0 { ### "shfl\(1, 0\) at 17:8"
        sync()
    }
    if atomic_add(a, 0, 1.0) > 0.0 { ### "atomic_add\(a, 0, 1.0\) at 20:8"
        sync()
    }
}
---
// block collectives give every thread the same result
kernel k(a: array[f32]) block(64) {
    let v = a[tid()]
    let total = block_sum(v)
    if total > 0.0 {
        sync()
    }
    if block_count(v > 0.0) > 3 && block_all(v < 9.0) {
        sync()
    }
    let top = block_max(v)
    while top > 1.0 {
        top = block_max(top / 2.0)
    }
}
---
// funcs: the result is uniform for uniform arguments unless the func reads memory
func half(n: i32) -> i32 {
    return n / 2
}
func first(a: array[i32]) -> i32 {
    return a[0]
}
func viaFirst(a: array[i32]) -> i32 {
    return first(a) + 1
}
kernel k(a: array[i32], n: i32) block(32) {
    if half(n) > 0 {
        sync()
    }
    if half(thread_id()) > 0 { ### "sync\(\) at 16:9 under a condition that differs between threads of a block: thread_id\(\) at 15:13"
        sync()
    }
    if first(a) > 0 { ### "sync\(\) at 19:9 under a condition that differs between threads of a block: first\(a\) at 18:8"
        sync()
    }
    if viaFirst(a) > 0 { ### "viaFirst\(a\) at 21:8"
        sync()
    }
}
---
// a divergent break in a loop with a barrier: some threads leave the loop early
kernel k(a: array[f32]) block(32) {
    for i in range(10) {
        if a[tid()] > f32(i) { ### "sync\(\) at 7:9 in a loop that some threads of a block leave early: the break at 5:13 is under a condition that differs between threads: a\[tid\(\)\] at 4:12"
            break
        }
        sync()
    }
    sync()
}
---
// ... a divergent continue likewise
kernel k(a: array[f32]) block(32) {
    let v = a[tid()]
    let i = 0
    while i < 10 {
        i += 1
        if v > 0.0 {                   ### "sync\(\) at 10:9 in a loop that some threads of a block leave early: the continue at 8:13 is under a condition that differs between threads: v \(from a\[tid\(\)\] at 3:13\)"
            continue
        }
        sync()
    }
}
---
// ... and a variable assigned in such a loop differs after it
kernel k(a: array[f32]) block(32) {
    let n = 0
    for i in range(10) {
        if a[tid()] > 0.0 {
            break
        }
        n += 1
    }
    if n > 5 { ### "sync\(\) at 11:9 under a condition that differs between threads of a block: n \(assigned under a condition on a\[tid\(\)\] at 5:12\)"
        sync()
    }
}
---
// a uniform break leaves the loop in every thread at once
kernel k(a: array[f32], n: i32) block(32) {
    for i in range(10) {
        if i == n {
            break
        }
        sync()
        let done = block_all(a[tid()] > 0.0)
        if done {
            break
        }
        if block_any(a[tid()] < 0.0) {
            continue
        }
        sync()
    }
    while true {
        sync()
        if n > 3 {
            break
        }
    }
}
---
// a divergent break leaves no trace after its loop: every thread reaches the sync
kernel k(a: array[f32]) block(32) {
    for i in range(10) {
        if a[tid()] > 0.0 {
            break
        }
    }
    sync()
}
---
// a break of an inner loop does not make the outer loop divergent
kernel k(a: array[f32]) block(32) {
    for i in range(4) {
        for j in range(10) {
            if a[tid()] > f32(j) {
                break
            }
        }
        sync()
    }
}
---
// a return that only some threads take, before a barrier: those threads never arrive
kernel k(a: array[f32]) block(32) {
    let i = tid()
    if i >= len(a) { ### "sync\(\) at 7:5 after a return that only some threads of a block take: the return at 5:9 is under a condition that differs between threads: i \(from tid\(\) at 3:13\)"
        return
    }
    sync()
}
---
// in a loop, the next iteration's barrier comes after the return
kernel k(a: array[f32]) block(32) {
    for j in range(4) {
        sync()
        if a[tid()] > f32(j) { ### "sync\(\) at 4:9 after a return that only some threads"
            return
        }
    }
}
---
// a divergent return after the last barrier, and a uniform one before it, are fine
kernel k(a: array[f32], n: i32) block(32) {
    if block_id() >= n {
        return
    }
    let s = block_sum(a[tid()])
    sync()
    if thread_id() > 0 {
        return
    }
    a[block_id()] = s
}
---
// warp ops need no block uniformity
kernel k(a: array[f32]) block(64) {
    let v = a[tid()]
    if v > 0.0 {
        let s = shfl_down(v, 1) + warp_sum(v)
        sync_warp()
        let b = ballot(v > 1.0)
    }
}
---
// barriers in divergent branches of both kinds, each reported once
kernel k(a: array[f32]) block(32) {
    let v = a[tid()]
    if v > 0.0 {                       ### "sync\(\) at 5:9 under a condition"
        sync()
        sync()
    } else {
        let s = block_sum(v)
    }
    if v < 0.0 {} else if v > 1.0 {    ### "block_min\(\) at 11:17 under a condition that differs between threads of a block: v \(from a\[tid\(\)\] at 3:13\)"
        let m = block_min(v)
    }
}
---
// the outermost divergent condition is the one reported
kernel k(a: array[f32]) block(32) {
    if a[0] > 0.0 {                    ### "sync\(\) at 5:13 under a condition that differs between threads of a block: a\[0\] at 3:8"
        if a[1] > 0.0 {
            sync()
        }
    }
}
