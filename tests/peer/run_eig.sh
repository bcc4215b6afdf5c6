#!/usr/bin/env bash
# run_eig.sh — runs reference LAPACK's eigenvalue test program (Debian's liblapack-test:
# xeigtstd) on its symmetric paths with libtela.so.0 preloaded in front of the reference LAPACK
# and BLAS, and judges it by its output alone (the program exits 0 whatever it finds), against a
# run of the same input on the reference alone. SEP tests dsytrd, dorgtr, dsteqr, dsterf,
# dstedc, dstein (tela's), dsptrd, dpteqr, dstebz, dstemr (the reference's) one by one, then the
# drivers dsyev, dsyevd, dsyevr (tela's), dsyevx, dspev*, dsbev*, dstev* (the reference's, which
# call tela's dsytrd, dormtr, dsterf, dsteqr, dstedc, dstein inside); SE2 the same with the two-stage
# reduction and drivers (the reference's, on tela's tridiagonal solvers); DSG the generalized
# drivers, dsygvd tela's, dsygv, dsygvx, dspgv*, dsbgv* the reference's (dsygst and dpotrf inside
# them tela's).
#
# Usage: run_eig.sh INPUT WIDTH LIBTELA WORKDIR
#   INPUT    sep, se2, dsg: the shipped sep.in, se2.in, dsg.in (sizes up to 20 and 16); large:
#            tests/peer/sep_large.in, SEP on sizes 26 to 100 (past dstedc's leaf size 25, the
#            test program's, and past the blocked reduction's crossover), one block size;
#            dsglarge: dsg.in's parameters on sizes 26 and 40, its last block size (20): the
#            blocked dsygst under dsygvd and the reference's dsygv and dsygvx
#   WIDTH    TELA_NUM_THREADS for the run; above 1 the gate is handed a table of near-free
#            dispatch (TELA_COSTS) so even these small problems run in parallel regions; the
#            shipped inputs keep their last block size alone, the large input three of its
#            sizes, dsglarge its size 40, and both ten of their matrix types
#   LIBTELA  the libtela.so.0 to preload
#   WORKDIR  a directory of its own for this run (input, outputs, loader log, trace)
# Environment: TELA_PEER_LAPACK_DIR (default /usr/lib/<multiarch>/lapack) holds xeigtstd, the
# shipped inputs and the reference liblapack.so.3, TELA_PEER_BLAS_DIR (default .../blas) the
# reference libblas.so.3; without them the run is skipped (exit 77) unless TELA_PEER_REQUIRED=1,
# when it fails. The run and the checks every suite shares are in peer_common.sh.
#
# The verdict, line by line against the reference. The reference fails a few tests of its own on
# the larger sizes (dstemr's orthogonality on geometrically spaced eigenvalues, DSTEMR(V,A)
# returning INFO=22, dsyevr 'A' (dstemr inside) and dsyevx 'V' near the threshold; past N = 66
# the driver program's band generator can reject its own leading dimension, which ends DDRVST's
# loop for that block size: "Generator returned INFO=-14"). So the same input first runs
# on the reference alone (cached next to WORKDIR, in peer_eig_reference/, keyed by the checksums
# of the program, the libraries and the input: the widths share it). From both outputs every
# failure is taken as a record keyed by its section (the "SEP:  NB = ..." header) and the line
# without its measured ratio: DCHKST's "N=..., seed=..., type t, test(j)", the drivers' "Matrix
# order=..., type=..., seed=..., result j", an INFO line with the N, JTYPE, ISEED line after it,
# and any line with fail, Illegal, ***, Invalid or not detected. The seeds each test starts from
# follow from the generators alone, so the same test carries the same key in both runs. A record
# of tela's run is excused when the reference's run has the same key, and listed; any other fails
# the run, printed verbatim with the routine its test number names. The summaries (error exits
# done, tests run, per section and routines/drivers) must count the same numbers of tests as the
# reference's, so no test was skipped, and "End of tests" must be printed.
set -euo pipefail
# shellcheck source=tests/peer/peer_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/peer_common.sh"

# ---- the routines ----------------------------------------------------------------------------
# tela's, which must bind to libtela.so.0 wherever bound; the program binds its whole import
# table at start (so every input binds every one), and calls all but dsygst_ itself.
ALL_TELA_SYMBOLS=(dsytrd_ dorgtr_ dormtr_ dstedc_ dsterf_ dsteqr_ dstein_ dsyevd_ dsyevr_ dsyev_
    dsygvd_ dsygst_ dpotrf_)
