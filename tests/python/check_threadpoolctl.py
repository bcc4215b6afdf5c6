"""check_threadpoolctl.py -- the checks test_threadpoolctl.sh runs in a NumPy process.

Usage:
  check_threadpoolctl.py loaded LIBTELA VERSION WIDTH
      libtela.so.0 is preloaded and TELA_NUM_THREADS=WIDTH (not 1): threadpool_info() must list
      it once (user_api "blas", internal_api "tela", prefix "libtela", its real path, VERSION,
      num_threads WIDTH) however often the module is imported; threadpool_limits(1),
      threadpool_limits(2, user_api="blas"), a limit by prefix and ThreadpoolController().limit
      must set tela_get_num_threads() inside and restore WIDTH after, while a limit on user_api
      "openmp" leaves it alone; a NumPy matmul inside a limit of 1 must match one computed
      without BLAS.
  check_threadpoolctl.py absent
      libtela is not loaded: importing the module must work and threadpool_info() must not
      list tela; threadpool_limits must still work.
Prints each finding; exits 1 if any check failed.
"""

import ctypes
import importlib.util
import os
import sys

import numpy as np
import threadpoolctl
from threadpoolctl import ThreadpoolController, threadpool_info, threadpool_limits

import tela_threadpoolctl

problems = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        problems.append(what)


def tela_entries():
    return [lib for lib in threadpool_info() if lib.get("internal_api") == "tela"]


def import_second_copy():
    """Executes tela_threadpoolctl.py again as another module, as a second copy would be."""
    spec = importlib.util.spec_from_file_location(
        "tela_threadpoolctl_again", tela_threadpoolctl.__file__
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


def loaded(libtela, version, width):
    libtela = os.path.realpath(libtela)
    tela = ctypes.CDLL(libtela, mode=os.RTLD_NOLOAD)  # the preloaded copy, not a new one
    tela.tela_get_num_threads.restype = ctypes.c_int
    tela.tela_get_num_threads.argtypes = []

    def tela_width():
        return tela.tela_get_num_threads()

    print(f"threadpoolctl {threadpoolctl.__version__} from {threadpoolctl.__file__}")
    import_second_copy()
    entries = tela_entries()
    check(len(entries) == 1, f"threadpool_info() lists libtela once: {len(entries)} entries")
    if not entries:
        return
    info = entries[0]
    print(f"      {info}")
    check(info.get("user_api") == "blas", f"user_api {info.get('user_api')!r} is 'blas'")
    check(info.get("prefix") == "libtela", f"prefix {info.get('prefix')!r} is 'libtela'")
    check(info.get("filepath") == libtela, f"filepath {info.get('filepath')!r} is {libtela!r}")
    check(info.get("version") == version, f"version {info.get('version')!r} is {version!r}")
    check(info.get("num_threads") == width,
          f"num_threads {info.get('num_threads')!r} is TELA_NUM_THREADS={width}")
    check(tela_width() == width, f"tela_get_num_threads() {tela_width()} is {width} before")

    with threadpool_limits(1):
        inside = tela_width()
        listed = tela_entries()[0]["num_threads"]
    check(inside == 1 and listed == 1,
          f"threadpool_limits(1): tela_get_num_threads() {inside}, listed {listed}, both 1")
    check(tela_width() == width, f"after it: {tela_width()}, restored to {width}")

    with threadpool_limits(2, user_api="blas"):
        inside = tela_width()
    check(inside == 2, f"threadpool_limits(2, user_api='blas'): {inside} inside, 2 wanted")
    check(tela_width() == width, f"after it: {tela_width()}, restored to {width}")

    with threadpool_limits(1, user_api="openmp"):
        inside = tela_width()
    check(inside == width, f"threadpool_limits(1, user_api='openmp'): {inside} inside, "
                           f"tela untouched at {width}")

    with threadpool_limits({"libtela": 2}):
        inside = tela_width()
    check(inside == 2, f"threadpool_limits({{'libtela': 2}}): {inside} inside, 2 wanted")
    check(tela_width() == width, f"after it: {tela_width()}, restored to {width}")

    with ThreadpoolController().limit(limits=1, user_api="blas"):
        inside = tela_width()
    check(inside == 1, f"ThreadpoolController().limit(limits=1, user_api='blas'): {inside} "
                       "inside, 1 wanted")
    check(tela_width() == width, f"after it: {tela_width()}, restored to {width}")

    # NumPy's BLAS calls bind to libtela when it is preloaded in front of them (Debian's NumPy
    # calls cblas_dgemm of libblas.so.3); a NumPy bundling its own prefixed OpenBLAS would not.
    found = ctypes.cast(ctypes.CDLL(None).cblas_dgemm, ctypes.c_void_p).value
    telas = ctypes.cast(tela.cblas_dgemm, ctypes.c_void_p).value
    print(f"note: the process's cblas_dgemm is {'' if found == telas else 'not '}tela's")
    rng = np.random.default_rng(28)
    a = rng.standard_normal((97, 83))
    b = rng.standard_normal((83, 71))
    # The reference without BLAS: elementwise products summed over k.
    reference = (a[:, :, None] * b[None, :, :]).sum(axis=1)
    with threadpool_limits(1):
        inside_product = a @ b
        inside = tela_width()
    outside_product = a @ b
    error_inside = np.max(np.abs(inside_product - reference))
    error_outside = np.max(np.abs(outside_product - reference))
    check(inside == 1 and error_inside < 1e-10,
          f"a @ b inside threadpool_limits(1) (width {inside}): max error {error_inside:.1e}")
    check(error_outside < 1e-10, f"a @ b after it (width {tela_width()}): max error "
                                 f"{error_outside:.1e}")


def absent():
    with open("/proc/self/maps") as maps:
        mapped = "libtela" in maps.read()
    check(not mapped, "libtela is not mapped in this process")
    import_second_copy()
    entries = tela_entries()
    check(entries == [], f"threadpool_info() lists no tela: {entries}")
    with threadpool_limits(1):
        pass
    check(True, "threadpool_limits(1) runs")


def main(argv):
    if len(argv) == 5 and argv[1] == "loaded":
        loaded(argv[2], argv[3], int(argv[4]))
    elif len(argv) == 2 and argv[1] == "absent":
        absent()
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if problems:
        print(f"{len(problems)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
