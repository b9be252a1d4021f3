package kernel

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// blockSize is the threads per block of every launch of a flat kernel
// (its entry declares it in __launch_bounds__).
const blockSize = codegen.FlatBlock

// Thread coarsening: a launch of at least coarsenWaves*codegen.CoarsenPer
// times the threads the device holds at once runs codegen.CoarsenPer launch
// threads per CUDA thread. Measured on the H200 (saxpy, 2^28 f32, C
// experiments): 3481 GB/s with one launch thread per CUDA thread, 3678
// with 2, 3745 with 4, 3758 with 8; the waves bound keeps the tail of a
// compute-bound launch short.
const coarsenWaves = 8

// coarsenThreshold is the launch size from which launches on dev coarsen.
func coarsenThreshold(dev *cuda.DeviceInfo) int {
	return coarsenWaves * codegen.CoarsenPer * dev.MultiprocessorCount * dev.MaxThreadsPerMultiprocessor
}

// Builder compiles kernels for CUDA devices. NVRTC is loaded on the first
// compile that misses the cache, so warm starts never load it.
type Builder struct {
	drv   *cuda.Driver
	cache *Cache

	once     sync.Once
	nvrtc    *cuda.NVRTC
	nvrtcErr error
}

// NewBuilder makes a builder that caches binaries in cache (nil: none).
func NewBuilder(drv *cuda.Driver, cache *Cache) *Builder {
	return &Builder{drv: drv, cache: cache}
}

// Options shape a build.
type Options struct {
	Debug bool // bounds and division checks, reported after each launch
	// UnitStride builds the variant for arguments whose innermost stride
	// is 1 (see codegen.Options).
	UnitStride bool
	// Index32 builds the variant for arguments whose element offsets fit
	// an int32 (see codegen.Options).
	Index32 bool
	// FastMath builds as if the kernel's FastMath were set
	// (backend.Options.FastMath).
	FastMath bool
	// Vector builds the variant for arguments aligned for the kernel's
	// vector accesses (see codegen.Options and codegen.VectorNeeds).
	Vector bool
}

// Kernel is a kernel loaded into one device's context.
type Kernel struct {
	drv    *cuda.Driver
	name   string
	src    *ir.Kernel
	mod    cuda.Module
	fn     cuda.Function
	layout []codegen.ParamKind
	args   *cuda.Args
	debug  *codegen.DebugTable // nil unless built with Debug
	errRec cuda.DevicePtr
	recBuf [codegen.ErrorRecordSize]byte
	// scratch holds one packed struct parameter on its way into args.
	scratch [codegen.MaxParamSize]byte
	// shared is the dynamic shared memory of every launch (block kernels).
	shared uint32
	// params, grid and block are those of the last launch, for lastDims
	// and lastArgs (empty: it had no threads).
	params      []unsafe.Pointer
	grid, block [3]uint32
	empty       bool
	packed      bool // params, grid and block are set
	lastDims    []int
	lastArgs    []backend.Arg
	// coarsenAt is the launch size from which perThread coarsens (0: never).
	coarsenAt int
}

// compileOptions are NVRTC's flags for arch (e.g. "sm_90"). Contraction of
// a*b+c into fma is off so results match the cpu device bit for bit; a
// fast-math kernel instead gets --use_fast_math (contraction, approximate
// f32 division and sqrt, flushed subnormals, intrinsic transcendentals),
// which acts on the plain operators codegen prints for it. -minimal
// (NVRTC 12.4 and later; see supportedOptions) leaves out the texture,
// device-runtime and driver-type declarations that generated code never
// uses, which shortens every compile. The options are part of the disk
// cache key (image).
func compileOptions(arch string, fast bool) []string {
	math := "--fmad=false"
	if fast {
		math = "--use_fast_math"
	}
	return []string{"--gpu-architecture=" + arch, "-default-device", "-std=c++17", math, "-minimal"}
}

// supportedOptions drops the options that NVRTC major.minor does not know.
// The cache key keeps the full list: it also names the NVRTC library, so a
// key still means one compilation.
func supportedOptions(opts []string, major, minor int) []string {
	if major > 12 || (major == 12 && minor >= 4) {
		return opts
	}
	return slices.DeleteFunc(slices.Clone(opts), func(o string) bool { return o == "-minimal" })
}

