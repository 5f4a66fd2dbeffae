#!/usr/bin/env bash
# The web bridge's figures in docs/web.md (issue 16):
#  1. the latency gestured-web adds per event over loopback: gestured replays 20 s of two
#     fingers at 100 Hz in real time to two direct clients of its socket and one WebSocket
#     through the bridge; bridge − direct per event (p50/p90/p99/max), and direct₂ − direct,
#     the method's own floor (Benchmarks/web/latency.py);
#  2. the bridge's resident memory with 1 and 50 subscribed pages;
#  3. the sizes of the daemon and the bridge as shipped (release, static Swift runtime,
#     stripped), to show that the daemon does not carry the bridge's dependencies.
# A benchmark, not a test: it prints figures and asserts nothing about speed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
root=$PWD
scripts/setup-deps.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== machine: $(nproc) cores, $(uname -r), $(swift --version 2>&1 | head -1)"
swift build -c release --product gestured >/dev/null
swift build -c release --product gestured-web >/dev/null

echo "== 1-2. latency added per event, and memory"
python3 Benchmarks/web/latency.py --gestured "$root/.build/release/gestured" \
    --bridge "$root/.build/release/gestured-web" --workdir "$work" --seconds 20 --sessions 50

echo "== 3. binaries as shipped (release, --static-swift-stdlib, stripped)"
for product in gestured gestured-web; do
    swift build -c release --static-swift-stdlib -Xlinker -s --product "$product" --scratch-path .build-static >/dev/null
    printf '%-13s %9d bytes; links NIO: ' "$product" "$(stat -c %s ".build-static/release/$product")"
    if nm -D ".build-static/release/$product" 2>/dev/null | grep -q NIO || strings ".build-static/release/$product" | grep -q 'NIOPosix'; then
        echo yes
    else
        echo no
    fi
done
