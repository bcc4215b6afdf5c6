#!/usr/bin/python3
"""numpy_slot.py - NumPy on tela through the system slot against NumPy on OpenBLAS.

Times np.linalg.qr, eigh, solve, cholesky and a @ b in fresh processes of Debian's NumPy: one
side with the tela wrappers first on the library path (what update-alternatives does to
libblas.so.3 and liblapack.so.3, no preload), the other on the system's slot as it is
(OpenBLAS on a stock Debian with libopenblas0), rounds interleaved A/B with the order swapped
each round, medians printed with the ratio OpenBLAS time / tela time (above 1: tela faster).
Each process checks what it runs on (libtela mapped and OpenBLAS not, or OpenBLAS's core name),
and the two sides' results must agree.

    /usr/bin/python3 bench/numpy_slot.py --slot-dir PREFIX/lib/tela [--sizes 1000,2000]
        [--threads 1,2] [--rounds 5] [--openblas-coretype SkylakeX]
"""
import argparse, json, os, statistics, subprocess, sys, time

OPERATIONS = ("matmul", "qr", "eigh", "solve", "cholesky")


def worker(n, seed):
    import ctypes
    import numpy as np
    maps = open("/proc/self/maps").read()
    library = "?"
    if "libopenblas" in maps:
        openblas = ctypes.CDLL("libopenblas.so.0")
        openblas.openblas_get_corename.restype = ctypes.c_char_p
        library = "OpenBLAS " + openblas.openblas_get_corename().decode()
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n))
    b = rng.standard_normal((n, n))
    s = a + a.T
    spd = a @ a.T + n * np.eye(n)
    rhs = rng.standard_normal(n)
    calls = {
        "matmul": lambda: a @ b,
        "qr": lambda: np.linalg.qr(a),
        "eigh": lambda: np.linalg.eigh(s),
        "solve": lambda: np.linalg.solve(a, rhs),
        "cholesky": lambda: np.linalg.cholesky(spd),
    }
    times, checks = {}, {}
    for name, call in calls.items():
        result = call()  # warm: threads started, pages touched
        best = float("inf")
        for _ in range(3):  # the best of three per process; the rounds give the median
            start = time.perf_counter()
            call()
            best = min(best, time.perf_counter() - start)
        times[name] = best
        # Quantities both libraries must agree on (up to rounding).
        if name == "qr":
            checks[name] = float(np.abs(np.diag(result[1])).sum())
        elif name == "eigh":
            checks[name] = float(result[0].sum() + np.abs(result[0]).max())
        else:
            checks[name] = float(np.abs(result).sum())
    # The library is re-read after the calls: the slot opens libtela on the first BLAS call.
    maps = open("/proc/self/maps").read()
    if "libtela.so" in maps:
        library = "tela" + (" (OpenBLAS also mapped!)" if "libopenblas" in maps else "")
    print(json.dumps({"library": library, "times": times, "checks": checks}))


def run_side(side, n, threads, seed, options):
    env = dict(os.environ)
    for variable in ("TELA_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        env[variable] = str(threads)
    env.pop("LD_PRELOAD", None)
    if side == "tela":
        env["LD_LIBRARY_PATH"] = options.slot_dir
    else:
        env.pop("LD_LIBRARY_PATH", None)
        if options.openblas_coretype:
            env["OPENBLAS_CORETYPE"] = options.openblas_coretype
    output = subprocess.run([sys.executable, __file__, "--worker", str(n), str(seed)], env=env,
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=2, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--slot-dir", help="folder holding tela's libblas.so.3 and liblapack.so.3")
    parser.add_argument("--sizes", default="1000,2000")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--openblas-coretype", default="",
                        help="OPENBLAS_CORETYPE for the OpenBLAS side only")
    options = parser.parse_args()
    if options.worker:
        worker(*options.worker)
        return
    if not options.slot_dir or not os.path.exists(os.path.join(options.slot_dir, "libblas.so.3")):
        parser.error("--slot-dir must name the folder of tela's libblas.so.3")
    print(f"# numpy_slot: rounds {options.rounds}, ratio = OpenBLAS median / tela median")
    print(f"{'n':>5} {'thr':>3} {'op':>9} {'tela s':>10} {'OpenBLAS s':>11} {'ratio':>6}  libraries")
    for n in map(int, options.sizes.split(",")):
        for threads in map(int, options.threads.split(",")):
            samples = {side: {op: [] for op in OPERATIONS} for side in ("tela", "openblas")}
            libraries, checks = {}, {}
            for round_index in range(options.rounds):
                order = ("tela", "openblas") if round_index % 2 == 0 else ("openblas", "tela")
                for side in order:
                    result = run_side(side, n, threads, 1234 + n, options)
                    libraries[side] = result["library"]
                    checks[side] = result["checks"]
                    for op in OPERATIONS:
                        samples[side][op].append(result["times"][op])
            for op in OPERATIONS:
                t, o = (statistics.median(samples[side][op]) for side in ("tela", "openblas"))
                x, y = checks["tela"][op], checks["openblas"][op]
                agree = abs(x - y) <= 1e-8 * max(abs(x), abs(y), 1.0)
                print(f"{n:>5} {threads:>3} {op:>9} {t:>10.4f} {o:>11.4f} {o / t:>6.2f}  "
                      f"{libraries['tela']} / {libraries['openblas']}"
                      f"{'' if agree else '  RESULTS DISAGREE: %r vs %r' % (x, y)}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
