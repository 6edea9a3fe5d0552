#!/usr/bin/env bash
# Debian's Chromium for the browser tests; Playwright drives it (no browser download).
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi
