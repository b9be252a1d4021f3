# loop_top.py: the twin of loop_top.gs (module-level globals, as there).
import time

t0 = time.perf_counter()
s = 0
for i in range(10000000):
    s += i
t = time.perf_counter() - t0
print("result", s)
print("time", f"{t:.6f}")
