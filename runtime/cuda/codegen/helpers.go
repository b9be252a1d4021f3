package codegen

// helper is one piece of the generated prelude, emitted only when used.
type helper struct {
	name string
	deps []string
	text string
}

// helpers is in emission order: every helper comes after its dependencies.
var helpers = []helper{
	{name: "gs_error", text: `struct gs_error_t {
  unsigned long long code;
  long long inst, param, axis, index, extent;
};
extern "C" {
__device__ gs_error_t gs_error;
}
// gs_fail records the first error of the launch, then ends the thread (PTX
// exit) so that the failing access never happens and nothing after it runs.
[[noreturn]] static __device__ __noinline__ void gs_fail(long long code, long long inst,
    long long param, long long axis, long long index, long long extent) {
  if (atomicCAS(&gs_error.code, 0ull, (unsigned long long)code) == 0ull) {
    gs_error.inst = inst;
    gs_error.param = param;
    gs_error.axis = axis;
    gs_error.index = index;
    gs_error.extent = extent;
    __threadfence();
  }
  asm volatile("exit;" ::: "memory");
  __builtin_unreachable();
}
`},
	// float -> int as Go on amd64 (CVTTSD2SL/CVTTSD2SQ): NaN and out-of-range
	// values give the minimum integer; u8 goes through i32, u32 through i64.
	{name: "gs_f2i32", text: `static __device__ __forceinline__ int gs_f2i32(double x) {
  return (x > -2147483649.0 && x < 2147483648.0) ? (int)x : (-2147483647 - 1);
}
`},
	{name: "gs_f2i64", text: `static __device__ __forceinline__ long long gs_f2i64(double x) {
  return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (long long)x : (-9223372036854775807LL - 1LL);
}
`},
	{name: "gs_f2u64", deps: []string{"gs_f2i64"}, text: `static __device__ __forceinline__ unsigned long long gs_f2u64(double x) {
  if (x < 9223372036854775808.0) return (unsigned long long)gs_f2i64(x);
  return (unsigned long long)gs_f2i64(x - 9223372036854775808.0) | 0x8000000000000000ull;
}
`},
	// Integer division as Go: truncating, MinInt / -1 wraps to MinInt with
	// remainder 0. By zero (only reached without Debug, which reports it
	// first) the quotient is all ones and the remainder the dividend, as
	// RISC-V defines it, instead of C's undefined behaviour.
	{name: "gs_div_i32", text: `static __device__ __forceinline__ int gs_div_i32(int a, int b) {
  if (b == 0) return -1;
  if (b == -1) return (int)(0u - (unsigned int)a);
  return a / b;
}
`},
	{name: "gs_rem_i32", text: `static __device__ __forceinline__ int gs_rem_i32(int a, int b) {
  if (b == 0) return a;
  if (b == -1) return 0;
  return a % b;
}
`},
	{name: "gs_div_i64", text: `static __device__ __forceinline__ long long gs_div_i64(long long a, long long b) {
  if (b == 0) return -1;
  if (b == -1) return (long long)(0ull - (unsigned long long)a);
  return a / b;
}
`},
	{name: "gs_rem_i64", text: `static __device__ __forceinline__ long long gs_rem_i64(long long a, long long b) {
  if (b == 0) return a;
  if (b == -1) return 0;
  return a % b;
}
`},
	{name: "gs_div_u32", text: `static __device__ __forceinline__ unsigned int gs_div_u32(unsigned int a, unsigned int b) {
  return b == 0u ? 0xffffffffu : a / b;
}
`},
	{name: "gs_rem_u32", text: `static __device__ __forceinline__ unsigned int gs_rem_u32(unsigned int a, unsigned int b) {
  return b == 0u ? a : a % b;
}
`},
	{name: "gs_div_u64", text: `static __device__ __forceinline__ unsigned long long gs_div_u64(unsigned long long a, unsigned long long b) {
  return b == 0ull ? 0xffffffffffffffffull : a / b;
}
`},
	{name: "gs_rem_u64", text: `static __device__ __forceinline__ unsigned long long gs_rem_u64(unsigned long long a, unsigned long long b) {
  return b == 0ull ? a : a % b;
}
`},
	// Float atomic min/max: CAS loops with fminf/fmaxf semantics (a NaN
	// operand yields the other), returning the old value.
	{name: "gs_atomic_min_f32", text: `static __device__ __forceinline__ float gs_atomic_min_f32(float* p, float v) {
  unsigned int* a = (unsigned int*)p;
  unsigned int old = *(volatile unsigned int*)a, assumed;
  do {
    assumed = old;
    unsigned int want = __float_as_uint(fminf(__uint_as_float(assumed), v));
    if (want == assumed) break;
    old = atomicCAS(a, assumed, want);
  } while (old != assumed);
  return __uint_as_float(old);
}
`},
	{name: "gs_atomic_max_f32", text: `static __device__ __forceinline__ float gs_atomic_max_f32(float* p, float v) {
  unsigned int* a = (unsigned int*)p;
  unsigned int old = *(volatile unsigned int*)a, assumed;
  do {
    assumed = old;
    unsigned int want = __float_as_uint(fmaxf(__uint_as_float(assumed), v));
    if (want == assumed) break;
    old = atomicCAS(a, assumed, want);
  } while (old != assumed);
  return __uint_as_float(old);
}
`},
	{name: "gs_atomic_min_f64", text: `static __device__ __forceinline__ double gs_atomic_min_f64(double* p, double v) {
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *(volatile unsigned long long*)a, assumed;
  do {
    assumed = old;
    unsigned long long want = (unsigned long long)__double_as_longlong(fmin(__longlong_as_double((long long)assumed), v));
    if (want == assumed) break;
    old = atomicCAS(a, assumed, want);
  } while (old != assumed);
  return __longlong_as_double((long long)old);
}
`},
	{name: "gs_atomic_max_f64", text: `static __device__ __forceinline__ double gs_atomic_max_f64(double* p, double v) {
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *(volatile unsigned long long*)a, assumed;
  do {
    assumed = old;
    unsigned long long want = (unsigned long long)__double_as_longlong(fmax(__longlong_as_double((long long)assumed), v));
    if (want == assumed) break;
    old = atomicCAS(a, assumed, want);
  } while (old != assumed);
  return __longlong_as_double((long long)old);
}
`},
}
