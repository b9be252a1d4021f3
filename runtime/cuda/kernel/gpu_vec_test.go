package kernel

import (
	"bytes"
	"fmt"
	"regexp"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// vecOnGPU builds k with opts, runs case c over copies of bufs on the GPU
// (each parameter off bytes past an allocation's start) and returns them.
func vecOnGPU(drv *cuda.Driver, s cuda.Stream, b *Builder, info *cuda.DeviceInfo, k *ir.Kernel, c vecCase, opts Options, bufs [][]byte, off int) ([][]byte, error) {
	kk, err := b.Build(k, info, opts)
	if err != nil {
		return nil, err
	}
	defer kk.Unload()
	args := make([]backend.Arg, len(bufs))
	ptrs := make([]cuda.DevicePtr, len(bufs))
	for j, buf := range bufs {
		p, err := drv.MemAlloc(len(buf) + off)
		if err != nil {
			return nil, err
		}
		defer drv.MemFree(p)
		ptrs[j] = p + cuda.DevicePtr(off)
		if err := drv.MemcpyHtoD(ptrs[j], unsafe.Pointer(&buf[0]), len(buf)); err != nil {
			return nil, err
		}
		args[j] = cOrder(uintptr(ptrs[j]), c.shapes[j])
	}
	if err := kk.Launch(s, c.dims, args); err != nil {
		return nil, err
	}
	if err := drv.StreamSynchronize(s); err != nil {
		return nil, err
	}
	out := make([][]byte, len(bufs))
	for j := range bufs {
		out[j] = make([]byte, len(bufs[j]))
		if err := drv.MemcpyDtoH(unsafe.Pointer(&out[j][0]), ptrs[j], len(out[j])); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// TestGPUVectorAccesses runs every case of vecCases on the GPU as each
// build of vecBuilds and compares every parameter bit for bit with the
// scalar build of the same offset form and with the cpu. Then through
// the backend: an aligned launch builds the Vector variant, a launch 4
// bytes off alignment the scalar one, both with the cpu's results.
func TestGPUVectorAccesses(t *testing.T) {
	drv, ctx, info := gpu(t)
	ks := kernels(t, vecSource)
	b := NewBuilder(drv, nil)
	compared := 0
	err := ctx.Do(func() error {
		s, err := drv.StreamCreate(cuda.StreamNonBlocking)
		if err != nil {
			return err
		}
		defer drv.StreamDestroy(s)
		for i, c := range vecCases {
			k := ks[c.name]
			in := vecInputs(k, c, uint64(i))
			want := vecOnCPU(t, k, c, in)
			scalar := map[[2]bool][][]byte{} // by UnitStride, Index32
			for _, o := range vecBuilds {
				got, err := vecOnGPU(drv, s, b, info, k, c, Options{UnitStride: o.UnitStride, Index32: o.Index32, Vector: o.Vector}, in, 0)
				if err != nil {
					return fmt.Errorf("%s %+v: %w", c.name, o, err)
				}
				form := [2]bool{o.UnitStride, o.Index32}
				if !o.Vector {
					scalar[form] = got
				}
				for j := range got {
					if !bytes.Equal(got[j], want[j]) {
						t.Errorf("%s %+v: parameter %d differs from the cpu's", c.name, o, j)
					}
					if ref, ok := scalar[form]; ok && o.Vector && !bytes.Equal(got[j], ref[j]) {
						t.Errorf("%s %+v: parameter %d differs from the scalar build's", c.name, o, j)
					}
					compared += len(got[j])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d kernels, %d builds each, %d bytes compared bit for bit", len(vecCases), len(vecBuilds), compared)

	k := ks["v4"]
	p, err := cudaBackend{}.Compile(k, mem.Device{Type: mem.CUDA}, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prog := p.(*program)
	c := vecCases[0]
	err = ctx.Do(func() error {
		for _, off := range []int{0, 4} {
			in := vecInputs(k, c, 99)
			want := vecOnCPU(t, k, c, in)
			args := make([]backend.Arg, len(in))
			for j, buf := range in {
				d, err := drv.MemAlloc(len(buf) + 16)
				if err != nil {
					return err
				}
				defer drv.MemFree(d)
				d += cuda.DevicePtr(off)
				if err := drv.MemcpyHtoD(d, unsafe.Pointer(&buf[0]), len(buf)); err != nil {
					return err
				}
				args[j] = cOrder(uintptr(d), c.shapes[j])
			}
			v := prog.variant(args)
			if (v&variantVector != 0) != (off == 0) {
				t.Errorf("offset %d: variant %b", off, v)
			}
			if err := p.Launch(&backend.Env{}, c.dims, args); err != nil {
				return err
			}
			if prog.mods[v] == nil {
				t.Errorf("offset %d: variant %b not built", off, v)
			}
			if err := drv.StreamSynchronize(prog.d.Stream); err != nil {
				return err
			}
			got := make([]byte, len(want[1]))
			if err := drv.MemcpyDtoH(unsafe.Pointer(&got[0]), cuda.DevicePtr(args[1].Array.Data), len(got)); err != nil {
				return err
			}
			if !bytes.Equal(got, want[1]) {
				t.Errorf("offset %d: out differs from the cpu's", off)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNVRTCVectorPTX compiles the scalar and Vector builds of vecCases'
// vec4, vec2 and vec2d kernels to PTX with the backend's options: the
// Vector build's element loads and stores are ld.global.v4 / v2 and
// st.global.v4 / v2, the scalar build has none. Needs NVRTC, not a GPU.
func TestNVRTCVectorPTX(t *testing.T) {
	nv, err := cuda.LoadNVRTC()
	if err != nil {
		t.Skip("no NVRTC: ", err)
	}
	major, minor := nv.Version()
	ks := kernels(t, vecSource)
	for _, c := range []struct{ kernel, ld, st string }{
		{"v4", `ld\.global(\.nc)?\.v4\.`, `st\.global\.v4\.`},
		{"v2", `ld\.global(\.nc)?\.v2\.`, `st\.global\.v2\.`},
		{"v2d", `ld\.global(\.nc)?\.v2\.`, `st\.global\.v2\.`},
		{"reduce4", `ld\.global(\.nc)?\.v4\.`, ""},
	} {
		for _, vector := range []bool{false, true} {
			src, err := codegen.Source(ks[c.kernel], codegen.Options{UnitStride: true, Index32: true, Vector: vector})
			if err != nil {
				t.Fatal(err)
			}
			ptx, log, err := nv.Compile(src, c.kernel+".cu", supportedOptions(compileOptions("compute_90", false), major, minor))
			if err != nil {
				t.Fatalf("%s vector=%v: %v\n%s", c.kernel, vector, err, log)
			}
			for _, op := range []string{c.ld, c.st} {
				if op != "" && regexp.MustCompile(op).Match(ptx) != vector {
					t.Errorf("%s vector=%v: %q in the PTX: %v", c.kernel, vector, op, !vector)
				}
			}
		}
	}
}
