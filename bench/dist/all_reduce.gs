// all_reduce over the ranks of a run (docs/distributed.md):
//
//	gscript run -n 4 bench/dist/all_reduce.gs                  cpu ranks, 1 to 64 MiB
//	gscript run -n 1 bench/dist/all_reduce.gs 4 65536 268435456  one GPU (NCCL), sizes in bytes
//
// all_reduce_torch.py measures torch.distributed the same way. For each
// size, an f32 all_reduce on the default device (cpu arrays go over TCP,
// CUDA arrays through NCCL): after a warm-up, the best of three trials of
// reps calls between synchronizations; algbw is the size over the time
// of one call, busbw that times 2 (n - 1) / n (nccl-tests' measures). On
// a CUDA device it also replays a captured all_reduce.
let sizes = [1 << 20, 4 << 20, 16 << 20, 64 << 20]
if len(argv) > 1 {
    sizes = []
    for a in argv[1:] {
        sizes.append(int(a))
    }
}
let w = world_size()

// per_call is the best time of one call f(x), over three trials of reps.
fn per_call(f, x, reps) {
    let best = 1e9
    for trial in range(3) {
        synchronize()
        barrier()
        let t0 = time()
        for i in range(reps) {
            f(x)
        }
        synchronize()
        best = min(best, (time() - t0) / float(reps))
    }
    return best
}

fn reduce_once(x) {
    all_reduce(x)
}

fn replay_ten(g) {
    replay(g, 10)
}

for bytes in sizes {
    let x = zeros(max(1, bytes / 4))
    all_reduce(x)
    let reps = max(1, min(100, (16 << 20) / bytes))
    let t = per_call(reduce_once, x, reps)
    let algbw = float(bytes) / t / 1e9
    if rank() == 0 {
        print(format("all_reduce %10d B over %d ranks on %s: %9.1f us, algbw %7.3f GB/s, busbw %7.3f GB/s", bytes, w, x.device, t * 1e6, algbw, algbw * 2.0 * float(w - 1) / float(w)))
    }
    if x.device != "cpu" {
        capture g {
            all_reduce(x)
        }
        let tr = per_call(replay_ten, g, reps) / 10.0
        if rank() == 0 {
            print(format("  captured, replayed: %9.1f us", tr * 1e6))
        }
    }
}
