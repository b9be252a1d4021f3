# fib.py: the twin of fib.gs.
import time


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


t0 = time.perf_counter()
r = fib(30)
t = time.perf_counter() - t0
print("result", r)
print("time", f"{t:.6f}")