PROGRAM_TELA_SYMBOLS=(dsytrd_ dorgtr_ dormtr_ dstedc_ dsterf_ dsteqr_ dstein_ dsyevd_ dsyevr_
    dsyev_ dsygvd_)
# tela's the reference LAPACK's own routines call: dsyevx, dspevx, dstevx, dstev, dstevd, dsygv,
# dsygvx and the two-stage drivers reach them there, so they must bind to libtela.so.0 from
# liblapack.so.3.
LIBRARY_TELA_SYMBOLS=(dsytrd_ dorgtr_ dormtr_ dstedc_ dsterf_ dsteqr_ dstein_ dsyev_ dsygst_
    dpotrf_)
# Routines the paths call that tela does not provide: the reference's, from the program and
# from the reference LAPACK itself (dsytd2_: reference dsytrd's unblocked kernel, bound by the
# library only).
REFERENCE_SYMBOLS=(dstebz_ dstemr_ dsptrd_ dopgtr_ dpteqr_ dsyevx_ dspev_ dspevd_ dsbev_
    dsbevd_ dstev_ dstevd_ dstevr_ dsytrd_2stage_ dsyev_2stage_ dsyevd_2stage_ dsyevr_2stage_
    dsygv_ dsygvx_ dsygv_2stage_ dspgvd_ dsbgvd_)
LIBRARY_REFERENCE_SYMBOLS=(dsytd2_ dsytrd_sy2sb_ dsytrd_sb2st_)
# The dsglarge input: dsg.in's parameters on these sizes, its last block size alone.
DSG_LARGE_SIZES=(26 40)
# The matrix types the large inputs keep above width 1, where each of its level-2 calls (the
# test's residuals, the reference's unblocked code) is a region: the zero and identity
# matrices, diagonal with geometric values (everything deflates), dense with evenly spaced and
# clustered values, random, random near overflow and underflow (the drivers' scaling), band
# (the drivers') or positive definite (the routines'), and graded diagonally dominant
# tridiagonal. Type 9 (dense, geometric values) is left out at every width, as the shipped
# sep.in and se2.in leave it: the reference's dstemr (DCHKST's tests 27-37, dsyevr inside
# dstevr and the reference's dsyevr) fails it at random, by the rounding of the BLAS under it.
LARGE_WIDE_TYPES=(1 2 4 8 10 13 14 15 16 21)
# And its sizes there: one merge over leaves of 25, leaves at two depths (51 = 25 + 26, halved
# again), and two levels past the blocked reduction's crossover (64).
LARGE_WIDE_SIZES=(26 51 100)
DSG_LARGE_WIDE_SIZES=(40)

if (($# != 4)); then
    echo "usage: $0 sep|se2|dsg|large|dsglarge WIDTH LIBTELA WORKDIR" >&2
    exit 2
fi
input="$1" width="$2" libtela="$3" workdir="$4"
PEER_LABEL="eig/$input/w$width"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
case "$input" in sep | se2 | dsg | large | dsglarge) ;; *)
    echo "$0: unknown input '$input' (sep, se2, dsg, large or dsglarge)" >&2
    exit 2
    ;;
esac
peer_check_width "$width"

lapack_dir="${TELA_PEER_LAPACK_DIR:-$(peer_multiarch_dir)/lapack}"
blas_dir="${TELA_PEER_BLAS_DIR:-$(peer_multiarch_dir)/blas}"
program="$lapack_dir/xeigtstd"
case "$input" in
sep | se2 | dsg) source_input="$lapack_dir/$input.in" ;;
large) source_input="$here/sep_large.in" ;;
dsglarge) source_input="$lapack_dir/dsg.in" ;;
esac
peer_require "liblapack-test, libtmglib3, liblapack3 and libblas3" "$program" "$source_input" \
    "$lapack_dir/liblapack.so.3" "$blas_dir/libblas.so.3"
workdir_parent="$(mkdir -p "$(dirname "$workdir")" && cd "$(dirname "$workdir")" && pwd)"
peer_begin "$libtela" "$workdir" "$width"
libtela="$PEER_LIBTELA"

# ---- the input file ------------------------------------------------------------------------------
# The shipped input as it is at width 1. Above it, the last block size alone: the block sizes
# change only the reference's blocked code, which the width does not touch, and each repeats
# every test with its tens of thousands of level-2 calls, each a region under the forced costs.
# dsglarge: dsg.in with its sizes replaced and its last block size alone; above width 1 the
# large inputs take their wide sizes and types (above). Each parameter line is found by the
# description after its values.
sizes="" one_block=0
if [[ "$input" == dsglarge ]]; then
    sizes="${DSG_LARGE_SIZES[*]}" one_block=1
