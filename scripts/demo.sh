#!/usr/bin/env bash
# demo.sh — installs what tela needs, builds it (Release, warnings as errors) in build/release
# and runs the quick thread-team benchmark (tela-quick: empty regions on a held tela team vs
# libgomp, about 30 s). Arguments go to tela-quick, e.g. `scripts/demo.sh --width 2 --rounds 100`.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# libopenblas-dev and liblapacke-dev: the reference the kernel benchmarks compare against.
DEMO_PACKAGES=(build-essential cmake libopenblas-dev liblapacke-dev)
tela_require_packages "${DEMO_PACKAGES[@]}"

build="$TELA_ROOT/build/release"
# The same tree as scripts/test.sh's release configuration, but without the tests: the demo
# does not need cmocka (test.sh turns them back on in its own run).
cmake -S "$TELA_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTELA_WERROR=ON -DTELA_SANITIZE= \
    -DTELA_BUILD_TESTS=OFF -DTELA_BUILD_BENCH=ON
cmake --build "$build" -j"$(tela_jobs)"

echo
"$build/bench/tela-quick" "$@"
