#!/usr/bin/env bash
# run_lapack.sh — runs reference LAPACK's linear-equation test program (Debian's liblapack-test:
# xlintstd) with libtela.so.0 preloaded in front of the reference LAPACK and BLAS, on the paths
# where tela's routines are (DGE general LU, DPO Cholesky, DQR and DLQ the QR and LQ
# factorizations, DLS least squares; the other paths test routines tela does not provide), and
# judges it by its output alone: the program exits 0 whatever it finds. tela's routines come
# from tela, the others from the reference; the reference's own drivers call tela's where they
# call one (DGESVX dgetrf_, DGELSS dgeqrf_, ...).
#
# Usage: run_lapack.sh INPUT WIDTH LIBTELA WORKDIR
#   INPUT    default (the shipped dtest.in's parameters) or large (M and N up to 132, the
#            program's compiled limit, one block size), both on DGE, DPO, DQR and DLQ; or ls,
#            DLS alone on the shipped parameters with one block size
#   WIDTH    TELA_NUM_THREADS for the run; above 1 the gate is handed a table of near-free
#            dispatch (TELA_COSTS) so even these small problems run in parallel regions
#   LIBTELA  the libtela.so.0 to preload
#   WORKDIR  a directory of its own for this run (input, outputs, loader log, trace)
# Environment: TELA_PEER_LAPACK_DIR (default /usr/lib/<multiarch>/lapack) holds xlintstd,
# dtest.in and the reference liblapack.so.3, TELA_PEER_BLAS_DIR (default .../blas) the reference
# libblas.so.3; without them the run is skipped (exit 77) unless TELA_PEER_REQUIRED=1, when it
# fails. The run and the checks every suite shares are in peer_common.sh.
set -euo pipefail
# shellcheck source=tests/peer/peer_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/peer_common.sh"

# ---- the paths -----------------------------------------------------------------------------------
# DLS has an input of its own: its drivers besides DGELS (DGELSY, DGELSS, DGELSD by the SVD,
# DGELST, DGETSLS) are the reference's, and their level-2 calls, each a region of the full
# width under the forced costs, come to 13 times the regions of DGE and DPO together on the
# shipped input (its five block sizes repeat all of DLS) and twice those of the large input's
# four paths on the large sizes; with one block size on the shipped sizes, about as many as DGE
# and DPO. DGELS itself is tela's on every one of those runs.
declare -A INPUT_PATHS=([default]="DGE DPO DQR DLQ" [large]="DGE DPO DQR DLQ" [ls]="DLS")
# The routines of tela's each path's program calls: they must bind to libtela.so.0, in the
# program and wherever else they are bound.
declare -A TELA_SYMBOLS=(
    [DGE]="dgetrf_ dgetrs_ dgesv_ dlaswp_"
    [DPO]="dpotrf_ dpotrs_ dposv_"
    [DQR]="dgeqrf_ dorgqr_ dormqr_"
    [DLQ]="dgelqf_ dorglq_ dormlq_"
    [DLS]="dgels_"
)
# tela's routines the reference LAPACK's drivers must be calling in a path (bound from
# liblapack.so.3 to libtela.so.0): DLS's drivers factor with tela's QR and LQ.
declare -A LIBRARY_TELA_SYMBOLS=([DLS]="dgeqrf_ dormqr_ dgelqf_ dormlq_")
# Routines each path calls that tela does not provide: they must be the reference LAPACK's (so
# the program tested against reference LAPACK, not another one found first). DQR and DLQ test
# the unblocked and the non-negative-diagonal variants beside tela's, DLS the other drivers.
declare -A REFERENCE_SYMBOLS=(
    [DGE]="dgetri_ dgecon_"
    [DPO]="dpotri_ dpocon_"
    [DQR]="dgeqr2_ dgeqr2p_ dgeqrfp_ dorg2r_ dorm2r_"
    [DLQ]="dgelq2_ dorgl2_ dorml2_"
    [DLS]="dgelsy_ dgelss_ dgelsd_ dgelst_ dgetsls_"
)
# The lines each path prints when it passes: error exits, then test ratios, for its computational
# routines and for its drivers. DQR and DLQ have routines only; DLS drivers only, whose error
# exits it says are its routines'.
declare -A PASS_LINES=(
    [DGE]="routines:exits routines:ratios drivers:exits drivers:ratios"
    [DPO]="routines:exits routines:ratios drivers:exits drivers:ratios"
    [DQR]="routines:exits routines:ratios"
    [DLQ]="routines:exits routines:ratios"
    [DLS]="routines:exits drivers:ratios"
)
# Every routine tela provides, checked wherever bound.
ALL_TELA_SYMBOLS=(dgetrf_ dgetrs_ dgesv_ dlaswp_ dpotrf_ dpotrs_ dposv_ dgeqrf_ dorgqr_ dormqr_
    dgelqf_ dorglq_ dormlq_ dgels_)