fi
if ((width > 1)); then
    one_block=1
    case "$input" in
    large) sizes="${LARGE_WIDE_SIZES[*]}" ;;
    dsglarge) sizes="${DSG_LARGE_WIDE_SIZES[*]}" ;;
    esac
fi
awk -v sizes="$sizes" -v one_block=$one_block '
    sizes != "" && /Number of values of N( |$)/ {
        sub(/^[0-9]+ */, sprintf("%-34s", split(sizes, list, " "))) }
    sizes != "" && /Values of N / { sub(/^[0-9 ]+/, sprintf("%-34s", sizes)) }
    one_block && /Number of values of NB/ { sub(/^[0-9]+ */, sprintf("%-34s", 1)) }
    one_block && /Values of (NB|NBMIN|NX) / {
        for (i = 1; $(i + 1) ~ /^[0-9]+$/; i++) {}
        value = $i; sub(/^[0-9]+ [0-9 ]*/, sprintf("%-34s", value)) }
    { print }' "$source_input" >input.txt
if [[ -n "$sizes" ]] && ! grep -q "^$sizes  *Values of N " input.txt; then
    peer_fail "could not set the sizes in a copy of $source_input"
fi
if ((one_block)) && ! grep -q "^1  *Number of values of NB" input.txt; then
    peer_fail "could not keep one block size in a copy of $source_input"
fi
if [[ "$input" == *large ]] && ((width > 1)); then
    # The path line names how many types, the line after it (if fewer than 21) which: both
    # replaced.
    path_line="$(grep -nE '^(SEP|SE2|DSG) +[0-9]+ *$' input.txt | cut -d: -f1)"
    [[ "$path_line" =~ ^[0-9]+$ ]] || peer_fail "no path line in $source_input"
    path="$(sed -n "${path_line}p" input.txt | cut -c1-3)"
    head -n $((path_line - 1)) input.txt >input.tmp
    printf '%s %s\n%s\n' "$path" ${#LARGE_WIDE_TYPES[@]} "${LARGE_WIDE_TYPES[*]}" >>input.tmp
    mv input.tmp input.txt
fi

# ---- the reference's run, once per input ---------------------------------------------------------
reference_dir="$workdir_parent/peer_eig_reference"
key="$(cat "$program" "$lapack_dir/liblapack.so.3" "$blas_dir/libblas.so.3" input.txt | cksum |
    tr -d ' ')"
reference="$reference_dir/$input-$key.txt"
if [[ ! -s "$reference" ]]; then
    mkdir -p "$reference_dir"
    env -u LD_PRELOAD -u TELA_COSTS "LD_LIBRARY_PATH=$lapack_dir:$blas_dir" "$program" \
        <input.txt >reference.txt 2>reference-stderr.txt ||
        peer_fail "the reference's own run failed (see $PEER_WORKDIR/reference-stderr.txt)"
    grep -q "End of tests" reference.txt ||
        peer_fail "the reference's own run stopped early (see $PEER_WORKDIR/reference.txt)"
    # Other widths may be writing the same file: each renames a whole copy of its own.
    cp reference.txt "$reference.$$" && mv -f "$reference.$$" "$reference"
fi
cp "$reference" reference.txt

# ---- the run -------------------------------------------------------------------------------------
peer_run "$program" input.txt "$lapack_dir:$blas_dir"

