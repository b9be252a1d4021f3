# cpu.py: the NumPy side of bench/cpu/run.sh (Debian's python3-numpy):
# the same workloads and data as cpu.c and cpu.gs, "name best_ms" lines.
import time

import numpy as np

N, SIDE, REPS = 1 << 24, 4096, 10
x = (np.arange(N) % 7).astype(np.float32) - np.float32(3)
y = np.ones(N, np.float32)
x2 = x.reshape(SIDE, SIDE)
a = np.float32(0.5)
m1 = np.ones((1024, 1024), np.float32)


def axpy():
    global y
    y += a * x


z = np.zeros(N, np.float32)


def axpbz_store():
    np.multiply(x, a, out=z)
    np.add(z, y, out=z)


def where_store():
    np.copyto(z, np.where(x > 0, x, np.float32(0)))


zj = np.zeros((SIDE, SIDE), np.float32)


def jacobi():
    zj[1:-1, 1:-1] = np.float32(0.25) * (x2[:-2, 1:-1] + x2[2:, 1:-1] + x2[1:-1, :-2] + x2[1:-1, 2:])


work = [
    ("axpy", axpy),
    ("axpbz", lambda: a * x + y),
    ("axpbz_store", axpbz_store),
    ("where", lambda: np.where(x > 0, x, np.float32(0))),
    ("where_store", where_store),
    ("sum", lambda: x.sum()),
    ("max", lambda: x.max()),
    ("sum_axis1", lambda: x2.sum(axis=1)),
    ("cumsum", lambda: np.cumsum(x)),
    ("jacobi", jacobi),
    ("matmul", lambda: m1 @ m1),
]
for name, f in work:
    f()
    best = 1e30
    for _ in range(REPS):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    print(name, "%.3f" % (best * 1e3))
