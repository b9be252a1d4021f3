package stdlib

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gscript-lang/gscript/interp"
)

// Doc is one predeclared name's entry in the reference: how it is called
// (or, for a value, what it is) and what it does, in one line each.
// `gscript help NAME`, the REPL's :help NAME and help(NAME) print it, and
// TestDocsCoverEveryName fails for a predeclared name without an entry:
// a new builtin gets a row here.
type Doc struct {
	Name    string
	Topic   string // the group `gscript help builtins` lists it in
	Sig     string // "zeros(shape, dtype=f32, device=, allocator=)"
	Summary string
	Kernel  bool // a kernel builtin only, not a host name
}

// The topics, in the order `gscript help builtins` lists them.
const (
	topicOutput      = "output and conversions"
	topicCollections = "lists, dicts and errors"
	topicMath        = "math on numbers"
	topicArrays      = "arrays"
	topicReduce      = "reductions and comparisons"
	topicFiles       = "files"
	topicDevices     = "devices and memory"
	topicProcess     = "the script's process"
	topicDist        = "distributed runs (gscript run -n N, torchrun, srun)"
	topicValues      = "predeclared values"
	topicVectors     = "vectors, matrices and quaternions"
	topicKernel      = "in kernels only"
	topicAutodiff    = "gradients (tape blocks, docs/autodiff.md)"
)

var topics = []string{topicOutput, topicCollections, topicMath, topicArrays, topicReduce, topicFiles, topicDevices, topicProcess, topicDist, topicValues, topicVectors, topicAutodiff, topicKernel}

