# append.py: the twin of append.gs.
import time


def build(n):
    l = []
    for i in range(n):
        l.append(i)
    s = 0
    for v in l:
        s += v
    return s


t0 = time.perf_counter()
r = build(1000000)
t = time.perf_counter() - t0
print("result", r)
print("time", f"{t:.6f}")
