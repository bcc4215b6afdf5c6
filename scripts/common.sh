# shellcheck shell=bash
# common.sh — shared by scripts/demo.sh and scripts/test.sh (sourced, not run): finds the repo
# root and makes sure the Debian packages a script needs are installed, installing them when
# running as root (as CI does) and otherwise printing the command to run.

# The repository root, whatever the caller's working directory.
# shellcheck disable=SC2034  # used by the scripts that source this file
TELA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Prints "tela: ..." on stderr.
tela_say() {
    printf 'tela: %s\n' "$*" >&2
}

# tela_require_packages PACKAGE...: installs what is missing, or exits 1 with the command.
tela_require_packages() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        tela_say "not a Debian-based system (no dpkg-query); make sure these are installed:" \
            "$*"
        return 0
    fi
    local missing=() package status
    for package in "$@"; do
        status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
        if [[ "$status" != "install ok installed" ]]; then
            missing+=("$package")
        fi
    done
    if ((${#missing[@]} == 0)); then
        return 0
    fi
    if [[ "$(id -u)" -eq 0 ]]; then
        tela_say "installing missing packages: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update
        apt-get install -y --no-install-recommends "${missing[@]}"
    else
        tela_say "missing packages: ${missing[*]}"
        tela_say "install them with:"
        printf '  sudo apt-get update && sudo apt-get install -y --no-install-recommends %s\n' \
            "${missing[*]}" >&2
        exit 1
    fi
}

# Parallel build jobs: the CPUs this process may use.
tela_jobs() {
    nproc 2>/dev/null || echo 2
}