# The large input: sizes around the kernels' recursion thresholds (LU panels of 8, Cholesky
# blocks of 16, splits at multiples of 8; QR in one recursive panel up to 64 columns, blocks of
# 64 beyond) up to the compiled limit, 132.
LARGE_SIZES=(0 1 9 17 33 65 100 132)
LARGE_NRHS=(1 15)
# The ls input's block size and crossover, one of the shipped pairs (tela's routines ignore
# both; the reference's drivers run blocked with them).
LS_NB=3 LS_NX=0

if (($# != 4)); then
    echo "usage: $0 default|large|ls WIDTH LIBTELA WORKDIR" >&2
    exit 2
fi
input="$1" width="$2" libtela="$3" workdir="$4"
PEER_LABEL="lapack/$input/w$width"
case "$input" in default | large | ls) ;; *)
    echo "$0: unknown input '$input' (default, large or ls)" >&2
    exit 2
    ;;
esac
peer_check_width "$width"
read -r -a PATHS <<<"${INPUT_PATHS[$input]}"

lapack_dir="${TELA_PEER_LAPACK_DIR:-$(peer_multiarch_dir)/lapack}"
blas_dir="${TELA_PEER_BLAS_DIR:-$(peer_multiarch_dir)/blas}"
program="$lapack_dir/xlintstd" shipped_input="$lapack_dir/dtest.in"
peer_require "liblapack-test, libtmglib3, liblapack3 and libblas3" "$program" "$shipped_input" \
    "$lapack_dir/liblapack.so.3" "$blas_dir/libblas.so.3"
peer_begin "$libtela" "$workdir" "$width"
libtela="$PEER_LIBTELA"

# ---- the input file ------------------------------------------------------------------------------
# dtest.in: 16 lines of parameters (the sizes, NRHS, block sizes, ranks, the threshold, and T for
# routines, drivers and error exits), then one line per path. Kept: the parameters (for large,
# with the sizes replaced and one block size; for ls, one block size) and the lines of PATHS.
# Each parameter line is found by the description after its values.
parameters="$(head -n 16 "$shipped_input")"
grep -q "error exits" <<<"$parameters" ||
    peer_fail "$shipped_input: the 16th line is not the error-exit switch"
if [[ "$input" == large ]]; then
    count=${#LARGE_SIZES[@]} sizes="${LARGE_SIZES[*]}"
    parameters="$(awk -v count="$count" -v sizes="$sizes" -v nrhs_count=${#LARGE_NRHS[@]} \
        -v nrhs="${LARGE_NRHS[*]}" '
        /Number of values of [MN]( |$)/ { sub(/^[0-9]+ */, sprintf("%-23s", count)) }
        /Values of [MN] /             { sub(/^[0-9 ]+/, sprintf("%-22s ", sizes)) }
        /Number of values of NRHS/    { sub(/^[0-9]+ */, sprintf("%-23s", nrhs_count)) }
        /Values of NRHS/              { sub(/^[0-9 ]+/, sprintf("%-22s ", nrhs)) }
        /Number of values of NB/      { sub(/^[0-9]+ */, sprintf("%-23s", 1)) }
        /Values of N[BX] /            { sub(/^[0-9 ]+/, sprintf("%-22s ", 1)) }
        { print }' <<<"$parameters")"
    grep -q "^$sizes  *Values of N " <<<"$parameters" ||
        peer_fail "could not set the sizes in a copy of $shipped_input"
elif [[ "$input" == ls ]]; then
    parameters="$(awk -v nb="$LS_NB" -v nx="$LS_NX" '
        /Number of values of NB/ { sub(/^[0-9]+ */, sprintf("%-23s", 1)) }
        /Values of NB /          { sub(/^[0-9 ]+/, sprintf("%-22s ", nb)) }
        /Values of NX /          { sub(/^[0-9 ]+/, sprintf("%-22s ", nx)) }
        { print }' <<<"$parameters")"
    grep -q "^$LS_NX  *Values of NX " <<<"$parameters" ||
        peer_fail "could not set the block size in a copy of $shipped_input"
fi
{
    printf '%s\n' "$parameters"
    for path in "${PATHS[@]}"; do
        grep -E "^$path " "$shipped_input" || peer_fail "$shipped_input has no $path line"
    done
} >input.txt

# ---- the run -------------------------------------------------------------------------------------
peer_run "$program" input.txt "$lapack_dir:$blas_dir"
output=stdout.txt

# ---- the verdict ---------------------------------------------------------------------------------
# Anything that reads as a failure, anywhere: a test ratio over the threshold ("failed to pass"),
# an error exit not taken ("Illegal value ... not detected"), a wrong INFO ("*** Error code"),
# xerbla called wrongly ("*** XERBLA was called ..."), a rejected input ("Invalid").
bad_lines="$(grep -hE '[Ff]ail|Illegal|\*\*\*|[Ee]rror code|not detected|Invalid' "$output" \
    stderr.txt | sort -u || true)"
if [[ -n "$bad_lines" ]]; then
    PEER_PROBLEMS+=("$(wc -l <<<"$bad_lines") distinct failure lines, the first 20:"$'\n'"$(
        head -n 20 <<<"$bad_lines")")
fi
grep -q "End of tests" "$output" || PEER_PROBLEMS+=("no \"End of tests\": the run stopped early")

# Every line about a path must be a passing one, and each path has those PASS_LINES names.
passed_lines=()
paths_regex="$(
    IFS='|'
    echo "${PATHS[*]}"
)"
good_regex="^ *(($paths_regex) (routines|drivers) passed the tests of the error exits|All tests for ($paths_regex) (routines|drivers) +passed the threshold)"
other_lines="$(grep -E "($paths_regex)" "$output" | grep -vE "$good_regex" || true)"
if [[ -n "$other_lines" ]]; then
    PEER_PROBLEMS+=("lines about ${PATHS[*]} that do not say they passed:"$'\n'"$other_lines")