// docs is the table, by topic. Families (the math functions, the dtypes,
// the memory kinds) share a summary through family.
var docs = slices.Concat([]Doc{
	{"print", topicOutput, `print(values..., sep=" ", end="\n", file="stdout")`, `write the values as text, sep between them and end after; file= is "stdout", "stderr" or a path (appended to)`, false},
	{"format", topicOutput, "format(fmt, values...)", "a string from Go's verbs %d %f %.3f %e %g %s %v %x %q (with flags and widths), each checked against its value", false},
	{"str", topicOutput, "str(x)", "x as print writes it, as a string", false},
	{"int", topicOutput, "int(x)", "x as an int: truncates floats, parses strings, gives a memory kind's value", false},
	{"float", topicOutput, "float(x)", "x as a float: converts numbers and bools, parses strings", false},
	{"type", topicOutput, "type(x)", `x's type name: "int", "float", "string", "list", "array", "fn", ... or a scalar's dtype ("f32")`, false},
	{"len", topicOutput, "len(x)", "the length of a list, string or dict, or the extent of an array's axis 0", false},
	{"range", topicOutput, "range(stop) | range(start, stop[, step])", "the ints from start (0) up to stop, by step (1): iterated by for, or a list", false},
	{"time", topicOutput, "time()", "seconds since the Unix epoch, as a float (for timing: time() - t0)", false},
	{"help", topicOutput, "help([name])", "print a builtin's signature and summary (help(zeros) or help(\"zeros\")); without a name, list the builtins", false},

	{"list", topicCollections, "list([x])", "a new list of the values of any iterable (a list, a dict's keys, a string's bytes, an array's rows); list() is []", false},
	{"dict", topicCollections, "dict([x])", "a new dict: empty, a copy of a dict, or from a list of [key, value] pairs", false},
	{"sorted", topicCollections, "sorted(x, key=, reverse=false)", "a new list of x's values in ascending order, stable; key= is a fn giving each value's sort key", false},
	{"reversed", topicCollections, "reversed(x)", "a new list of x's values, last first", false},
	{"enumerate", topicCollections, "enumerate(x, start=0)", "the list of [i, v] pairs of x's values, i counting from start: for i, v in enumerate(l) { }", false},
	{"zip", topicCollections, "zip(a, b, ...)", "the list of [a[i], b[i], ...], as long as the shortest: for x, y in zip(a, b) { }", false},
	{"error", topicCollections, "error(msg)", "raise a script error with message msg, which try/catch catches (e.message is msg)", false},

	{"pow", topicMath, "pow(x, y)", "x to the power y, as a float", false},
	{"cdiv", topicMath, "cdiv(a, b)", "the ceiling of a / b for ints, as in kernels: the grid that covers n threads is grid(cdiv(n, B))", false},
	{"abs", topicMath, "abs(x)", "the absolute value of a number or, elementwise, of an array or a vector's lanes, of its type (also in kernels)", false},
	{"minimum", topicArrays, "minimum(a, b)", "the elementwise smaller of two arrays (or an array and a number), broadcast; NaN wins, as in NumPy", false},
	{"maximum", topicArrays, "maximum(a, b)", "the elementwise larger of two arrays (or an array and a number), broadcast; NaN wins", false},
	{"clip", topicArrays, "clip(a, lo, hi)", "a with every element limited to [lo, hi]: minimum(maximum(a, lo), hi)", false},
	{"where", topicArrays, "where(cond, a, b)", "elementwise a where the bool array cond holds, else b, broadcast together; where(cond) is nonzero(cond)", false},
	{"take", topicArrays, "take(a, idx, axis=)", "a new array of a's elements at the int indices idx along axis (negative from the end), of the flattened a without axis; fuses into expressions", false},
	{"add_at", topicArrays, "add_at(a, idx, v)", "adds v at a's rows idx in place, every occurrence of a repeated index (NumPy's np.add.at, atomics)", false},
	{"nonzero", topicArrays, "nonzero(a)", "a list of i64 arrays, one per axis, of the indices of a's nonzero elements in C order", false},
	{"argwhere", topicArrays, "argwhere(a)", "an (n, ndim) i64 array of the indices of a's nonzero elements in C order", false},
	{"round", topicMath, "round(x) | round(x, ndigits)", "round(x): the nearest whole float, halves away from zero (as in kernels); round(x, n): to n decimals, ties to even (Python's)", false},

	{"zeros", topicArrays, "zeros(shape, dtype=f32, device=, allocator=)", "a new array of zeros; shape is an int or a list of ints; dtype may be a vector type (vec3) or a struct", false},
	{"ones", topicArrays, "ones(shape, dtype=f32, device=, allocator=)", "a new array of ones (every lane of a vector type; not for structs: use full)", false},
	{"full", topicArrays, "full(shape, value, dtype=f32, device=, allocator=)", "a new array with every element value (a vector or struct value gives its type)", false},
	{"empty", topicArrays, "empty(shape, dtype=f32, device=, allocator=)", "a new array, not initialised on a device (zero-filled on the host); dtype as zeros", false},
	{"rand", topicArrays, "rand(shape, seed=0, dtype=f32, device=, allocator=)", "uniform random numbers in [0, 1): element i is randf(rand_init(seed, i)), equal on every device; seed is a u32 (0 to 2^32-1)", false},
	{"randn", topicArrays, "randn(shape, seed=0, dtype=f32, device=, allocator=)", "normal random numbers (Box-Muller), element i from rand_init(seed, i); in kernels randn(rng) draws one from a state", false},
	{"randint", topicArrays, "randint(lo, hi, shape, seed=0, dtype=i32, device=, allocator=)", "random ints in [lo, hi) (bounds that fit an i32), element i is randi(rand_init(seed, i), lo, hi)", false},
	{"arange", topicArrays, "arange([start,] stop[, step], dtype=)", "evenly spaced values from start up to stop (i32 for int arguments, else f32)", false},
	{"linspace", topicArrays, "linspace(a, b, n, dtype=f32)", "n evenly spaced values from a to b, both included", false},
	{"array", topicArrays, "array(list_or_array, dtype=, device=, allocator=)", "a new array from a (nested) list, or a converted copy of an array", false},
	{"copy", topicArrays, "copy(dst, src)", "copy src's elements into dst (same shape), converting dtypes", false},
	{"fill", topicArrays, "fill(a, value)", "set every element of a to value", false},
	{"to", topicArrays, "to(a, device) | a.to(device)", "a copy of a on device", false},
	{"reshape", topicArrays, "reshape(a, shape) | a.reshape(shape)", "a with a new shape (one extent may be -1, inferred): a view when a is contiguous, else a copy", false},
	{"matmul", topicArrays, "matmul(a, b, out=)", "the matrix product a @ b as NumPy's (1-D, 2-D, batched 3-D; equal dtypes): BLAS for f32/f64 (cuBLAS, gonum), a generated kernel for ints", false},
	{"transpose", topicArrays, "transpose(a[, axes]) | a.T | transpose(m)", "a view with the axes reversed, or in the order of the list axes (NumPy's; negative axes count from the last); of a matrix value, the transposed matrix", false},
	{"free", topicArrays, "free(a)", "release a's memory now; later uses of a are errors", false},

	{"sum", topicReduce, "sum(a, axis=, keepdims=false)", "the sum of a's elements on its device (floats in f64 give a float; ints exact), or along axes; sum(a * b) computes the expression inside the reduction (every reduction does: one pass, no temporary)", false},
	{"prod", topicReduce, "prod(a, axis=, keepdims=false)", "the product of a's elements (floats in f64; ints exact, overflow an error), or along axes", false},
	{"mean", topicReduce, "mean(a, axis=, keepdims=false)", "the mean of a's elements, as a float, or along axes", false},
	{"min", topicReduce, "min(a, axis=, keepdims=false) | min(x, y, ...) | min(u, v)", "the smallest element of an array (NaN if any) or list, or of several numbers (also in kernels); of two vectors, lane by lane (a NaN lane yields the other)", false},
	{"max", topicReduce, "max(a, axis=, keepdims=false) | max(x, y, ...) | max(u, v)", "the largest element of an array (NaN if any) or list, or of several numbers (also in kernels); of two vectors, lane by lane (a NaN lane yields the other)", false},
	{"argmin", topicReduce, "argmin(a, axis=, keepdims=false)", "the flat index of a's first smallest element (the first NaN), or along one axis", false},
	{"argmax", topicReduce, "argmax(a, axis=, keepdims=false)", "the flat index of a's first largest element (the first NaN), or along one axis", false},
	{"any", topicReduce, "any(a, axis=, keepdims=false)", "whether some element of a is nonzero (true), or along axes", false},
	{"all", topicReduce, "all(a, axis=, keepdims=false)", "whether every element of a is nonzero (true), or along axes", false},
	{"count_nonzero", topicReduce, "count_nonzero(a, axis=, keepdims=false)", "how many elements of a are nonzero, or along axes", false},
	{"norm", topicReduce, "norm(a, axis=, keepdims=false)", "the 2-norm of a's elements (f64), or along axes", false},
	{"dot", topicReduce, "dot(a, b)", "the dot product of two 1-D arrays on one device (floats in f64, ints exact), or of two vectors of one type (in their lane type, as kernels)", false},
	{"allclose", topicReduce, "allclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=false)", "whether every |a - b| <= atol + rtol * |b|, as NumPy's", false},
	{"isclose", topicReduce, "isclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=false)", "a bool array: where |a - b| <= atol + rtol * |b|, as NumPy's", false},
	{"equal", topicReduce, "equal(a, b)", "whether a and b have the same shape and elements", false},
	{"cumsum", topicReduce, "cumsum(a, axis=)", "a new array of the running sums along axis, or of the flattened array (bools and ints in i64, unsigned in u64)", false},
	{"cumprod", topicReduce, "cumprod(a, axis=)", "a new array of the running products along axis, or of the flattened array (dtypes as cumsum)", false},
	{"array_equal", topicReduce, "array_equal(a, b)", "equal's other name, as NumPy's", false},

	{"load", topicFiles, `load("x.npy", device=, allocator=)`, "read a NumPy .npy file into a new array", false},
	{"save", topicFiles, `save("x.npy", a, sync=false)`, "write a as a NumPy .npy file (the name must end in .npy), atomically; sync=true: also synced to the disk before it returns", false},
	{"load_text", topicFiles, `load_text("a.csv", delimiter=, dtype=f32, skiprows=0, comments="#", device=, allocator=)`, "read a text or CSV file of numbers (NumPy's loadtxt): 1-D for one column, else 2-D", false},
	{"save_text", topicFiles, `save_text("a.csv", a, delimiter=, fmt=, header=, comments="# ")`, "write a 1-D or 2-D array as text or CSV (NumPy's savetxt); the delimiter follows .csv/.tsv", false},
	{"read_file", topicFiles, "read_file(path)", "a file's contents as a string", false},
	{"write_file", topicFiles, "write_file(path, s)", "replace a file with the string s, atomically", false},
	{"save_image", topicFiles, `save_image("x.png", a, cmap="viridis", vmin=, vmax=)`, `write a 2-D array as a colour-mapped PNG (cmap "viridis", "magma" or "gray"), or (h, w, 3|4) u8 pixels`, false},
	{"show", topicFiles, `show(a, path=, cmap="viridis", vmin=, vmax=)`, "display a as save_image draws it, inline in a notebook (gscript jupyter); elsewhere it writes the PNG to path= if given, else nothing", false},

	{"backward", topicAutodiff, "backward(t, loss, grads=)", "run tape t's recorded operations in reverse from loss (one element, gradient 1) or from grads= seeds, adding into every .grad", false},
	{"zero_grad", topicAutodiff, "zero_grad(t)", "zero the gradients of every array tape t recorded", false},
	{"requires_grad", topicAutodiff, "requires_grad(a)", "give a a zero-filled gradient a.grad (as requires_grad=true at construction) and return a", false},
	{"devices", topicDevices, "devices()", `the devices of this machine: "cpu", "cuda:0", ...`, false},
	{"device_info", topicDevices, "device_info([dev])", "a record of a device's capabilities and memory paradigm", false},
	{"can_access", topicDevices, "can_access(dev, a)", "whether kernels on dev can use a's memory (false when it is not proven)", false},
	{"mem_info", topicDevices, "mem_info([dev])", "a record of a device's free, total, array and cached pool memory, and its live arrays", false},
	{"synchronize", topicDevices, "synchronize([dev])", "wait for the work queued on a device (every device without one); pools keep their cached memory", false},
	{"free_cached", topicDevices, "free_cached([dev])", "return the memory pools keep for reuse to a device (every device without one); the bytes released", false},
	{"ipc_handle", topicDevices, "ipc_handle(a)", "a handle (128 hex digits) through which another process opens a's CUDA memory", false},
	{"from_ipc", topicDevices, "from_ipc(handle, dtype, shape, device)", "an array over another process's CUDA memory, from its ipc_handle", false},
	{"enable_peer_access", topicDevices, "enable_peer_access(owner, accessor)", "let kernels on accessor use owner's device memory", false},
	{"enable_mempool_access", topicDevices, "enable_mempool_access(owner, accessor)", "let kernels on accessor use memory from owner's default pool", false},
	{"replay", topicDevices, "replay(g[, times])", "run a graph recorded by a capture block, times times (1)", false},
	{"prefetch", topicDevices, "prefetch(a, dev)", `move a managed array's pages (a view: its bytes) to dev ("cpu" or a CUDA device) ahead of use`, false},
	{"advise", topicDevices, `advise(a, advice[, dev])`, `advice "read_mostly", "preferred_location" or "accessed_by" (or unset_...) for a managed array's pages`, false},
	{"explain_access", topicDevices, "explain_access(dev, a)", "a record saying whether kernels on dev can use a, by which rule and facts, and the remedy when not", false},

	{"argv", topicProcess, "argv", "the script's arguments as a list of strings, the script's name first (gscript run FILE ARGS...)", false},
	{"env", topicProcess, "env(name[, default])", "an environment variable's value, else default, else nil (where the host grants the environment)", false},
	{"exit", topicProcess, "exit([code])", "end the script now with exit status code (0 to 255; 0)", false},

	{"rank", topicDist, "rank()", "this process's rank, 0 to world_size() - 1 (0 for a script run alone)", false},
	{"world_size", topicDist, "world_size()", "the number of ranks of the run (1 for a script run alone)", false},
	{"local_rank", topicDist, "local_rank()", "this rank's index on its node (LOCAL_RANK); the default device is cuda:local_rank() when the node has a GPU per rank", false},
	{"local_world_size", topicDist, "local_world_size()", "the number of ranks on this node", false},
	{"is_distributed", topicDist, "is_distributed()", "whether a launcher (or the embedding program) placed the script in a distributed run", false},
	{"all_reduce", topicDist, `all_reduce(a, op="sum")`, `reduce a over every rank in place, op "sum", "prod", "min", "max" or "avg" (floats); alone a stays as it is`, false},
	{"broadcast", topicDist, "broadcast(a, root=0)", "copy root's a into every rank's a", false},
	{"reduce", topicDist, `reduce(a, root=0, op="sum")`, "reduce a over every rank into root's a; the other ranks' a are left as they were", false},
	{"all_gather", topicDist, "all_gather(a, out=)", "a new array [world_size(), ...a.shape] (or out=) whose row r is rank r's a", false},
	{"reduce_scatter", topicDist, `reduce_scatter(a, out=, op="sum")`, "reduce a over every rank and give rank r part r of axis 0 (a.shape[0] / world_size() rows), a new array or out=", false},
	{"send", topicDist, "send(a, dst)", "send a to rank dst, which calls recv(b, src) with an array of a's dtype and shape", false},
	{"recv", topicDist, "recv(a, src)", "fill a with what rank src sends", false},
	{"barrier", topicDist, "barrier()", "wait until every rank has called barrier() (the host's side: queued device work is not waited for)", false},

	{"config", topicValues, "config.launch_access, config.debug", `settings: launch_access "relaxed", "checked" (default) or "strict"; debug = true bounds-checks CUDA kernels`, false},
	{"_", topicValues, "_", "the value of the REPL's last bare expression", false},
	{"inf", topicValues, "inf", "positive infinity, a float (-inf is negative); in kernels it takes the float type of its use", false},
	{"nan", topicValues, "nan", "not a number, a float: nan != nan (test with isnan in kernels); in kernels it takes the float type of its use", false},

	{"tid", topicKernel, "tid() | let i, j = tid()", "this thread's index (i32), one per launch dimension", true},
	{"select", topicKernel, "select(cond, a, b)", "a where cond holds, else b, without a branch", true},
	{"atomic_add", topicKernel, "atomic_add(a, idx..., v)", "add v to a[idx...] atomically; returns the old value", true},
	{"atomic_sub", topicKernel, "atomic_sub(a, idx..., v)", "subtract v from a[idx...] atomically; returns the old value", true},
	{"atomic_min", topicKernel, "atomic_min(a, idx..., v)", "a[idx...] = min(a[idx...], v) atomically; returns the old value", true},
	{"atomic_max", topicKernel, "atomic_max(a, idx..., v)", "a[idx...] = max(a[idx...], v) atomically; returns the old value", true},
	{"atomic_cas", topicKernel, "atomic_cas(a, idx..., cmp, v)", "a[idx...] = v if it equals cmp, atomically; returns the old value", true},
	{"warp_size", topicKernel, "warp_size()", "the lanes of a warp: the i32 constant 32", true},
	{"rand_init", topicKernel, "let rng = rand_init(seed[, offset])", "a random state (u32) for stream offset of seed: Warp's rand_init, so a seed gives Warp's streams", true},
	{"randf", topicKernel, "randf(rng) | randf(rng, lo, hi)", "an f32 in [0, 1) (or [lo, hi)) from the state variable rng, which it advances", true},
	{"randi", topicKernel, "randi(rng) | randi(rng, lo, hi)", "an i32 (any, or in [lo, hi)) from the state variable rng, which it advances", true},
	{"randu", topicKernel, "randu(rng)", "a u32 from the state variable rng, which it advances", true},
	{"poisson", topicKernel, "poisson(rng, lam)", "a Poisson-distributed u32 count of mean lam (an f32) from the state variable rng, which it advances (Warp's poisson)", true},
},
	described(topicKernel, true, "", "in block kernels (kernel k(...) block(...))",
		"thread_id", "thread_id() | let ty, tx = thread_id(): this thread's index in its block (i32), one per block axis",
		"block_id", "block_id() | let by, bx = block_id(): this block's index in the grid, one per axis",
		"block_dim", "block_dim(): the block's extents (constants), one per axis",
		"grid_dim", "grid_dim(): the grid's extents (blocks per axis), one per axis",
		"lane_id", "lane_id(): this thread's lane in its warp (linear thread index % 32)",
		"warp_id", "warp_id(): this thread's warp in its block (linear thread index / 32)",
		"sync", "sync(): wait until every thread of the block gets here (under block-uniform conditions only)",
		"sync_warp", "sync_warp(): wait until every lane of the warp gets here",
		"shfl", "shfl(v, lane): v as lane (lane & 31) of this warp holds it",
		"shfl_down", "shfl_down(v, d): v of lane + d, or this lane's own v past the warp's end",
		"shfl_up", "shfl_up(v, d): v of lane - d, or this lane's own v before the warp's start",
		"shfl_xor", "shfl_xor(v, m): v of lane ^ m (the butterfly of warp reductions)",
		"ballot", "ballot(p): a u32 with bit k set where lane k's p holds",
		"warp_all", "warp_all(p): whether p holds on every lane of the warp",
		"warp_any", "warp_any(p): whether p holds on some lane of the warp",
		"warp_sum", "warp_sum(v): the sum of v over the warp, to every lane",
		"warp_min", "warp_min(v): the least v of the warp, to every lane",
		"warp_max", "warp_max(v): the greatest v of the warp, to every lane",
		"block_sum", "block_sum(v): the sum of v over the block, to every thread (block-uniform, as sync)",
		"block_min", "block_min(v): the least v of the block, to every thread",
		"block_max", "block_max(v): the greatest v of the block, to every thread",
		"block_scan", "block_scan(v): the inclusive prefix sum of v in thread order",
		"block_scan_exclusive", "block_scan_exclusive(v): the exclusive prefix sum of v (thread 0 gets 0)",
		"block_count", "block_count(p): the number of threads of the block where p holds (i32)",
		"block_any", "block_any(p): whether p holds on some thread of the block",
		"block_all", "block_all(p): whether p holds on every thread of the block"),
	described(topicMath, false, "(x)", "as a float; of an array, elementwise (f32 stays f32; ints give f64); also in kernels, on f32 and f64",
		"sqrt", "the square root", "sin", "the sine (radians)", "cos", "the cosine", "tan", "the tangent",
		"asin", "the arc sine", "acos", "the arc cosine", "atan", "the arc tangent", "sinh", "the hyperbolic sine",
		"cosh", "the hyperbolic cosine", "tanh", "the hyperbolic tangent", "exp", "e to the x", "exp2", "2 to the x",
		"log", "the natural logarithm", "log2", "the base-2 logarithm", "log10", "the base-10 logarithm",
		"floor", "the largest whole number <= x", "ceil", "the smallest whole number >= x",
		"trunc", "x without its fraction (toward zero)"),
	described(topicKernel, true, "", "in kernels, on f32 and f64",
		"rsqrt", "rsqrt(x): 1 / sqrt(x) (the hardware approximation in a fast kernel)", "atan2", "atan2(y, x): the angle of (x, y)",
		"fma", "fma(a, b, c): a * b + c, rounded once", "clamp", "clamp(x, lo, hi): x limited to [lo, hi] (ints too)",
		"sign", "sign(x): -1, 0 or 1 (ints too)", "isnan", "isnan(x): whether x is NaN",
		"isinf", "isinf(x): whether x is infinite", "isfinite", "isfinite(x): whether x is neither infinite nor NaN"),
	described(topicKernel, true, "(rng)", "drawn from the state variable rng, which it advances (Warp's rand.h)",
		"sample_triangle", "a vec2 of uniform barycentric coordinates (u, v) on a triangle",
		"sample_unit_ring", "a vec2 uniform on the unit circle", "sample_unit_disk", "a vec2 uniform in the unit disk",
		"sample_unit_sphere_surface", "a vec3 uniform on the unit sphere",
		"sample_unit_sphere", "a vec3 uniform in the unit ball",
		"sample_unit_hemisphere_surface", "a vec3 uniform on the unit hemisphere z >= 0",
		"sample_unit_hemisphere", "a vec3 uniform in the unit half ball z >= 0",
		"sample_unit_square", "a vec2 uniform in [-0.5, 0.5)^2", "sample_unit_cube", "a vec3 uniform in [-0.5, 0.5)^3",
		"sample_unit_hypercube", "a vec4 uniform in [-0.5, 0.5)^4"),
	family(topicValues, "%s", "a dtype; calling it converts a number to a scalar of that type (f32(2.5))",
		"bool u8 i32 i64 u32 u64 f32 f64"),
	family(topicValues, "%s", "a memory kind (MEMORY.md section 1); int(kind) is its value",
		"UNKNOWN HOST PINNED CUDA_DEVICE CUDA_MEMPOOL CUDA_MANAGED"),
	linalgDocs(),
	libraryDocs,
)

