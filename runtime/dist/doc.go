// Package dist is gscript's distributed runtime (SCALE.md sections 2-5):
// where a rank stands (Config, read from a launcher's variables by
// FromEnv), the TCP store the ranks meet at (Store, Client), and the
// group of connections between them (Group) with the collectives on host
// memory. CUDA arrays go through NCCL (runtime/cuda's binding; nccl.go
// here holds the policy: communicators, checks, errors).
//
// # Decisions
//
//   - The cpu collectives run over a full mesh of TCP connections (one per
//     pair of ranks), made through the store when a script first
//     communicates: all_reduce, all_gather and reduce_scatter use the ring
//     (each rank moves about twice the buffer whatever the world size);
//     broadcast and reduce go straight from and to the root, which sums
//     the others' buffers in rank order. It is the test and small-job
//     path, not a fast transport.
//   - A rank's failure reaches every rank: a failing rank sends its error
//     to every peer before closing (the others fail at once, naming the
//     rank and the cause); a killed rank's connections close (the kernel
//     closes them), which its peers report naming it; a rank that stops
//     answering is reported after the timeout (GSCRIPT_DIST_TIMEOUT,
//     default 300 s). After a failure the group is done: every later
//     collective returns the first error.
//   - Checked mode compares every call, not only the first per call site:
//     each rank sends every other a short description (name, dtype, shape,
//     op, root) and all fail alike on a mismatch. On the cpu path it costs
//     one small message per pair, next to the data; GSCRIPT_DIST_CHECK=0
//     turns it off (a size mismatch is then still caught by the frame
//     lengths).
//   - Under torchrun, whose agent serves torch's own store on MASTER_PORT
//     (TORCHELASTIC_USE_AGENT_STORE=True), gscript's store goes on
//     MASTER_PORT+1. gscript run serves the store itself (GSCRIPT_AGENT_STORE=1),
//     so no rank races for the port.
//   - NCCL: one communicator per CUDA device of a group, made by the first
//     collective on a CUDA array there (ncclCommInitRankScalable, the id
//     through the store; in relaxed capture mode inside a capture). The
//     ranks first compare their GPUs (host and PCI address) and refuse
//     two ranks on one with the remedy, on every rank. Two watchdogs abort
//     the communicator (so that waits for the stream end): one polls
//     ncclCommGetAsyncError every 100 ms, one waits for the store's
//     FaultKey, which the store sets when a rank's connection to it
//     closes before the rank left (killed) and a failing rank sets to its
//     error. A store that goes away is no fault (rank 0 may serve it and
//     end first); a peer that hangs without a fault is not timed out on
//     the GPU (NCCL has no timeout), but the next collective's check on
//     the host is. Enqueuing holds the communicator's lock, so an abort
//     never frees it under a call.
//   - The default device of a rank (interp.Thread.DefaultDevice) is
//     cuda:LOCAL_RANK only when the process sees at least LOCAL_WORLD_SIZE
//     GPUs, else cpu on every rank (SCALE.md says "more than LOCAL_RANK"):
//     with fewer GPUs than ranks, the first ranks would take GPUs and the
//     rest the cpu, and their collectives could not meet.
//   - avg is for float arrays; bools reduce as torch's do (sum and max are
//     or, prod and min are and); integers wrap on overflow.
package dist
