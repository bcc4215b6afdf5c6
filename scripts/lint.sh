#!/usr/bin/env bash
# lint.sh — clang-tidy (.clang-tidy) and cppcheck over every C file of src, bench and tests,
# from a Release build's compile_commands.json in build/lint. Prints each finding; the exit
# status is non-zero if either tool reported one. Not part of the test command: a whole run
# takes ~5 minutes on two cores, and the tools' versions differ between machines.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tela_require_packages build-essential cmake clang-tidy cppcheck libcmocka-dev libopenblas-dev \
    liblapacke-dev
cd "$TELA_ROOT"

# Configuring writes compile_commands.json; nothing needs building.
cmake -S . -B build/lint -DCMAKE_BUILD_TYPE=Release -DTELA_WERROR=ON >/dev/null

status=0
tidy_out="$(find src bench tests -name '*.c' -print0 |
    xargs -0 -P "$(nproc)" -n 8 clang-tidy -p build/lint --quiet 2>/dev/null |
    grep -E '^[^ ].*: (warning|error):' | sort -u || true)"
if [[ -n "$tidy_out" ]]; then
    printf '%s\n' "$tidy_out"
    tela_say "clang-tidy: $(printf '%s\n' "$tidy_out" | wc -l) findings"
    status=1
fi
cppcheck_out="$(cppcheck --quiet --inline-suppr --project=build/lint/compile_commands.json \
    --enable=warning,performance,portability 2>&1 | grep -E '^(src|bench|tests)/' || true)"
if [[ -n "$cppcheck_out" ]]; then
    printf '%s\n' "$cppcheck_out"
    tela_say "cppcheck: findings above"
    status=1
fi
if ((status == 0)); then
    tela_say "clang-tidy and cppcheck: no findings"
fi
exit "$status"
