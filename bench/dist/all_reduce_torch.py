"""torch.distributed's all_reduce, measured as bench/dist/all_reduce.gs measures gscript's.

    torchrun --nproc-per-node 4 bench/dist/all_reduce_torch.py gloo              # cpu ranks, 1 to 64 MiB
    torchrun --nproc-per-node 1 bench/dist/all_reduce_torch.py nccl 4 65536 268435456

For each size (bytes of f32): after a warm-up, the best of three trials of
reps calls between synchronizations; the lines match the gscript script's.
"""

import os
import sys
import time

import torch
import torch.distributed as dist


def per_call(f, reps, cuda):
    best = 1e9
    for _ in range(3):
        if cuda:
            torch.cuda.synchronize()
        dist.barrier()
        t0 = time.perf_counter()
        for _ in range(reps):
            f()
        if cuda:
            torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def main():
    backend = sys.argv[1] if len(sys.argv) > 1 else "gloo"
    sizes = [int(a) for a in sys.argv[2:]] or [1 << 20, 4 << 20, 16 << 20, 64 << 20]
    dist.init_process_group(backend)
    rank, w = dist.get_rank(), dist.get_world_size()
    cuda = backend == "nccl"
    dev = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0"))) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(dev)
    for nbytes in sizes:
        x = torch.zeros(max(1, nbytes // 4), dtype=torch.float32, device=dev)
        dist.all_reduce(x)
        reps = max(1, min(100, (16 << 20) // nbytes))
        t = per_call(lambda: dist.all_reduce(x), reps, cuda)
        algbw = nbytes / t / 1e9
        if rank == 0:
            print(f"all_reduce {nbytes:10d} B over {w} ranks on {dev}: {t * 1e6:9.1f} us, "
                  f"algbw {algbw:7.3f} GB/s, busbw {algbw * 2 * (w - 1) / w:7.3f} GB/s")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
