#!/usr/bin/env bash
# run_blas3.sh — runs a netlib level-3 test program (Debian's libblas-test) with libtela.so.0
# preloaded in front of the reference BLAS, and judges it by its output alone: the programs exit
# 0 whatever they find. tela's routines come from tela, the others from the reference.
#
# Usage: run_blas3.sh SUITE INPUT WIDTH LIBTELA WORKDIR
#   SUITE    fortran (xblat3d, dblat3.in) or cblas (xdcblat3, din3)
#   INPUT    default (the shipped input file) or large (sizes up to 65, the programs' compiled
#            limit, for tela's routines only)
#   WIDTH    TELA_NUM_THREADS for the run; above 1 the gate is handed a table of near-free
#            dispatch (TELA_COSTS) so even these small products run in parallel regions
#   LIBTELA  the libtela.so.0 to preload
#   WORKDIR  a directory of its own for this run (inputs, outputs, loader log, trace)
# Environment: TELA_PEER_BLAS_DIR (default /usr/lib/<multiarch>/blas) holds the programs, their
# inputs and the reference libblas.so.3; without them the run is skipped (exit 77) unless
# TELA_PEER_REQUIRED=1 (scripts/test.sh sets it), when it fails. TELA_PEER_PRELOAD_FIRST, if
# set, is preloaded before libtela: the sanitizer runtime a sanitizer build of libtela needs.
set -euo pipefail

# The routines tela must provide, lower-case base names. Each must bind to libtela.so.0 and pass
# its error exits and computational tests; the suites' other routines run as the reference's
# (dsymm, dsyr2k).
TELA_PEER_ROUTINES=(dgemm dtrmm dtrsm dsyrk)

# Every routine of the level-3 suites, in the input files' order.
ALL_ROUTINES=(dgemm dsymm dtrmm dtrsm dsyrk dsyr2k)
LARGE_SIZES=(0 1 2 3 7 31 63 64 65)

if (($# != 5)); then
    echo "usage: $0 fortran|cblas default|large WIDTH LIBTELA WORKDIR" >&2
    exit 2
fi
suite="$1" input="$2" width="$3" libtela="$4" workdir="$5"

say() {
    printf 'peer %s/%s/w%s: %s\n' "$suite" "$input" "$width" "$*"
}
fail() {
    say "FAIL: $*"
    exit 1
}

multiarch="$(gcc -print-multiarch 2>/dev/null || true)"
blas_dir="${TELA_PEER_BLAS_DIR:-/usr/lib/${multiarch:-x86_64-linux-gnu}/blas}"
case "$suite" in
fortran)
    program="$blas_dir/xblat3d" shipped_input="$blas_dir/dblat3.in" name_width=6
    ;;
cblas)
    program="$blas_dir/xdcblat3" shipped_input="$blas_dir/din3" name_width=12
    ;;
*)
    echo "$0: unknown suite '$suite' (fortran or cblas)" >&2
    exit 2
    ;;
esac
case "$input" in default | large) ;; *)
    echo "$0: unknown input '$input' (default or large)" >&2
    exit 2
    ;;
esac
[[ "$width" =~ ^[1-9][0-9]*$ ]] || {
    echo "$0: width must be a positive integer, not '$width'" >&2
    exit 2
}

for needed in "$program" "$shipped_input" "$blas_dir/libblas.so.3"; do
    if [[ ! -e "$needed" ]]; then
        if [[ "${TELA_PEER_REQUIRED:-0}" == 1 ]]; then
            fail "$needed is missing (install libblas-test and libblas3)"
        fi
        say "skipped: $needed is missing (install libblas-test and libblas3)"
        exit 77
    fi
done
[[ -r "$libtela" ]] || fail "no library at $libtela"
libtela="$(cd "$(dirname "$libtela")" && pwd)/$(basename "$libtela")"

rm -rf "$workdir"
mkdir -p "$workdir"
cd "$workdir"

# The routine's name as the suite spells it: DGEMM for the Fortran suite, cblas_dgemm for CBLAS.
suite_name() {
    if [[ "$suite" == fortran ]]; then
        printf '%s' "${1^^}"
    else
        printf 'cblas_%s' "$1"
    fi
}
is_tela_routine() {
    local r
    for r in "${TELA_PEER_ROUTINES[@]}"; do
        [[ "$r" == "$1" ]] && return 0
    done
    return 1
}

