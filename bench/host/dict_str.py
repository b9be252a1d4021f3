# dict_str.py: the twin of dict_str.gs.
import time


def run(keys):
    d = {}
    i = 0
    for k in keys:
        d[k] = i
        i += 1
    s = 0
    for k in keys:
        s += d[k]
    return s


keys = []
for i in range(1000000):
    keys.append("k" + str(i))
t0 = time.perf_counter()
r = run(keys)
t = time.perf_counter() - t0
print("result", r)
print("time", f"{t:.6f}")
