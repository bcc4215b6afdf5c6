#!/usr/bin/env bash
# demo.sh — installs what tela needs, builds it (Release, warnings as errors) in build/release
# and runs the thread-team benchmark against libgomp (tela-teambench: its acquire, gaps and
# sections scenarios at width 2 with fewer rounds than their defaults, about 40 s). Arguments,
# if any, go to tela-teambench instead, e.g. `scripts/demo.sh --scenario gaps --widths 2,3`.
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

bench="$build/bench/tela-teambench"
if (($# > 0)); then
    exec "$bench" "$@"
fi
for scenario in acquire gaps sections; do
    echo
    "$bench" --scenario "$scenario" --widths 2 --rounds 15
done
