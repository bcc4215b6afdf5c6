#!/usr/bin/env bash
# run_scalapack.sh — runs the ScaLAPACK driver (driver.c: pdgesv_, pdposv_, pdgeqrf_, pdgemm_,
# each checked by its residuals) under Open MPI's mpirun with libtela.so.0 preloaded in every
# rank as the node BLAS and LAPACK, in front of the system's libblas.so.3 and liblapack.so.3 that
# Debian's libscalapack-openmpi links (OpenBLAS or the reference, by update-alternatives), and
# checks from the loader's log that ScaLAPACK's calls of the routines tela provides reached tela.
#
# Usage: run_scalapack.sh LIBTELA WORKDIR NP WIDTH DRIVER [DRIVER_ARGUMENTS...]
#   LIBTELA  the libtela.so.0 to preload
#   WORKDIR  a directory of its own for this run (outputs, loader logs, trace)
#   NP       MPI ranks (more than the CPUs is allowed: --oversubscribe)
#   WIDTH    TELA_NUM_THREADS in each rank; above 1 the gate is handed near-free dispatch costs
#            (tests/fixtures/free-dispatch.costs), so ScaLAPACK's panel-sized calls run in
#            regions of that width too
#   DRIVER   the built driver; the arguments after it are its own (--n, --nb, --grid, ...)
# Environment: without mpirun, the driver (not built when CMake found no ScaLAPACK) or the
# ScaLAPACK library the driver loads, the run is skipped (exit 77) unless TELA_PEER_REQUIRED=1
# (scripts/test.sh sets it), when it fails. The checks shared with the netlib peer suites
# (peer_require, peer_bound, the trace's widths) come from tests/peer/peer_common.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=tests/peer/peer_common.sh
source "$here/../peer/peer_common.sh"

# tela's routines ScaLAPACK's four drivers must be seen calling (PBLAS and ScaLAPACK's own panel
# code: LU's pivot search and swaps, the reflectors' updates, the trailing updates). The node
# LAPACK factorizations (dgetrf_, dpotrf_, dgeqrf_) are not among them: ScaLAPACK factors its
# panels with its own unblocked code over level-1 and level-2 BLAS.
REQUIRED_FROM_SCALAPACK=(dgemm_ dtrsm_ dtrmm_ dgemv_ dger_ dscal_ idamax_ dswap_ dcopy_ ddot_
    daxpy_)

if (($# < 5)); then
    echo "usage: $0 LIBTELA WORKDIR NP WIDTH DRIVER [DRIVER_ARGUMENTS...]" >&2
    exit 2
fi
libtela="$1" workdir="$2" np="$3" width="$4" driver="$5"
shift 5
PEER_LABEL="scalapack/np$np/w$width"
peer_check_width "$np"
peer_check_width "$width"

mpirun="$(command -v mpirun.openmpi || command -v mpirun || echo /usr/bin/mpirun)"
peer_require "openmpi-bin" "$mpirun"
peer_require "libscalapack-openmpi-dev and openmpi-bin, then configure again" "$driver"
# The ScaLAPACK library as the loader finds it for the driver.
scalapack_lib="$(ldd "$driver" 2>/dev/null | awk '/libscalapack/ && $3 ~ /^\// {print $3; exit}')"
peer_require "libscalapack-openmpi-dev" "${scalapack_lib:-libscalapack-openmpi.so.2.2}"
driver="$(cd "$(dirname "$driver")" && pwd)/$(basename "$driver")"
peer_begin "$libtela" "$workdir" "$width"
libtela="$PEER_LIBTELA"

# ---- the run -------------------------------------------------------------------------------------
# mpirun's options: --oversubscribe lets NP exceed the CPUs; --bind-to none, because the widths
# are set here and Open MPI binds each rank to one core when NP <= 2, which would put a rank's
# WIDTH threads on one CPU (tela's workers inherit the caller's mask); shared memory between the
# ranks of this one machine (self,vader: no network needed) without its cross-process copy
# (CMA's process_vm_readv, which containers' seccomp profiles often forbid). Root needs
# --allow-run-as-root. The environment reaches the ranks by -x (OpenBLAS kept to one thread for
# the routines tela lacks), not mpirun itself: it is not preloaded, nor logged.
mpi_options=(-np "$np" --oversubscribe --bind-to none --mca btl "self,vader"
    --mca btl_vader_single_copy_mechanism none)
if (($(id -u) == 0)); then
    mpi_options+=(--allow-run-as-root)
fi
rank_env=("LD_PRELOAD=$libtela" "TELA_NUM_THREADS=$width" "TELA_LOAD_AWARE=0"
    "OPENBLAS_NUM_THREADS=1" "LD_DEBUG=bindings" "LD_DEBUG_OUTPUT=$PEER_WORKDIR/bindings"
    "TELA_TRACE=$PEER_WORKDIR/trace")
if ((width > 1)); then
    rank_env+=("TELA_COSTS=$here/../fixtures/free-dispatch.costs")
fi
# More threads than CPUs (NP 2 x WIDTH 2 on 2 CPUs): workers sleep as soon as they wait. Spinning,
# a rank's idle workers take the CPU from the other rank its next message comes from: 2 ranks x 2
# threads at order 400 on a 2x1 grid took 18 s spinning, 4 s not.
if ((np * width > $(nproc))); then
    rank_env+=("TELA_SPIN_POLLS=0")
fi
for setting in "${rank_env[@]}"; do
    mpi_options+=(-x "$setting")
done
printf '%q ' "$mpirun" "${mpi_options[@]}" "$driver" "$@" >command.txt
echo >>command.txt

status=0
start_ns=$(date +%s%N)
env -u OMP_NUM_THREADS -u TELA_COSTS -u TELA_TRACE -u LD_PRELOAD \
    "$mpirun" "${mpi_options[@]}" "$driver" "$@" >stdout.txt 2>stderr.txt || status=$?
elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))
sed 's/^/    /' stdout.txt
if [[ -s stderr.txt ]]; then
    peer_say "stderr:"
    sed 's/^/    /' stderr.txt