# ---- the verdict ---------------------------------------------------------------------------------
# records OUTPUT: the failure records, "section|key<TAB>line" (see the header).
records() {
    awk '
        function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
        function emit(key, line) { printf "%s|%s\t%s\n", section, trim(key), trim(line) }
        BEGIN { section = "" }
        /^ [A-Z0-9][A-Z0-9][A-Z0-9]: +NB =/ { section = trim($0); next }
        pending != "" { emit(pending " " trim($0), pending " " trim($0)); pending = ""; next }
        /returned INFO=/ { pending = trim($0); next }
        / out of +[0-9]+ tests failed to pass/ { next }
        /test\( *[0-9]+\)=/ { key = $0; sub(/\)=.*/, ")", key); emit(key, $0); next }
        / result +[0-9]+ is / { key = $0; sub(/ is .*/, "", key); emit(key, $0); next }
        /[Ff]ail|[Ii]llegal|\*\*\*|Invalid|Unrecognized|not detected/ { emit($0, $0) }' "$1"
}
# summaries OUTPUT: "section|what|tests" for every count the program reports (error exits,
# routines, drivers), passed or not.
summaries() {
    awk '
        function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
        BEGIN { section = "" }
        /^ [A-Z0-9][A-Z0-9][A-Z0-9]: +NB =/ { section = trim($0); next }
        / routines passed the tests of the error exits/ {
            n = $0; gsub(/.*\(|[^0-9]/, "", n); print section "|" $1 " error exits|" n }
        /All tests for .* passed the threshold/ {
            what = $0; sub(/.*All tests for /, "", what); sub(/ +passed.*/, "", what)
            n = $0; sub(/.*\( */, "", n); sub(/ .*/, "", n); print section "|" what "|" n }
        / out of +[0-9]+ tests failed to pass/ {
            what = $0; sub(/:.*/, "", what); n = $0; sub(/.* out of +/, "", n); sub(/ .*/, "", n)
            print section "|" trim(what) "|" n }' "$1"
}
# The routine a failing line's test number names, where known: DCHKST (SEP) and DCHKST2STG
# (SE2) number their tests alike but for 3-4, DDRVST 25-78 with UPLO L and 79-132 with U (the
# first 24 the dstev family), DDRVSG2STG per ITYPE and UPLO (16 tests for ITYPE 1, 11 after).
annotate() {
    awk -F'\t' '
        function routine(path, style, t,    u, k, it, name) {
            if (style == "test") {
                if (t <= 2) return "DSYTRD+DORGTR(U)"
                if (t <= 4) return path == "SE2" ? "DSYTRD_2STAGE" : "DSYTRD+DORGTR(L)"
                if (t <= 8) return "DSPTRD+DOPGTR"
                if (t <= 11) return "DSTEQR"
                if (t == 12) return "DSTERF"
                if (t == 13) return "DSTECH (Sturm count of DSTEQR values)"
                if (t <= 16) return "DPTEQR"
                if (t <= 19) return "DSTEBZ"
                if (t <= 21) return "DSTEIN"
                if (t <= 23) return "DSTEDC(I)"
                if (t <= 25) return "DSTEDC(V)"
                if (t == 26) return "DSTEDC(N)"
                return "DSTEMR"
            }
            if (path == "DSG") {
                if (t <= 32) { u = t <= 16 ? "U" : "L"; k = (t - 1) % 16 + 1; it = 1 }
                else { k = t - 33; it = 2 + int(k / 22); u = (k % 22) < 11 ? "U" : "L"
                       k = k % 11 + 1 }
                split("DSYGV DSYGV_2STAGE DSYGVD DSYGVX(A) DSYGVX(V) DSYGVX(I) DSPGV DSPGVD " \
                      "DSPGVX(A) DSPGVX(V) DSPGVX(I) DSBGV DSBGVD DSBGVX(A) DSBGVX(V) DSBGVX(I)",
                      names, " ")
                return names[k] " itype " it " " u
            }
            if (t <= 3) return "DSTEV"
            if (t <= 6) return "DSTEVX"
            if (t <= 9) return "DSTEVR"
            if (t <= 15) return "DSTEVX"
            if (t <= 18) return "DSTEVD"
            if (t <= 24) return "DSTEVR"
            u = t <= 78 ? "L" : "U"; k = (t - 25) % 54
            split("DSYEV DSYEVX(A) DSYEVX(I) DSYEVX(V) DSPEV DSPEVX(A) DSPEVX(I) DSPEVX(V) DSBEV " \
                  "DSBEVX(A) DSBEVX(I) DSBEVX(V) DSYEVD DSPEVD DSBEVD DSYEVR(A) DSYEVR(I) " \
                  "DSYEVR(V)", names, " ")
            name = names[int(k / 3) + 1]
            # SE2 runs the third test of each group, values only, by the two-stage driver.
            if (path == "SE2" && k % 3 == 2 && name !~ /^DSP/) sub(/(\(|$)/, "_2STAGE&", name)
            return name " " u
        }
        {
            path = substr($1, 1, 3); line = $2; name = ""
            if (match(line, /test\( *[0-9]+\)/)) {
                t = substr(line, RSTART + 5, RLENGTH - 6) + 0; name = routine(path, "test", t)
            } else if (match(line, /result +[0-9]+ is/)) {
                t = substr(line, RSTART + 7, RLENGTH - 10) + 0; name = routine(path, "result", t)
            }
            print "    " line (name == "" ? "" : "   [" name "]")
        }'
}

# join needs both sides sorted on the key in its own collation: bytes, for both.
records reference.txt | LC_ALL=C sort -t$'\t' -k1,1 -u >reference.records
records stdout.txt | LC_ALL=C sort -t$'\t' -k1,1 -u >tela.records
LC_ALL=C join -t$'\t' -v1 tela.records <(cut -f1 reference.records) >new.records
LC_ALL=C join -t$'\t' tela.records <(cut -f1 reference.records) >excused.records
if [[ -s new.records ]]; then
    # The first 40 verbatim (all of them in WORKDIR/new.txt), then how many each routine has.
    annotate <new.records >new.txt
    PEER_PROBLEMS+=("$(wc -l <new.txt) failing lines the reference's run does not have:"$'\n'"$(
        head -n 40 new.txt)"$'\n'"  by routine:$(grep -oE '\[[^]]*\]$' new.txt | tr -d '[]' |
        sort | uniq -c | awk '{count = $1; $1 = ""; printf "%s%s %d", sep, $0, count; sep = ","}')")
fi
grep -q "End of tests" stdout.txt || PEER_PROBLEMS+=("no \"End of tests\": the run stopped early")
stderr_lines="$(grep -E '[Ff]ail|[Ii]llegal|\*\*\*|[Ee]rror|Invalid|not detected' stderr.txt ||
    true)"
[[ -z "$stderr_lines" ]] || PEER_PROBLEMS+=("on stderr:"$'\n'"$stderr_lines")
summaries reference.txt >reference.summaries
summaries stdout.txt >tela.summaries
if ! cmp -s reference.summaries tela.summaries; then
    counts="$(diff reference.summaries tela.summaries | grep '^[<>]' || true)"
    PEER_PROBLEMS+=("the counts of tests run differ from the reference's (<) here (>):"$'\n'"$counts")
fi

# Which library each routine came from, from the loader's log (peer_bound adds any other binding
# to PEER_PROBLEMS; a symbol bound elsewhere is reported once, by the first check).
from_tela=()
declare -A misbound=()
for symbol in "${ALL_TELA_SYMBOLS[@]}"; do
    peer_bound "$symbol" "$libtela" || (($? == 1)) || misbound[$symbol]=1
done
for symbol in "${PROGRAM_TELA_SYMBOLS[@]}"; do
    [[ -z "${misbound[$symbol]:-}" ]] || continue
    if peer_bound "$symbol" "$libtela" "$program"; then
        from_tela+=("$symbol")
    else
        PEER_PROBLEMS+=("$symbol: the program never bound it")
    fi
done
for symbol in "${LIBRARY_TELA_SYMBOLS[@]}"; do
    [[ -z "${misbound[$symbol]:-}" ]] || continue
    if peer_bound "$symbol" "$libtela" "$lapack_dir/liblapack.so.3"; then
        from_tela+=("$symbol (from liblapack)")
    else
        PEER_PROBLEMS+=("$symbol: the reference LAPACK never bound it")
    fi
done
for symbol in "${REFERENCE_SYMBOLS[@]}"; do
    bound=0
    peer_bound "$symbol" "$lapack_dir/liblapack.so.3" "$program" || bound=$?
    ((bound != 1)) || PEER_PROBLEMS+=("$symbol: the program never bound it")
done
for symbol in "${LIBRARY_REFERENCE_SYMBOLS[@]}"; do
    bound=0
    peer_bound "$symbol" "$lapack_dir/liblapack.so.3" || bound=$?
    ((bound != 1)) || PEER_PROBLEMS+=("$symbol: nothing bound it")
done
peer_check_hooks "$program" xerbla_

# Above width 1, the larger inputs must have run regions at the full width.
regions="$(peer_regions '[a-z0-9_-]+')"
if ((width > 1)) && [[ "$input" == *large ]] && ! peer_ran_at_width '[a-z0-9_-]+'; then
    PEER_PROBLEMS+=("no region ran at width $width (regions: ${regions:-none})")
fi

peer_say "$(basename "$program") in ${PEER_SECONDS}s; bound to $(basename "$libtela"):" \
    "${from_tela[*]}"
peer_say "regions by width: ${regions:-none}"
while IFS='|' read -r section what count; do
    peer_say "  ${section:+$section: }$what, $count tests"
done <tela.summaries
if [[ -s excused.records ]]; then
    peer_say "$(wc -l <excused.records) failing lines the reference's own run has too" \
        "(not counted):"
    annotate <excused.records
fi
fixed="$(LC_ALL=C join -t$'\t' -v1 reference.records <(cut -f1 tela.records) | wc -l)"
((fixed == 0)) || peer_say "$fixed failing lines of the reference's run pass with tela"
peer_finish
