#!/usr/bin/env bash
# demo.sh — installs what tela needs, builds it (Release, warnings as errors) in build/release
# and runs tela-bench --quick: tela's GEMM (n = 16 ... 2048), TRSM, TRMM, SYRK, GETRF and POTRF
# against OpenBLAS at 1 and 2 threads, in interleaved rounds, about 35 s on 2 CPUs; the CSV and
# an SVG plot go to build/release. OpenBLAS runs at its best on this CPU without help from here:
# tela-bench names the kernel set of the CPU's best ISA (OPENBLAS_CORETYPE, for OpenBLAS alone)
# when OpenBLAS's own choice falls short — Debian's 0.3.21 runs its SSE3 Prescott kernels on CPUs
# it does not know — whatever the environment's OPENBLAS_CORETYPE says; OPENBLAS_L2_SIZE passes
# through as set. Every GFLOP/s figure is also given as a share of the FMA peak measured at start.
# Arguments, if any, go to tela-bench instead of --quick, e.g.
# `scripts/demo.sh --routines all --threads 2`.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# libopenblas-dev brings the pthreads OpenBLAS that tela-bench loads at run time (it links
# nothing of OpenBLAS); liblapacke-dev: the reference of the LAPACK-level tests and benchmarks.
DEMO_PACKAGES=(build-essential cmake libopenblas-dev liblapacke-dev)
tela_require_packages "${DEMO_PACKAGES[@]}"

build="$TELA_ROOT/build/release"
# The same tree as scripts/test.sh's release configuration, but without the tests: the demo
# does not need cmocka (test.sh turns them back on in its own run).
cmake -S "$TELA_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTELA_WERROR=ON -DTELA_SANITIZE= \
    -DTELA_BUILD_TESTS=OFF -DTELA_BUILD_BENCH=ON
cmake --build "$build" -j"$(tela_jobs)"

args=(--quick)
if (($# > 0)); then
    args=("$@")
fi
echo
# --csv and --plot first: a later --csv or --plot among the arguments wins.
"$build/bench/tela-bench" --csv "$build/tela-bench.csv" --plot "$build/tela-bench.svg" "${args[@]}"
echo
echo "tela's thread team against libgomp: $build/bench/tela-teambench --scenario sections" \
    "(also gaps, acquire; README \"Team benchmarks\")"
