package kernel

import (
	"fmt"
	"sync"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/internal/cudadev"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// blasWorkspace is the device memory each handle gets for its scratch:
// cuBLAS's recommendation for Hopper. A GEMM recorded by a stream capture
// cannot allocate, so cuBLAS must have its workspace up front.
const blasWorkspace = 32 << 20

// blasDev is a device's cuBLAS handle, bound to the device's stream.
type blasDev struct {
	lib *cuda.CUBLAS
	h   cuda.BLASHandle
	// mu orders calls on the handle: cuBLAS does not promise that
	// concurrent calls on one handle are safe.
	mu sync.Mutex
}

// blasDevs holds a handle per device, made at the device's first GEMM and
// kept for the process (as the stream it is bound to).
var blasDevs struct {
	mu  sync.Mutex
	m   map[*cudadev.Dev]*blasDev
	err map[*cudadev.Dev]error
}

// loadBLAS opens cuBLAS; its error wraps backend.ErrNoBLAS and names the
// libraries looked for, for stdlib's one-time fallback warning.
func loadBLAS() (*cuda.CUBLAS, error) {
	lib, err := cuda.LoadCUBLAS()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", backend.ErrNoBLAS, err)
	}
	return lib, nil
}

// blasFor returns d's handle, making it on first use; a failure is kept
// so that every later GEMM reports it without retrying.
func blasFor(d *cudadev.Dev) (*blasDev, error) {
	blasDevs.mu.Lock()
	defer blasDevs.mu.Unlock()
	if b := blasDevs.m[d]; b != nil {
		return b, nil
	}
	if err := blasDevs.err[d]; err != nil {
		return nil, err
	}
	b, err := newBLASDev(d)
	if blasDevs.m == nil {
		blasDevs.m, blasDevs.err = map[*cudadev.Dev]*blasDev{}, map[*cudadev.Dev]error{}
	}
	if err != nil {
		blasDevs.err[d] = err
		return nil, err
	}
	blasDevs.m[d] = b
	return b, nil
}

// newBLASDev makes a handle in d's primary context, bound to d's stream,
// with its workspace and the default math mode (TF32 is chosen per call
// by the compute type). Inside a capture block the allocations run with
// this thread in relaxed capture mode, as a module load does.
func newBLASDev(d *cudadev.Dev) (*blasDev, error) {
	lib, err := loadBLAS()
	if err != nil {
		return nil, err
	}
	b := &blasDev{lib: lib}
	err = relaxedDo(d, func() error { return b.setup(d) })
	if err != nil {
		return nil, fmt.Errorf("cuBLAS (%s) on cuda:%d: %w", lib.Path(), d.Ordinal, err)
	}
	return b, nil
}

// setup creates and configures the handle; on failure it frees what it
// made.
func (b *blasDev) setup(d *cudadev.Dev) error {
	h, err := b.lib.Create()
	if err != nil {
		return err
	}
	var ws cuda.DevicePtr
	err = d.RetryOOM(func() error {
		var err error
		ws, err = d.Drv.MemAlloc(blasWorkspace)
		return err
	})
	if err == nil {
		err = b.configure(h, d.Stream, ws)
		if err != nil {
			d.Drv.MemFree(ws)
		}
	}
	if err != nil {
		b.lib.Destroy(h)
		return err
	}
	b.h = h
	return nil
}

func (b *blasDev) configure(h cuda.BLASHandle, s cuda.Stream, ws cuda.DevicePtr) error {
	if err := b.lib.SetStream(h, s); err != nil {
		return err
	}
	if err := b.lib.SetWorkspace(h, ws, blasWorkspace); err != nil {
		return err
	}
	return b.lib.SetMathMode(h, cuda.DefaultMath)
}

// GEMM queues g on dev's stream through cuBLAS, so that a capture of the
// stream records it. A process without cuBLAS gets an error wrapping
// backend.ErrNoBLAS.
func (cudaBackend) GEMM(env *backend.Env, dev mem.Device, g *backend.GEMM) error {
	if err := g.Check(); err != nil {
		return err
	}
	d, err := cudadev.Get(dev.Ordinal)
	if err != nil {
		return err
	}
	b, err := blasFor(d)
	if err != nil {
		return err
	}
	if g.M == 0 || g.N == 0 || g.Batch == 0 {
		return nil
	}
	c := columnMajor(g)
	run := func() error { return b.gemm(&c) }
	if g.K == 0 {
		run = func() error { return clearC(d, g) }
	}
	if env.Pinned {
		err = makeCurrent(env, d)
		if err == nil {
			err = run()
		}
	} else {
		err = d.Ctx.Do(run) // an unpinned caller's thread may change under SetCurrent
	}
	if err != nil {
		return fmt.Errorf("matrix product on cuda:%d: %w", d.Ordinal, err)
	}
	return nil
}

// gemm queues one cuBLAS call: strided batched for more than one entry.
func (b *blasDev) gemm(c *cuda.Gemm) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.Batch == 1 {
		return b.lib.GemmEx(b.h, c)
	}
	return b.lib.GemmStridedBatchedEx(b.h, c)
}

// clearC zeroes C on d's stream for a product over no terms (K = 0),
// which cuBLAS versions and callers (PyTorch special-cases it) do not
// treat alike: one memset when C is contiguous, else one per row.
func clearC(d *cudadev.Dev, g *backend.GEMM) error {
	size, c := g.DType.Size(), g.C
	if c.LD == g.N && (g.Batch == 1 || c.BatchStride == g.M*g.N) {
		return d.Drv.MemsetD8Async(cuda.DevicePtr(c.Data), 0, g.Batch*g.M*g.N*size, d.Stream)
	}
	for z := range g.Batch {
		for r := range g.M {
			p := cuda.DevicePtr(c.Data + uintptr((z*c.BatchStride+r*c.LD)*size))
			if err := d.Drv.MemsetD8Async(p, 0, g.N*size, d.Stream); err != nil {
				return err
			}
		}
	}
	return nil
}

// columnMajor is the row-major product C = A @ B as the column-major call
// cuBLAS makes: a row-major matrix is its transpose in column-major
// order, so cuBLAS computes C^T = B^T A^T, with B first and M and N
// swapped. An operand stored transposed (Trans) is, column-major, the
// matrix itself, so it takes the transpose flag. The pointers are filled
// in here too: Data is an address on the device.
func columnMajor(g *backend.GEMM) cuda.Gemm {
	dt, ct := cuda.R32F, cuda.Compute32F
	switch {
	case g.DType == ir.F64:
		dt, ct = cuda.R64F, cuda.Compute64F
	case g.TF32:
		ct = cuda.Compute32FFastTF32
	}
	op := func(m backend.Matrix) cuda.Operation {
		if m.Trans {
			return cuda.OpT
		}
		return cuda.OpN
	}
	operand := func(m backend.Matrix) cuda.GemmOperand {
		return cuda.GemmOperand{Ptr: cuda.DevicePtr(m.Data), Type: dt, LD: m.LD, Stride: int64(m.BatchStride)}
	}
	return cuda.Gemm{TransA: op(g.B), TransB: op(g.A), M: g.N, N: g.M, K: g.K, Alpha: 1, Beta: 0,
		A: operand(g.B), B: operand(g.A), C: operand(g.C), Batch: g.Batch, Compute: ct, Algo: cuda.GemmDefault}
}
