#!/usr/bin/env bash
# run_blas.sh — runs a netlib BLAS test program (Debian's libblas-test) of level 1, 2 or 3 with
# libtela.so.0 preloaded in front of the reference BLAS, and judges it by its output alone: the
# programs exit 0 whatever they find. tela's routines come from tela, the others from the
# reference.
#
# Usage: run_blas.sh SUITE LEVEL INPUT WIDTH LIBTELA WORKDIR
#   SUITE    fortran (xblat1d, xblat2d + dblat2.in, xblat3d + dblat3.in) or cblas (xdcblat1,
#            xdcblat2 + din2, xdcblat3 + din3)
#   LEVEL    1, 2 or 3
#   INPUT    default (the shipped input file) or large (sizes up to 65, the programs' compiled
#            limit; levels 2 and 3 only: level 1's programs read no input)
#   WIDTH    TELA_NUM_THREADS for the run; above 1 the gate is handed a table of near-free
#            dispatch (TELA_COSTS) so even these small problems run in parallel regions
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

# Every routine of each level's programs, in their order, lower-case base names, and those of
# them tela provides: each of those must bind to libtela.so.0 and pass its tests (and error exits,
# levels 2 and 3); the others must run as the reference's. Level 1's dsdot (single-precision
# vectors) is not tela's.
LEVEL1_ROUTINES=(ddot daxpy drotg drot dcopy dswap dnrm2 dasum dscal idamax drotmg drotm dsdot)
LEVEL1_TELA=(ddot daxpy drotg drot dcopy dswap dnrm2 dasum dscal idamax drotmg drotm)
LEVEL2_ROUTINES=(dgemv dgbmv dsymv dsbmv dspmv dtrmv dtbmv dtpmv dtrsv dtbsv dtpsv dger dsyr dspr
    dsyr2 dspr2)
LEVEL3_ROUTINES=(dgemm dsymm dtrmm dtrsm dsyrk dsyr2k)
LARGE_SIZES=(0 1 2 3 7 31 63 64 65)

if (($# != 6)); then
    echo "usage: $0 fortran|cblas 1|2|3 default|large WIDTH LIBTELA WORKDIR" >&2
    exit 2
fi
suite="$1" level="$2" input="$3" width="$4" libtela="$5" workdir="$6"

case "$level" in
1)
    ALL_ROUTINES=("${LEVEL1_ROUTINES[@]}") TELA_PEER_ROUTINES=("${LEVEL1_TELA[@]}")
    if [[ "$suite" == cblas ]]; then
        # xdcblat1 tests the first ten only.
        ALL_ROUTINES=("${LEVEL1_TELA[@]:0:10}") TELA_PEER_ROUTINES=("${LEVEL1_TELA[@]:0:10}")
    fi
    [[ "$input" == default ]] || {
        echo "$0: level 1's programs read no input: INPUT must be default" >&2
        exit 2
    }
    ;;
2) ALL_ROUTINES=("${LEVEL2_ROUTINES[@]}") TELA_PEER_ROUTINES=("${LEVEL2_ROUTINES[@]}") ;;
3) ALL_ROUTINES=("${LEVEL3_ROUTINES[@]}") TELA_PEER_ROUTINES=("${LEVEL3_ROUTINES[@]}") ;;
*)
    echo "$0: unknown level '$level' (1, 2 or 3)" >&2
    exit 2
    ;;
esac

PEER_LABEL="$suite/$level/$input/w$width"
blas_dir="${TELA_PEER_BLAS_DIR:-$(peer_multiarch_dir)/blas}"
case "$suite" in
fortran)
    program="$blas_dir/xblat${level}d" shipped_input="$blas_dir/dblat${level}.in" name_width=6
    ;;
cblas)
    program="$blas_dir/xdcblat${level}" shipped_input="$blas_dir/din${level}" name_width=12
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
if ((level == 1)); then
    shipped_input=/dev/null
fi
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
if ((level == 1)); then
    : >input.txt
elif [[ "$input" == default ]]; then
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
# The Fortran suites of levels 2 and 3 write their summary to the file their input names; the
# others to stdout.
if [[ "$suite" == fortran ]] && ((level > 1)); then
    summary_file="$(sed -n "1s/^'\([^']*\)'.*/\1/p" input.txt)"
    summary="$workdir/$summary_file"
else
    summary="$workdir/stdout.txt"
fi
[[ -s "$summary" ]] || peer_fail "no summary at $summary"

# ---- the verdict ---------------------------------------------------------------------------------
passed_lines=()
if ((level == 1)); then
    # Each routine's block: "Test of subprogram number  1   DDOT", then "----- PASS -----" when
    # every case passed; a failing case prints FAIL lines in between instead.
    if grep -qE 'FAIL' "$summary" stderr.txt; then
        PEER_PROBLEMS+=("failure lines, the first 20:"$'\n'"$(grep -hE -B2 'FAIL' "$summary" |
            head -n 20)")
    fi
    verdicts="$(awk '/Test of subprogram number/ {name = $NF; next}
        name != "" && NF > 0 {print name, ($0 ~ /----- PASS -----/ ? "PASS" : "NOPASS"); name = ""}' \
        "$summary")"
    for r in "${TELA_PEER_ROUTINES[@]}"; do
        name="$(suite_name "$r")"
        line="$(grep -iE "^$name PASS\$" <<<"$verdicts" || true)"
        if [[ -z "$line" ]]; then
            PEER_PROBLEMS+=("$name: no \"----- PASS -----\" after its test")
        else
            passed_lines+=("$line")
        fi
    done
else
    bad_lines="$(grep -hE 'FAILED|SUSPECT|NOT DETECTED|\*\*\* ' "$summary" stderr.txt |
        sort -u || true)"
    if [[ -n "$bad_lines" ]]; then
        PEER_PROBLEMS+=("$(wc -l <<<"$bad_lines") distinct failure lines, the first 20:"$'\n'"$(
            head -n 20 <<<"$bad_lines")")
    fi
    grep -q "END OF TESTS" "$summary" || PEER_PROBLEMS+=("no END OF TESTS: the run stopped early")

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
fi

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

# Above width 1, the large inputs must really have run regions at the full width. Level 3's are
# all traced as kernel=dgemm: dtrsm and dtrmm run their off-diagonal blocks through tela_dgemm,
# as dsyrk, dsymm and dsyr2k do their products; level 2's under their own names. Level 1's
# programs use vectors too short for any region, even with free dispatch.
if ((level == 3)); then
    kernels=dgemm
else
    kernels="$(IFS='|' && echo "${ALL_ROUTINES[*]}")"
fi
regions="$(peer_regions "$kernels")"
if ((width > 1)) && [[ "$input" == large ]] && ! peer_ran_at_width "$kernels"; then
    PEER_PROBLEMS+=("no region ran at width $width (regions: ${regions:-none})")
fi

peer_say "$(basename "$program") in ${PEER_SECONDS}s; routines: ${provided_by[*]}"
peer_say "regions ($kernels) by width: ${regions:-none}"
for line in "${passed_lines[@]}"; do
    peer_say "  ${line# }"
done
peer_finish