# ---- the input file ------------------------------------------------------------------------------
# The shipped one, or for `large` the same with the sizes replaced and only tela's routines on.
# The routine lines are read with a fixed format: the name in name_width columns, then " T|F".
if [[ "$input" == default ]]; then
    cp "$shipped_input" input.txt
else
    : >input.txt
    while IFS= read -r line; do
        if [[ "$line" =~ NUMBER\ OF\ VALUES\ OF\ N ]]; then
            printf '%-17s NUMBER OF VALUES OF N\n' "${#LARGE_SIZES[@]}" >>input.txt
        elif [[ "$line" =~ VALUES\ OF\ N ]]; then
            printf '%s VALUES OF N\n' "${LARGE_SIZES[*]}" >>input.txt
        else
            routine_line=0
            for r in "${ALL_ROUTINES[@]}"; do
                name="$(suite_name "$r")"
                if [[ "${line:0:${#name}}" == "$name" && "${line:${#name}:1}" == " " ]]; then
                    flag=F
                    is_tela_routine "$r" && flag=T
                    printf "%-${name_width}s %s PUT F FOR NO TEST. SAME COLUMNS.\n" "$name" \
                        "$flag" >>input.txt
                    routine_line=1
                fi
            done
            ((routine_line)) || printf '%s\n' "$line" >>input.txt
        fi
    done <"$shipped_input"
    if ! grep -q "^${#LARGE_SIZES[@]} *NUMBER OF VALUES OF N" input.txt ||
        ! grep -q "^${LARGE_SIZES[*]} VALUES OF N" input.txt; then
        fail "could not set the sizes in a copy of $shipped_input"
    fi
fi

# ---- the run -------------------------------------------------------------------------------------
# Above width 1: one near-free dispatch cost at every width and route, so the gate runs every
# packed product in a region of the full width (dblat3's sizes are far below what pays here).
preload="$libtela"
if [[ -n "${TELA_PEER_PRELOAD_FIRST:-}" ]]; then
    [[ -r "$TELA_PEER_PRELOAD_FIRST" ]] || fail "no library at $TELA_PEER_PRELOAD_FIRST"
    preload="$TELA_PEER_PRELOAD_FIRST $libtela"
fi
run_env=(env -u OMP_NUM_THREADS -u TELA_COSTS "LD_PRELOAD=$preload" "LD_LIBRARY_PATH=$blas_dir"
    "TELA_NUM_THREADS=$width" "LD_DEBUG=bindings" "LD_DEBUG_OUTPUT=$workdir/bindings"
    "TELA_TRACE=$workdir/trace")
if ((width > 1)); then
    {
        echo "tela-costs 1"
        echo "cpu_model peer suite: dispatch made free so small products run in parallel"
        echo "cpus $width"
        for route in team pool outside; do
            for w in 2 4 8 16 32 64; do
                echo "point $route $w 1.0 1.0"
            done
        done
        echo "end"
    } >forced.costs
    run_env+=("TELA_COSTS=$workdir/forced.costs")
fi

start_ns=$(date +%s%N)
status=0
"${run_env[@]}" "$program" <input.txt >stdout.txt 2>stderr.txt || status=$?
elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))
seconds="$((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000)))"
# The Fortran suite writes its summary to the file its input names; the CBLAS one to stdout.
if [[ "$suite" == fortran ]]; then
    summary_file="$(sed -n "1s/^'\([^']*\)'.*/\1/p" input.txt)"
    summary="$workdir/$summary_file"
else
    summary="$workdir/stdout.txt"
fi
((status == 0)) || fail "$(basename "$program") exited with status $status (see $workdir)"
[[ -s "$summary" ]] || fail "no summary at $summary"
if [[ -s stderr.txt ]]; then
    say "stderr:"
    sed 's/^/    /' stderr.txt
fi

# ---- the verdict ---------------------------------------------------------------------------------
problems=()
bad_lines="$(grep -hE 'FAILED|SUSPECT|NOT DETECTED|\*\*\* ' "$summary" stderr.txt |
    sort -u || true)"
