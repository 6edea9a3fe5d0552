#!/usr/bin/env bash
# The address a `runserver ADDRPORT` serves on, as a URL for the links in emails (SPEED_SITE_URL):
# "8080" -> http://127.0.0.1:8080, "127.0.0.1:8000" -> http://127.0.0.1:8000; a server on every
# interface ("0.0.0.0:8000", "[::]:8000") is reached by this machine's name.
set -euo pipefail
addrport="${1:-127.0.0.1:8000}"
case "$addrport" in
  *:*) host="${addrport%:*}"; port="${addrport##*:}" ;;
  *) host="127.0.0.1"; port="$addrport" ;;
esac
case "$host" in
  "" | 0.0.0.0 | "[::]" | 0) host="$(hostname -f 2>/dev/null || hostname)" ;;
esac
echo "http://${host}:${port}"
