#!/usr/bin/env bash
# Runs the bot: Discord or LINE when their tokens are configured, else the console chat.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup-env.sh
exec .venv/bin/python -m bot "$@"
