#!/usr/bin/env bash
# test.sh — builds tela in three configurations and runs the tests in each: release (Release),
# tsan (ThreadSanitizer) and asan (AddressSanitizer + UndefinedBehaviorSanitizer), the two
# sanitizer builds as RelWithDebInfo, all with warnings as errors, in build/<name>. Every
# configuration runs even if an earlier one failed; the exit status is non-zero if any failed.
# Arguments: configuration names to run only some (default: release tsan asan).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# libblas-test and libblas3: the netlib peer suites (tests/peer) and the reference BLAS they run
# against, tela preloaded in front of it; liblapack-test and libtmglib3: reference LAPACK's
# test programs (xlintstd) and their matrix generators, run likewise in front of the reference
# LAPACK (liblapack3). liblapacke-dev: test_lapacke (LAPACKE on top of libtela). python3-numpy
# and python3-threadpoolctl: tests/python (python/tela_threadpoolctl.py in a NumPy process).
# libscalapack-openmpi-dev and openmpi-bin: tests/scalapack (ScaLAPACK's solvers under mpirun,
# libtela preloaded in every rank).
TEST_PACKAGES=(build-essential cmake libcmocka-dev libopenblas-dev liblapacke-dev libblas-test
    libblas3 liblapack-test libtmglib3 liblapack3 python3-numpy python3-threadpoolctl
    libscalapack-openmpi-dev openmpi-bin)
tela_require_packages "${TEST_PACKAGES[@]}"
# The packages are there, so a peer suite that cannot find its program fails instead of skipping.
export TELA_PEER_REQUIRED=1

ALL_CONFIGS=(release tsan asan)
configs=("$@")
if ((${#configs[@]} == 0)); then
    configs=("${ALL_CONFIGS[@]}")
fi

# Sanitizer settings: stop at the first report so a failure is never buried in later output.
# Options the caller already set come last, so they win.
TSAN_SETTINGS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
ASAN_SETTINGS="detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_SETTINGS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# Some kernels map memory where ThreadSanitizer's runtime does not expect it ("unexpected memory
# mapping") when address-space randomisation is on. Probe with a trivial TSan program; if it
# fails alone but runs with randomisation off, run the tsan tests under `setarch -R`.
tsan_prefix() {
    local probe_dir="$TELA_ROOT/build/tsan-probe"
    mkdir -p "$probe_dir"
    printf '%s\n' '#include <pthread.h>' \
        'static void *run(void *arg) { return arg; }' \
        'int main(void) { pthread_t t; pthread_create(&t, 0, run, 0); return pthread_join(t, 0); }' \
        >"$probe_dir/probe.c"
    if ! "${CC:-cc}" -fsanitize=thread -pthread "$probe_dir/probe.c" -o "$probe_dir/probe" \
        2>"$probe_dir/compile.log"; then
        tela_say "cannot build a ThreadSanitizer program (see $probe_dir/compile.log)"
        return 0
    fi
    if "$probe_dir/probe" >"$probe_dir/run.log" 2>&1; then
        return 0
    fi
    if setarch "$(uname -m)" -R "$probe_dir/probe" >/dev/null 2>&1; then
        tela_say "ThreadSanitizer needs address-space randomisation off here:" \
            "running the tsan tests under setarch -R"
        echo "setarch $(uname -m) -R"
    else
        tela_say "a trivial ThreadSanitizer program fails here (see $probe_dir/run.log)"
    fi
}

# run_config NAME: configure, build and test one configuration; returns non-zero on failure.
run_config() {
    local name="$1" build="$TELA_ROOT/build/$1" build_type sanitize
    local -a run_env=()
    case "$name" in
    release)
        build_type=Release sanitize=""
        ;;
    tsan)
        build_type=RelWithDebInfo sanitize=thread
        run_env=(env "TSAN_OPTIONS=$TSAN_SETTINGS")
        local prefix
        prefix="$(tsan_prefix)"
        if [[ -n "$prefix" ]]; then
            local -a prefix_words
            read -r -a prefix_words <<<"$prefix"
            run_env+=("${prefix_words[@]}")
        fi
        ;;
    asan)
        build_type=RelWithDebInfo sanitize=address
        run_env=(env "ASAN_OPTIONS=$ASAN_SETTINGS" "UBSAN_OPTIONS=$UBSAN_SETTINGS")
        ;;
    *)
        tela_say "unknown configuration '$name' (known: ${ALL_CONFIGS[*]})"
        return 2
        ;;
    esac

    printf '\n==================== tela: %s (%s%s) ====================\n' "$name" \
        "$build_type" "${sanitize:+, TELA_SANITIZE=$sanitize}"
    cmake -S "$TELA_ROOT" -B "$build" -DCMAKE_BUILD_TYPE="$build_type" -DTELA_WERROR=ON \
        -DTELA_SANITIZE="$sanitize" -DTELA_BUILD_TESTS=ON || return 1
    cmake --build "$build" -j"$(tela_jobs)" || return 1
    "${run_env[@]}" ctest --test-dir "$build" --output-on-failure --timeout 600 -j2 \
        --no-tests=error || return 1
}

passed=() failed=()
for name in "${configs[@]}"; do
    # `if` keeps set -e from stopping at the first failing configuration.
    if run_config "$name"; then
        passed+=("$name")
    else
        failed+=("$name")
    fi
done

echo
for name in "${configs[@]}"; do
    if [[ " ${failed[*]} " == *" $name "* ]]; then
        echo "tela: $name: FAILED"
    else
        echo "tela: $name: passed"
    fi
done
if ((${#failed[@]} == 0)); then
    echo "tela: all ${#passed[@]} configurations passed"
else
    echo "tela: ${#failed[@]} of ${#configs[@]} configurations failed: ${failed[*]}"
    exit 1
fi
