package kernel

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// hostShim runs generated CUDA C on the host: every CUDA thread of a block
// is a fiber, blocks run one after another, __syncthreads is a barrier of
// the block and each shuffle a barrier-separated exchange within the warp,
// so the generated text (helpers, indexing, the shared
// carve-up, the collectives' barriers and slots) runs as written. Float
// min/max are the cpu backend's (libm's fminf is not symmetric in the
// sign of zero); what only CUDA can tell (its fminf, its scheduling) is
// for TestGPUBlockOps.
const hostShim = `#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>
#include <ucontext.h>

#define __device__
#define __global__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __shared__
#define __align__(n) __attribute__((aligned(n)))

template <class T> static T gs_host_fmin(T a, T b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a < b) return a;
  if (b < a) return b;
  return std::signbit(a) ? a : b;
}
template <class T> static T gs_host_fmax(T a, T b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a > b) return a;
  if (b > a) return b;
  return std::signbit(a) ? b : a;
}
#define fminf(a, b) gs_host_fmin<float>(a, b)
#define fmaxf(a, b) gs_host_fmax<float>(a, b)
#define fmin(a, b) gs_host_fmin<double>(a, b)
#define fmax(a, b) gs_host_fmax<double>(a, b)

struct dim3 { unsigned int x = 1, y = 1, z = 1; };
// CUDA's vector types that Vector builds load and store (codegen's vec.go)
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) int2 { int x, y; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(8) uint2 { unsigned int x, y; };
struct alignas(16) uint4 { unsigned int x, y, z, w; };
struct alignas(16) longlong2 { long long x, y; };
struct alignas(16) ulonglong2 { unsigned long long x, y; };
struct alignas(16) double2 { double x, y; };
static dim3 threadIdx, blockIdx, blockDim, gridDim;

// The threads of a block are fibers of one host thread, run in rounds:
// each runs until its next barrier, so a round ends with every thread at
// the same barrier (the tests' kernels reach barriers and warp ops
// uniformly). Warp barriers are rounds too.
struct gs_host_fiber {
  ucontext_t ctx;
  std::unique_ptr<char[]> stack;
  bool done;
};
static ucontext_t gs_host_main;
static std::vector<gs_host_fiber> gs_host_fibers;
static int gs_host_cur, gs_host_pending, gs_host_count;
static unsigned long long gs_host_slot[1024];
static const std::function<void()>* gs_host_body;

static void gs_host_yield() { swapcontext(&gs_host_fibers[gs_host_cur].ctx, &gs_host_main); }
static void gs_host_entry() {
  (*gs_host_body)();
  gs_host_fibers[gs_host_cur].done = true;
}

static void __syncthreads() { gs_host_yield(); }
static void __syncwarp(unsigned = 0xffffffffu) { gs_host_yield(); }
static int __syncthreads_count(int p) {
  if (p) gs_host_pending++;
  gs_host_yield();
  return gs_host_count;
}
static int __syncthreads_or(int p) { return __syncthreads_count(p) != 0; }
static int __syncthreads_and(int p) { return __syncthreads_count(p) == (int)(blockDim.x * blockDim.y * blockDim.z); }

// every lane publishes v, then reads lane src's of its warp (or keeps v)
template <class T> static T gs_host_exchange(T v, int src, bool keep) {
  int me = gs_host_cur;
  memcpy(&gs_host_slot[me], &v, sizeof v);
  gs_host_yield();
  T r = v;
  if (!keep) memcpy(&r, &gs_host_slot[(me & ~31) + src], sizeof r);
  gs_host_yield();
  return r;
}
template <class T> static T __shfl_sync(unsigned, T v, int src) { return gs_host_exchange(v, src & 31, false); }
template <class T> static T __shfl_xor_sync(unsigned, T v, int m) { return gs_host_exchange(v, ((gs_host_cur & 31) ^ m) & 31, false); }
template <class T> static T __shfl_up_sync(unsigned, T v, unsigned d) {
  int s = (gs_host_cur & 31) - (int)d;
  return gs_host_exchange(v, s & 31, s < 0);
}
static unsigned __ballot_sync(unsigned, int p) {
  int me = gs_host_cur;
  gs_host_slot[me] = p != 0;
  gs_host_yield();
  unsigned r = 0;
  for (int l = 0; l < 32; l++) r |= (unsigned)gs_host_slot[(me & ~31) + l] << l;
  gs_host_yield();
  return r;
}
static int __all_sync(unsigned m, int p) { return __ballot_sync(m, p) == 0xffffffffu; }
static int __any_sync(unsigned m, int p) { return __ballot_sync(m, p) != 0u; }

static float __fadd_rn(float a, float b) { return a + b; }
static float __fsub_rn(float a, float b) { return a - b; }
static float __fmul_rn(float a, float b) { return a * b; }
static float __fdiv_rn(float a, float b) { return a / b; }
static double __dadd_rn(double a, double b) { return a + b; }
static double __dsub_rn(double a, double b) { return a - b; }
static double __dmul_rn(double a, double b) { return a * b; }
static double __ddiv_rn(double a, double b) { return a / b; }
static unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static long long __double_as_longlong(double f) { long long u; memcpy(&u, &f, 8); return u; }
static double __longlong_as_double(long long u) { double f; memcpy(&f, &u, 8); return f; }
// one host thread runs the fibers: a plain read-modify-write is atomic
template <class T> static T atomicAdd(T* p, T v) {
  T old = *p;
  *p = old + v;
  return old;
}

static std::vector<unsigned char> gs_host_read(const char* path) {
  std::vector<unsigned char> b;
  FILE* f = fopen(path, "rb");
  int c;
  while ((c = fgetc(f)) != EOF) b.push_back((unsigned char)c);
  fclose(f);
  return b;
}
static void gs_host_write(const char* path, const std::vector<unsigned char>& b) {
  FILE* f = fopen(path, "wb");
  fwrite(b.data(), 1, b.size(), f);
  fclose(f);
}

// gs_host_launch runs body once per CUDA thread of grid x block, a block
// at a time. A thread that has returned is no longer waited for.
static void gs_host_launch(dim3 grid, dim3 block, const std::function<void()>& body) {
  gridDim = grid;
  blockDim = block;
  gs_host_body = &body;
  int nt = block.x * block.y * block.z;
  const size_t stack = 256 << 10;
  gs_host_fibers.resize(nt);
  for (auto& f : gs_host_fibers)
    if (!f.stack) f.stack.reset(new char[stack]);
  for (unsigned bz = 0; bz < grid.z; bz++)
    for (unsigned by = 0; by < grid.y; by++)
      for (unsigned bx = 0; bx < grid.x; bx++) {
        blockIdx = dim3{bx, by, bz};
        for (auto& f : gs_host_fibers) {
          getcontext(&f.ctx);
          f.ctx.uc_stack.ss_sp = f.stack.get();
          f.ctx.uc_stack.ss_size = stack;
          f.ctx.uc_link = &gs_host_main;
          f.done = false;
          makecontext(&f.ctx, gs_host_entry, 0);
        }
        for (bool live = true; live;) {
          live = false;
          for (int t = 0; t < nt; t++) {
            if (gs_host_fibers[t].done) continue;
            live = true;
            gs_host_cur = t;
            threadIdx = dim3{t % block.x, t / block.x % block.y, t / (block.x * block.y)};
            swapcontext(&gs_host_main, &gs_host_fibers[t].ctx);
          }
          gs_host_count = gs_host_pending;
          gs_host_pending = 0;
        }
      }
}
`

