package mem

import (
	"sync"
	"syscall"
	"unsafe"
)

// The host block cache: a loop such as `z = a * x + y` on the cpu makes a
// new 64 MiB result each iteration and frees the last one. Fresh pages
// from mmap cost a page fault and the kernel's zeroing on first touch,
// which made that statement take about 1.4x the time of the same
// expression into an existing array (bench/cpu/run.sh, the 2-core
// machine). So the host allocator keeps recently freed blocks of 1 MiB
// or more (hostCacheMin), up to hostCacheBytes in all, and hands one of
// the same size to the next AllocUninit (arrays whose every
// element is written before any is read: a result's pages are then warm),
// as glibc's malloc and PyTorch's caching allocator reuse freed memory.
// Alloc keeps mmap's zero pages (zeroing a cached block costs as much as
// fresh pages). The oldest blocks are unmapped past the bound, all of
// them on TrimCache (free_cached(), Tracker.Trim) and before an mmap that
// fails is retried.

// hostCacheMin is the smallest block the cache keeps: smaller arrays
// cost little to map, and many of them would fill it with sizes that no
// later array has.
const hostCacheMin = 1 << 20

// hostCacheBytes bounds the bytes the cache keeps, above the live arrays.
const hostCacheBytes = 512 << 20

// hostBlock is a mapping of n bytes: the exact length mmap was given,
// which syscall.Munmap wants back (it looks the mapping up by its end), so
// blocks are reused for arrays of exactly that many bytes.
type hostBlock struct {
	ptr uintptr
	n   int
}

type hostBlockCache struct {
	mu     sync.Mutex
	blocks []hostBlock // most recently freed last
	bytes  int
}

var hostCache hostBlockCache

// take removes and returns a block of nbytes, the most recently freed
// one; ok is false when there is none.
func (c *hostBlockCache) take(n int) (uintptr, bool) {
	if n < hostCacheMin {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.blocks) - 1; i >= 0; i-- {
		if b := c.blocks[i]; b.n == n {
			c.blocks = append(c.blocks[:i], c.blocks[i+1:]...)
			c.bytes -= n
			return b.ptr, true
		}
	}
	return 0, false
}

// put keeps a freed block, unmapping the oldest ones past the bound; it
// reports false for a block it does not keep (the caller unmaps it).
func (c *hostBlockCache) put(ptr uintptr, n int) bool {
	if n < hostCacheMin || n > hostCacheBytes {
		return false
	}
	c.mu.Lock()
	c.blocks = append(c.blocks, hostBlock{ptr, n})
	c.bytes += n
	var old []hostBlock
	for c.bytes > hostCacheBytes {
		old = append(old, c.blocks[0])
		c.bytes -= c.blocks[0].n
		c.blocks = c.blocks[1:]
	}
	c.mu.Unlock()
	for _, b := range old {
		_ = unmap(b.ptr, b.n) // memory of ours: munmap fails only on a bad range
	}
	return true
}

// trim unmaps every kept block.
func (c *hostBlockCache) trim() error {
	c.mu.Lock()
	old := c.blocks
	c.blocks, c.bytes = nil, 0
	c.mu.Unlock()
	var first error
	for _, b := range old {
		if err := unmap(b.ptr, b.n); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// cached is the bytes the cache keeps.
func (c *hostBlockCache) cached() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

func unmap(ptr uintptr, n int) error {
	return syscall.Munmap(unsafe.Slice((*byte)(HostPointer(ptr)), n))
}
