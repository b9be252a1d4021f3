#!/usr/bin/env python3
"""GPU check of runtime/cuda/codegen output (run on a machine with a GPU).

    GS_CODEGEN_DUMP=$PWD/.gpu/codegen go test ./runtime/cuda/codegen -run DumpForGPU
    python3 runtime/cuda/codegen/testdata/gpucheck.py .gpu/codegen

Compiles every dumped .cu with NVRTC exactly as the runtime does
(-arch=sm_90 -default-device -std=c++17 --fmad=false -minimal), then runs manifest.json's launches
through CuPy with the compiled cubins and compares the outputs byte for byte
with the values Go computed. Exit status 1 on any failure.
"""
import ctypes, glob, json, os, sys
from concurrent.futures import ProcessPoolExecutor

OPTS = [b"-arch=sm_90", b"-default-device", b"-std=c++17", b"--fmad=false", b"-minimal"]


def nvrtc():
    for p in ("/usr/local/cuda/lib64/libnvrtc.so.13", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"):
        try:
            return ctypes.CDLL(p)
        except OSError:
            pass
    raise SystemExit("NVRTC not found")


def compile_one(path):
    nv = nvrtc()
    src = open(path, "rb").read()
    prog = ctypes.c_void_p()
    rc = nv.nvrtcCreateProgram(ctypes.byref(prog), src, os.path.basename(path).encode(), 0, None, None)
    if rc:
        return path, rc, "create failed", False
    opts = (ctypes.c_char_p * len(OPTS))(*OPTS)
    rc = nv.nvrtcCompileProgram(prog, len(OPTS), opts)
    size = ctypes.c_size_t()
    nv.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value + 1)
    nv.nvrtcGetProgramLog(prog, log)
    if rc == 0:
        nv.nvrtcGetCUBINSize(prog, ctypes.byref(size))
        cubin = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetCUBIN(prog, cubin)
        open(path[:-3] + ".cubin", "wb").write(cubin.raw)
    nv.nvrtcDestroyProgram(ctypes.byref(prog))
    return path, rc, log.value.decode(errors="replace").strip(), True


def compile_all(d):
    files = sorted(glob.glob(os.path.join(d, "*.cu")))
    bad = warned = 0
    kinds = {}
    with ProcessPoolExecutor(16) as ex:
        for path, rc, log, _ in ex.map(compile_one, files):
            if rc:
                bad += 1
                print("COMPILE FAIL", os.path.basename(path), rc, "\n" + log[:3000])
            elif log:
                warned += 1
                for line in log.splitlines():
                    if "warning" in line:
                        k = line.split("warning", 1)[1]
                        kinds.setdefault(k, os.path.basename(path))
    for k, f in sorted(kinds.items()):
        print("COMPILE WARN", k, "(first in", f + ")")
    print(f"compiled {len(files)} sources: {bad} failed, {warned} with warnings")
    return bad


def run_all(d):
    import numpy as np
    import cupy as cp
    DT = {"bool": np.bool_, "u8": np.uint8, "i32": np.int32, "i64": np.int64, "u32": np.uint32,
          "u64": np.uint64, "f32": np.float32, "f64": np.float64}
    # struct gs_arrayN: data, shape[N], strides[N]; struct gs_launch: n[4], total, per.
    ARR = {n: np.dtype([("data", np.uint64), ("shape", np.int64, (n,)), ("strides", np.int64, (n,))]) for n in (1, 2, 3, 4)}
    LAUNCH = np.dtype([("n", np.int64, (4,)), ("total", np.int64), ("per", np.int64)])
    # Every case runs coarsened (launch threads per CUDA thread, a block
    # apart; the launcher uses 1 for all but very large launches): 4 takes
    # the entry's unrolled path where it has one, 3 the general loop.
    cases = json.load(open(os.path.join(d, "manifest.json")))["cases"]
    fails = 0
    for i, c in enumerate(cases):
        PER = 4 if i % 2 else 3
        mod = cp.RawModule(path=os.path.join(d, c["file"][:-3] + ".cubin"))
        fn = mod.get_function(c["entry"])
        bufs, args = {}, []
        for i, a in enumerate(c["args"]):
            raw = np.frombuffer(bytes.fromhex(a["hex"]), DT[a["dtype"]])
            if a["array"]:
                buf = cp.asarray(raw.copy())
                bufs[i] = buf
                nd = len(a["shape"])
                s = np.zeros((), ARR[nd])
                s["data"] = buf.data.ptr + a.get("offset", 0) * raw.itemsize
                s["shape"] = list(a["shape"])
                s["strides"] = list(a["strides"])
                args.append(s[()])
            else:
                args.append(raw[0])
        dims = list(c["dims"]) + [1] * (4 - len(c["dims"]))
        total = int(np.prod(dims))
        launch = np.zeros((), LAUNCH)
        launch["n"], launch["total"], launch["per"] = dims, total, PER
        args.append(launch[()])
        err = None
        if c["debug"]:
            err = mod.get_global("gs_error")
            err.memset(0, 48)
        block = 256
        fn(((total + block * PER - 1) // (block * PER),), (block,), tuple(args))
        cp.cuda.Device().synchronize()
        problems = []
        for k, want in (c.get("expect") or {}).items():
            got = bufs[int(k)].get().tobytes().hex()
            if got != want:
                dt = DT[c["args"][int(k)]["dtype"]]
                problems.append(f"arg {k}: got {np.frombuffer(bytes.fromhex(got), dt)[:40]} "
                                f"want {np.frombuffer(bytes.fromhex(want), dt)[:40]}")
        if err is not None:
            rec = cp.ndarray((6,), cp.int64, err).get().tolist()
            want = c.get("error") or [0, 0, 0, 0, 0, 0]
            if rec != want:
                problems.append(f"error record {rec}, want {want}")
        print(("FAIL " if problems else "PASS ") + c["name"])
        for p in problems:
            print("   ", p)
        fails += bool(problems)
    print(f"ran {len(cases)} cases: {fails} failed")
    return fails


if __name__ == "__main__":
    d = sys.argv[1]
    bad = compile_all(d)
    fails = run_all(d)
    sys.exit(1 if bad or fails else 0)
