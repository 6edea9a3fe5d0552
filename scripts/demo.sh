#!/usr/bin/env bash
# Set up and serve Speed with demo data on the embedded default: SQLite, logs
# verified in-process. Open http://127.0.0.1:8000/ (organiser login: admin / speed-organiser; players: <handle> / speed-player).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py seed_demo
exec .venv/bin/python manage.py runserver "${ADDRPORT:-127.0.0.1:8000}"