// hostSource is a translation unit of the cases whose index is in ids:
// each kernel's generated source in a namespace of its own (extern "C"
// dropped, so that equal entry names do not clash) with its dynamic
// shared memory and a run function, and main(case, grid x y z, one
// argument per parameter: a file for each (1-D) array, the bits of each
// scalar).
func hostSource(cases []gpuCase, ids []int) (string, error) {
	var b strings.Builder
	b.WriteString(hostShim)
	for _, i := range ids {
		c := cases[i]
		src, err := codegen.Source(c.k, codegen.Options{})
		if err != nil {
			return "", fmt.Errorf("%s: %v", c.name, err)
		}
		fmt.Fprintf(&b, "\nnamespace k%d {\nalignas(16) unsigned char gs_smem[%d];\n", i, codegen.SharedBytes(c.k)+16)
		b.WriteString(strings.ReplaceAll(src, `extern "C" `, ""))
		b.WriteString("int run(char** argv) {\n")
		var args []string
		for j, p := range c.k.Entry.Params {
			ct := map[ir.Type]string{ir.Bool: "bool", ir.U8: "unsigned char", ir.I32: "int", ir.I64: "long long",
				ir.U32: "unsigned int", ir.U64: "unsigned long long", ir.F32: "float", ir.F64: "double"}[p.Elem]
			if p.NDim > 1 {
				return "", fmt.Errorf("%s: parameter %s has %d dimensions, the host runs 1-D arrays", c.name, p.Name, p.NDim)
			}
			if p.IsArray() {
				fmt.Fprintf(&b, "  std::vector<unsigned char> b%d = gs_host_read(argv[%d]);\n", j, j+3)
				fmt.Fprintf(&b, "  gs_array1 a%d = {(unsigned long long)b%d.data(), {(long long)(b%d.size() / sizeof(%s))}, {1}};\n", j, j, j, ct)
			} else {
				fmt.Fprintf(&b, "  unsigned long long v%d = strtoull(argv[%d], 0, 0);\n  %s a%d;\n  memcpy(&a%d, &v%d, sizeof a%d);\n", j, j+3, ct, j, j, j, j)
			}
			args = append(args, fmt.Sprintf("a%d", j))
		}
		bd := cudaDims(c.k.Block)
		fmt.Fprintf(&b, "  gs_host_launch(dim3{(unsigned)atoi(argv[0]), (unsigned)atoi(argv[1]), (unsigned)atoi(argv[2])}, dim3{%d, %d, %d}, [&] { %s(%s); });\n",
			bd[0], bd[1], bd[2], codegen.EntryName(c.k), strings.Join(args, ", "))
		for j, p := range c.k.Entry.Params {
			if p.IsArray() {
				fmt.Fprintf(&b, "  gs_host_write(argv[%d], b%d);\n", j+3, j)
			}
		}
		b.WriteString("  return 0;\n}\n}\n")
	}
	b.WriteString("\nint main(int argc, char** argv) {\n  switch (atoi(argv[1])) {\n")
	for _, i := range ids {
		fmt.Fprintf(&b, "  case %d: return k%d::run(argv + 2);\n", i, i)
	}
	b.WriteString("  }\n  return 2;\n}\n")
	return b.String(), nil
}

