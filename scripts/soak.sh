#!/usr/bin/env bash
# The soak test (issue 12, tools/soak/soak.py): `gestured replay --socket --realtime` serves
# the project's lobby session, repeated until it lasts SECONDS (default 180), to two
# well-behaved subscribers while four threads of clients connect, misbehave and leave, on the
# socket and through gestured-web; the daemon's and the bridge's RSS must stay flat after the
# warm-up, one subscriber must get exactly the replay's events and the other (a process of its
# own) every event on time. `scripts/test.sh` runs it for GESTURED_SOAK_SECONDS (default 180); for the
# long run: scripts/soak.sh 3600.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
seconds=${1:-180}
swift build -c release --product gestured >/dev/null
swift build -c release --product gestured-web >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== soak test: ${seconds} s"
python3 tools/soak/soak.py "$PWD/.build/release/gestured" "$PWD/.build/release/gestured-web" config/lobby.json5 \
    config/recordings/lobby-session.evemu "$seconds" "$work"
