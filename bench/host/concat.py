# concat.py: the twin of concat.gs.
import time


def build(n):
    s = ""
    for i in range(n):
        s += "ab"
    return s


t0 = time.perf_counter()
s = build(100000)
t = time.perf_counter() - t0
print("result", len(s), s[:6])
print("time", f"{t:.6f}")
