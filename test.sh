#!/usr/bin/env bash
# Runs every test (installs what is missing first). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
MAKRUK_EXTRAS=test,bench source scripts/setup-env.sh
exec .venv/bin/python -m pytest "$@"
