#!/usr/bin/env bash
# The soak test (issue 12, tools/soak/soak.py): `gestured replay --socket --realtime` serves
# the project's lobby session, repeated until it lasts SECONDS (default 180), to one
# well-behaved subscriber while four threads of clients connect, misbehave and leave; the
# daemon's RSS must stay flat after the warm-up and the subscriber must get exactly the
# replay's events. `scripts/test.sh` runs it for GESTURED_SOAK_SECONDS (default 180); for the
# long run: scripts/soak.sh 3600.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
seconds=${1:-180}
swift build -c release --product gestured >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== soak test: ${seconds} s"
python3 tools/soak/soak.py "$PWD/.build/release/gestured" config/lobby.json5 \
    config/recordings/lobby-session.evemu "$seconds" "$work"