// Build compiles k for the device (or takes it from the cache) and loads it
// into the context current on the calling thread.
func (b *Builder) Build(k *ir.Kernel, dev *cuda.DeviceInfo, opts Options) (*Kernel, error) {
	fast := k.FastMath || opts.FastMath
	src, err := codegen.Source(k, codegen.Options{Debug: opts.Debug, UnitStride: opts.UnitStride, Index32: opts.Index32, FastMath: fast,
		Vector: opts.Vector})
	if err != nil {
		return nil, err
	}
	shared, err := sharedBytes(k, dev)
	if err != nil {
		return nil, err
	}
	arch := fmt.Sprintf("sm_%d%d", dev.Major, dev.Minor)
	image, err := b.image(k, src, arch, fast)
	if err != nil {
		return nil, err
	}
	mod, err := b.drv.ModuleLoadData(image)
	if err != nil {
		return nil, fmt.Errorf("loading kernel %s: %w", k.Entry.Name, err)
	}
	kk := &Kernel{drv: b.drv, name: k.Entry.Name, src: k, mod: mod, layout: codegen.ParamLayout(k),
		coarsenAt: coarsenThreshold(dev), shared: uint32(shared)}
	kk.args = cuda.NewArgs(len(kk.layout))
	if kk.fn, err = b.drv.ModuleGetFunction(mod, codegen.EntryName(k)); err != nil {
		b.drv.ModuleUnload(mod)
		return nil, err
	}
	if shared > dev.MaxSharedMemoryPerBlock {
		// Above the default a function must opt in; once, as each Kernel
		// has its own function.
		if err := b.drv.FuncSetAttribute(kk.fn, cuda.FuncAttrMaxDynamicSharedSizeBytes, shared); err != nil {
			b.drv.ModuleUnload(mod)
			return nil, fmt.Errorf("kernel %s: opting in to %d bytes of shared memory: %w", k.Entry.Name, shared, err)
		}
	}
	if opts.Debug {
		kk.debug = codegen.DebugInfo(k)
		if kk.errRec, _, err = b.drv.ModuleGetGlobal(mod, codegen.ErrorSymbol); err != nil {
			b.drv.ModuleUnload(mod)
			return nil, err
		}
	}
	return kk, nil
}

// sharedBytes is the dynamic shared memory one block of k needs
// (codegen.SharedBytes), or an error when dev cannot give that much even
// after opting in.
func sharedBytes(k *ir.Kernel, dev *cuda.DeviceInfo) (int, error) {
	n := codegen.SharedBytes(k)
	if limit := max(dev.MaxSharedMemoryPerBlock, dev.MaxSharedMemoryPerBlockOptin); n > limit {
		return 0, fmt.Errorf("kernel %s: shared arrays need %d bytes per block, cuda:%d allows at most %d", k.Entry.Name, n, dev.Ordinal, limit)
	}
	return n, nil
}

// image returns the binary for src, from the cache or from NVRTC. The key
// names NVRTC by its library file when that is known without loading it,
// else by the version NVRTC reports once loaded.
func (b *Builder) image(k *ir.Kernel, src, arch string, fast bool) ([]byte, error) {
	compiler, ok := cuda.NVRTCIdentity()
	if !ok {
		b.loadNVRTC()
		compiler = "none"
		if b.nvrtc != nil {
			maj, min := b.nvrtc.Version()
			compiler = fmt.Sprintf("nvrtc %d.%d", maj, min)
		}
	}
	opts := compileOptions(arch, fast)
	key := Key(append([]string{src, arch, compiler}, opts...)...)
	if img, ok := b.cache.Get(key); ok {
		return img, nil
	}
	b.loadNVRTC()
	if b.nvrtcErr != nil {
		return nil, fmt.Errorf("compiling kernel %s for %s: %w", k.Entry.Name, arch, b.nvrtcErr)
	}
	name := k.Entry.Name + ".cu"
	major, minor := b.nvrtc.Version()
	img, log, err := b.nvrtc.Compile(src, name, supportedOptions(opts, major, minor))
	if err != nil {
		mapped, pos, ok := codegen.MapLog(log, name, src)
		if !ok {
			pos = k.Entry.Pos
		}
		return nil, &backend.CompileError{Kernel: k.Entry.Name, Pos: pos, Log: mapped, Err: err}
	}
	b.cache.Put(key, img) // a failed cache write only costs a later compile
	return img, nil
}

func (b *Builder) loadNVRTC() {
	b.once.Do(func() { b.nvrtc, b.nvrtcErr = cuda.LoadNVRTC() })
}

// Unload releases the module (with the kernel's context current).
func (k *Kernel) Unload() error { return k.drv.ModuleUnload(k.mod) }

// Launch queues the kernel over dims on stream s: launch threads of a flat
// kernel, blocks per axis of a block kernel (dims that passed
// backend.CheckLaunch, as program.Launch makes sure). It allocates nothing
// in steady state. In a Debug build it zeroes the error record first; call
// CheckDebug after the launch to learn whether a check failed.
func (k *Kernel) Launch(s cuda.Stream, dims []int, args []backend.Arg) error {
	total := 1
	for _, d := range dims {
		total *= d
	}
	if !k.samePack(dims, args) {
		k.pack(dims, args, total)
	}
	return k.Relaunch(s)
}

// Relaunch queues the kernel exactly as the last Launch did, for a caller
// that knows the dimensions and arguments have not changed since (a
// launch statement in a loop): it skips comparing them.
func (k *Kernel) Relaunch(s cuda.Stream) error {
	if !k.packed {
		return errors.New("kernel: Relaunch before any Launch")
	}
	if k.empty {
		return nil
	}
	if k.debug != nil {
		if err := k.drv.MemsetD8Async(k.errRec, 0, codegen.ErrorRecordSize, s); err != nil {
			return err
		}
	}
	return k.drv.LaunchKernel(k.fn, k.grid, k.block, k.shared, s, k.params)
}

