#!/usr/bin/env bash
# Run the whole test suite against the real PostgreSQL, Redis, a real Celery
# worker and headless Chromium, starting and installing whatever is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh
bash scripts/bootstrap.sh
bash scripts/browser.sh
mkdir -p test-artifacts
exec .venv/bin/python -m pytest "$@"
