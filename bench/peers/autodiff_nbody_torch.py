"""torch.autograd peer of bench/autodiff_nbody.gs: one n-body step (the
accelerations of N bodies from all pairs, softened, then a velocity and
position update) and the loss sum(p1 * p1), forward and forward +
backward with gradients for p, v and m, the median of 5 in ms after a
warm-up. The pairs are an [N, N, 3] tensor (torch has no fused loop),
so N = 16384 holds a few GiB per intermediate.

    python3 bench/peers/autodiff_nbody_torch.py [N]
"""
import statistics
import sys
import time

import torch


def step(p, v, m, eps2=1e-3, dt=0.01):
    d = p.unsqueeze(0) - p.unsqueeze(1)          # d[i, j] = p[j] - p[i]
    inv = torch.rsqrt((d * d).sum(-1) + eps2)
    a = (d * (m.unsqueeze(0) * inv * inv * inv).unsqueeze(-1)).sum(1)
    p1 = p + (v + a * dt) * dt
    return (p1 * p1).sum()


def timed(f):
    ts = []
    for _ in range(5):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        f()
        torch.cuda.synchronize()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 16384
    g = torch.Generator(device="cuda").manual_seed(1)
    p = (torch.rand(n, 3, device="cuda", generator=g) * 2 - 1).requires_grad_()
    v = ((torch.rand(n, 3, device="cuda", generator=g) - 0.5) * 0.2).requires_grad_()
    m = ((torch.rand(n, device="cuda", generator=g) + 0.5) / n).requires_grad_()

    def fwd():
        with torch.no_grad():
            step(p, v, m)

    def fwd_bwd():
        step(p, v, m).backward()

    fwd_bwd()
    tf, tb = timed(fwd), timed(fwd_bwd)
    print(f"RESULT name=torch_nbody_{n}_fwd value={tf:.3f} unit=ms")
    print(f"RESULT name=torch_nbody_{n}_fwd_bwd value={tb:.3f} unit=ms")


if __name__ == "__main__":
    main()