if [[ -n "$bad_lines" ]]; then
    problems+=("$(wc -l <<<"$bad_lines") distinct failure lines, the first 20:"$'\n'"$(
        head -n 20 <<<"$bad_lines")")
fi
grep -q "END OF TESTS" "$summary" || problems+=("no END OF TESTS: the run stopped early")

passed_lines=()
for r in "${TELA_PEER_ROUTINES[@]}"; do
    name="$(suite_name "$r")"
    # Names are blank-padded in the summary: "DGEMM  PASSED", "cblas_dgemm  PASSED".
    pattern="^ *$name +PASSED THE"
    expected=("TESTS OF ERROR-EXITS")
    if [[ "$suite" == fortran ]]; then
        expected+=("COMPUTATIONAL TESTS")
    else
        expected+=("COLUMN-MAJOR COMPUTATIONAL TESTS" "ROW-MAJOR +COMPUTATIONAL TESTS")
    fi
    for what in "${expected[@]}"; do
        line="$(grep -E "$pattern $what" "$summary" || true)"
        if [[ -z "$line" ]]; then
            problems+=("$name: no line \"$name PASSED THE $what\"")
        else
            passed_lines+=("$line")
        fi
    done
done

# Which library each routine came from, from the loader's log: tela's routines must bind to
# libtela.so.0 (else the reference was tested), the others to the reference libblas.so.3.
bindings="$(cat "$workdir"/bindings.* 2>/dev/null || true)"
[[ -n "$bindings" ]] || problems+=("no LD_DEBUG=bindings output")
provided_by=()
for r in "${ALL_ROUTINES[@]}"; do
    if [[ "$suite" == fortran ]]; then symbol="${r}_"; else symbol="cblas_$r"; fi
    lines="$(grep -F "symbol \`$symbol'" <<<"$bindings" | grep -F "binding file $program " || true)"
    if is_tela_routine "$r"; then
        want="$libtela"
    else
        want="$blas_dir/libblas.so.3"
    fi
    if [[ -z "$lines" ]]; then
        # A routine the input switched off is never called, so never bound.
        if [[ "$input" == default ]] || is_tela_routine "$r"; then
            problems+=("$symbol: the program never bound it")
        fi
        continue
    fi
    if grep -vqF " to $want " <<<"$lines"; then
        problems+=("$symbol bound elsewhere than $want:"$'\n'"$lines")
    else
        provided_by+=("$symbol=$(basename "$want")")
    fi
done
# The program's error hooks must win over tela's weak fallbacks.
hook_lines="$(grep -E "binding file $libtela .*symbol \`(cblas_)?xerbla_?'" <<<"$bindings" || true)"
if [[ -n "$hook_lines" ]] && grep -vqF " to $program " <<<"$hook_lines"; then
    what="libtela's calls of the error hooks bound elsewhere than the program:"
    problems+=("$what"$'\n'"$hook_lines")
fi

# Above width 1, the products must really have run in parallel regions. They are all traced as
# kernel=dgemm: dtrsm and dtrmm run their off-diagonal blocks through tela_dgemm, as dsyrk does
# (there only above 64, beyond these programs' sizes).
regions="no trace"
if [[ -s trace ]]; then
    regions="$(grep -o 'kernel=dgemm .*width=[0-9]*' trace | grep -o 'width=[0-9]*' | sort |
        uniq -c | awk '{printf "%s%s x %s", sep, $1, $2; sep=", "}')"
fi
if ((width > 1)) && ! grep -q "kernel=dgemm .*width=$width\b" trace 2>/dev/null; then
    if [[ "$input" == large ]]; then
        problems+=("no dgemm region ran at width $width (regions: ${regions:-none})")
    fi
fi

say "$(basename "$program") in ${seconds}s; routines: ${provided_by[*]}"
say "dgemm regions by width: ${regions:-none}"
for line in "${passed_lines[@]}"; do
    say "  ${line# }"
done
if ((${#problems[@]})); then
    for p in "${problems[@]}"; do
        say "FAIL: $p"
    done
    say "output kept in $workdir"
    exit 1
fi
say "PASSED"