// hostDev runs case i of the host binary; arrays are files in dir.
type hostDev struct {
	t    *testing.T
	exe  string
	i    int
	dir  string
	bufs [][]byte
}

func (d *hostDev) upload(t ir.Type, v []uint64) backend.Arg {
	d.bufs = append(d.bufs, encode(t, v))
	return backend.Arg{Array: backend.Array{Data: uintptr(len(d.bufs)), Shape: [4]int{len(v)}, Strides: [4]int{1}}}
}

func (d *hostDev) zeros(t ir.Type, n int) backend.Arg { return d.upload(t, make([]uint64, n)) }

func (d *hostDev) download(t ir.Type, a backend.Arg, n int) []uint64 {
	return decode(t, d.bufs[a.Array.Data-1])[:n]
}

func (d *hostDev) launch(grid []int, args []backend.Arg) {
	g := cudaDims(grid)
	argv := []string{fmt.Sprint(d.i), fmt.Sprint(g[0]), fmt.Sprint(g[1]), fmt.Sprint(g[2])}
	var files []string
	for i, a := range args {
		if a.Array.Data == 0 {
			argv = append(argv, fmt.Sprint(a.Bits))
			continue
		}
		f := filepath.Join(d.dir, fmt.Sprintf("a%d", i))
		if err := os.WriteFile(f, d.bufs[a.Array.Data-1], 0o644); err != nil {
			d.t.Fatal(err)
		}
		argv, files = append(argv, f), append(files, f)
	}
	if out, err := exec.Command(d.exe, argv...).CombinedOutput(); err != nil {
		d.t.Fatalf("host run of case %d: %v\n%s", d.i, err, out)
	}
	for i, a := range args {
		if a.Array.Data == 0 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d.dir, fmt.Sprintf("a%d", i)))
		if err != nil {
			d.t.Fatal(err)
		}
		d.bufs[a.Array.Data-1] = b
	}
}

