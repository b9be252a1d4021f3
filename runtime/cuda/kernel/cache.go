// Package kernel is the CUDA backend (runtime/backend): it builds kernel IR
// for a CUDA device and launches it: CUDA C from runtime/cuda/codegen,
// compiled by NVRTC for the device's own architecture, kept in an on-disk
// cache keyed by a hash of everything that shapes the binary, and loaded as
// a module.
//
// # Decisions
//
//   - The backend's Program holds one module per variant: the promises a
//     launch's arguments keep, unit innermost stride
//     (codegen.Options.UnitStride) and element offsets that fit an int32
//     (codegen.Options.Index32: 32-bit offset arithmetic, which a
//     compute-bound loop over vec3 arrays needs to keep its pace) and
//     arrays aligned for the kernel's vector accesses
//     (codegen.Options.Vector: one 8- or 16-byte load or store for the
//     lanes of a vec2, vec4 or vec2d element, which a streaming loop over
//     x.view(vec4) needs to reach float4 kernels' bandwidth), built
//     and loaded at the first launch that needs it, with the thread switched to relaxed
//     capture mode when that launch is inside a capture (loading a module is
//     an unsafe call in global mode).
//   - The one "nothing changed since the last launch" cache of the launch
//     path is Kernel's: a launch whose dimensions and arguments equal the
//     last one's reuses its packed parameters (samePack, then Relaunch).
//   - Launches go to the device's one gscript stream (runtime/internal/
//     cudadev), which runtime/mem waits for before host access. A pinned
//     caller (backend.Env.Pinned) keeps the context current between launches.
//   - Launch geometry: blocks of 256 threads (fewer warps for a small
//     launch), and codegen.CoarsenPer launch threads per CUDA thread from
//     coarsenWaves times the threads the device holds at once.
//   - Block kernels (ir.Kernel.Block) launch exactly as written: CUDA's
//     block is Kernel.Block and CUDA's grid the launch's extents, both
//     mapped from C order to x (the last axis), y, z as codegen reads them
//     (cudaDims); they are never coarsened and pass no gs_launch. Program
//     Launch checks the grid (backend.CheckLaunch) before anything is built,
//     and the relaunch cache compares the grid as it does a flat launch's
//     extents.
//   - Shared memory is dynamic: every launch of a block kernel asks for
//     codegen.SharedBytes (its shared arrays and the collectives' slots).
//     Above the device's default per-block limit (48 KiB) Build raises the
//     function's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES once;
//     above MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, Compile and Build refuse the
//     kernel with an error giving the bytes asked and the device's limit.
package kernel

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
)

// cacheMagic starts every cache entry; the sha256 of the image follows, so
// a torn or corrupted entry is detected and rebuilt, never loaded.
var cacheMagic = []byte("gscript-kernel-v1\n")

// Cache is the on-disk kernel cache. Entries are written to a temporary
// file and renamed into place, so two processes filling the cache at once
// never see half an entry.
type Cache struct {
	Dir string
}

// DefaultCacheDir is $GSCRIPT_CACHE_DIR, else gscript/kernels in the user's
// cache directory ("" when neither is known: no disk cache).
func DefaultCacheDir() string {
	if d := os.Getenv("GSCRIPT_CACHE_DIR"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "gscript", "kernels")
}

// Key hashes the parts that determine a binary: generated source, compiler
// options, architecture and compiler version.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(key string) string { return filepath.Join(c.Dir, key+".bin") }

// Get returns the image stored under key. A missing, unreadable or corrupt
// entry is a miss (a corrupt one is removed so it gets rebuilt).
func (c *Cache) Get(key string) ([]byte, bool) {
	if c == nil || c.Dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false
	}
	img, err := decodeEntry(data)
	if err != nil {
		os.Remove(c.path(key))
		return nil, false
	}
	return img, true
}

// Put stores image under key.
func (c *Cache) Put(key string, image []byte) error {
	if c == nil || c.Dir == "" {
		return nil
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.Dir, key+".tmp*")
	if err != nil {
		return err
	}
	sum := sha256.Sum256(image)
	_, err = tmp.Write(append(append(append([]byte(nil), cacheMagic...), sum[:]...), image...))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.path(key))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

var errCorrupt = errors.New("corrupt kernel cache entry")

func decodeEntry(data []byte) ([]byte, error) {
	if !bytes.HasPrefix(data, cacheMagic) || len(data) < len(cacheMagic)+sha256.Size {
		return nil, errCorrupt
	}
	sum := data[len(cacheMagic) : len(cacheMagic)+sha256.Size]
	img := data[len(cacheMagic)+sha256.Size:]
	if got := sha256.Sum256(img); !bytes.Equal(got[:], sum) {
		return nil, errCorrupt
	}
	return img, nil
}
