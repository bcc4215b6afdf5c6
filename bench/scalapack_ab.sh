#!/usr/bin/env bash
# scalapack_ab.sh — ScaLAPACK's pdgesv, pdposv, pdgeqrf and pdgemm with libtela preloaded as the
# node library against the same runs on the system's slot (OpenBLAS on Debian with libopenblas0),
# rounds interleaved A/B with the order swapped each round; prints per routine the median over
# the rounds of the driver's time (the slowest rank's median of its repeats) and OpenBLAS/tela.
# The driver (tests/scalapack/driver.c) checks every result's residual, so both sides are right.
#
# usage: bench/scalapack_ab.sh BUILD_DIR [ROUNDS] [SIZES] [LAYOUTS]
#   BUILD_DIR  a Release build with tests (libtela.so.0, tests/scalapack/tela_scalapack_driver)
#   ROUNDS     default 3; SIZES default "2000 3000 4000"
#   LAYOUTS    RANKSxTHREADS words, default "2x1 1x2": ranks bound to cores by mpirun's default
#              when THREADS is 1 (what a cluster job gets), --bind-to none otherwise (mpirun
#              would put a rank's threads on one core)
# environment: OPENBLAS_BENCH_CORETYPE names OpenBLAS's kernel set for its side only (say
#   SkylakeX on AVX-512; the driver prints the core it got); NB (default 64), REPEAT (default 3).
set -euo pipefail
build="$(cd "$1" && pwd)"
rounds="${2:-3}"
sizes="${3:-2000 3000 4000}"
layouts="${4:-2x1 1x2}"
nb="${NB:-64}" repeat="${REPEAT:-3}"
driver="$build/tests/scalapack/tela_scalapack_driver"
libtela="$build/libtela.so.0"
[[ -x "$driver" && -e "$libtela" ]] || {
    echo "scalapack_ab: need $driver and $libtela (configure with -DTELA_BUILD_TESTS=ON)" >&2
    exit 2
}
mpirun="$(command -v mpirun.openmpi || command -v mpirun)"
root=()
(($(id -u) != 0)) || root=(--allow-run-as-root)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# run SIDE RANKS THREADS N: one mpirun; appends "side layout n routine seconds" lines to $out/times.
run() {
    local side="$1" ranks="$2" threads="$3" n="$4" grid="1x$2"
    local -a options=(-np "$ranks" "${root[@]}" --mca btl self,vader
        -x "OPENBLAS_NUM_THREADS=$threads" -x "TELA_NUM_THREADS=$threads")
    ((threads == 1)) || options+=(--bind-to none)
    if [[ "$side" == tela ]]; then
        options+=(-x "LD_PRELOAD=$libtela")
    elif [[ -n "${OPENBLAS_BENCH_CORETYPE:-}" ]]; then
        options+=(-x "OPENBLAS_CORETYPE=$OPENBLAS_BENCH_CORETYPE")
    fi
    env -u LD_PRELOAD "$mpirun" "${options[@]}" "$driver" --n "$n" --nb "$nb" --grid "$grid" \
        --repeat "$repeat" --time >"$out/run.txt" 2>&1 || {
        cat "$out/run.txt" >&2
        echo "scalapack_ab: the $side run failed" >&2
        exit 1
    }
    grep -q '^driver: all checks passed$' "$out/run.txt" || {
        cat "$out/run.txt" >&2
        exit 1
    }
    grep -m1 -E 'dgemm_ from' "$out/run.txt" | sed "s/^/# $side ${ranks}x$threads: /" >>"$out/who"
    sed -nE "s/^time routine=([a-z]+) .* seconds=([0-9.]+)$/$side ${ranks}x$threads $n \1 \2/p" \
        "$out/run.txt" >>"$out/times"
}

for layout in $layouts; do
    ranks="${layout%x*}" threads="${layout#*x}"
    for n in $sizes; do
        for ((round = 0; round < rounds; round++)); do
            if ((round % 2 == 0)); then
                run tela "$ranks" "$threads" "$n"
                run openblas "$ranks" "$threads" "$n"
            else
                run openblas "$ranks" "$threads" "$n"
                run tela "$ranks" "$threads" "$n"
            fi
        done
    done
done
sort -u "$out/who"
echo "# ratio = OpenBLAS median / tela median (above 1: tela faster); nb $nb, $rounds rounds"
printf '%-7s %5s %-6s %10s %11s %6s\n' layout n routine "tela s" "OpenBLAS s" ratio
awk '
function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ key = $2 " " $3 " " $4; samples[$1, key] = samples[$1, key] " " $5; if (!(key in seen)) { seen[key] = 1; order[++count] = key } }
END {
    for (i = 1; i <= count; i++) {
        split(order[i], k, " ")
        t = median(samples["tela", order[i]]); o = median(samples["openblas", order[i]])
        printf "%-7s %5s %-6s %10.4f %11.4f %6.2f\n", k[1], k[2], k[3], t, o, o / t
    }
}' "$out/times"