// hostCXX is g++, for the tests that run generated CUDA C on the host;
// without one, or in -short runs (heavy says why), the test skips.
func hostCXX(t *testing.T, heavy string) string {
	t.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++ to run the generated C on the host")
	}
	if testing.Short() {
		t.Skip(heavy)
	}
	return cxx
}

// compileHostParts compiles n generated cases as hostParts programs, case
// i in program i%hostParts (source writes the C++ of the cases ids), in
// parallel, and returns the executables; nil after a failure (reported).
func compileHostParts(t *testing.T, cxx, prefix, opt string, n int, source func(ids []int) (string, error)) []string {
	t.Helper()
	dir := t.TempDir()
	exes := make([]string, hostParts)
	var wg sync.WaitGroup
	for part := range hostParts {
		var ids []int
		for i := part; i < n; i += hostParts {
			ids = append(ids, i)
		}
		src, err := source(ids)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, fmt.Sprintf("%s%d.cc", prefix, part))
		exes[part] = strings.TrimSuffix(file, ".cc")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			if out, err := exec.Command(cxx, "-std=c++20", opt, "-w", "-o", exes[part], file).CombinedOutput(); err != nil {
				t.Errorf("g++: %v\n%.8000s", err, out)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return nil
	}
	return exes
}

// hostParts is how many translation units (and g++ processes) the host
// test splits its kernels into.
const hostParts = 4

// TestBlockOpsOnHost compiles the generated C of TestGPUBlockOps' cases
// with g++ against hostShim and checks every output with the Go
// reference, as TestGPUBlockOps does on a GPU: the generated code follows
// lang/ir's doc.go orders wherever CUDA's own semantics are not involved.
func TestBlockOpsOnHost(t *testing.T) {
	cxx := hostCXX(t, "compiles and runs about 400 kernels on the host")
	var cases []gpuCase
	for _, c := range blockCases(h200) {
		if !c.gpuOnly {
			cases = append(cases, c)
		}
	}
	exes := compileHostParts(t, cxx, "block", "-O0", len(cases), func(ids []int) (string, error) { return hostSource(cases, ids) })
	if exes == nil {
		return
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	compared := 0
	jobs := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				n, msg := cases[i].run(&hostDev{t: t, exe: exes[i%hostParts], i: i, dir: t.TempDir()})
				if msg != "" {
					t.Errorf("%s: %s", cases[i].name, msg)
				}
				mu.Lock()
				compared += n
				mu.Unlock()
			}
		}()
	}
	for i := range cases {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	t.Logf("%d block kernels run on the host, %d values compared bit for bit", len(cases), compared)
}

// h200 is the shared memory of an H200 (MaxSharedMemoryPerBlockOptin).
var h200 = &cuda.DeviceInfo{Ordinal: 0, MaxSharedMemoryPerBlock: 48 << 10, MaxSharedMemoryPerBlockOptin: 232448}
