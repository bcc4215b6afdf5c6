#!/usr/bin/env bash
# test_threadpoolctl.sh — python/tela_threadpoolctl.py in two NumPy processes of the system's
# Python: one with libtela.so.0 preloaded (LD_PRELOAD, in front of NumPy's BLAS) and
# TELA_NUM_THREADS=3, where threadpoolctl must list libtela and limit and restore its width, and
# one without libtela, where importing the module must change nothing. The checks themselves
# are in check_threadpoolctl.py beside this file.
#
# Usage: test_threadpoolctl.sh LIBTELA VERSION MODULE_DIR
#   LIBTELA     the libtela.so.0 to preload
#   VERSION     the version tela_version() must report (the project's)
#   MODULE_DIR  the directory holding tela_threadpoolctl.py (the source tree's python/)
# Environment: TELA_PYTHON (default /usr/bin/python3, Debian's, which has python3-numpy and
# python3-threadpoolctl; the `python3` first on PATH may be another one without them).
# Without numpy or threadpoolctl there the test is skipped (exit 77), unless
# TELA_PEER_REQUIRED=1 (scripts/test.sh sets it), when it fails. A PYTHONPATH already set is
# kept behind MODULE_DIR, so another threadpoolctl can be tried:
#   PYTHONPATH=/path/to/threadpoolctl-3.6 ctest -L python
set -euo pipefail

say() {
    printf 'test_threadpoolctl: %s\n' "$*"
}

if (($# != 3)); then
    echo "usage: $0 LIBTELA VERSION MODULE_DIR" >&2
    exit 2
fi
libtela="$1" version="$2" module_dir="$3"
python="${TELA_PYTHON:-/usr/bin/python3}"
checker="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/check_threadpoolctl.py"
width=3

[[ -r "$libtela" ]] || {
    say "FAIL: no library at $libtela"
    exit 1
}
[[ -r "$module_dir/tela_threadpoolctl.py" ]] || {
    say "FAIL: no tela_threadpoolctl.py in $module_dir"
    exit 1
}
libtela="$(cd "$(dirname "$libtela")" && pwd)/$(basename "$libtela")"

if ! "$python" -c 'import numpy, threadpoolctl' >/dev/null 2>&1; then
    if [[ "${TELA_PEER_REQUIRED:-0}" == 1 ]]; then
        say "FAIL: $python cannot import numpy and threadpoolctl" \
            "(install python3-numpy python3-threadpoolctl)"
        exit 1
    fi
    say "skipped: $python cannot import numpy and threadpoolctl" \
        "(install python3-numpy python3-threadpoolctl)"
    exit 77
fi

export PYTHONPATH="$module_dir${PYTHONPATH:+:$PYTHONPATH}"

say "with $libtela preloaded, TELA_NUM_THREADS=$width"
env -u OMP_NUM_THREADS LD_PRELOAD="$libtela" TELA_NUM_THREADS="$width" \
    "$python" "$checker" loaded "$libtela" "$version" "$width"

say "without libtela"
env -u LD_PRELOAD "$python" "$checker" absent

say "passed"
