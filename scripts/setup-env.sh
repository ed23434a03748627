# shellcheck shell=bash
# Sourced by ../run.sh and ../test.sh: make the system packages and the local virtualenv ready.
# Idempotent: when everything is in place it prints nothing and returns at once.
# What apt and pip print goes to .venv/setup.log; the terminal gets one line per step, and the
# end of the log only when a step fails (then the calling script stops with a non-zero status).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
SETUP_LOG="$VENV/setup.log"
EXTRAS="${MAKRUK_EXTRAS:-}"
PYTHON_STAMP="$VENV/.installed-$EXTRAS"

# System packages: the reference engine, FriBiDi (which Pillow's raqm layout needs for Thai and Khmer)
# and PostgreSQL (the server the tests start for the PostgreSQL backend; the bot needs only
# a server somewhere when DATABASE_URL names one).
# A package added here is installed on the next run (as root with apt-get) or asked for.
SYSTEM_PACKAGES=(fairy-stockfish libfribidi0 postgresql)
# Chromium, which tests/browser drives with Playwright: only the tests' set-up installs it.
[[ ",$EXTRAS," != *,test,* ]] || SYSTEM_PACKAGES+=(chromium)

setup_main() {
    if [ -z "$(missing_system_packages)" ] && python_packages_ready; then
        return 0
    fi
    local started=$SECONDS
    SETUP_INSTALLED=""
    mkdir -p "$VENV"
    touch "$SETUP_LOG"
    with_setup_lock install_system_packages
    with_setup_lock install_python_packages
    if [ -n "$SETUP_INSTALLED" ]; then
        say "done in $((SECONDS - started)) s (what apt and pip printed is in ${SETUP_LOG#"$ROOT"/})"
    fi
}

missing_system_packages() {
    local pkg missing=()
    if command -v dpkg-query >/dev/null; then
        for pkg in "${SYSTEM_PACKAGES[@]}"; do
            dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
        done
    fi
    # Only needed to create .venv, and only a separate package on Debian and Ubuntu.
    if [ ! -x "$VENV/bin/python" ] && ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
        missing+=(python3-venv)
    fi
    echo "${missing[*]}"
}

python_packages_ready() {
    [ -x "$VENV/bin/python" ] || return 1
    local stamp stamps=("$PYTHON_STAMP")
    # Any set of extras includes the bot's own packages: ./run.sh after ./test.sh installs nothing.
    [ -n "$EXTRAS" ] || stamps=("$VENV"/.installed-*)
    for stamp in "${stamps[@]}"; do
        [ -f "$stamp" ] && [ ! "$ROOT/pyproject.toml" -nt "$stamp" ] && return 0
    done
    return 1
}

install_system_packages() {
    local missing
    missing="$(missing_system_packages)"
    [ -n "$missing" ] || return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
        say "please install these system packages: $missing (sudo apt-get install $missing)"
        return 0
    fi
    say "installing system packages: $missing"
    # A failed update (one unreachable mirror) need not stop the install; its output is in the log.
    run_logged "apt-get update" env DEBIAN_FRONTEND=noninteractive apt-get update || true
    # shellcheck disable=SC2086  # one word per package
    must "installing system packages ($missing)" \
        env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        -o DPkg::Lock::Timeout=120 $missing
}

install_python_packages() {
    python_packages_ready && return 0
    if [ ! -x "$VENV/bin/pip" ]; then  # no .venv yet, or one whose creation was cut short
        say "installing Python packages into .venv (first run, about a minute)"
        check_python
        must "creating .venv" python3 -m venv "$VENV"
        # The pip that comes with an older Python cannot install this project in editable mode.
        run_logged "upgrading pip" "$VENV/bin/python" -m pip install --no-input --upgrade pip || true
    elif [ -f "$PYTHON_STAMP" ]; then
        say "pyproject.toml changed: updating the Python packages in .venv"
    else
        say "installing Python packages into .venv${EXTRAS:+ (with the $EXTRAS extras)}"
    fi
    local target="$ROOT"
    [ -z "$EXTRAS" ] || target="${ROOT}[$EXTRAS]"
    must "installing Python packages" \
        "$VENV/bin/python" -m pip install --no-input --disable-pip-version-check -e "$target"
    touch "$PYTHON_STAMP"
}

check_python() {
    if ! command -v python3 >/dev/null; then
        say "python3 not found: install Python 3.11 or newer (sudo apt-get install python3 python3-venv)"
        exit 1
    fi
    if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        say "Python 3.11 or newer is needed; python3 is $(python3 --version 2>&1)"
        exit 1
    fi
}

# Runs a step with its output going to the log; if it fails, shows why and stops.
must() {
    local what="$1"
    shift
    local first_line
    first_line=$(($(wc -l <"$SETUP_LOG") + 1))
    SETUP_INSTALLED=1
    run_logged "$what" "$@" && return 0
    local status=$?
    say "$what failed (exit status $status); the end of ${SETUP_LOG#"$ROOT"/}:"
    # The step's own output, without pip's lines about indexes that do not exist or what is there already.
    tail -n "+$first_line" "$SETUP_LOG" \
        | { grep -v -e "^WARNING: Location '.*' is ignored" -e "^Requirement already satisfied" || true; } \
        | tail -n 25 | sed 's/^/    /' >&2
    say "full log: $SETUP_LOG"
    exit "$status"
}

run_logged() {
    local what="$1"
    shift
    printf '\n### %s  %s: %s\n' "$(date '+%F %T')" "$what" "$*" >>"$SETUP_LOG"
    # fd 9 is the set-up lock: a service that apt starts must not keep holding it.
    "$@" </dev/null >>"$SETUP_LOG" 2>&1 9>&-
}

# Two first runs at once (./run.sh and ./test.sh) take turns instead of installing over each other.
with_setup_lock() {
    if ! command -v flock >/dev/null; then
        "$@"
        return
    fi
    exec 9>>"$VENV/.setup.lock"
    if ! flock -n 9; then
        say "waiting for another set-up of this folder to finish"
        flock 9
    fi
    "$@"
    exec 9>&-
}

say() {
    echo "setup: $*" >&2
}

setup_main
