#!/usr/bin/env bash
# Make sure a headless-capable Chromium is at /usr/bin/chromium (Debian package).
# CI runs as root; elsewhere this needs sudo-less root or an existing install.
#
#   CHROMIUM_PATH   where the browser is expected (default: /usr/bin/chromium)
set -euo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [[ ! -x "$chromium" ]]; then
  if [[ "$(id -u)" != 0 ]]; then
    echo "chromium: $chromium is missing and installing it needs root (apt-get install chromium)" >&2
    exit 1
  fi
  echo "chromium: installing the Debian chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
fi

"$chromium" --headless --no-sandbox --disable-gpu --version 2>/dev/null || "$chromium" --version
echo "$chromium"
