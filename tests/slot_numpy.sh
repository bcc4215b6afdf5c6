#!/usr/bin/env bash
# slot_numpy.sh BUILD_DIR WORKDIR — NumPy on tela through the system slot, with no preload:
# installs the build into WORKDIR/prefix (as `cmake --install` would on a machine), puts the
# installed wrappers' folder first on the library path, the way update-alternatives points
# libblas.so.3 and liblapack.so.3 at them, and checks in Debian's NumPy that the installed
# libtela serves qr, eigh, solve, cholesky and matmul (OpenBLAS not even loaded) with LAPACK's
# residuals. Skips (77) without /usr/bin/python3's NumPy unless TELA_PEER_REQUIRED=1.
set -euo pipefail
build="$1" workdir="$2"
python=/usr/bin/python3
if ! "$python" -c 'import numpy' 2>/dev/null; then
    if [[ "${TELA_PEER_REQUIRED:-0}" == 1 ]]; then
        echo "slot_numpy: FAIL: $python has no numpy (install python3-numpy)"
        exit 1
    fi
    echo "slot_numpy: skipped: $python has no numpy (install python3-numpy)"
    exit 77
fi
rm -rf "$workdir"
mkdir -p "$workdir"
cmake --install "$build" --prefix "$workdir/prefix" >"$workdir/install.log"
slot_dir="$(dirname "$(find "$workdir/prefix" -path '*/tela/libblas.so.3' | head -n 1)")"
[[ -e "$slot_dir/liblapack.so.3" ]] || {
    echo "slot_numpy: FAIL: the install has no tela/libblas.so.3 and tela/liblapack.so.3"
    exit 1
}

LD_LIBRARY_PATH="$slot_dir" TELA_EXPECT_PREFIX="$workdir/prefix" "$python" - <<'PY'
import ctypes, os, sys
import numpy as np

prefix = os.environ["TELA_EXPECT_PREFIX"]
maps = open("/proc/self/maps").read()
libraries = {line.split()[-1] for line in maps.splitlines() if ".so" in line}
def loaded(prefix_of_name):
    return sorted(path for path in libraries if os.path.basename(path).startswith(prefix_of_name))
problems = []
# The files the sonames libblas.so.3 and liblapack.so.3 led to (the reference libraries the
# wrappers open by path for the routines tela lacks are named libblas.so.3.<version>).
for name in ("libblas.so.3", "liblapack.so.3", "libtela.so.0"):
    paths = [path for path in loaded(name) if name.startswith("libtela") or path.endswith(name)]
    if not paths or not all(os.path.realpath(p).startswith(os.path.realpath(prefix)) for p in paths):
        problems.append(f"{name} loaded from {paths}, not from the install in {prefix}")
if loaded("libopenblas"):
    problems.append(f"OpenBLAS is loaded: {loaded('libopenblas')}")

# The wrappers bind NumPy's names to libtela's definitions.
tela = ctypes.CDLL("libtela.so.0")
for library, kind, names in (("libblas.so.3", "blas", ("dgemm_", "cblas_dgemm", "ddot_")),
                             ("liblapack.so.3", "lapack", ("dgeqrf_", "dsyevd_", "dgesv_", "dpotrf_"))):
    lookup = getattr(ctypes.CDLL(library), f"tela_{kind}_slot_target")
    lookup.restype = ctypes.c_void_p
    for name in names:
        if lookup(name.encode()) != ctypes.cast(getattr(tela, name), ctypes.c_void_p).value:
            problems.append(f"{library}: {name} is not bound to libtela")

rng = np.random.default_rng(5)
eps = np.finfo(float).eps
n = 301
a = rng.standard_normal((n, n))
b = rng.standard_normal((n, n))
def check(what, residual, limit=30):
    if not residual < limit:
        problems.append(f"{what}: residual {residual:.3g} (limit {limit})")
norm = np.linalg.norm(a, 1)
c = a @ b
exact = np.einsum("ik,kj->ij", a, b)  # NumPy's own loop, not BLAS
check("a @ b", np.abs(c - exact).max() / (n * eps * np.abs(a).max() * np.abs(b).max() * n))
q, r = np.linalg.qr(a)
check("qr: A - QR", np.linalg.norm(a - q @ r, 1) / (n * norm * eps))
check("qr: I - Q^T Q", np.linalg.norm(np.eye(n) - q.T @ q, 1) / (n * eps))
s = a + a.T
w, v = np.linalg.eigh(s)
check("eigh: S V - V W", np.linalg.norm(s @ v - v * w, 1) / (n * np.linalg.norm(s, 1) * eps))
check("eigh: I - V^T V", np.linalg.norm(np.eye(n) - v.T @ v, 1) / (n * eps))
values = np.linalg.eigvalsh(s)
check("eigvalsh against eigh", np.abs(values - w).max() / (n * np.linalg.norm(s, 1) * eps))
x = np.linalg.solve(a, b)
check("solve", np.linalg.norm(a @ x - b, 1) / (n * norm * np.linalg.norm(x, 1) * eps))
spd = a @ a.T + n * np.eye(n)
l = np.linalg.cholesky(spd)
check("cholesky", np.linalg.norm(spd - l @ l.T, 1) / (n * np.linalg.norm(spd, 1) * eps))
if problems:
    print("slot_numpy: FAIL:", *problems, sep="\n  ")
    sys.exit(1)
print("slot_numpy: NumPy's qr, eigh, eigvalsh, solve, cholesky and matmul ran on the installed",
      "libtela through", loaded("libblas.so.3")[0], "and", loaded("liblapack.so.3")[0])
PY
