#!/usr/bin/env bash
# Installs the Debian packages gestured builds and tests with, if any is missing.
# Idempotent and quiet when everything is there. Needs root (or sudo) only to install.
set -euo pipefail
# systemd: systemd-analyze and systemd-socket-activate for the service tests; python3 (Debian's,
# runnable by other users) for the Python client example and the permission tests; the web
# bridge's browser test drives Debian's headless Chromium through python3-selenium (Debian's
# python3 imports it), with a font so the page and its screenshot have readable text; zlib1g-dev:
# the bridge gzips the client module it serves; esbuild and node-typescript: scripts/build-web.sh
# minifies the page library and type-checks its sample page (the tests check the committed build).
packages=(libevdev-dev libmtdev-dev zlib1g-dev pkg-config systemd python3 chromium chromium-driver python3-selenium fonts-dejavu-core
          esbuild node-typescript)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        echo "setup: add /opt/swift/usr/bin to PATH" >&2
    else
        echo "setup: a Swift 6.1+ toolchain is needed (swift.org/install)" >&2
    fi
    exit 1
fi
