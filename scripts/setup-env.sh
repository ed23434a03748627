# Sourced by ../run.sh and ../test.sh: make the local virtualenv and the system packages ready.
# Idempotent; a second run only checks stamps and returns in about a second.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
EXTRAS="${MAKRUK_EXTRAS:-}"

# System packages: the reference engine and FriBiDi, which Pillow's raqm layout needs for Thai.
SYSTEM_PACKAGES=(fairy-stockfish libfribidi0)

install_system_packages() {
    local missing=()
    for pkg in "${SYSTEM_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
        missing+=(python3-venv)
    fi
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "setup: installing system packages: ${missing[*]}" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null || true
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "setup: please install these system packages: ${missing[*]}" >&2
    fi
}

install_python_packages() {
    local stamp="$VENV/.installed-$EXTRAS"
    if [ ! -x "$VENV/bin/python" ]; then
        python3 -m venv "$VENV"
    fi
    if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
        echo "setup: installing Python packages into .venv" >&2
        "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
        local target="$ROOT"
        [ -n "$EXTRAS" ] && target="$ROOT[$EXTRAS]"
        "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$target"
        touch "$stamp"
    fi
}

install_system_packages
install_python_packages
