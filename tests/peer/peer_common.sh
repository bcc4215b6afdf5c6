# shellcheck shell=bash
# peer_common.sh — what the netlib peer-suite runners share (sourced by run_blas.sh and
# run_lapack.sh, not run): argument and file checks, the run itself with libtela.so.0 preloaded
# in front of the reference libraries (TELA_NUM_THREADS, forced near-free dispatch above width 1,
# the loader's LD_DEBUG=bindings log, tela's region trace), and the verdicts every suite needs
# from those: which library each routine was bound to, whose error hook won, at which widths the
# regions ran. A runner sets PEER_LABEL (its "suite/input/wN"), calls peer_begin, writes its
# input file, calls peer_run, adds its own findings to PEER_PROBLEMS and ends with peer_finish.
# Environment: TELA_PEER_REQUIRED=1 turns a missing program into a failure instead of a skip
# (exit 77); TELA_PEER_PRELOAD_FIRST, if set, is preloaded before libtela (the sanitizer runtime
# a sanitizer build of libtela needs).

PEER_LABEL="${PEER_LABEL:-peer}"
PEER_PROBLEMS=()

peer_say() {
    printf 'peer %s: %s\n' "$PEER_LABEL" "$*"
}

peer_fail() {
    peer_say "FAIL: $*"
    exit 1
}

# The multiarch library folder (/usr/lib/x86_64-linux-gnu).
peer_multiarch_dir() {
    local multiarch
    multiarch="$(gcc -print-multiarch 2>/dev/null || true)"
    printf '/usr/lib/%s' "${multiarch:-x86_64-linux-gnu}"
}

peer_check_width() {
    [[ "$1" =~ ^[1-9][0-9]*$ ]] || {
        echo "$0: width must be a positive integer, not '$1'" >&2
        exit 2
    }
}

# peer_require HINT FILE...: skips (exit 77) or, with TELA_PEER_REQUIRED=1, fails when a file is
# missing; HINT says what to install.
peer_require() {
    local hint="$1" needed
    shift
    for needed in "$@"; do
        if [[ ! -e "$needed" ]]; then
            if [[ "${TELA_PEER_REQUIRED:-0}" == 1 ]]; then
                peer_fail "$needed is missing (install $hint)"
            fi
            peer_say "skipped: $needed is missing (install $hint)"
            exit 77
        fi
    done
}

# peer_begin LIBTELA WORKDIR WIDTH: sets PEER_LIBTELA and PEER_WORKDIR (emptied, made, and the
# current directory from here on), both absolute, and PEER_WIDTH.
peer_begin() {
    [[ -r "$1" ]] || peer_fail "no library at $1"
    PEER_LIBTELA="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
    PEER_WORKDIR="$2"
    PEER_WIDTH="$3"
    rm -rf "$PEER_WORKDIR"
    mkdir -p "$PEER_WORKDIR"
    cd "$PEER_WORKDIR" || exit 1
    # Absolute: the loader's log and the trace are written from inside it.
    PEER_WORKDIR="$(pwd)"
}

# peer_run PROGRAM INPUT LIBRARY_PATH: runs PROGRAM < INPUT (stdout.txt, stderr.txt) with
# libtela preloaded, LD_LIBRARY_PATH=LIBRARY_PATH (the reference libraries), TELA_NUM_THREADS =
# the width, the loader's bindings in bindings.* and tela's trace in trace. Above width 1: one
# near-free dispatch cost at every width and route, so the gate runs even the suites' small
# problems in regions of the full width. Fails if the program exits non-zero; prints its stderr;
# sets PEER_SECONDS.
peer_run() {
    local program="$1" input="$2" library_path="$3" preload="$PEER_LIBTELA"
    if [[ -n "${TELA_PEER_PRELOAD_FIRST:-}" ]]; then
        [[ -r "$TELA_PEER_PRELOAD_FIRST" ]] || peer_fail "no library at $TELA_PEER_PRELOAD_FIRST"
        preload="$TELA_PEER_PRELOAD_FIRST $PEER_LIBTELA"
    fi
    # TELA_LOAD_AWARE=0: the width checks below are about the gate on the forced costs, not about
    # what other processes (ctest -j2 runs two tests at once) leave of the machine.
    local -a run_env=(env -u OMP_NUM_THREADS -u TELA_COSTS "TELA_LOAD_AWARE=0" "LD_PRELOAD=$preload"
        "LD_LIBRARY_PATH=$library_path" "TELA_NUM_THREADS=$PEER_WIDTH" "LD_DEBUG=bindings"
        "LD_DEBUG_OUTPUT=$PEER_WORKDIR/bindings" "TELA_TRACE=$PEER_WORKDIR/trace")
    if ((PEER_WIDTH > 1)); then
        {
            echo "tela-costs 1"
            echo "cpu_model peer suite: dispatch made free so small problems run in parallel"
            echo "cpus $PEER_WIDTH"
            local route w
            for route in team pool outside; do
                for w in 2 4 8 16 32 64; do
                    echo "point $route $w 1.0 1.0"
                done
            done
            echo "end"
        } >forced.costs
        run_env+=("TELA_COSTS=$PEER_WORKDIR/forced.costs")
    fi
    local start_ns elapsed_ms status=0
    start_ns=$(date +%s%N)
    "${run_env[@]}" "$program" <"$input" >stdout.txt 2>stderr.txt || status=$?
    elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))
    # shellcheck disable=SC2034  # read by the runners
    PEER_SECONDS="$((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000)))"
    ((status == 0)) ||
        peer_fail "$(basename "$program") exited with status $status (see $PEER_WORKDIR)"
    if [[ -s stderr.txt ]]; then
        peer_say "stderr:"
        sed 's/^/    /' stderr.txt
    fi
    PEER_BINDINGS="$(cat "$PEER_WORKDIR"/bindings.* 2>/dev/null || true)"
    [[ -n "$PEER_BINDINGS" ]] || PEER_PROBLEMS+=("no LD_DEBUG=bindings output")
}

