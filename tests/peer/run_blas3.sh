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
# The run and the checks every suite shares are in peer_common.sh.
set -euo pipefail
# shellcheck source=tests/peer/peer_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/peer_common.sh"

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

PEER_LABEL="$suite/$input/w$width"
blas_dir="${TELA_PEER_BLAS_DIR:-$(peer_multiarch_dir)/blas}"
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
peer_check_width "$width"
peer_require "libblas-test and libblas3" "$program" "$shipped_input" "$blas_dir/libblas.so.3"
peer_begin "$libtela" "$workdir" "$width"
libtela="$PEER_LIBTELA"

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
        peer_fail "could not set the sizes in a copy of $shipped_input"
    fi
fi

# ---- the run -------------------------------------------------------------------------------------
peer_run "$program" input.txt "$blas_dir"
# The Fortran suite writes its summary to the file its input names; the CBLAS one to stdout.
if [[ "$suite" == fortran ]]; then
    summary_file="$(sed -n "1s/^'\([^']*\)'.*/\1/p" input.txt)"
    summary="$workdir/$summary_file"
else
    summary="$workdir/stdout.txt"
fi
[[ -s "$summary" ]] || peer_fail "no summary at $summary"

# ---- the verdict ---------------------------------------------------------------------------------
bad_lines="$(grep -hE 'FAILED|SUSPECT|NOT DETECTED|\*\*\* ' "$summary" stderr.txt |
    sort -u || true)"
if [[ -n "$bad_lines" ]]; then
    PEER_PROBLEMS+=("$(wc -l <<<"$bad_lines") distinct failure lines, the first 20:"$'\n'"$(
        head -n 20 <<<"$bad_lines")")
fi
grep -q "END OF TESTS" "$summary" || PEER_PROBLEMS+=("no END OF TESTS: the run stopped early")

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
            PEER_PROBLEMS+=("$name: no line \"$name PASSED THE $what\"")
        else
            passed_lines+=("$line")
        fi
    done
done

# Which library each routine came from, from the loader's log: tela's routines must bind to
# libtela.so.0 (else the reference was tested), the others to the reference libblas.so.3.
provided_by=()
for r in "${ALL_ROUTINES[@]}"; do
    if [[ "$suite" == fortran ]]; then symbol="${r}_"; else symbol="cblas_$r"; fi
    if is_tela_routine "$r"; then
        want="$libtela"
    else
        want="$blas_dir/libblas.so.3"
    fi
    bound=0
    peer_bound "$symbol" "$want" "$program" || bound=$?
    # A routine the input switched off is never called, so never bound.
    if ((bound == 1)) && { [[ "$input" == default ]] || is_tela_routine "$r"; }; then
        PEER_PROBLEMS+=("$symbol: the program never bound it")
    elif ((bound == 0)); then
        provided_by+=("$symbol=$(basename "$want")")
    fi
done
# The program's error hooks must win over tela's weak fallbacks.
peer_check_hooks "$program" xerbla_ cblas_xerbla

# Above width 1, the products must really have run in parallel regions. They are all traced as
# kernel=dgemm: dtrsm and dtrmm run their off-diagonal blocks through tela_dgemm, as dsyrk does
# (there only above 64, beyond these programs' sizes).
regions="$(peer_regions dgemm)"
if ((width > 1)) && [[ "$input" == large ]] && ! peer_ran_at_width dgemm; then
    PEER_PROBLEMS+=("no dgemm region ran at width $width (regions: ${regions:-none})")
fi

peer_say "$(basename "$program") in ${PEER_SECONDS}s; routines: ${provided_by[*]}"
peer_say "dgemm regions by width: ${regions:-none}"
for line in "${passed_lines[@]}"; do
    peer_say "  ${line# }"
done
peer_finish
