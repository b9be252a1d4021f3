// all_reduce bandwidth over the ranks of a run (docs/distributed.md):
//
//	gscript run -n 4 bench/dist/all_reduce.gs
//
// For each size, an f32 all_reduce on the default device (cpu arrays go
// over TCP, CUDA arrays through NCCL): the best of reps runs after one
// warm-up, as torch's all_reduce benchmarks report it: algbw is the
// buffer's size over the time, busbw that times 2 (n - 1) / n.
let reps = int(env("REPS", "5"))
let w = world_size()
for mib in [1, 4, 16, 64] {
    let x = zeros(mib * 262144)
    all_reduce(x)
    let best = 1e9
    for i in range(reps) {
        synchronize()
        barrier()
        let t0 = time()
        all_reduce(x)
        synchronize()
        best = min(best, time() - t0)
    }
    if rank() == 0 {
        let algbw = float(mib) / 1024.0 / best
        print(format("%2d MiB over %d ranks on %s: %7.2f ms, algbw %.3f GB/s, busbw %.3f GB/s", mib, w, x.device, best * 1000.0, algbw, algbw * 2.0 * float(w - 1) / float(w)))
    }
}
