#!/usr/bin/env bash
# Set up and serve Speed with demo data on the embedded default: SQLite, logs
# verified in-process. Open http://127.0.0.1:8000/ (organiser login: admin / speed-organiser; players: <handle> / speed-player).
set -euo pipefail
cd "$(dirname "$0")/.."
ADDRPORT="${ADDRPORT:-127.0.0.1:8000}"
# The links in emails (password resets, claims, …) point where this server answers.
SPEED_SITE_URL="${SPEED_SITE_URL:-$(bash scripts/site_url.sh "$ADDRPORT")}"
export SPEED_SITE_URL
echo "Emails link to $SPEED_SITE_URL (set SPEED_SITE_URL to change it)."
bash scripts/bootstrap.sh
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py seed_demo
exec .venv/bin/python manage.py runserver "$ADDRPORT"
