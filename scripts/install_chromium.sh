#!/bin/sh
# Installs Debian's chromium, the headless browser scripts/explorer_screenshot.py
# renders the explorer's page with, unless /usr/bin/chromium is there already.
# Run as root (or through sudo): apt-get needs it.
set -eu
if [ -x /usr/bin/chromium ]; then
    echo "chromium is installed: $(/usr/bin/chromium --version 2>/dev/null || true)"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends chromium
/usr/bin/chromium --version
