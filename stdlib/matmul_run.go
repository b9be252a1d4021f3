package stdlib

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// run computes the product into out: floats through the device's BLAS,
// falling back (with a warning, once per interpreter) to the generated
// kernel where the device has none; integers through the kernel.
func (p *matmulPlan) run(th *interp.Thread, out *mem.Array) error {
	c, err := p.outStack(out)
	if err != nil {
		return err
	}
	if p.dtype.IsFloat() {
		err := p.blas(th, c)
		if !errors.Is(err, backend.ErrNoBLAS) {
			return err
		}
		warnNoBLAS(th, p.dev, err)
	}
	return p.tiled(th, c)
}

// blas runs the product as one GEMM, gathering an operand that no BLAS
// layout describes into a contiguous temporary first.
func (p *matmulPlan) blas(th *interp.Thread, c *mem.Array) error {
	g, err := backend.GEMMFor(p.dev)
	if err != nil {
		return err
	}
	arrays := []*mem.Array{p.a, p.b, c}
	var mats [3]backend.Matrix
	for i, x := range arrays {
		m, ok := layout(x)
		if !ok && i == 2 {
			return fmt.Errorf("matmul: out= has strides %v: the product needs unit stride along its last axis", c.Strides())
		}
		if !ok {
			if x, err = gather(th, x); err != nil {
				return err
			}
			arrays[i], m = x, mustLayout(x)
		}
		mats[i] = m
	}
	spec := backend.GEMM{DType: p.dtype, M: p.m, N: p.n, K: p.k, Batch: p.batch, TF32: th.Config.AllowTF32}
	err = th.RunDeviceOp("matmul", p.dev, arrays, []string{"a", "b", "out"}, func(env *backend.Env, ptrs []uintptr) error {
		spec.A, spec.B, spec.C = mats[0], mats[1], mats[2]
		spec.A.Data, spec.B.Data, spec.C.Data = ptrs[0], ptrs[1], ptrs[2]
		return g.GEMM(env, p.dev, &spec)
	})
	if errors.Is(err, backend.ErrCanceled) { // the cpu's, between panels
		return errInterrupted
	}
	return err
}

// layout describes a stack of matrices [batch, rows, cols] to BLAS: unit
// stride along columns (row-major) or along rows (a transposed view, passed
// with BLAS's transpose flag), rows that do not overlap, and a batch stride
// that does not go backwards. The stride of an axis of extent 1 does not
// matter; an extent-1 batch repeats for every entry (stride 0).
func layout(x *mem.Array) (backend.Matrix, bool) {
	sh, st := x.Shape(), x.Strides()
	bs, r, c, rs, cs := st[0], sh[1], sh[2], st[1], st[2]
	if sh[0] == 1 {
		bs = 0
	}
	switch {
	case r*c == 0: // no elements: any layout does
		return backend.Matrix{LD: max(1, c)}, true
	case bs < 0:
		return backend.Matrix{}, false
	case (cs == 1 || c == 1) && (r == 1 || rs >= max(1, c)):
		if r == 1 {
			rs = max(1, c)
		}
		return backend.Matrix{LD: rs, BatchStride: bs}, true
	case (rs == 1 || r == 1) && (c == 1 || cs >= max(1, r)):
		if c == 1 {
			cs = max(1, r)
		}
		return backend.Matrix{Trans: true, LD: cs, BatchStride: bs}, true
	}
	return backend.Matrix{}, false
}

// mustLayout is the layout of a contiguous stack, which always has one.
func mustLayout(x *mem.Array) backend.Matrix {
	m, _ := layout(x)
	return m
}

// gather copies a strided stack into a contiguous temporary on its device.
func gather(th *interp.Thread, x *mem.Array) (*mem.Array, error) {
	sh := x.Shape()
	if sh[0]*sh[1]*sh[2] > math.MaxInt32 {
		return nil, fmt.Errorf("matmul: an operand of %d elements with strides %v is too large to copy in one launch", x.Size(), x.Strides())
	}
	tmp, err := th.NewArrayUninit(x.DType(), sh, interp.String(x.Device().String()), nil)
	if err != nil {
		return nil, err
	}
	k, err := matmulKernel("gather", x.DType())
	if err != nil {
		return nil, err
	}
	return tmp, th.LaunchLibrary(x.Device(), sh, interp.ArgsFor(k).Arrays(x, tmp))
}

// tiled runs the product as the generated block kernel: a 128 x 128 tile
// of c per block, so the grid is (batch * row tiles, column tiles).
func (p *matmulPlan) tiled(th *interp.Thread, c *mem.Array) error {
	k, err := matmulKernel("tiled", p.dtype)
	if err != nil {
		return err
	}
	tm, tn := (p.m+127)/128, (p.n+127)/128
	grid := []int{p.batch * tm, tn}
	return th.LaunchLibrary(p.dev, grid, interp.ArgsFor(k).Arrays(p.a, p.b, c).Ints(tm))
}

