#!/usr/bin/env bash
# bench-ab.sh — judges a change to tela's thread team: builds two git revisions (three with
# HEAD2=rev) in separate build trees and runs the same tela-teambench on each, alternately,
# round by round, the side order rotating (round r starts with revision r mod n), so slow drift
# of the machine hits every revision alike. Each run is one process of
#   tela-teambench --side tela [bench args] --rounds 1 --emit-cells
# whose CELL lines are collected; at the end it prints per cell the median over the rounds of
# each revision, (min-max), and HEAD/BASE (and HEAD2/BASE).
#
# usage: bench/bench-ab.sh BASE HEAD ROUNDS [tela-teambench args...]
#   BASE, HEAD   any commit-ish (HEAD~1, main, a sha), resolved once at the start
#   ROUNDS       rounds; each runs every revision once
# environment:
#   HEAD2=rev         a third revision
#   AB_DIR=dir        where sources and build trees go (default: build/ab in the repository);
#                     each revision is extracted once (git archive) to AB_DIR/<sha>/src and
#                     built in AB_DIR/<sha>/build, and kept for the next run
#   AB_BENCH=tree|rev tree (default): every revision is built with the bench/ directory of this
#                     checkout, so only the library differs and the bench is the same program;
#                     rev: each revision's own bench/
#   AB_CLEAN=1        remove the AB_DIR/<sha> trees at the end
#   AB_JOBS=n         build jobs (default: nproc)
# The bench's own --side tela comes first, so a --side in the arguments replaces it; --rounds 1
# and --emit-cells come last and always apply.
set -euo pipefail

die() {
    printf 'bench-ab: %s\n' "$*" >&2
    exit 2
}