// geometry is the launch geometry of total threads: codegen.CoarsenPer
// launch threads per CUDA thread for a launch that still fills the GPU
// coarsenWaves times over (coarsenAt threads; 0: never), else 1. A small
// launch gets a block of just the warps it needs: idle threads still cost
// the GPU time (a graph of many tiny launches).
func geometry(total, coarsenAt int) backend.Geometry {
	per := 1
	if coarsenAt > 0 && total >= coarsenAt {
		per = codegen.CoarsenPer
	}
	block := min(blockSize, (total+31)/32*32)
	g := backend.Geometry{Block: block, PerThread: per}
	if block > 0 {
		g.Blocks = (total + block*per - 1) / (block * per)
	}
	return g
}

// blockGeometry is the geometry of block kernel k over a grid: exactly
// its block and the grid's blocks.
func blockGeometry(k *ir.Kernel, grid []int) backend.Geometry {
	blocks := 1
	for _, n := range grid {
		blocks *= n
	}
	return backend.Geometry{Block: k.BlockThreads(), Blocks: blocks, PerThread: 1}
}

// cudaDims maps C-order extents (the last axis fastest) to CUDA's x, y
// and z, as codegen reads them: the last axis is x.
func cudaDims(d []int) [3]uint32 {
	out := [3]uint32{1, 1, 1}
	for i, n := range d {
		out[len(d)-1-i] = uint32(n)
	}
	return out
}

// arrayParam is a's struct gs_arrayN contents.
func arrayParam(a *backend.Array) codegen.ArrayParam {
	p := codegen.ArrayParam{Data: uint64(a.Data)}
	for d := range 4 {
		p.Shape[d], p.Strides[d] = int64(a.Shape[d]), int64(a.Strides[d])
	}
	return p
}

// samePack reports whether dims and args are those of the last launch, so
// that its packed parameters, grid and block serve again (a launch in a
// loop). dims is the grid of a block kernel, so a changed grid repacks.
func (k *Kernel) samePack(dims []int, args []backend.Arg) bool {
	if !k.packed || len(dims) != len(k.lastDims) || len(args) != len(k.lastArgs) {
		return false
	}
	for i := range dims {
		if dims[i] != k.lastDims[i] {
			return false
		}
	}
	for i := range args {
		if args[i] != k.lastArgs[i] {
			return false
		}
	}
	return true
}

// pack packs the parameters and works out the grid for dims and args, and
// remembers them.
func (k *Kernel) pack(dims []int, args []backend.Arg, total int) {
	per := k.shape(dims, total)
	a := k.args.Reset()
	for _, p := range k.layout {
		switch p.Class {
		case codegen.ParamArray:
			ap := arrayParam(&args[p.Index].Array)
			codegen.PackArray(k.scratch[:p.Size], &ap, p.NDim)
			a.Bytes(k.scratch[:p.Size])
		case codegen.ParamScalar:
			a.U64(args[p.Index].Bits)
		case codegen.ParamLaunch:
			codegen.PackLaunch(k.scratch[:p.Size], dims, total, per)
			a.Bytes(k.scratch[:p.Size])
		}
	}
	k.lastDims = append(k.lastDims[:0], dims...)
	k.lastArgs = append(k.lastArgs[:0], args...)
	k.params, k.packed = a.Params(), true
}

// shape sets the grid and block of a launch over dims (total threads of
// a flat kernel, blocks of a block kernel) and returns the launch threads
// each CUDA thread runs.
func (k *Kernel) shape(dims []int, total int) int {
	k.empty = total == 0
	if k.src.IsBlock() {
		k.grid, k.block = cudaDims(dims), cudaDims(k.src.Block)
		return 1
	}
	g := geometry(total, k.coarsenAt)
	k.block = [3]uint32{uint32(g.Block), 1, 1}
	k.grid = [3]uint32{uint32(g.Blocks), 1, 1}
	return g.PerThread
}

// CheckDebug waits for s and reports the first failed check of the last
// launch, with args, as a *backend.KernelError (nil when none failed or
// the build has no checks).
func (k *Kernel) CheckDebug(s cuda.Stream, args []backend.Arg) error {
	if k.debug == nil {
		return nil
	}
	if err := k.drv.MemcpyDtoHAsync(unsafe.Pointer(&k.recBuf[0]), k.errRec, len(k.recBuf), s); err != nil {
		return err
	}
	if err := k.drv.StreamSynchronize(s); err != nil {
		return err
	}
	rec, err := codegen.DecodeErrorRecord(k.recBuf[:])
	if err != nil || rec.Code == codegen.ErrNone {
		return err
	}
	names, shapes := make([]string, len(args)), make([][]int, len(args))
	for _, p := range k.layout {
		if p.Class == codegen.ParamArray {
			a := &args[p.Index].Array
			names[p.Index], shapes[p.Index] = a.Name, a.Shape[:p.NDim]
		}
	}
	at, msg := k.debug.Describe(rec, names, shapes)
	return &backend.KernelError{Pos: at, Kernel: k.name, Msg: msg}
}
