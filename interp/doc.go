// Package interp is gscript's host evaluator and embedding API: it parses
// and checks a script with lang, runs its host code, and sends kernels to a
// device runtime. One Interp runs one script (or one REPL session) at a time.
//
// # Decisions
//
//   - Host code is compiled once per chunk, program and imported file,
//     after check, and never walked again; a Program's code is immutable
//     and shared by the interpreters that run it. A fn body becomes
//     register code (vm.go, vm_compile.go): its locals are its frame's
//     slots and its registers, temporaries above them; control flow,
//     locals, globals, literals, arithmetic, comparisons, x[k], x[k] = v,
//     for loops and calls of global fns are instructions. Every other
//     form, and a file's top level (run once; its variables are globals),
//     is compiled into Go closures over resolved slots (compile*.go: an
//     evalFn, an execFn, a condFn), which an instruction calls (opEval,
//     opExec) over the same frame; a break, continue or return they end
//     with goes where the machine's own would. So there is one compiler
//     of each form and one definition of each operator (binary()); the
//     tree-walker the closures replaced is gone. TestDiffEngines compares
//     the engine with any reference binary (-gscript.ref) over generated
//     programs, each also as a fn body, and the repository's scripts.
//   - Why register code: measured in bench/host/regvm beside the
//     closures, with the same obligations (tagged registers, step and
//     cancel polls, MaxDepth, backtraces, rebindable globals, reused
//     frames), a register VM's call-free two-level dispatch ran fib(20) at
//     17.9 ns a call against the closures' 27.8 and the 10^5 loop in a fn
//     at 4.2 ns an iteration against 7.1 (2-core machine); a plain switch
//     ran 21.3 and 5.6, a handler table 34.2 and 7.5. The machine here has
//     that shape: hot runs the common case of each instruction in a switch
//     that calls no function, so Go keeps its state in registers; anything
//     else (not two unboxed numbers, an error, a closure to call) leaves
//     it for step, which may call anything. A call of a fn compiled to
//     register code whose frame can be reused runs in the same loop: it
//     fills the callee's call record (the return's pc and register) and
//     switches code, with no Go call, so recursion costs no Go stack and
//     its calls count nothing against the bound on Go's stack. fib(30):
//     0.072 s on the closures, 0.047-0.049 s on the first machine (1.96-
//     2.04x CPython), 0.041 s (2.3x) with the two changes below
//     (2-core). Tried and measured no faster: registers
//     as an unsafe array (no bounds checks), the running fn in a Go
//     variable (more register pressure), the call record's pointers
//     stored only when they change, step called from the hot loop
//     instead of returning to it, and clear() for the registers (a runtime
//     call: 11% slower).
//   - A return in the hot loop leaves the callee's registers as they are
//     (fib(30) 12% faster: clearing four registers was a sixth of a call).
//     Thread.stale marks the frames above the running calls that may hold
//     a returned call's values, and clearStale drops them before the
//     general path's every instruction. Nothing is kept alive longer
//     where it matters: the hot loop allocates nothing, and every
//     allocation, builtin call, closure-run form and the machine's exit
//     go through the general path (TestReturnedCallsKeepNothingAlive). A
//     call clears its named locals (fnCode.declared) after the arguments,
//     so a reused frame still starts unset; temporaries are written
//     before they are read; slots past a frame's length stay unset.
//   - Two pairs of instructions are fused (vm_compile.go fuse): a
//     compare-and-branch over one opRet (`if n < 2 { return n }`) and an
//     add-immediate before a global call (`fib(n - 1)`); the hot loop runs
//     the second straight after the first (a goto, no dispatch). The
//     second stays in the code, so the fused one's general path is its
//     first's. 3% on fib(30).
//   - Stores into registers are heap stores, which pay a write barrier
//     while the collector runs: a number's register keeps its tag when it
//     has one (setIntReg), the arguments of a call are computed
//     materialised so the call copies them without a test, a global
//     callee is read by the call itself when no argument can rebind it
//     (opCallG: only an undefined callee's error then comes after an
//     argument's), and a literal operand of a compound assignment or a
//     non-additive operator is read from the constants (opCompoundK,
//     opArithK).
//   - A call through the closures (a fn called from top level, from a
//     builtin, or from a closure-compiled form) of a global fn with at most
//     two arguments evaluates them into Go variables and, in the common
//     case (a depth entered before, its reused frame large enough), stores
//     them into the frame and runs the body with no other Go call between
//     (compile_call.go globalFn). The call stack is a stack of per-depth
//     records holding the call (for backtraces), the frame and, for a call
//     the machine made, where it returns. A step reads the cancel flag
//     and compares its count with the next step the budget needs
//     checking at: a load and two compares. (Reading the flag only every
//     1024 steps would let a loop of 1 ms builtin calls run on for a
//     second after Ctrl-C.)
//   - Values in the engine are cells (cell.go): an int or a float unboxed
//     beside its tag, a string being built (`s += t`) as its buffer and
//     length, anything else a Value. Results of host arithmetic,
//     loop counters, fn arguments and results stay unboxed, so `s += i`
//     and a call of a fn whose body declares no fn allocate nothing
//     (TestLoopsAllocateNothing, TestCallsAllocateNothing); a number that
//     arrived boxed (a literal, boxed once at compile time; a builtin's
//     result) stays boxed, so passing it to a builtin or a launch again
//     allocates nothing either. Values leave the engine boxed.
//   - A fn call's frame is the thread's frame for that call depth, reused
//     and cleared, unless a fn is declared in the callee's body (its
//     closure may keep the frame: then the frame is the call's own). The
//     hot shapes (`n - 1`, `i < n`, `s += i`, a call of a global fn) are
//     superinstructions that read a slot or a literal without an operand
//     closure (compile_fast.go); anything but two ints or two floats takes
//     binary(), the one definition of the operators.
//   - Fn calls nest at most Options.MaxDepth deep (default 10 000); each
//     call through the closures also counts its body's deepest expression
//     nesting against a bound on the Go stack as a whole, so no script
//     overflows it (the machine's own calls use none).
//     Errors print their backtrace as `  in NAME (file:line:col)` lines,
//     at most the first and last ten.
//   - try/catch catches any run-time error raised in its body, in the fns
//     it calls and in builtins, and binds an ErrorValue (message,
//     position); interrupts, the step budget, MaxDepth, the memory limit
//     (mem.ErrMemoryLimit), a closed interpreter and internal errors are
//     not catchable, so an embedder's limits hold.
//   - An array of a vector, matrix or quaternion type is an Array whose
//     Elem is that type over a mem.Array of the lane type with the type's
//     Dims as trailing axes (lang/dtype's layout). The element type lives
//     here, not in runtime/mem: memory, devices, copies, fills and kernels
//     only ever see scalars, and a.view(f32) is the same mem.Array without
//     Elem.
//   - What a script sees counts elements: shape, ndim, size, len, indices
//     and slices cover the element axes only, so the lane axes can be
//     neither indexed nor sliced, and every view of such an array keeps
//     its lanes whole and contiguous (only Go code wrapping a mem.Array
//     could build one otherwise; launches refuse it).
//   - Builtins that compute on scalar elements take arrays through
//     Array.Plain, which refuses compound ones with a pointer to
//     a.view(lane type): treating a vec3[n] as [n, 3] is always asked for,
//     never implied. Those that move or place memory (copy, fill, to,
//     save, free, prefetch) take any array, and reshape, .T and transpose
//     act on the element axes.
//   - An element store takes a vector of exactly the element type, or a
//     scalar converted to the lane type into every lane (as a scalar fills
//     a whole array); fills of a whole array or view are one store
//     kernel per lane on the array's device.
//   - An array of a struct is an Array whose Elem is the struct type over
//     a u8 mem.Array with one trailing byte axis of the struct's Size,
//     always contiguous (views keep it whole), so a lane is LaneType's
//     bytes at LaneOffset: element reads and writes go through the
//     element's bytes, and fills are one u8 fill per byte (structarrays.go).
//     A struct element takes only a value of its struct type, and ones
//     refuses a struct: a struct has no "one".
//   - Launches check arguments against the kernel's source signature
//     (Kernel.Params, from check.Info.Signatures) and pack each as the IR
//     parameters dtype.FlattenParams lowers it to, so errors name source
//     types (want array[vec3], got array[f32, 2]).
//   - The launch rules (dimensions, tid()'s arity, extents, the grid,
//     array arguments) are the backend's: backend.CheckLaunch, called by
//     every Program.Launch. A launch statement checks only what needs the
//     source (a block kernel launched without grid(...), grid(...) for a
//     flat kernel: messages that say how to launch it; the source
//     signature's argument count and types) and points the backend's
//     LaunchError at the dimension, grid or argument it names.
//   - A Thread's launch state is its launcher (launcher.go): the backend
//     Env with the cpu kernel step budget, the compiled programs by kernel,
//     device and options (the last one found without the map), the stacks
//     a launch evaluates and packs onto, the access checker and automatic
//     prefetch of the arguments being packed, and the CUDA devices
//     launched on since the last wait. A launch statement in a loop
//     allocates nothing on either backend (TestLaunchLoopAllocates,
//     TestGPULaunchLoopAllocates).
//   - Library kernels (built in Go: stdlib's fills, fused expressions,
//     reductions, scans, ranges, random numbers, matmul's fallback) launch
//     through one typed entry, Thread.LaunchLibrary with KernelArgs
//     (library.go): scalars are packed as their parameter's dtype when
//     added, arrays are kept as *mem.Array and pass the launch statement's
//     access check, ordering and prefetch (packArray), so no caller boxes
//     an array into a Value to have it unboxed. Library kernels ignore
//     config.fast_math. Thread.LaunchKernel, for embedders, packs Values
//     through the same entry. The kernels come from the process cache
//     (lang/ir/cache; GeneratedKernel by name), launches past 2^31-1
//     elements are split by one chunker (Chunks: whole rows of axis 0).
//   - `dst[...] = v` casts as NumPy's `=` (casting='unsafe'): any dtype
//     converts as a kernel conversion does, `a[:] = b * 2.0` into an int
//     array too; `y op= v` keeps NumPy's same_kind rule. Fills, copies,
//     slice assignment and `op=` are one store engine (ArrayOps.Store,
//     stdlib/fuse) with the Cast mode as a parameter; interp keeps the
//     device copy fast path (mem.CopyDevice), the host path for memory a
//     kernel does not reach (mem.Array.KernelReaches) and the temporary
//     of an overlapping copy (refused inside capture).
//   - Host values v3 (HOST.md sections 2-3). A Dict is an ordered entry
//     slice plus a Go map from a normalised key (dictKey) to the entry's
//     index; a delete leaves a tombstone that the next growth compacts
//     when they are half the slice. Equal numbers are one key (1, 1.0,
//     i32(1), as Python), the first key set is the one kept and printed;
//     bools are not numbers in gscript (true == 1 is an error), so true
//     and 1 are two keys, unlike Python; nan is refused as a key (it
//     equals nothing); f32 scalars key by their exact value (f32(0.1) is
//     not the key 0.1, although == converts 0.1 to f32 first). Dicts and
//     lists grow by doubling, each new backing array checked against the
//     caps (MaxListLen entries) and held under MemoryLimit (mem.HoldHost).
//   - Lists have storage strategies (list.go, PyPy's list strategies): a
//     list of ints only keeps them unboxed, one of floats only too, any
//     other in a []Value. Ints and floats share one []uint64 (an int's
//     bits or a float's, as a cell holds them), so that a List is 64 bytes
//     rather than 96 with a slice of each (the [k, v] pairs of d.items(),
//     enumerate and zip are a List each); Ints and Floats view it as
//     []int64 or []float64 (unsafe.Slice). An empty list takes the
//     kind of its first element; storing another kind into an int or float
//     list converts it to []Value once (O(n)); a list never goes back, so a
//     list that mixes kinds converts at most once. Nothing shows to a
//     script: 1 stays an int beside 2.5 ([1, 2.5] is generic). Why: 10^6
//     `l.append(i)` then a sum loop ran at 0.75x CPython, and its profile
//     was the boxing (an allocation per int) and the GC's work on a []Value
//     of pointers (scanning, marking, write barriers on every growth's
//     copy: bulkBarrierPreWrite 19%, typedslicecopy 28%); a []uint64 is a
//     noscan allocation, copied with memmove. The engine reads and writes
//     cells (cellAt, appendCell, setCell, the list iterator's nextCell,
//     unpackCells), so l.append(i), l[i], l[i] = v, `for v in l` and
//     unpacking allocate nothing for ints and floats; ==, in, count,
//     index, +, *, slices, extend, sort() and sorted (ints), reversed,
//     and stdlib's sum, mean, max, min and enumerate work on the unboxed
//     storage. Under MemoryLimit an int or float
//     element costs 8 bytes, a generic one 16 (listElemBytes), each
//     backing array held while it lives (a conversion holds its new one).
//     The Go API changed with it: List's elements are private, behind
//     NewList (a copy of its arguments), NewIntList, NewFloatList, Len, At,
//     Values (a boxed copy), Ints and Floats (the unboxed storage, read in
//     place), Copy, Reverse, Thread.Append, Thread.SetElem (an error,
//     since a conversion is counted) and Thread.SortList.
//   - Methods are tables per type (methods.go, strs.go): CallMethod runs
//     one without building a bound method; getAttr builds one (a Builtin
//     named "list.append", which help finds). An unknown method names the
//     closest within two edits, else lists them. Other values' x.f(...)
//     is getAttr then Call, as before.
//   - Iter (iter.go) is the loop protocol: lists and dicts are iterated
//     live and a size change since the loop began is an error at the next
//     step (Python's dict rule, extended to lists, whose silent skips
//     Python allows); arrays are read when the loop starts, as the
//     tree-walker's for did.
//   - s += t appends into one of four per-thread buffers when s is exactly
//     a buffer's contents; the result shares the buffer, whose bytes past
//     the handed-out prefix are the only ones ever written, so strings
//     stay immutable. A plain + extends a buffer but never starts one
//     (so one-off concatenations do not pay the spare capacity).
//   - ** is exact for ints (squaring, overflow an error), a float for an
//     untyped int to a negative power (Python's), an error for a typed int
//     to a negative one (NumPy's); on arrays it is fuse's (pow on floats,
//     square-and-multiply on ints, keeping NumPy's dtypes). `in` on a list
//     compares with ==, values of other types being unequal rather than
//     an error; on an array it is not yet supported.
//   - Negative list and string indices and slice bounds count from the end
//     (Python's); strings index to 1-byte strings (bytes, as len counts).
//   - `tape NAME { }` (docs/autodiff.md) compiles as capture does: the
//     body is a block handed to Thread.runTape, which runs it while the
//     tape records and returns the tape, bound to NAME after the body.
//   - A kernel declared `adjoint k_adj` is a Kernel whose Adjoint is
//     k_adj's value (its IR and signature; one level: Adjoint's own
//     Adjoint is not filled in). Every chunk, program and imported file is
//     checked through checkChunk, which after lang/check (the source
//     signatures) runs lang/ad.CheckCustom on the lowered IR of each
//     declared pair, so a custom adjoint the tape would launch with the
//     wrong params is a compile error at the clause, never a run-time one.
package interp