usage() {
    sed -n '/^# usage:/,/^# The bench/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

(($# >= 3)) || usage
BASE_REV="$1" HEAD_REV="$2" ROUNDS="$3"
shift 3
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive number, not '$ROUNDS'"
BENCH_ARGS=("$@")

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(git -C "$SCRIPT_DIR" rev-parse --show-toplevel)" ||
    die "$SCRIPT_DIR is not inside a git repository"
AB_DIR="${AB_DIR:-$REPO/build/ab}"
AB_BENCH="${AB_BENCH:-tree}"
[[ "$AB_BENCH" == tree || "$AB_BENCH" == rev ]] || die "AB_BENCH must be tree or rev"
JOBS="${AB_JOBS:-$(nproc 2>/dev/null || echo 2)}"

labels=(BASE HEAD)
revs=("$BASE_REV" "$HEAD_REV")
if [[ -n "${HEAD2:-}" ]]; then
    labels+=(HEAD2)
    revs+=("$HEAD2")
fi
n=${#revs[@]}

shas=()
for i in "${!revs[@]}"; do
    sha="$(git -C "$REPO" rev-parse --verify --quiet "${revs[i]}^{commit}")" ||
        die "${labels[i]}: '${revs[i]}' is not a commit in $REPO"
    shas+=("$sha")
done

WORK="$(mktemp -d "${TMPDIR:-/tmp}/bench-ab.XXXXXX")"
cleanup() {
    rm -rf "$WORK"
    if [[ "${AB_CLEAN:-0}" == 1 ]]; then
        local sha
        for sha in "${shas[@]}"; do
            rm -rf "${AB_DIR:?}/$sha"
        done
        rmdir "$AB_DIR" 2>/dev/null || true
    fi
}
trap cleanup EXIT

# prepare INDEX: extracts and builds revision INDEX; prints the bench program's path.
prepare() {
    local i="$1" sha="${shas[$1]}"
    local root="$AB_DIR/$sha" src="$AB_DIR/$sha/src" build="$AB_DIR/$sha/build"
    if [[ ! -e "$root/extracted" ]]; then
        rm -rf "$src"
        mkdir -p "$src"
        git -C "$REPO" archive --format=tar "$sha" | tar -x -C "$src"
        touch "$root/extracted"
    fi
    # The bench sources: this checkout's (copied fresh each run: new times, so make rebuilds
    # them) or the revision's own (restored from the archive if an earlier run replaced them).
    rm -rf "$src/bench"
    if [[ "$AB_BENCH" == tree ]]; then
        cp -R "$REPO/bench" "$src/bench"
    elif git -C "$REPO" cat-file -e "$sha:bench" 2>/dev/null; then
        git -C "$REPO" archive --format=tar "$sha" bench | tar -x -C "$src"
    fi
    local log="$WORK/build-$i.log"
    printf 'bench-ab: building %s (%s) in %s\n' "${labels[i]}" "${sha:0:12}" "$build" >&2
    if ! { cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTELA_BUILD_TESTS=OFF \
        -DTELA_BUILD_BENCH=ON && cmake --build "$build" -j"$JOBS" --target tela-teambench; } \
        >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "building ${labels[i]} (${revs[i]}) failed; log above"
    fi
    [[ -x "$build/bench/tela-teambench" ]] || die "${labels[i]}: no bench/tela-teambench built"
    printf '%s\n' "$build/bench/tela-teambench"
}

declare -a benches
for i in "${!revs[@]}"; do
    benches[i]="$(prepare "$i")"
done

{
    printf 'bench-ab: %d rounds, order rotating (round r starts with revision r mod %d)\n' \
        "$ROUNDS" "$n"
    for i in "${!revs[@]}"; do
        printf '  %-5s %-12s %s\n' "${labels[i]}" "${revs[i]}" \
            "$(git -C "$REPO" log -1 --format='%h %s' "${shas[i]}")"
    done
    printf '  bench: tela-teambench --side tela %s --rounds 1 --emit-cells (bench/ from %s)\n' \
        "${BENCH_ARGS[*]}" "$([[ "$AB_BENCH" == tree ]] && echo "this checkout" || echo "each revision")"
} >&2

values="$WORK/values"
: >"$values"
for ((r = 0; r < ROUNDS; r++)); do
    order=""
    for ((k = 0; k < n; k++)); do
        i=$(((r + k) % n))
        order+="${labels[i]} "
        log="$WORK/run-$r-$i.log"
        if ! "${benches[i]}" --side tela "${BENCH_ARGS[@]}" --rounds 1 --emit-cells \
            >"$log" 2>&1; then
            tail -n 30 "$log" >&2
            die "round $((r + 1)): tela-teambench of ${labels[i]} failed; output above"
        fi
        grep '^CELL ' "$log" | awk -v rev="$i" '{ print rev, $2, $3 }' >>"$values" ||
            die "round $((r + 1)): ${labels[i]} printed no CELL lines (see the bench's output)"
    done
    if [[ -t 2 ]]; then
        printf '\rbench-ab: round %d/%d (%s)' "$((r + 1))" "$ROUNDS" "${order% }" >&2
    else
        printf 'bench-ab: round %d/%d (%s)\n' "$((r + 1))" "$ROUNDS" "${order% }" >&2
    fi
done
if [[ -t 2 ]]; then
    printf '\n' >&2
fi

# The table: per cell (in the order the bench prints them) and revision, the median over the
# rounds and the range; ratios against BASE; '*' when the two ranges do not overlap.
awk -v n="$n" -v labels="${labels[*]}" -v shas="${shas[*]}" '
function sort_values(a, count,    i, j, v) {
    for (i = 2; i <= count; i++) {
        v = a[i]
        for (j = i - 1; j >= 1 && a[j] > v; j--)
            a[j + 1] = a[j]
        a[j + 1] = v
    }
}
function fmt(v) {
    if (v < 0) return sprintf("%.3g", v)
    if (v < 1) return sprintf("%.3f", v)
    if (v < 10) return sprintf("%.2f", v)
    if (v < 1000) return sprintf("%.1f", v)
    return sprintf("%.0f", v)
}
{
    rev = $1; cell = $2
    if (!(cell in seen)) { seen[cell] = 1; order[++cells] = cell }
    count[cell, rev]++
    value[cell, rev, count[cell, rev]] = $3 + 0
}
END {
    split(labels, label, " ")
    split(shas, sha, " ")
    printf "%-34s", "cell"
    for (i = 0; i < n; i++)
        printf " | %-31s", label[i + 1] " " substr(sha[i + 1], 1, 8) " median (min-max)"
    for (i = 1; i < n; i++)
        printf " | %-11s", label[i + 1] "/BASE"
    printf "\n"
    for (c = 1; c <= cells; c++) {
        cell = order[c]
        printf "%-34s", cell
        for (i = 0; i < n; i++) {
            m = count[cell, i] + 0
            if (m == 0) { printf " | %-31s", "-"; has[i] = 0; continue }
            delete a
            for (j = 1; j <= m; j++) a[j] = value[cell, i, j]
            sort_values(a, m)
            med[i] = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
            lo[i] = a[1]; hi[i] = a[m]; has[i] = 1
            printf " | %-31s", fmt(med[i]) " (" fmt(lo[i]) "-" fmt(hi[i]) ")"
        }
        for (i = 1; i < n; i++) {
            if (!has[0] || !has[i] || med[0] == 0) { printf " | %-11s", "-"; continue }
            apart = (lo[i] > hi[0] || hi[i] < lo[0]) ? " *" : ""
            printf " | %-11s", sprintf("%.3f", med[i] / med[0]) apart
        }
        printf "\n"
    }
    printf "values as tela-teambench reports them (us; -burn cells: CPU s per s of gap);\n"
    printf "ratio < 1: the revision is faster (or burns less) than BASE; *: the min-max ranges do not overlap\n"
}' "$values"