// described makes one entry per (name, summary) pair of pairs; sig is
// the name followed by args, or, when args is "", the summary's text up
// to its colon; tail ends every summary.
func described(topic string, kernel bool, args, tail string, pairs ...string) []Doc {
	var out []Doc
	for i := 0; i+1 < len(pairs); i += 2 {
		sig, summary := pairs[i]+args, pairs[i+1]
		if args == "" {
			sig, summary, _ = strings.Cut(summary, ": ")
		}
		out = append(out, Doc{pairs[i], topic, sig, summary + ", " + tail, kernel})
	}
	return out
}

// family makes one entry per name of names with one summary; sig is a
// format with the name's %s.
func family(topic, sig, summary, names string) []Doc {
	var out []Doc
	for _, n := range strings.Fields(names) {
		out = append(out, Doc{n, topic, fmt.Sprintf(sig, n), summary, topic == topicKernel})
	}
	return out
}

// Docs returns every entry, sorted by name.
func Docs() []Doc {
	out := slices.Clone(docs)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupDoc finds name's entry: a builtin's, or a method's ("list.append",
// the name a bound method l.append has).
func LookupDoc(name string) (Doc, bool) {
	for _, d := range docs {
		if d.Name == name {
			return d, true
		}
	}
	for _, d := range methodDocs() {
		if d.Name == name {
			return d, true
		}
	}
	return Doc{}, false
}

// topicMethods lists the methods, after the builtins' topics.
const topicMethods = "methods of lists, strings and dicts (x.name(...))"

// methodDocs are interp's methods as entries named type.method.
func methodDocs() []Doc {
	var out []Doc
	for _, m := range interp.Methods() {
		name := m.Type + "." + m.Name
		out = append(out, Doc{Name: name, Topic: topicMethods, Sig: m.Type + "." + m.Sig, Summary: m.Summary})
	}
	return out
}

// WriteDoc writes one entry: the signature, then the summary indented.
func WriteDoc(w io.Writer, d Doc) error {
	where := ""
	if d.Kernel {
		where = " (kernels only)"
	}
	_, err := fmt.Fprintf(w, "%s%s\n    %s\n", d.Sig, where, d.Summary)
	return err
}

// WriteIndex writes every entry's name and summary, by topic.
func WriteIndex(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range topics {
		fmt.Fprintf(tw, "%s:\n", t)
		for _, d := range Docs() {
			if d.Topic == t {
				fmt.Fprintf(tw, "  %s\t%s\n", d.Name, d.Summary)
			}
		}
	}
	fmt.Fprintf(tw, "%s:\n", topicMethods)
	for _, d := range methodDocs() {
		fmt.Fprintf(tw, "  %s\t%s\n", d.Name, d.Summary)
	}
	return tw.Flush()
}

// help is help([name]): name's entry, or the index. The name may be a
// string or the value itself (help(zeros), help(f32)); a script's own
// fn, kernel or func is described by its declaration.
func help(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	if len(args.Positional) == 0 {
		return interp.Nil, WriteIndex(th.Stdout)
	}
	name, err := helpName(args.Positional[0])
	if err != nil {
		return nil, err
	}
	d, ok := LookupDoc(name)
	if !ok {
		return nil, fmt.Errorf("help: no entry for %s (help() lists the builtins)", name)
	}
	return interp.Nil, WriteDoc(th.Stdout, d)
}

// helpName is the name help looks up for v.
func helpName(v interp.Value) (string, error) {
	switch v := v.(type) {
	case interp.String:
		return string(v), nil
	case *interp.Builtin:
		return v.Name, nil
	case interp.DType, interp.VecType, interp.Kind:
		return v.String(), nil
	case *interp.Closure, *interp.Kernel, *interp.DeviceFunc:
		return "", fmt.Errorf("help: %s is defined by the script, not a builtin", v)
	}
	return "", fmt.Errorf("help: want a builtin or its name, not %s", v.Type())
}
