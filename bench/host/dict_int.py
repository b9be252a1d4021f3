# dict_int.py: the twin of dict_int.gs.
import time


def run(n):
    d = {}
    for i in range(n):
        d[i] = i
    s = 0
    for i in range(n):
        s += d[i]
    return s


t0 = time.perf_counter()
r = run(1000000)
t = time.perf_counter() - t0
print("result", r)
print("time", f"{t:.6f}")