fi
for path in "${PATHS[@]}"; do
    for expected in ${PASS_LINES[$path]}; do
        what="${expected%%:*}"
        if [[ "${expected#*:}" == exits ]]; then
            pattern="$path $what passed the tests of the error exits"
        else
            pattern="All tests for $path $what +passed the threshold"
        fi
        line="$(grep -E "^ *$pattern" "$output" || true)"
        if [[ -z "$line" ]]; then
            PEER_PROBLEMS+=("$path: no line \"$pattern\"")
        else
            passed_lines+=("$line")
        fi
    done
done

# Which library each routine came from, from the loader's log: tela's wherever bound (peer_bound
# adds any other binding to PEER_PROBLEMS), by the program for its paths' routines, by the
# reference LAPACK where its drivers must call tela's; the reference's own for the rest.
for symbol in "${ALL_TELA_SYMBOLS[@]}"; do
    peer_bound "$symbol" "$libtela" || true
done
from_tela=()
for path in "${PATHS[@]}"; do
    for symbol in ${TELA_SYMBOLS[$path]}; do
        bound=0
        peer_bound "$symbol" "$libtela" "$program" || bound=$?
        if ((bound == 1)); then
            PEER_PROBLEMS+=("$symbol: the program never bound it")
        elif ((bound == 0)); then
            from_tela+=("$symbol")
        fi
    done
    for symbol in ${LIBRARY_TELA_SYMBOLS[$path]:-}; do
        bound=0
        peer_bound "$symbol" "$libtela" "$lapack_dir/liblapack.so.3" || bound=$?
        if ((bound == 1)); then
            PEER_PROBLEMS+=("$symbol: the reference LAPACK never bound it")
        elif ((bound == 0)); then
            from_tela+=("$symbol (from liblapack)")
        fi
    done
    for symbol in ${REFERENCE_SYMBOLS[$path]}; do
        bound=0
        peer_bound "$symbol" "$lapack_dir/liblapack.so.3" "$program" || bound=$?
        ((bound != 1)) || PEER_PROBLEMS+=("$symbol: the program never bound it")
    done
done
peer_check_hooks "$program" xerbla_

# Above width 1, the large input must have run regions at the full width.
regions="$(peer_regions '[a-z0-9_-]+')"
if ((width > 1)) && [[ "$input" == large ]] && ! peer_ran_at_width '[a-z0-9_-]+'; then
    PEER_PROBLEMS+=("no region ran at width $width (regions: ${regions:-none})")
fi

peer_say "$(basename "$program") in ${PEER_SECONDS}s; bound to $(basename "$libtela"):" \
    "${from_tela[*]}"
peer_say "regions by width: ${regions:-none}"
for line in "${passed_lines[@]}"; do
    peer_say "  ${line# }"
done
peer_finish