fi
((status == 0)) || peer_fail "mpirun exited with status $status (see $PEER_WORKDIR)"
grep -q '^driver: all checks passed$' stdout.txt || peer_fail "the driver did not pass its checks"

# Every rank ran with tela at the width asked for, and found dgemm_ in it.
ranks_on_tela="$(grep -cE "^  rank [0-9]+ .*, tela width $width, dgemm_ from $(basename "$libtela")( \(OpenBLAS core [^)]*\))?\$" \
    stdout.txt || true)"
((ranks_on_tela == np)) ||
    PEER_PROBLEMS+=("$ranks_on_tela of $np ranks report tela at width $width serving dgemm_")

# ---- the loader's log ----------------------------------------------------------------------------
# One log per rank (bindings.PID). The ScaLAPACK library is named in it as the loader opened it.
logs=(bindings.*)
[[ -e "${logs[0]}" ]] || peer_fail "no LD_DEBUG=bindings output"
((${#logs[@]} == np)) || PEER_PROBLEMS+=("${#logs[@]} loader logs for $np ranks")
scalapack_file="$(grep -ohE -m 1 "binding file [^ ]*libscalapack[^ ]* " bindings.* | head -n 1 |
    cut -d' ' -f3 || true)"
[[ -n "$scalapack_file" ]] || peer_fail "the loader's log names no libscalapack"

# tela's Fortran routines that ScaLAPACK imports: every binding of them, from any file (ScaLAPACK,
# the system LAPACK, the driver), must be to libtela, none to OpenBLAS or libblas.
mapfile -t tela_routines < <(nm -D --defined-only "$libtela" |
    awk '$2 ~ /^[TWi]$/ && $3 ~ /^[a-z][a-z0-9]*_$/ && $3 != "xerbla_" {print $3}' | sort -u)
mapfile -t imported < <(nm -D --undefined-only "$scalapack_lib" | awk '{print $NF}' | sort -u)
mapfile -t shared < <(comm -12 <(printf '%s\n' "${tela_routines[@]}") <(printf '%s\n' "${imported[@]}"))
((${#shared[@]})) || peer_fail "ScaLAPACK imports none of libtela's routines (nm failed?)"
# Of the logs (some 20 000 lines a rank), the lines of those routines and of the other
# double-precision ones: peer_bound reads PEER_BINDINGS once per routine.
names="$(IFS='|' && echo "${shared[*]}")"
PEER_BINDINGS="$(grep -hE "symbol \`(i?d[a-z0-9]*_|$names)'" bindings.* || true)"
declare -A elsewhere=()
for symbol in "${shared[@]}"; do
    peer_bound "$symbol" "$libtela" || (($? != 2)) || elsewhere[$symbol]=1
done
for symbol in "${REQUIRED_FROM_SCALAPACK[@]}"; do
    [[ -z "${elsewhere[$symbol]:-}" ]] || continue # said already
    bound=0
    peer_bound "$symbol" "$libtela" "$scalapack_file" || bound=$?
    ((bound != 1)) || PEER_PROBLEMS+=("$symbol: ScaLAPACK never bound it")
done

# What ScaLAPACK bound where, for the record: tela's, and the double-precision routines left to
# the system's libraries (tela lacks them).
bound_from_scalapack() { # TARGET_REGEX: the symbols ScaLAPACK bound to a matching library
    { grep -F "binding file $scalapack_file " <<<"$PEER_BINDINGS" || true; } |
        { grep -E " to [^ ]*($1)[^ ]* " || true; } | grep -oE "symbol \`[a-z0-9_]+'" |
        cut -c9- | tr -d "'" | sort -u | tr '\n' ' ' || true
}
to_tela="$(bound_from_scalapack "$(basename "$libtela")")"
to_system="$(bound_from_scalapack 'libblas|liblapack|libopenblas' | tr ' ' '\n' |
    grep -E '^i?d' | tr '\n' ' ' || true)"

# ---- tela's trace ----------------------------------------------------------------------------------
# The log shows bindings, some made at load time (the PBLAS keep the routines' addresses); the
# trace shows tela's kernels ran. Above width 1, regions at the full width.
regions="$(peer_regions '[a-z0-9_-]+')"
grep -q 'kernel=dgemm ' trace 2>/dev/null || PEER_PROBLEMS+=("tela traced no dgemm region")
if ((width > 1)) && ! peer_ran_at_width '[a-z0-9_-]+'; then
    PEER_PROBLEMS+=("no region ran at width $width (regions: ${regions:-none})")
fi

peer_say "mpirun in $((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000)))s:" \
    "$(cat command.txt)"
peer_say "ScaLAPACK ($scalapack_file) bound to $(basename "$libtela"): ${to_tela:-nothing}"
peer_say "ScaLAPACK bound to the system's libraries (not tela's): ${to_system:-nothing}"
peer_say "regions by width: ${regions:-none}"
peer_finish
