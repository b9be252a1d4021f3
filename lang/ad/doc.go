// Package ad is reverse-mode differentiation of kernels: an IR-to-IR pass
// that turns a checked kernel (lang/check's lowering) into its adjoint
// kernel, ordinary IR that passes ir.Verify and runs on every backend
// unchanged. Each op's derivative is the op table's adjoint column
// (lang/ir, "Adjoint rules"); this package handles control flow, memory,
// calls and the registers between them. The tape, .grad and launching the
// adjoints are the interpreter's.
//
// # The adjoint kernel
//
// Kernel(k) gives a kernel whose params are k's, then one gradient array
// per GradParams(k.Entry) (each f32 or f64 array param, in order: the same
// element type and rank, named x_grad). It is launched with the forward's
// geometry, after the forward ran. Each thread replays the forward's
// computation (reading the inputs again, as Warp recomputes), then runs the
// reverse sweep: it reads the gradients of the arrays the kernel writes and
// accumulates into the gradients of the arrays it reads. It never writes
// the forward's arrays.
//
// # Decisions
//
//   - Calls are inlined first (a func's locals get copies, zeroed at each
//     call as a call does), so funcs with several results (a vector is one
//     register per lane) and vec/mat/quat math differentiate as any code.
//     break, continue and return then become bool flags that guard what
//     follows them, so the reverse sweep meets only instructions, ifs and
//     loops that run their body to its end.
//   - Registers are mutable: each instruction gets a register of its own (a
//     version); the two sides of an if end with moves to one merged
//     version; a loop reads what it writes through header versions set
//     before it and at each back edge. The reverse of an if is an if on
//     the same (kept) condition over the reverse of each side.
//   - Loops, static or dynamic bounds alike: the forward replay counts the
//     iterations n. The reverse runs the loop forward again from the state
//     before it, keeping a checkpoint of every register the loop writes
//     every s = ceil(n/64) iterations in a per-thread local array (64
//     slots per register); then for j = n-1 down to 0 it restores the
//     checkpoint before j, runs forward to j, recomputes iteration j and
//     runs its reverse. Gradients are exact for any n; the cost is two
//     forward passes plus, for n > 64, about s/2 iterations recomputed per
//     iteration (n = 1000: about 8 times the forward). The carried
//     adjoints move from an iteration's header to the previous iteration's
//     end; a loop through whose body no gradient flows gets no reverse.
//   - Where the reverse of a loop's body reads, of what the loop carries,
//     only inductions (an integer h = h + c at the top of the post, c
//     fixed before the loop: range(n)'s counter), no checkpoint is kept:
//     iteration j sets h = pre + j*c and recomputes only the instructions
//     its reverse reads (a backward slice), so `for k in range(n) { acc
//     += f(x[k]) }` (an n-body step, a dot product) costs one extra pass.
//     A loop whose body holds another loop, or whose reverse reads a
//     carried value (p = p * x), takes the checkpoints.
//   - A loop carries the registers it writes, less temporaries: a
//     register written by one instruction and read only after it in its
//     statement list is rewritten before each read, so it needs neither
//     a header version nor a checkpoint.
//   - A float computed in a loop condition and used outside it is refused
//     (the condition's floats only feed comparisons, which carry no
//     gradient).
//   - Loads x[idx] add the value's gradient to x_grad[idx] with an atomic
//     add, except where every access of x in the kernel indexes it with
//     exactly the thread's tid registers (written once, from tid or a move
//     of one) over all its axes: there no other thread touches the element,
//     so a plain load-add-store is used, which is faster and deterministic
//     (per-element kernels give bit-identical gradients on cpu and cuda).
//     Stores y[idx] = v give v the gradient y_grad[idx], which is read,
//     not consumed (y_grad keeps it, as Warp's does). For an own-element
//     array the last store a thread executes takes it and what it
//     overwrote (earlier stores, atomic additions) gets none (exact: a
//     per-thread flag). Elsewhere a thread
//     that stores one element twice gives both values its gradient, as
//     Warp does: the pass cannot tell statically that two stores hit one
//     element (y[i, k] in a loop over k hits a new one each time), so this
//     is documented rather than refused. atomic_add and atomic_sub give their
//     value ±y_grad[idx]. atomic_min, atomic_max and atomic_cas, and a
//     use of the old value an atomic returns, are refused (which thread
//     wins is not replayed).
//   - A kernel that loads an array it also stores or updates atomically is
//     refused ("overwrites its input x"): the replay would read the new
//     values. This holds for every element type, since the replay of an
//     integer load matters as much.
//   - Local arrays: the replay keeps their stores, and every load reads a
//     local's final contents, so a local must be written before it is read
//     and never written and read in one loop; otherwise the kernel is
//     refused. Their adjoints are locals of the same shape: a load adds to
//     the element's adjoint, a store moves it to the stored value.
//   - Ints, bools and scalar params get no gradient (a scalar that needs
//     one is passed as a 1-element array); random numbers are integer ops,
//     and the replay draws the same numbers. floor, ceil, round, trunc and
//     sign carry none. Struct (u8) arrays carry none yet. print is left
//     out of the adjoint.
//   - Refused with "not differentiable yet": block kernels, shared arrays,
//     every block op (warp and block collectives, shuffles, sync).
//   - CheckCustom checks a user's adjoint kernel against the same
//     signature.
package ad
