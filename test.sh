#!/usr/bin/env bash
# Runs every test (installs what is missing first). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
MAKRUK_EXTRAS=test,bench source scripts/setup-env.sh
# One worker per CPU (pytest-xdist), each with its own PostgreSQL server and browser; work
# stealing, since a few tests take a minute. `./test.sh -n 0 ...` runs in one process.
exec .venv/bin/python -m pytest -n "$(nproc)" --dist worksteal "$@"
