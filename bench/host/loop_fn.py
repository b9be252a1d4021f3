# loop_fn.py: the twin of loop_fn.gs.
import time


def loop(n):
    s = 0
    for i in range(n):
        s += i
    return s


t0 = time.perf_counter()
r = loop(10000000)
t = time.perf_counter() - t0
print("result", r)
print("time", f"{t:.6f}")
