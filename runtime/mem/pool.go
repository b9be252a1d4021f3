package mem

import (
	"errors"
	"math"
	"sort"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// The pool cache (issue #13): a statement such as `z = a * x + y` makes a
// new array and frees the one z held, every time. Through cuMemAlloc and
// cuMemFree that is a synchronous map and unmap of the whole array; through
// a stream-ordered pool it is nearly free, provided the pool keeps what was
// freed. CUDA's default pool keeps nothing across a synchronization (its
// release threshold is 0): every synchronize() hands the freed memory back
// and the next allocation maps it again. gscript raises the threshold of
// each device's default pool, as PyTorch's caching allocator and CuPy's
// pool keep their memory, and takes the cache back itself:
//
//   - the pool keeps at most what it held at its peak since the last trim
//     (live mempool arrays plus freed ones not yet reused); it never
//     grows past what the script had allocated at once;
//   - synchronize() does not trim; free_cached() (TrimCaches) does;
//   - an allocation that fails (any allocator, Tracker.alloc) collects the
//     dropped arrays, trims the caches of its device and tries again, so
//     the cache never causes an out-of-memory; so does the managed
//     allocators' free-memory guard before it refuses a request;
//   - mem_info reports the cached bytes (PoolCached): cuMemGetInfo counts
//     them as used.

// PoolKeep is the release threshold gscript gives a device's default
// pool: keep every freed byte across synchronizations until trimmed.
const PoolKeep = math.MaxUint64

// Cacher is implemented by allocators that keep freed memory for reuse
// (mempool, managed_pool, custom pools). TrimCache returns the memory kept
// for reuse on dev to the device, after the frees queued before it have
// run; live allocations are untouched.
type Cacher interface {
	TrimCache(dev Device) error
}

// poolThreshold is the release threshold to give a default pool whose
// threshold reads current, and whether to set it: CUDA's default 0 becomes
// PoolKeep; any other value was chosen by someone else in the process (the
// embedding program, a library sharing the pool) and stays.
func poolThreshold(current uint64) (uint64, bool) {
	if current != 0 {
		return current, false
	}
	return PoolKeep, true
}

// keepPool raises the release threshold of the device's default pool once
// (poolThreshold), in the device's context, which the caller has made
// current. A driver that cannot read or set it leaves the pool as CUDA
// made it: allocation still works, each synchronization releasing the
// cache as before.
func (d *cudaDev) keepPool() {
	d.poolKeep.Do(func() {
		pool, err := d.DefaultPool()
		if err != nil {
			return
		}
		cur, err := d.Drv.MemPoolGetAttribute(pool, cuda.MemPoolReleaseThreshold)
		if err != nil {
			return
		}
		if v, set := poolThreshold(cur); set {
			d.Drv.MemPoolSetAttribute(pool, cuda.MemPoolReleaseThreshold, v)
		}
	})
}

// trimPool returns pool's free memory to the device: it waits for
// gscript's stream, so that the frees queued there have run, then trims
// the pool to its live allocations. In the device's context. While a
// capture records anywhere in the process it does nothing: waiting is
// forbidden then (and capture allocations are graph memory, not the
// pool's).
func (d *cudaDev) trimPool(pool cuda.MemPool) error {
	if pool == 0 || captures.Load() != 0 {
		return nil
	}
	if err := d.Drv.StreamSynchronize(d.Stream); err != nil {
		return err
	}
	return d.Drv.MemPoolTrimTo(pool, 0)
}

// trimDefault trims the default pool when the device has pools.
func (d *cudaDev) trimDefault() error {
	if !d.Info.Caps.MemoryPoolsSupported {
		return nil
	}
	pool, err := d.DefaultPool()
	if err != nil {
		return err
	}
	return d.trimPool(pool)
}

// trimPools trims both of gscript's pools on the device (the managed pool
// only if it was made), in the device's context.
func (d *cudaDev) trimPools() error {
	return errors.Join(d.trimDefault(), d.trimPool(cuda.MemPool(d.mpool.made.Load())))
}

// knownCUDADevice is the state of a CUDA device already set up, or nil:
// trimming never sets a device up (nothing can be cached there).
func knownCUDADevice(dev Device) *cudaDev {
	if !dev.IsCUDA() {
		return nil
	}
	cudaDevs.mu.Lock()
	defer cudaDevs.mu.Unlock()
	return cudaDevs.devs[dev.Ordinal]
}

// TrimCaches returns to dev the memory that gscript's pools keep there
// for reuse (the mempool allocator's default pool and the managed_pool
// allocator's pool), after the frees queued on gscript's stream have run:
// free_cached() and the retry of a failed allocation. Nothing to do on the
// cpu, on a device not used yet, or while a capture records.
func TrimCaches(dev Device) error {
	d := knownCUDADevice(dev)
	if d == nil {
		return nil
	}
	return d.Ctx.Do(d.trimPools)
}

// PoolCached is the number of bytes dev's default pool keeps for reuse:
// memory it has mapped (CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT) beyond its
// live allocations (USED_MEM_CURRENT). 0 on the cpu, on a device not used
// yet or without pools.
func PoolCached(dev Device) (int64, error) {
	d := knownCUDADevice(dev)
	if d == nil || !d.Info.Caps.MemoryPoolsSupported {
		return 0, nil
	}
	var cached int64
	err := d.Ctx.Do(func() error {
		pool, err := d.DefaultPool()
		if err != nil {
			return err
		}
		res, err := d.Drv.MemPoolGetAttribute(pool, cuda.MemPoolReservedMemCurrent)
		if err != nil {
			return err
		}
		used, err := d.Drv.MemPoolGetAttribute(pool, cuda.MemPoolUsedMemCurrent)
		if err != nil {
			return err
		}
		if res > used {
			cached = int64(res - used)
		}
		return nil
	})
	return cached, err
}

// TrimCache implements Cacher: the device's default pool.
func (MempoolAllocator) TrimCache(dev Device) error {
	d := knownCUDADevice(dev)
	if d == nil {
		return nil
	}
	return d.Ctx.Do(d.trimDefault)
}

// TrimCache implements Cacher: the device's managed pool, if made.
func (ManagedPoolAllocator) TrimCache(dev Device) error {
	d := knownCUDADevice(dev)
	if d == nil {
		return nil
	}
	return d.Ctx.Do(func() error { return d.trimPool(cuda.MemPool(d.mpool.made.Load())) })
}

// TrimCaches trims every allocator of the registry that keeps a cache
// (Cacher) and serves dev: the built-in pools and custom ones. It is the
// interpreter's Tracker.Trim and free_cached().
func (r *Registry) TrimCaches(dev Device) error {
	r.mu.Lock()
	var cs []Cacher
	for _, n := range sortedKeys(r.allocs) {
		if c, ok := r.allocs[n].(Cacher); ok && r.allocs[n].AppliesTo(dev) {
			cs = append(cs, c)
		}
	}
	r.mu.Unlock()
	var errs []error
	for _, c := range cs {
		errs = append(errs, c.TrimCache(dev))
	}
	return errors.Join(errs...)
}

func sortedKeys(m map[string]Allocator) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
