// Package mem holds gscript's memory policy (MEMORY.md): memory kinds,
// devices, the Allocator protocol and the built-in allocators (host,
// pinned, device, mempool, managed, managed_pool), allocator selection
// (Registry.Choose), Array buffers, host
// access by kind, can_access (Access, AccessState.CanAccess), the launch
// access policy (LaunchChecker), IPC (IPCHandle, FromIPC), wrapping of
// external pointers (Wrap), freeing (Tracker), the ordering of launches
// between devices (Array.OrderLaunch), the capture protocol
// (BeginCapture, Capture.End, Graph.Replay), prefetch and advice
// (Array.Prefetch, Array.Advise, the automatic LaunchPrefetch and host-side
// prefetch) and explain_access (AccessState.Explain). The interpreter and the
// standard library ask this package and never re-derive a rule; its API
// has no driver types (Caps, IPCMemHandle and DeviceProps are its own),
// so neither of them imports runtime/cuda.
//
// # Decisions where MEMORY.md is silent
//
//   - Protocol extensions are optional methods (CaptureSafer, ContextFreer,
//     UninitAllocator) so that small allocators need not spell them out:
//     not capture-safe, Free in the owning context on CUDA devices, and
//     always zero-filled, by default. Alloc and Free keep their signatures;
//     the owning context is the primary context of the device passed to
//     them.
//   - Alloc returns zero-filled memory: a memset queued on gscript's stream
//     for CUDA memory, a clear of cuMemHostAlloc's pinned memory, mmap's own
//     zero pages on the host. Tracker.NewUninit serves arrays whose every
//     element is written before any is read (empty, load, the constructors
//     that fill on the device) through AllocUninit, which skips that fill,
//     where the allocator has one: every built-in allocator (host's takes
//     a recently freed block of the same size from the host block cache,
//     else mmap's zeroed pages). A custom allocator without it keeps its
//     contract and zero-fills.
//   - The host block cache (hostcache.go): host blocks of 1 MiB or more
//     that are freed are kept, up to 512 MiB in all (the oldest unmapped
//     past that), and AllocUninit of the same size reuses the most
//     recent (exactly the same: syscall.Munmap wants a mapping's length), so a loop's result gets warm pages instead of
//     page faults and the kernel's zeroing (`z = a * x + y` of 2^24 f32 in
//     a loop on the 2-core machine: see docs/benchmarks.md). Alloc never
//     reuses them (its memory must be zero, and clearing costs as much as
//     fresh pages). TrimCache (free_cached()) unmaps them all, as does an
//     mmap that fails, before its one retry. The bytes kept are not
//     counted as live memory (memory limits count arrays). Capture checks, limits and
//     accounting do not depend on the path.
//   - Host arrays of 4 MiB or more ask for transparent huge pages
//     (madvise MADV_HUGEPAGE), as NumPy does: far fewer page faults on
//     first touch and TLB misses in cpu kernels; where the kernel has no
//     such pages the advice is refused and ignored.
//   - config.allow_oversubscription lives in Options, embedded in each
//     Registry; the registry's managed and managed_pool allocators read it at
//     allocation time. The oversubscription guard applies to managed_pool
//     too. Package-level BuiltinAllocators/DefaultAllocator refuse
//     oversubscription (callers without a registry).
//   - Selection (Registry.Choose) gets the script's allocator scopes from
//     the interpreter as values and decides alone. An unrestricted scope
//     whose allocator does not serve the device is skipped, not an error
//     (`allocator managed { }` leaves cpu arrays to host); a `using` or
//     `allocator=` allocator that does not serve the device is an error
//     (CheckApplies), as is `allocator NAME on DEVICE` when entered. The
//     built-in default reads memory_pools_supported through Registry.Caps
//     (nil: the device's own), so the order is testable without a GPU.
//   - The pool cache (pool.go, issue #13). The built-in default on CUDA
//     devices with pools is already mempool (section 2), so array
//     expressions' results (fuse.Materialise: NewArrayUninit through the
//     scopes) come from the pool unless the script or the embedding
//     program chose otherwise; the selection order is unchanged. CUDA's
//     default pool has a release threshold of 0: every synchronization
//     hands its free memory back, and the next allocation that grows the
//     pool maps it again (for 1 GiB, far more than the kernel costs). The
//     first mempool allocation on a device (and PrepareCapture) raises the
//     default pool's threshold to PoolKeep (keep all, as PyTorch's caching
//     allocator does) unless it is not 0: then someone else in the process
//     chose it, and it stays. The pool then holds at most its peak since
//     the last trim. TrimCaches (free_cached(); Registry.TrimCaches for
//     every Cacher of a registry) waits for gscript's stream, whose queued
//     frees would otherwise still count as in use, then trims to the live
//     allocations; synchronize() does not trim. Tracker.alloc retries a
//     failed allocation once after collecting dropped arrays and trimming
//     (Tracker.Trim: the interpreter's registry; nil: the built-in pools;
//     plus the failing allocator's own cache), so a cache never makes a
//     tracked allocation fail, whatever its allocator. The managed guard
//     trims before a managed request larger than cuMemGetInfo's free
//     memory (which counts the cache as used) is refused or
//     oversubscribes. The backend's own driver allocations (module loads,
//     the cuBLAS workspace) retry once after the same trim through
//     cudadev.Dev.RetryOOM, installed here (SetReclaim). Nothing is
//     trimmed while a capture records in the process (no waiting then).
//   - Dropped arrays are freed by a Go collection the tracker forces every
//     GCThreshold bytes it allocates (array memory is off the Go heap, so
//     the Go GC would not run for it): 256 MiB of host memory, 4 GiB of a
//     CUDA device's, where a collection costs more than writing a GiB and
//     the failing allocation's collect-and-retry bounds what dropped
//     arrays hold. Host memory is collected sooner, after 16 MiB, where
//     twenty times the last collection's duration has passed since it
//     (gcpace.go): a loop's dropped results come back to the host block
//     cache before it maps 256 MiB of fresh pages, and collections take
//     at most a twentieth of the time.
//     mem_info reports the cache (PoolCached: reserved minus used memory
//     of the default pool).
//   - Custom allocators cannot take a built-in name; re-registering a custom
//     name replaces it (existing arrays still free through the old one).
//   - Tracker.SetCapturing(true) both defers frees (Tracker.Defer) and
//     refuses non-capture-safe allocators before any CUDA call, with the
//     section 6 messages. Deferred frees run in request order when the
//     capture ends; their failures are returned for the caller to report.
//     Queued memory still counts toward Used until it is really freed.
//     PrepareCapture(dev) makes the managed pool ahead of a capture.
//   - The access decision cache is per buffer (views share it), four
//     entries keyed by (AccessState, target, generation); the generation is
//     process-wide because peer and pool access are process-wide CUDA state.
//     Pool access of gscript's own mempool arrays is what EnableMempoolAccess
//     recorded (no driver call); wrapped pool pointers ask the driver
//     (cuMemPoolGetAccess) on a cache miss.
//   - HostAccessible is true for HOST memory even when wrapped on a CUDA
//     device, and for UNKNOWN memory only on the cpu (rule 1). Host and
//     pinned memory are read without synchronizing: the interpreter syncs
//     the devices it launched on; managed memory is synchronized here
//     (stream, or the whole context without concurrent access).
//   - A cpu launch is refused unless can_access is ACCESSIBLE in every mode,
//     UNKNOWN included: dereferencing it could crash the process. The
//     LaunchMode zero value is checked (gscript's default).
//   - Wrap: release functions run without a context made current (they are
//     the embedding program's code); wrapped memory does not count toward
//     Tracker.Limit. CUDA memory wrapped as cpu is an error naming its
//     device; PINNED is accepted on any device without an ordinal check.
//     A failed attribute query classifies as UNKNOWN (HOST on cpu).
//   - IPC: legacy IPC support is Linux, unified_addressing=1 and no TCC
//     driver (there is no attribute). IPCHandle synchronizes the device
//     stream so the exporter's writes are visible. FromIPC classifies the
//     opened pointer like Wrap and trusts the caller's shape (the handle has
//     no size); opened memory cannot be re-exported.
//   - Per-device CUDA state (context, properties, the one stream of
//     gscript's work) lives in runtime/internal/cudadev, shared with the
//     CUDA backend: both must use exactly the same stream.
//   - Launch ordering skips its waits while any capture records in the
//     process (global capture mode forbids waiting on any thread); the
//     capture waited for the caller's devices before it began.
//   - Capture frees whose context was destroyed first are not detected: the
//     primary contexts live as long as the process here.
//   - Automatic prefetch (MEMORY.md section 8) is a pure policy,
//     autoPrefetch, over what a buffer records: its last toucher (a CUDA
//     device, or the host) and the bytes that toucher touched. What counts
//     as a touch: a CUDA launch (LaunchPrefetch: the whole buffer), a
//     replay (the graph's managed buffers), and an in-place host
//     access through SyncForHost (the bytes accessed: a cpu launch, ReadHost,
//     WriteHost, element loads and stores, streaming). Staging copies and
//     CopyDevice are not touches; a fresh buffer counts as touched by its
//     owner, whose stream zero-filled it. Older residency is not tracked.
//   - Thresholds: AutoPrefetchMin (2 MiB) on the buffer for a launch, on
//     the bytes accessed for the host (one element is cheaper to fault).
//     Both need concurrent_managed_access on the GPU at the other end and
//     no integrated GPU; preferred_location and read_mostly advice anywhere
//     in the buffer leave it to the driver. Prefetch ranges widen to 4 KiB
//     pages within the buffer.
//   - Never during a capture anywhere in the process (captures > 0): CUDA
//     fails a prefetch inside a capture with error 900 and invalidates it,
//     in every capture mode, and global mode forbids such calls from any
//     thread. Captured launches list their managed buffers in the Capture
//     (weakly); Capture.End prefetches them to the capture device without
//     marking those it did not move, and Graph.Replay prefetches those
//     touched elsewhere since. Explicit Prefetch and Advise are refused
//     while any capture records, before any CUDA call.
//   - config.prefetch lives in the Tracker (SetPrefetch): host accesses have
//     no interpreter at hand, only the array, whose buffer knows its tracker.
//   - Launches batch their prefetches in one cuMemPrefetchBatchAsync where
//     the driver exports it (and there is more than one range), else one
//     cuMemPrefetchAsync each, on the launch stream; the host side waits for
//     its prefetch before the access. A failed automatic prefetch fails the
//     launch or access, naming config.prefetch = "off".
//   - Waiting for a device interruptibly (SyncInterruptible, behind
//     synchronize() and every host read of a result) first polls the
//     stream on the caller's goroutine for up to 1 ms, then hands the
//     blocking wait to a goroutine of its own and checks for Ctrl-C every
//     10 ms. The handoff between goroutines cost about 27 us a wait on the
//     H200 machine: a sum of 4096 f32 took 56 us a call before the polling
//     phase and 29 after (CuPy 23), a sum of 2^28 f32 306 us and 271.
//   - explain_access is Access's own result: the decision, the rule, the
//     facts it read, and a Fix worded with the caller's variable name; the
//     remedy of a LaunchError is the same Fix. Remedies prefer a change of
//     state (peer or pool access) when cuDeviceCanAccessPeer allows it, then
//     managed memory where it would be accessible, then a copy with .to.
package mem