# peer_bound SYMBOL WANT [FROM]: checks the loader bound SYMBOL to the library WANT, in every
# binding of it made by FROM (a file; default any file). Returns 0 if so, 1 if SYMBOL was never
# bound (the caller decides whether that is a problem), 2 if it was bound elsewhere too (added to
# PEER_PROBLEMS with the distinct binding lines, at most 10).
peer_bound() {
    local symbol="$1" want="$2" from="${3:-}" lines
    lines="$(grep -F "symbol \`$symbol'" <<<"$PEER_BINDINGS" || true)"
    if [[ -n "$from" ]]; then
        lines="$(grep -F "binding file $from " <<<"$lines" || true)"
    fi
    [[ -n "$lines" ]] || return 1
    if grep -vqF " to $want " <<<"$lines"; then
        # Without the pid prefix, each distinct line once.
        # shellcheck disable=SC2001  # a per-line anchored pattern
        lines="$(sed 's/^ *[0-9]*:[[:space:]]*//' <<<"$lines" | sort -u | head -n 10)"
        PEER_PROBLEMS+=("$symbol bound elsewhere than $want:"$'\n'"$lines")
        return 2
    fi
    return 0
}

# peer_check_hooks PROGRAM HOOK...: libtela's calls of the error hooks (xerbla_, cblas_xerbla)
# must bind to the program's own, not to tela's weak fallbacks.
peer_check_hooks() {
    local program="$1" hook hook_lines
    shift
    for hook in "$@"; do
        hook_lines="$(grep -F "binding file $PEER_LIBTELA " <<<"$PEER_BINDINGS" |
            grep -F "symbol \`$hook'" || true)"
        if [[ -n "$hook_lines" ]] && grep -vqF " to $program " <<<"$hook_lines"; then
            PEER_PROBLEMS+=("libtela's calls of $hook bound elsewhere than the program:"$'\n'"$hook_lines")
        fi
    done
}

# peer_regions KERNEL_REGEX: "N x width=W, ..." for the traced regions whose kernel matches
# (nothing when none does: a trace of other kernels' regions only, as dsyr2k's copy at width 1).
peer_regions() {
    if [[ ! -s trace ]]; then
        echo "no trace"
        return
    fi
    local widths
    widths="$(grep -oE "kernel=($1) .*width=[0-9]+" trace | grep -oE 'width=[0-9]+' || true)"
    [[ -n "$widths" ]] || return 0
    sort -t= -k2n <<<"$widths" | uniq -c | awk '{printf "%s%s x %s", sep, $1, $2; sep=", "}'
}

# peer_ran_at_width KERNEL_REGEX: whether a region of such a kernel ran at the full width.
peer_ran_at_width() {
    grep -qE "kernel=($1) .*width=$PEER_WIDTH\b" trace 2>/dev/null
}

# peer_finish: prints the problems found and exits 1, or says PASSED.
peer_finish() {
    if ((${#PEER_PROBLEMS[@]})); then
        local p
        for p in "${PEER_PROBLEMS[@]}"; do
            peer_say "FAIL: $p"
        done
        peer_say "output kept in $PEER_WORKDIR"
        exit 1
    fi
    peer_say "PASSED"
}