// noBLASKey marks, in a thread's locals, that the missing-BLAS warning
// was given.
type noBLASKey struct{}

func warnNoBLAS(th *interp.Thread, dev mem.Device, err error) {
	if th.Local(noBLASKey{}) != nil {
		return
	}
	th.SetLocal(noBLASKey{}, true)
	th.Warn(fmt.Sprintf("matmul on %s: %v; using gscript's generated tiled kernel (slower)", dev, err))
}

// matmulKernel is a generated kernel, gscript source (below) checked and
// lowered to IR once per process and dtype.
func matmulKernel(which string, t ir.Type) (*ir.Kernel, error) {
	name := "gscript_matmul_" + which + "_" + t.String()
	k, err := interp.GeneratedKernel(name, func() (*ir.Kernel, error) { return lowerSource(name, kernelSource(which, t)) })
	if err != nil {
		return nil, fmt.Errorf("matmul: internal error building kernel %s: %w", name, err)
	}
	return k, nil
}

// lowerSource checks a source file of one kernel and returns its IR.
func lowerSource(name, src string) (*ir.Kernel, error) {
	f, err := syntax.Parse(name+".gs", []byte(src))
	if err != nil {
		return nil, err
	}
	info, err := check.NewChecker(func(string) bool { return false }).Check(f)
	if err != nil {
		return nil, err
	}
	for _, k := range info.Kernels {
		k.Entry.Name = name
		return k, nil
	}
	return nil, errors.New("no kernel in the source")
}

// kernelSource is the source of the gather or tiled kernel for dtype t.
func kernelSource(which string, t ir.Type) string {
	src := gatherSource
	if which == "tiled" {
		src = tiledSource
	}
	mac := "fma(ra[i], rb[j], acc[i, j])"
	if !t.IsFloat() {
		mac = "acc[i, j] + ra[i] * rb[j]" // wraps, as NumPy's integer matmul
	}
	return strings.NewReplacer("T", t.String(), "MAC", mac).Replace(src)
}

const gatherSource = `kernel gather(src: array[T, 3], dst: array[T, 3]) {
    let i, j, l = tid()
    dst[i, j, l] = src[i, j, l]
}
`

// tiledSource is bench/matmul.gs's register-tiled kernel (a 128 x 128
// tile per block of 16 x 16 threads, 8 x 8 outputs per thread, 8-deep
// shared tiles) with guards for edges and a batch axis: blocks along y
// walk the row tiles of each batch entry in turn; an operand with one
// entry serves every entry.
const tiledSource = `kernel tiled(a: array[T, 3], b: array[T, 3], c: array[T, 3], tiles_m: i32) block(16, 16) {
    shared as: T[8, 128]
    shared bs: T[8, 128]
    local acc: T[8, 8]
    local ra: T[8]
    local rb: T[8]
    let ty, tx = thread_id()
    let by, bx = block_id()
    let t = ty * 16 + tx
    let m = c.shape[1]
    let n = c.shape[2]
    let k = a.shape[2]
    let z = by / tiles_m
    let row0 = (by % tiles_m) * 128
    let col0 = bx * 128
    let za = z
    if a.shape[0] == 1 {
        za = 0
    }
    let zb = z
    if b.shape[0] == 1 {
        zb = 0
    }
    for kk in range(0, k, 8) {
        for p in range(4) {
            let e = t + 256 * p
            let r = row0 + e / 8
            let q = kk + e % 8
            let va = a[za, min(r, m - 1), min(q, k - 1)]
            if r >= m || q >= k {
                va = T(0)
            }
            as[e % 8, e / 8] = va
            let q2 = kk + e / 128
            let col = col0 + e % 128
            let vb = b[zb, min(q2, k - 1), min(col, n - 1)]
            if q2 >= k || col >= n {
                vb = T(0)
            }
            bs[e / 128, e % 128] = vb
        }
        sync()
        for q in range(8) {
            for i in range(8) {
                ra[i] = as[q, ty + 16 * i]
                rb[i] = bs[q, tx + 16 * i]
            }
            for i in range(8) {
                for j in range(8) {
                    acc[i, j] = MAC
                }
            }
        }
        sync()
    }
    for i in range(8) {
        for j in range(8) {
            let r = row0 + ty + 16 * i
            let col = col0 + tx + 16 * j
            if r < m && col < n {
                c[z, r, col] = acc[i, j]
            }
        }
    }
}
`
