#!/bin/sh
# Builds the client module the bridge embeds and serves: web/dist/gestured.min.js and its source
# map, from web/gestured.js, with Debian's esbuild (minified ES module). The output is committed,
# so building the Swift package needs no esbuild; run this after changing web/gestured.js.
set -eu
cd "$(dirname "$0")/.."
command -v esbuild >/dev/null || { echo "build-web.sh: esbuild is missing: apt-get install esbuild" >&2; exit 1; }
esbuild web/gestured.js --minify --sourcemap --format=esm --log-level=warning \
    --outfile=web/dist/gestured.min.js
