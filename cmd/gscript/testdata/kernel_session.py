"""Drive the gscript kernel with jupyter_client: interrupt, restart, timing.

TestKernelClient (jupyter_test.go) runs it; it prints one line per check
and "round trip: MEDIAN ms" for a trivial cell, and exits 1 on a failure.
"""
import os
import statistics
import sys
import time

from jupyter_client.manager import start_new_kernel

km, kc = start_new_kernel(kernel_name="gscript")
failed = False


def check(name, ok, detail=""):
    global failed
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + str(detail)))
    failed = failed or not ok


def run(code):
    r = kc.execute_interactive(code, timeout=30, output_hook=lambda m: None)
    return r["content"]


check("a cell", run("let kept = 42\nkept")["status"] == "ok")
msg_id = kc.execute("while true {\n}")
reply = None
for _ in range(20):  # an interrupt before the cell starts does nothing: again until the reply comes
    time.sleep(0.2)
    km.interrupt_kernel()  # kernel.json's interrupt_mode: an interrupt_request on control
    try:
        reply = kc.get_shell_msg(timeout=1)
        break
    except Exception:
        pass
check("interrupt", reply is not None and reply["parent_header"]["msg_id"] == msg_id and reply["content"].get("ename") == "Interrupted", reply)
check("the session survives", run("kept + 1")["status"] == "ok")
km.restart_kernel(now=False)
kc.wait_for_ready(timeout=30)
r = run("kept")
check("a restart starts a new session", r["status"] == "error" and "undefined: kept" in r.get("evalue", ""), r)
times = []
for _ in range(100):
    t0 = time.perf_counter()
    run("1")
    times.append((time.perf_counter() - t0) * 1000)
print("round trip: %.2f ms" % statistics.median(times))
kc.stop_channels()
km.shutdown_kernel(now=False)
check("shutdown ends the kernel", not km.is_alive())
sys.stdout.flush()
os._exit(1 if failed else 0)  # skip jupyter_client's destructors, which log into a closed interpreter
